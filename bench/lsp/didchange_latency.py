#!/usr/bin/env python3
"""Time from a textDocument/didChange to its publishDiagnostics, through `attnc lsp` over stdio.

Generates a file of about LINES lines (masks, score modifiers, fns, kernels), opens it, then makes
EDITS incremental edits (alternately introducing and fixing a typo in the middle of the file) and
prints the median, 90th percentile and maximum latency.
Usage: bench/lsp/didchange_latency.py [--attnc build/cli/attnc] [--lines 1000] [--edits 50]
"""
import argparse, json, os, statistics, subprocess, sys, tempfile, time


def generate(lines):
    out = ["import std.masks;", ""]
    i = 0
    while True:
        kind = i % 4
        if kind == 0:
            item = [f"/// Window mask {i}.", f"mask m{i}(window: int) = q >= kv && q - kv < window + {i};"]
        elif kind == 1:
            item = [f"/// Soft cap {i}.", f"score s{i}(cap: float) = cap * tanh(score / cap) + {i}.0 * 0.001;"]
        elif kind == 2:
            item = [f"fn f{i}(x: int) -> int = let y = x // 2, z = x % 3; y + z + {i};"]
        else:
            item = [f"kernel k{i}(slopes: tensor<f32>[heads]) {{", f"  mask = m{i-3}(f{i-1}(64)) || causal;",
                    f"  score = s{i-2}(30.0) |> s{i-2}(50.0);", "  dtype = bf16;", "}"]
        if len(out) + len(item) > lines:
            break
        out += item
        i += 1
    return out + ["// end"] * (lines - len(out))


def cpu_seconds(pid):
    """User + system CPU time of a process (Linux /proc), in seconds."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Client:
    def __init__(self, attnc):
        self.p = subprocess.Popen([attnc, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.p.stdin.flush()

    def recv(self):
        length = None
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("attnc lsp closed its output")
            line = line.strip()
            if not line:
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.p.stdout.read(length))

    def wait_for(self, pred):
        while True:
            m = self.recv()
            if pred(m):
                return m


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--attnc", default="build/cli/attnc")
    ap.add_argument("--lines", type=int, default=1000)
    ap.add_argument("--edits", type=int, default=50)
    args = ap.parse_args()
    lines = generate(args.lines)
    path = os.path.join(tempfile.mkdtemp(), "bench.attn")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    uri = "file://" + path
    c = Client(args.attnc)
    c.send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})
    c.wait_for(lambda m: m.get("id") == 1)
    c.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    c.send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
            "params": {"textDocument": {"uri": uri, "languageId": "attn", "version": 1, "text": "\n".join(lines) + "\n"}}})
    c.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics")
    # The edit site: `causal` on a kernel line in the middle of the file.
    target = next(n for n in range(len(lines) // 2, len(lines)) if "|| causal;" in lines[n])
    col = lines[target].index("causal")
    times = []
    cpu_before = cpu_seconds(c.p.pid)
    for k in range(args.edits):
        version = k + 2
        text = "casual" if k % 2 == 0 else "causal"
        change = {"range": {"start": {"line": target, "character": col}, "end": {"line": target, "character": col + 6}},
                  "text": text}
        start = time.perf_counter()
        c.send({"jsonrpc": "2.0", "method": "textDocument/didChange",
                "params": {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]}})
        m = c.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"].get("version") == version)
        times.append((time.perf_counter() - start) * 1000)
        expected = 1 if k % 2 == 0 else 0
        if len(m["params"]["diagnostics"]) != expected:
            sys.exit(f"edit {k}: expected {expected} diagnostics, got {m['params']['diagnostics']}")
    cpu = (cpu_seconds(c.p.pid) - cpu_before) * 1000 / args.edits
    c.send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
    c.wait_for(lambda m: m.get("id") == 2)
    c.send({"jsonrpc": "2.0", "method": "exit"})
    c.p.wait(timeout=10)
    times.sort()
    p90 = times[min(len(times) - 1, int(len(times) * 0.9))]
    print(f"attnc lsp: didChange -> publishDiagnostics, {len(lines)} lines, {args.edits} edits: "
          f"median {statistics.median(times):.1f} ms, p90 {p90:.1f} ms, max {times[-1]:.1f} ms; "
          f"server CPU {cpu:.1f} ms per edit; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
