"""Cold and warm first-call times of attnc.torch.flex_attention variants, each in a fresh process:
the time from the call to its first output (forward) and to its gradients (forward + backward),
with an empty disk cache (cold) and again in a new process on the same cache (warm), side by side
in one run with the cold/warm ratio; and each with the backward compiled after the forward (as
before autograd's hint) and beside it (attnc.ops._COMPILE_BACKWARD_BESIDE, the default: the cpu
target compiles both side by side).

    PYTHONPATH=build/python python bench/python/first_call.py [--repeats 2]

A warm process skips both Halide's code generation (the generated source is in the cache:
docs/loader.md, "Generated CPU sources") and the C++ compile (the shared object is).
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile

CHILD = r"""
import sys, time, torch
import attnc.ops
import attnc.torch as at
variant = sys.argv[1]
attnc.ops._COMPILE_BACKWARD_BESIDE = sys.argv[2] == "beside"
torch.manual_seed(0)
q, k, v = (torch.randn(1, 4, 256, 64, requires_grad=True) for _ in range(3))
sinks = torch.zeros(4, requires_grad=True)
slopes = torch.exp2(-torch.arange(1, 5.0))
mods = {
    "causal": dict(block_mask=at.create_block_mask(lambda b, h, i, j: i >= j, None, None, 256, 256)),
    "softcap": dict(score_mod=lambda s, b, h, i, j: 30.0 * torch.tanh(s / 30.0)),
    "alibi+sink": dict(score_mod=lambda s, b, h, i, j: s + slopes[h] * (j - i), sinks=sinks),
}
t0 = time.perf_counter()
out = at.flex_attention(q, k, v, **mods[variant])
t1 = time.perf_counter()
out.sum().backward()
t2 = time.perf_counter()
print(f"{t1 - t0:.6f} {t2 - t0:.6f}")
"""


def run(variant, cache, mode):
    env = dict(os.environ, ATTNC_CACHE_DIR=cache)
    r = subprocess.run([sys.executable, "-c", CHILD, variant, mode], env=env, capture_output=True, text=True,
                       check=True)
    fwd, both = (float(x) for x in r.stdout.split())
    return fwd, both


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=2, help="cold/warm pairs per variant and mode (median)")
    args = ap.parse_args()
    print(f"{'variant':<12} {'backward compiled':<18} {'cold fwd s':>10} {'warm fwd ms':>11} {'cold f+b s':>10} "
          f"{'warm f+b ms':>11} {'cold/warm f+b':>13}")
    for variant in ("causal", "softcap", "alibi+sink"):
        for mode in ("after", "beside"):
            cold, warm = [], []
            for _ in range(args.repeats):
                with tempfile.TemporaryDirectory() as cache:
                    cold.append(run(variant, cache, mode))
                    warm.append(run(variant, cache, mode))
            cf, cb = (statistics.median(x[i] for x in cold) for i in (0, 1))
            wf, wb = (statistics.median(x[i] for x in warm) for i in (0, 1))
            what = "after the forward" if mode == "after" else "beside the forward"
            print(f"{variant:<12} {what:<18} {cf:>10.2f} {wf * 1e3:>11.1f} {cb:>10.2f} {wb * 1e3:>11.1f} "
                  f"{cb / wb:>12.0f}x")


if __name__ == "__main__":
    main()
