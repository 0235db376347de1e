#!/usr/bin/env python3
"""attnc's CPU kernel vs PyTorch on this machine, side by side in one run (f32, 2 threads).

PyTorch: scaled_dot_product_attention (masks materialized where it has no flag for them) and
flex_attention under torch.compile (block mask + score_mod). attnc: bench/cpu/attn_cpu_bench.
GFLOP/s count only the unmasked work: 4 * B * H * L * L * D * density. Times are the best of
--iters runs (attnc: best of two series, before and after PyTorch's): these machines are shared.

  ATTNC_CXX=bench/cpu/clangxx.sh bench/.venv/bin/python bench/cpu/compare_torch.py --bin BUILD/bench/cpu
"""
import argparse
import json
import subprocess
import time

import torch
from torch.nn.attention.flex_attention import create_block_mask, flex_attention

VARIANTS = ["full", "causal", "sliding256", "alibi", "softcap", "documents"]


def timed(fn, iters):
    """Best of `iters` runs after a warm-up: the least disturbed run on a shared machine."""
    fn()  # warm-up (and compile)
    times = []
    for _ in range(iters):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def attnc_time(a, variant, L, H, D):
    out = subprocess.run([a.bin + "/attn_cpu_bench", "--len", str(L), "--heads", str(H), "--dim", str(D),
                          "--threads", "2", "--iters", str(a.iters), variant],
                         capture_output=True, text=True, check=True).stdout
    r = json.loads(out.strip().splitlines()[-1])
    return r["min_s"], r["generate_s"] + r["compile_s"]


def torch_variants(L, H, doc_len, slopes):
    doc = torch.arange(L) // doc_len
    causal = lambda b, h, q, kv: q >= kv
    masks = {
        "full": None,
        "causal": causal,
        "sliding256": lambda b, h, q, kv: (q >= kv) & (q - kv < 256),
        "alibi": causal,
        "softcap": causal,
        "documents": lambda b, h, q, kv: (q >= kv) & (doc[q] == doc[kv]),
    }
    scores = {
        "alibi": lambda s, b, h, q, kv: s + slopes[h] * (kv - q),
        "softcap": lambda s, b, h, q, kv: 30.0 * torch.tanh(s / 30.0),
    }
    return masks, scores, doc


def sdpa_call(variant, q, k, v, L, slopes, doc):
    F = torch.nn.functional.scaled_dot_product_attention
    i = torch.arange(L)
    if variant == "full":
        return lambda: F(q, k, v)
    if variant == "causal":
        return lambda: F(q, k, v, is_causal=True)
    if variant == "sliding256":
        m = (i[:, None] >= i[None, :]) & (i[:, None] - i[None, :] < 256)
        return lambda: F(q, k, v, attn_mask=m)
    if variant == "documents":
        m = (i[:, None] >= i[None, :]) & (doc[:, None] == doc[None, :])
        return lambda: F(q, k, v, attn_mask=m)
    if variant == "alibi":
        bias = slopes[:, None, None] * (i[None, None, :] - i[None, :, None]).float()
        bias = bias.masked_fill(i[None, :, None] < i[None, None, :], float("-inf"))[None]
        return lambda: F(q, k, v, attn_mask=bias)
    return None  # soft-capping has no SDPA form


def density(variant, L, doc):
    i = torch.arange(L)
    if variant == "full":
        return 1.0
    m = i[:, None] >= i[None, :]
    if variant == "sliding256":
        m &= i[:, None] - i[None, :] < 256
    if variant == "documents":
        m &= doc[:, None] == doc[None, :]
    return m.float().mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True, help="folder with attn_cpu_bench and fma_peak")
    ap.add_argument("--len", type=int, default=4096)
    ap.add_argument("--heads", type=int, default=8)
    ap.add_argument("--dim", type=int, default=64)
    ap.add_argument("--iters", type=int, default=5)
    ap.add_argument("--variants", default=",".join(VARIANTS))
    a = ap.parse_args()
    torch.set_num_threads(2)
    torch.manual_seed(0)
    B, H, L, D = 1, a.heads, a.len, a.dim
    q, k, v = (torch.randn(B, H, L, D) for _ in range(3))
    slopes = torch.exp2(-8.0 * (torch.arange(H) + 1) / H)
    masks, scores, doc = torch_variants(L, H, 512, slopes)
    flex = torch.compile(flex_attention, dynamic=False)

    peak = json.loads(subprocess.run([a.bin + "/fma_peak", "2"], capture_output=True, text=True, check=True).stdout)
    rows = []
    for variant in a.variants.split(","):
        dens = density(variant, L, doc)
        flops = 4.0 * B * H * L * L * D * dens
        # attnc before and after PyTorch, best of both: load from other processes varies by the second.
        t_attnc, attnc_compile = attnc_time(a, variant, L, H, D)
        call = sdpa_call(variant, q, k, v, L, slopes, doc)
        t_sdpa = timed(call, a.iters) if call else None
        bm = create_block_mask(masks[variant], None, None, L, L, device="cpu") if masks[variant] else None
        score_mod = scores.get(variant)
        t0 = time.perf_counter()
        flex(q, k, v, score_mod=score_mod, block_mask=bm)
        flex_compile = time.perf_counter() - t0
        t_flex = timed(lambda: flex(q, k, v, score_mod=score_mod, block_mask=bm), a.iters)
        t_attnc = min(t_attnc, attnc_time(a, variant, L, H, D)[0])
        rows.append(dict(variant=variant, density=dens, attnc_s=t_attnc, sdpa_s=t_sdpa, flex_s=t_flex,
                         flops=flops, flex_compile_s=flex_compile, attnc_compile_s=attnc_compile))
        print(json.dumps(rows[-1]), flush=True)

    gf = lambda f, t: f"{f / t / 1e9:7.1f}" if t else "    n/a"
    ratio = lambda t1, t2: f"{t2 / t1:5.2f}x" if t2 else "  n/a"
    print(f"\nf32, B={B}, H={H}, L={L}, D={D}, 2 threads; FMA peak {peak['gflops']:.0f} GFLOP/s (2 threads)\n")
    print("| variant | density | attnc GFLOP/s | SDPA GFLOP/s | flex GFLOP/s | attnc vs SDPA | attnc vs flex | attnc % of peak |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['variant']} | {r['density']:.3f} | {gf(r['flops'], r['attnc_s'])} | {gf(r['flops'], r['sdpa_s'])} | "
              f"{gf(r['flops'], r['flex_s'])} | {ratio(r['attnc_s'], r['sdpa_s'])} | {ratio(r['attnc_s'], r['flex_s'])} | "
              f"{100 * r['flops'] / r['attnc_s'] / 1e9 / peak['gflops']:.0f}% |")
    full = next((r for r in rows if r["variant"] == "full"), None)
    if full:
        print("\nTime relative to full attention (proportional to density is the goal):")
        for r in rows:
            print(f"  {r['variant']:<11} density {r['density']:.3f}  attnc time {r['attnc_s'] / full['attnc_s']:.3f}  "
                  f"flex time {r['flex_s'] / full['flex_s']:.3f}")


if __name__ == "__main__":
    main()
