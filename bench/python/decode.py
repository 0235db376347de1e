"""Decoding on the CPU: attnc against PyTorch's SDPA, and against the machine's memory bandwidth,
in one run.

A decoding step reads every key and value once for a handful of query rows, so its speed is the
speed at which K and V stream from memory. Each row: one query per sequence, Hq query heads over
Hkv key/value heads (GQA), L keys, D 128; attnc's plain kernel (no mask) and SDPA with
enable_gqa. Prints each one's median time, the K/V bytes read per second, attnc's ratio to SDPA
and its share of the read bandwidth a STREAM-like pass over a buffer far larger than the caches
reaches in the same run (a copy's read + write bandwidth is printed beside it).

    PYTHONPATH=build/python python bench/python/decode.py [--keys 16384] [--batch 1] [--repeats 20]

State the ISA beside the figures (bench/results/cpu-*.md); thread count: torch's (all cores).
"""

import argparse

import torch
import torch.nn.functional as F

import attnc
from timing import median_seconds


def stream_bandwidths(repeats):
    """Bytes per second of a read (a sum) and of a copy (read + write, as STREAM counts it) of
    512 MiB, far larger than the caches: the machine's memory speed, on torch's threads."""
    src = torch.ones(128 << 20, dtype=torch.float32)
    dst = torch.empty_like(src)
    read = median_seconds(lambda: src.sum(), repeats)
    copy = median_seconds(lambda: dst.copy_(src), repeats)
    return src.numel() * 4 / read, 2 * src.numel() * 4 / copy


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--keys", type=int, default=16384)
    p.add_argument("--batch", type=int, default=1)
    p.add_argument("--heads", default="32/8", help="query heads / key-value heads")
    p.add_argument("--repeats", type=int, default=20)
    a = p.parse_args()
    Hq, Hkv = (int(x) for x in a.heads.split("/"))
    B, L, D = a.batch, a.keys, 128
    bandwidth, copy = stream_bandwidths(5)
    print(f"decode: B {B}, Hq {Hq} over Hkv {Hkv}, {L} keys, D {D}, {torch.get_num_threads()} threads; "
          f"memory: read {bandwidth / 1e9:.1f} GB/s, copy {copy / 1e9:.1f} GB/s")
    print(f"{'dtype':6} {'attnc ms':>9} {'SDPA ms':>8} {'attnc GB/s':>11} {'SDPA GB/s':>10} {'ratio':>6} {'of read':>8}")
    g = torch.Generator().manual_seed(0)
    for name, dtype in (("f32", torch.float32), ("bf16", torch.bfloat16)):
        kernel = getattr(attnc.loads(f"kernel decode_{name} {{ dtype = {name}; head_dim = {D}; }}"), f"decode_{name}")
        q = torch.randn(B, Hq, 1, D, generator=g).to(dtype)
        k = torch.randn(B, Hkv, L, D, generator=g).to(dtype)
        v = torch.randn(B, Hkv, L, D, generator=g).to(dtype)
        out = torch.empty(B, Hq, 1, D, dtype=dtype)
        ours = median_seconds(lambda: kernel.run_into(q, k, v, out, None, {}, {}, ""), a.repeats)
        ref = F.scaled_dot_product_attention(q, k, v, enable_gqa=True)
        err = (out.float() - ref.float()).abs().max().item()
        theirs = median_seconds(lambda: F.scaled_dot_product_attention(q, k, v, enable_gqa=True), a.repeats)
        kv_bytes = 2 * k.numel() * k.element_size()
        print(f"{name:6} {ours * 1e3:9.2f} {theirs * 1e3:8.2f} {kv_bytes / ours / 1e9:11.1f} "
              f"{kv_bytes / theirs / 1e9:10.1f} {theirs / ours:5.2f}x {kv_bytes / ours / bandwidth:7.0%}"
              f"   (max |attnc - SDPA| {err:.1e})")


if __name__ == "__main__":
    main()
