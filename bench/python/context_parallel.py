"""Context-parallel attention on the CPU: attnc.torch.context_parallel_attention over gloo ranks
on this machine against one rank (plain attnc.torch.flex_attention on the whole sequence, every
core) and against torch's own context parallel (torch.distributed.tensor.experimental.
context_parallel around F.scaled_dot_product_attention), in one run. Prints a markdown report:
time per ring step and per forward (and one backward), bytes moved, launches skipped.

    PYTHONPATH=build/python python bench/python/context_parallel.py [--len 32768] [--heads 4] [--dim 64]
        [--ranks 2] [--repeats 3]

Causal, float32, B 1, the zigzag layout; each rank runs its kernels on one thread (ranks x 1 thread
= the cores of a 2-core machine); the one-rank baseline on every core. State the ISA beside the
figures (bench/results/distributed.md).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import torch
import torch.distributed as dist

import attnc.torch as at


def causal(b, h, q_idx, kv_idx):
    return q_idx >= kv_idx


def full_inputs(a):
    g = torch.Generator().manual_seed(0)
    return [torch.randn(1, a.heads, a.len, a.dim, generator=g) for _ in range(4)]  # q, k, v, dout


def rank_main(a):
    torch.set_num_threads(1)
    dist.init_process_group("gloo", init_method=a.init, rank=a.rank, world_size=a.ranks)
    rank, world = a.rank, a.ranks
    q, k, v, dout = (at.context_parallel_shard(t, rank, world) for t in full_inputs(a))
    mask = at.create_block_mask(causal, None, None, a.len, a.len)
    report = {}
    stats = at.ContextParallelStats()
    warm = [t.clone().requires_grad_() for t in (q, k, v)]  # compiles (or loads) the kernel and its backward
    at.context_parallel_attention(*warm, block_mask=mask, threads=1).backward(dout)
    dist.barrier()
    forwards = []
    for _ in range(a.repeats):
        dist.barrier()
        start = time.perf_counter()
        out = at.context_parallel_attention(q, k, v, block_mask=mask, threads=1, stats=stats)
        dist.barrier()
        forwards.append(time.perf_counter() - start)
    report.update(forward_s=forwards, ring_s=stats.forward_seconds, step_s=stats.step_seconds, launches=stats.launches, skipped=stats.skipped,
                  bytes_sent=stats.bytes_sent, bytes_received=stats.bytes_received, calls=a.repeats)
    back = at.ContextParallelStats()
    qg, kg, vg = (t.clone().requires_grad_() for t in (q, k, v))
    out = at.context_parallel_attention(qg, kg, vg, block_mask=mask, threads=1, stats=back)
    forward_bytes = back.bytes_sent
    dist.barrier()
    start = time.perf_counter()
    out.backward(dout)
    dist.barrier()
    report.update(backward_s=time.perf_counter() - start, backward_step_s=back.backward_step_seconds,
                  backward_launches=back.backward_launches, backward_skipped=back.backward_skipped,
                  backward_bytes_sent=back.bytes_sent - forward_bytes)
    report["torch_cp"] = torch_context_parallel(a, q, k, v)
    with open(os.path.join(a.out, f"rank{rank}.json"), "w") as f:
        json.dump(report, f)
    dist.destroy_process_group()


def torch_context_parallel(a, q, k, v):
    """torch's own context parallel on this group: its SDPA ring inside `context_parallel`, or the
    error it raises (its type and first line)."""
    try:
        import torch.nn.functional as F
        from torch.distributed.device_mesh import init_device_mesh
        from torch.distributed.tensor.experimental import context_parallel
        from torch.distributed.tensor.experimental._attention import set_rotate_method

        mesh = init_device_mesh("cpu", (a.ranks,))
        set_rotate_method("alltoall")
        full = [t.clone() for t in full_inputs(a)[:3]]
        with context_parallel(mesh, buffers=full, buffer_seq_dims=[2, 2, 2]):
            start = time.perf_counter()
            F.scaled_dot_product_attention(*full, is_causal=True)
            return {"seconds": time.perf_counter() - start}
    except Exception as e:  # what torch says on CPU tensors over gloo
        return {"error": f"{type(e).__name__}: {str(e).strip().splitlines()[0] if str(e).strip() else ''}"}


def one_rank(a):
    """attnc.torch.flex_attention on the whole sequence in this process, every core."""
    q, k, v, dout = full_inputs(a)
    mask = at.create_block_mask(causal, None, None, a.len, a.len)
    warm = [t.clone().requires_grad_() for t in (q, k, v)]  # compiles (or loads) the kernel and its backward
    at.flex_attention(*warm, block_mask=mask).backward(dout)
    times = []
    for _ in range(a.repeats):
        start = time.perf_counter()
        at.flex_attention(q, k, v, block_mask=mask)
        times.append(time.perf_counter() - start)
    qg, kg, vg = (t.clone().requires_grad_() for t in (q, k, v))
    out = at.flex_attention(qg, kg, vg, block_mask=mask)
    start = time.perf_counter()
    out.backward(dout)
    return {"forward_s": times, "backward_s": time.perf_counter() - start, "threads": torch.get_num_threads()}


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--len", type=int, default=32768)
    p.add_argument("--heads", type=int, default=4)
    p.add_argument("--dim", type=int, default=64)
    p.add_argument("--ranks", type=int, default=2)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--rank", type=int, default=None, help=argparse.SUPPRESS)
    p.add_argument("--init", default=None, help=argparse.SUPPRESS)
    p.add_argument("--out", default=None, help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.rank is not None:
        return rank_main(a)
    with tempfile.TemporaryDirectory() as tmp:
        init = f"file://{tmp}/rendezvous"
        args = [sys.executable, __file__, "--len", str(a.len), "--heads", str(a.heads), "--dim", str(a.dim),
                "--ranks", str(a.ranks), "--repeats", str(a.repeats), "--init", init, "--out", tmp]
        procs = [subprocess.Popen(args + ["--rank", str(r)], env=dict(os.environ, OMP_NUM_THREADS="1"))
                 for r in range(a.ranks)]
        if any(p.wait() != 0 for p in procs):
            sys.exit("a rank failed")
        ranks = []
        for r in range(a.ranks):
            with open(os.path.join(tmp, f"rank{r}.json")) as f:
                ranks.append(json.load(f))
    single = one_rank(a)
    med = statistics.median
    print(f"CPU: {cpu_name()}, {os.cpu_count()} cores; torch {torch.__version__}; gloo over loopback")
    print(f"Causal, float32, B 1, H {a.heads}, D {a.dim}, L {a.len}; {a.ranks} ranks (zigzag, 1 thread each) vs "
          f"1 rank ({single['threads']} threads); median of {a.repeats} forwards\n")
    one = med(single["forward_s"])
    ring = max(med(r["forward_s"]) for r in ranks)
    print("| run | forward (s) | backward (s) | forward vs 1 rank |")
    print("|---|---:|---:|---:|")
    print(f"| 1 rank, attnc.torch.flex_attention | {one:.3f} | {single['backward_s']:.3f} | 1.00x |")
    print(f"| {a.ranks} ranks, context_parallel_attention | {ring:.3f} | "
          f"{max(r['backward_s'] for r in ranks):.3f} | {one / ring:.2f}x |")
    tcp = ranks[0]["torch_cp"]
    if "error" in tcp:
        print(f"| {a.ranks} ranks, torch context_parallel + SDPA | not available: `{tcp['error']}` | | |")
    else:
        print(f"| {a.ranks} ranks, torch context_parallel + SDPA | {tcp['seconds']:.3f} | | "
              f"{one / tcp['seconds']:.2f}x |")
    print("\nPer rank, per call:\n")
    print("| rank | call (s) | ring (s) | ring steps: forward time each (s, median over calls) | launches | skipped | bytes sent | "
          "bytes received | backward steps (s) | backward launches | backward skipped | backward bytes sent |")
    print("|---|---:|---:|---|---:|---:|---:|---:|---|---:|---:|---:|")
    for r, rep in enumerate(ranks):
        n, calls = a.ranks, rep["calls"]
        steps = [med(rep["step_s"][s::n]) for s in range(n)]
        print(f"| {r} | {med(rep['forward_s']):.3f} | {med(rep['ring_s']):.3f} | {', '.join(f'{s:.3f}' for s in steps)} | {rep['launches'] // calls} | "
              f"{rep['skipped'] // calls} | {rep['bytes_sent'] // calls} | {rep['bytes_received'] // calls} | "
              f"{', '.join(f'{s:.3f}' for s in rep['backward_step_s'])} | {rep['backward_launches']} | "
              f"{rep['backward_skipped']} | {rep['backward_bytes_sent']} |")


if __name__ == "__main__":
    main()
