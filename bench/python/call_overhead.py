"""Per-call time of one tiny kernel (causal, 1x1x16x16 f32, one thread) through every layer of the
Python package, against the same kernel called through its C ABI (c_abi_call, no Python):

    PYTHONPATH=build/python python bench/python/call_overhead.py [--c-abi build/bench/python/c_abi_call]

Each path runs `--iters` calls after a warm-up; prints the median (and best) per call in µs and the
overhead over the C ABI's median.
"""

import argparse
import json
import subprocess
import time

import numpy as np
import torch

import attnc
import attnc.ops  # registers torch.ops.attnc.attention

TEXT = "import std.masks;\nkernel causal_attention { mask = causal; }\n"  # c_abi_call's kernel


def timed(fn, iters):
    for _ in range(max(iters // 10, 10)):
        fn()
    times = []
    for _ in range(iters):
        t0 = time.perf_counter_ns()
        fn()
        times.append((time.perf_counter_ns() - t0) / 1e3)
    times.sort()
    return times[len(times) // 2], times[0]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--c-abi", default="build/bench/python/c_abi_call")
    parser.add_argument("--len", type=int, default=16)
    parser.add_argument("--dim", type=int, default=16)
    parser.add_argument("--iters", type=int, default=5000)
    a = parser.parse_args()
    torch.set_num_threads(1)

    kernel = attnc.loads(TEXT).causal_attention
    shape = (1, 1, a.len, a.dim)
    qn, kn, vn = (np.random.default_rng(i).standard_normal(shape, dtype=np.float32) for i in range(3))
    outn = np.empty(shape, np.float32)
    qt, kt, vt = (torch.from_numpy(x) for x in (qn, kn, vn))
    qg = qt.clone().requires_grad_()  # the paths that record autograd
    op = torch.ops.attnc.attention
    kernel(qn, kn, vn, threads=1)  # the first call compiles (or loads from the disk cache)

    paths = [
        ("_core.run (numpy, preallocated out)",
         lambda: kernel._core.run(qn, kn, vn, outn, None, {}, {}, "cpu", 1)),
        ("lib.kernel(numpy)", lambda: kernel(qn, kn, vn, threads=1)),
        ("lib.kernel(torch)", lambda: kernel(qt, kt, vt, threads=1)),
        ("torch.ops.attnc.attention", lambda: op(kernel.id, qt, kt, vt, [], "", [], "", "cpu", 1)),
        ("lib.kernel(torch), q requires grad (forward only)", lambda: kernel(qg, kt, vt, threads=1)),
        ("torch.ops.attnc.attention, q requires grad (forward only)",
         lambda: op(kernel.id, qg, kt, vt, [], "", [], "", "cpu", 1)),
    ]
    c_abi = json.loads(subprocess.run([a.c_abi, "--len", str(a.len), "--dim", str(a.dim), "--iters",
                                       str(a.iters * 4)], check=True, capture_output=True, text=True).stdout)
    base = c_abi["median_us"]
    print(f"causal, {shape[0]}x{shape[1]}x{a.len}x{a.dim} f32, cpu target, 1 thread, {a.iters} calls each")
    print(f"| path | median (µs) | best (µs) | over the C ABI (µs) |")
    print(f"|---|---:|---:|---:|")
    print(f"| C ABI (c_abi_call) | {base:.2f} | {c_abi['best_us']:.2f} | 0 |")
    for name, fn in paths:
        med, best = timed(fn, a.iters)
        print(f"| {name} | {med:.2f} | {best:.2f} | {med - base:.2f} |")


if __name__ == "__main__":
    main()
