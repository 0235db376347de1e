#!/usr/bin/env bash
# The shared cache on Redis: a second host's first output, cold vs remote-warm. Starts its own
# redis-server on a free loopback port; each row is one `attnc run -t cpu` process (parse, load,
# run on [1, 2, 128, 64] f32) with a fresh local cache directory unless it says "local-warm".
#   cold:        empty local cache, empty Redis (Halide generation + C++ compile, then published)
#   remote-warm: empty local cache, the Redis the cold run filled (source and object fetched)
#   local-warm:  the remote-warm host's second process (its own disk)
# Prints a Markdown table; per kernel, the remote_hit events' fetch+verify+load times from the
# flight recorder. Usage: bench/loader/remote_start.sh [BUILD_DIR]   (default: build)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
attnc=$build/cli/attnc
python=${ATTNC_PYTHON:-python3}
[ -x "$attnc" ] || { echo "remote_start.sh: no attnc at $attnc" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/attnc-remote-bench-XXXXXX")
port=$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$work" --logfile "$work/redis.log" &
redis=$!
trap 'kill $redis 2>/dev/null; wait $redis 2>/dev/null; rm -rf "$work"' EXIT
until redis-cli -p "$port" ping >/dev/null 2>&1; do sleep 0.05; done

cd "$work"
cat > kernels.attn <<'ATTN'
import std.masks;
import std.scores;
kernel causal_softcap { mask = causal; score = softcap(30.0); head_dim = 64; }
kernel window_alibi { mask = sliding_window(64); score = alibi_slopes(2); head_dim = 64; }
kernel prefix_lm(prefix: int) { mask = kv < prefix || q >= kv; head_dim = 64; }
ATTN
"$python" -c "
import numpy as np
r = np.random.default_rng(0)
for n in 'qkv': np.save(n + '.npy', r.standard_normal((1, 2, 128, 64), dtype=np.float32))
"
(umask 077; head -c 32 /dev/urandom > fleet.key)
export ATTNC_REMOTE_CACHE=redis://127.0.0.1:$port/0 ATTNC_CACHE_KEY_FILE=$work/fleet.key
unset ATTNC_CACHE_MAX_MB

# one KERNEL DIR LABEL: one process; prints "wall_ms remote_hit_ms(sum) compiles"
one() {
  local args=(run kernels.attn "$1" --q q.npy --k k.npy --v v.npy -o "out-$2.npy" -t cpu)
  [ "$1" = prefix_lm ] && args+=(--arg prefix=16)
  local t0 t1
  t0=$(date +%s%N)
  ATTNC_CACHE_DIR=$work/$2 ATTNC_TRACE=$work/trace.json "$attnc" "${args[@]}" >/dev/null
  t1=$(date +%s%N)
  "$python" - "$work/trace.json" "$(( (t1 - t0) / 1000 ))" <<'PY'
import json, sys
events = json.load(open(sys.argv[1]))["events"]
hits = [e.get("duration_ms", 0) for e in events if e["kind"] == "remote_hit"]
compiles = sum(e["kind"] == "compile_start" for e in events)
print(f"{int(sys.argv[2]) / 1000:.1f} {sum(hits):.2f} {len(hits)} {compiles}")
PY
}

echo "Machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores; Redis $(redis-server --version | grep -o 'v=[0-9.]*' | cut -d= -f2) on loopback"
echo
echo "| kernel | cold (ms) | remote-warm (ms) | remote fetches | fetch+verify+load (ms) | local-warm (ms) | cold / remote-warm |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for k in causal_softcap window_alibi prefix_lm; do
  read -r cold _ _ cold_compiles < <(one "$k" "host1-$k")
  read -r remote hit_ms hits remote_compiles < <(one "$k" "host2-$k")
  read -r local _ _ _ < <(one "$k" "host2-$k")
  [ "$cold_compiles" -ge 1 ] && [ "$remote_compiles" = 0 ] || { echo "remote_start.sh: $k: expected a compile cold and none remote-warm" >&2; exit 1; }
  echo "| $k | $cold | $remote | $hits | $hit_ms | $local | $(awk "BEGIN{printf \"%.0fx\", $cold/$remote}") |"
done
cmp -s out-host1-prefix_lm.npy out-host2-prefix_lm.npy && echo && echo "outputs of host 1 and host 2: identical bytes"
echo
ATTNC_CACHE_DIR=$work/host2-prefix_lm "$attnc" cache stats
