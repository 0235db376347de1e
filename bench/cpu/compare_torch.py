#!/usr/bin/env python3
"""attnc's CPU kernel vs PyTorch on this machine, side by side in one run (f32, 2 threads).

PyTorch: scaled_dot_product_attention (masks materialized where it has no flag for them) and
flex_attention under torch.compile (block mask + score_mod). attnc: bench/cpu/attn_cpu_bench.
GFLOP/s count only the unmasked work: 4 * B * H * L * L * D * density. Times are the best of
--iters runs (attnc: best of two series, before and after PyTorch's): these machines are shared.

  ATTNC_CXX=bench/cpu/clangxx.sh bench/.venv/bin/python bench/cpu/compare_torch.py --bin BUILD/bench/cpu

Rows: --variants VARIANT[:DTYPE[:D]],... (DTYPE f32 or bf16; D defaults to --dim), e.g. causal:bf16:128.

--isa avx2: both sides held to AVX2 on an AVX-512 machine, the nearest this runs to an AVX2-only CPU
(bench/results/cpu-avx2.md): attnc's avx2 path (ATTNC_CPU_ISA=avx2) built with -march=x86-64-v3
(bench/cpu/clangxx.sh with ATTNC_BENCH_MARCH) into a fresh ATTNC_CACHE_DIR; PyTorch with
ATEN_CPU_CAPABILITY=avx2 (eager kernels and inductor's code for flex_attention), ONEDNN_MAX_CPU_ISA=AVX2
and MKL_ENABLE_INSTRUCTIONS=AVX2; the AVX2 FMA peak. The script sets these and runs itself again.

--backward: forward + backward instead (dQ, dK, dV; for alibi also the slopes' gradient), against
SDPA's backward with its mask (and ALiBi bias, built from slopes that require grad) materialized,
and flex_attention's backward where it runs (PyTorch's CPU flex_attention has none: n/a).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import torch
from torch.nn.attention.flex_attention import create_block_mask, flex_attention

DTYPES = {"f32": torch.float32, "bf16": torch.bfloat16}
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


def avx2_environment():
    """What --isa avx2 runs under (read by torch at import and by attnc's loader at each compile)."""
    here = os.path.dirname(os.path.abspath(__file__))
    return {"ATTNC_CPU_ISA": "avx2", "ATTNC_CXX": os.path.join(here, "clangxx.sh"),
            "ATTNC_BENCH_MARCH": "x86-64-v3", "ATTNC_CACHE_DIR": tempfile.mkdtemp(prefix="attnc-avx2-"),
            "ATEN_CPU_CAPABILITY": "avx2", "ONEDNN_MAX_CPU_ISA": "AVX2", "MKL_ENABLE_INSTRUCTIONS": "AVX2"}


def parse_row(row, dim):
    """VARIANT[:DTYPE[:D]] -> (variant, dtype, D)."""
    parts = row.split(":")
    return parts[0], parts[1] if len(parts) > 1 else "f32", int(parts[2]) if len(parts) > 2 else dim


def attnc_time(a, variant, L, H, D, dtype="f32"):
    out = subprocess.run([a.bin + "/attn_cpu_bench", "--len", str(L), "--heads", str(H), "--dim", str(D),
                          "--threads", "2", "--iters", str(a.iters), "--dtype", dtype, variant],
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
        bias = bias.masked_fill(i[None, :, None] < i[None, None, :], float("-inf"))[None].to(q.dtype)
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


BACKWARD_VARIANTS = ["full", "causal", "sliding256", "documents", "alibi"]


def sdpa_backward_call(variant, q, k, v, dout, L, slopes, doc):
    """SDPA forward + backward; the ALiBi bias is rebuilt from `slopes` inside, so its gradient flows."""
    F = torch.nn.functional.scaled_dot_product_attention
    i = torch.arange(L)
    causal = i[:, None] >= i[None, :]
    masks = {"full": None, "causal": None, "sliding256": causal & (i[:, None] - i[None, :] < 256),
             "documents": causal & (doc[:, None] == doc[None, :])}
    rel = (i[None, :] - i[:, None]).float()

    def run():
        for t in (q, k, v, slopes):
            t.grad = None
        if variant == "alibi":
            bias = (slopes[:, None, None] * rel[None]).masked_fill(~causal[None], float("-inf"))[None]
            out = F(q, k, v, attn_mask=bias)
        elif variant == "causal":
            out = F(q, k, v, is_causal=True)
        else:
            out = F(q, k, v, attn_mask=masks[variant])
        out.backward(dout)
    return run


def flex_backward_call(flex, variant, q, k, v, dout, L, slopes, doc):
    masks, scores, _ = torch_variants(L, q.shape[1], 512, slopes)
    bm = create_block_mask(masks[variant], None, None, L, L, device="cpu") if masks[variant] else None

    def run():
        for t in (q, k, v, slopes):
            t.grad = None
        flex(q, k, v, score_mod=scores.get(variant), block_mask=bm).backward(dout)
    return run


def attnc_backward_time(a, variant, L, H, D):
    out = subprocess.run([a.bin + "/attn_cpu_bench", "--backward", "--len", str(L), "--heads", str(H), "--dim", str(D),
                          "--threads", "2", "--iters", str(a.iters), variant],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main_backward(a):
    torch.set_num_threads(2)
    torch.manual_seed(0)
    B, H, L, D = 1, a.heads, a.len, a.dim
    q, k, v = (torch.randn(B, H, L, D, requires_grad=True) for _ in range(3))
    dout = torch.randn(B, H, L, D)
    slopes = torch.exp2(-8.0 * (torch.arange(H) + 1) / H).requires_grad_(True)
    doc = torch.arange(L) // 512
    flex = torch.compile(flex_attention, dynamic=False)
    rows = []
    for variant in a.variants.split(","):
        r = attnc_backward_time(a, variant, L, H, D)
        t_sdpa = timed(sdpa_backward_call(variant, q, k, v, dout, L, slopes, doc), a.iters)
        try:
            t_flex = timed(flex_backward_call(flex, variant, q, k, v, dout, L, slopes, doc), a.iters)
        except Exception as e:  # CPU flex_attention has no backward (NotImplementedError)
            t_flex, flex_error = None, type(e).__name__
        else:
            flex_error = None
        r2 = attnc_backward_time(a, variant, L, H, D)
        best = r if r["min_s"] <= r2["min_s"] else r2
        rows.append(dict(variant=variant, attnc_s=best["min_s"], attnc_forward_s=best["forward_s"],
                         attnc_backward_s=best["backward_s"], sdpa_s=t_sdpa, flex_s=t_flex, flex_error=flex_error))
        print(json.dumps(rows[-1]), flush=True)
    ratio = lambda t1, t2: f"{t2 / t1:5.2f}x" if t2 else "  n/a"
    sec = lambda t: f"{t:.3f}" if t else "n/a"
    print(f"\nf32, B={B}, H={H}, L={L}, D={D}, 2 threads; forward + backward, seconds (best of {a.iters})\n")
    print("| variant | attnc fwd+bwd | attnc fwd | attnc bwd | bwd / fwd | SDPA fwd+bwd | flex fwd+bwd | attnc vs SDPA | attnc vs flex |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['variant']} | {sec(r['attnc_s'])} | {sec(r['attnc_forward_s'])} | {sec(r['attnc_backward_s'])} | "
              f"{r['attnc_backward_s'] / r['attnc_forward_s']:.2f} | {sec(r['sdpa_s'])} | "
              f"{sec(r['flex_s']) if r['flex_s'] else 'n/a (' + str(r['flex_error']) + ')'} | "
              f"{ratio(r['attnc_s'], r['sdpa_s'])} | {ratio(r['attnc_s'], r['flex_s'])} |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True, help="folder with attn_cpu_bench and fma_peak")
    ap.add_argument("--len", type=int, default=4096)
    ap.add_argument("--heads", type=int, default=8)
    ap.add_argument("--dim", type=int, default=64)
    ap.add_argument("--iters", type=int, default=5)
    ap.add_argument("--variants")
    ap.add_argument("--backward", action="store_true", help="time forward + backward")
    ap.add_argument("--isa", choices=["native", "avx2"], default="native",
                    help="avx2: attnc and PyTorch held to AVX2 (see the top of this file)")
    a = ap.parse_args()
    if a.isa == "avx2" and os.environ.get("ATEN_CPU_CAPABILITY") != "avx2":
        # torch reads its ISA variables when it loads: run again with them set from the start.
        os.execve(sys.executable, [sys.executable] + sys.argv, {**os.environ, **avx2_environment()})
    if a.backward:
        a.variants = a.variants or ",".join(BACKWARD_VARIANTS)
        return main_backward(a)
    a.variants = a.variants or ",".join(VARIANTS + ["causal:bf16", "causal:bf16:128"])
    torch.set_num_threads(2)
    torch.manual_seed(0)
    B, H, L = 1, a.heads, a.len
    slopes = torch.exp2(-8.0 * (torch.arange(H) + 1) / H)
    masks, scores, doc = torch_variants(L, H, 512, slopes)
    # One compile per variant (dynamic=False): past Dynamo's default limit of 8 the later rows would
    # silently run flex_attention eagerly.
    torch._dynamo.config.recompile_limit = 64
    flex = torch.compile(flex_attention, dynamic=False)

    load_before = os.getloadavg()
    peaks = json.loads(subprocess.run([a.bin + "/fma_peak", "2"], capture_output=True, text=True, check=True).stdout)
    peak = peaks["avx2_gflops"] if a.isa == "avx2" else peaks["gflops"]
    rows = []
    for row in a.variants.split(","):
        variant, dtype, D = parse_row(row, a.dim)
        gen = torch.Generator().manual_seed(0)
        q, k, v = (torch.randn(B, H, L, D, generator=gen).to(DTYPES[dtype]) for _ in range(3))
        dens = density(variant, L, doc)
        flops = 4.0 * B * H * L * L * D * dens
        # attnc before and after PyTorch, best of both: load from other processes varies by the second.
        t_attnc, attnc_compile = attnc_time(a, variant, L, H, D, dtype)
        call = sdpa_call(variant, q, k, v, L, slopes, doc)
        t_sdpa = timed(call, a.iters) if call else None
        bm = create_block_mask(masks[variant], None, None, L, L, device="cpu") if masks[variant] else None
        score_mod = scores.get(variant)
        t0 = time.perf_counter()
        flex(q, k, v, score_mod=score_mod, block_mask=bm)
        flex_compile = time.perf_counter() - t0
        t_flex = timed(lambda: flex(q, k, v, score_mod=score_mod, block_mask=bm), a.iters)
        t_attnc = min(t_attnc, attnc_time(a, variant, L, H, D, dtype)[0])
        rows.append(dict(variant=variant, dtype=dtype, dim=D, density=dens, attnc_s=t_attnc, sdpa_s=t_sdpa, flex_s=t_flex,
                         flops=flops, flex_compile_s=flex_compile, attnc_compile_s=attnc_compile))
        print(json.dumps(rows[-1]), flush=True)

    gf = lambda f, t: f"{f / t / 1e9:7.1f}" if t else "    n/a"
    ratio = lambda t1, t2: f"{t2 / t1:5.2f}x" if t2 else "  n/a"
    load_after = os.getloadavg()
    attnc_isa = os.environ.get("ATTNC_CPU_ISA", "widest this CPU runs")
    print(f"\nB={B}, H={H}, L={L}, 2 threads; ISA: attnc path {attnc_isa}"
          f"{', -march=' + os.environ['ATTNC_BENCH_MARCH'] if os.environ.get('ATTNC_BENCH_MARCH') else ''}, "
          f"torch CPU capability {torch.backends.cpu.get_cpu_capability()}; FMA peak {peak:.0f} GFLOP/s "
          f"(2 threads; AVX-512 {peaks.get('avx512_gflops', 0):.0f}, AVX2 {peaks.get('avx2_gflops', 0):.0f}); "
          f"load average {load_before[0]:.1f} before, {load_after[0]:.1f} after\n")
    print("| variant | dtype | D | density | attnc GFLOP/s | SDPA GFLOP/s | flex GFLOP/s | attnc vs SDPA | attnc vs flex | attnc % of peak |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['variant']} | {r['dtype']} | {r['dim']} | {r['density']:.3f} | {gf(r['flops'], r['attnc_s'])} | {gf(r['flops'], r['sdpa_s'])} | "
              f"{gf(r['flops'], r['flex_s'])} | {ratio(r['attnc_s'], r['sdpa_s'])} | {ratio(r['attnc_s'], r['flex_s'])} | "
              f"{100 * r['flops'] / r['attnc_s'] / 1e9 / peak:.0f}% |")
    full = next((r for r in rows if r["variant"] == "full" and r["dtype"] == "f32" and r["dim"] == a.dim), None)
    if full:
        print("\nTime relative to full attention (proportional to density is the goal):")
        for r in rows:
            if r["dtype"] != "f32" or r["dim"] != a.dim:
                continue
            print(f"  {r['variant']:<11} density {r['density']:.3f}  attnc time {r['attnc_s'] / full['attnc_s']:.3f}  "
                  f"flex time {r['flex_s'] / full['flex_s']:.3f}")


if __name__ == "__main__":
    main()
