#!/usr/bin/env python3
"""The PyTorch side of the GPU benchmark: FlexAttention (torch.compile) and SDPA on the variants
of bench/gpu/variants.attn, same shapes, timed with CUDA events; with --backward also forward +
backward (FlexAttention's and SDPA's backward, dOut random). Writes JSON.
Without torch or a GPU it writes {"skipped": why} and exits 0 under --dry-run (1 otherwise)."""
import argparse
import json
import statistics
import sys
import time


def timed(fn, repeats, torch):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(repeats):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b))
    return statistics.median(times), min(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json", required=True)
    ap.add_argument("--len", type=int, default=8192)
    ap.add_argument("--repeats", type=int, default=20)
    ap.add_argument("--dry-run", action="store_true")
    ap.add_argument("--backward", action="store_true", help="also time forward + backward")
    ap.add_argument("--serving", help="also time SDPA on this serving trace (samples/serving/trace.json)")
    args = ap.parse_args()

    def skip(why):
        json.dump({"skipped": why}, open(args.json, "w"), indent=2)
        print(f"torch_baseline: skipped: {why}", file=sys.stderr)
        return 0 if args.dry_run else 1

    try:
        import torch
        from torch.nn.attention import SDPBackend, sdpa_kernel
        from torch.nn.attention.flex_attention import create_block_mask, flex_attention
    except ImportError as e:
        return skip(f"no PyTorch with FlexAttention ({e})")
    if not torch.cuda.is_available():
        return skip("no CUDA device visible to PyTorch")

    B, H, L, D = 4, 16, args.len, 128
    dev = "cuda"
    g = torch.Generator(device=dev).manual_seed(0)
    q, k, v = (torch.randn(B, H, L, D, device=dev, dtype=torch.bfloat16, generator=g) for _ in range(3))
    doc = torch.arange(L, device=dev, dtype=torch.int32) // 1130  # as bench_cuda.cpp
    slopes = torch.tensor([2.0 ** (-8.0 * (h + 1) / H) for h in range(H)], device=dev, dtype=torch.float32)

    def causal(b, h, qi, kv):
        return qi >= kv

    variants = {
        "full_attention": (None, None),
        "causal_attention": (causal, None),
        "sliding_window_1024": (lambda b, h, qi, kv: (qi >= kv) & (qi - kv < 1024), None),
        "prefix_lm_2048": (lambda b, h, qi, kv: (kv < 2048) | (qi >= kv), None),
        "packed_documents": (lambda b, h, qi, kv: (doc[qi] == doc[kv]) & (qi >= kv), None),
        "alibi_causal": (causal, lambda s, b, h, qi, kv: s + slopes[h] * (kv - qi)),
        "softcap_30_causal": (causal, lambda s, b, h, qi, kv: 30.0 * torch.tanh(s / 30.0)),
    }
    flex = torch.compile(flex_attention)
    out = {"torch": torch.__version__, "device": torch.cuda.get_device_name(), "flex": {}, "sdpa": {}}
    for name, (mask_mod, score_mod) in variants.items():
        t0 = time.perf_counter()
        bm = create_block_mask(mask_mod, B=None, H=None, Q_LEN=L, KV_LEN=L) if mask_mod else None
        run = lambda: flex(q, k, v, score_mod=score_mod, block_mask=bm)  # noqa: E731
        run()
        torch.cuda.synchronize()
        first = time.perf_counter() - t0
        med, best = timed(run, args.repeats, torch)
        out["flex"][name] = {"ms_median": med, "ms_min": best, "first_call_s": first}
        print(f"flex {name}: {med:.3f} ms (first call {first:.1f} s)", file=sys.stderr)
    sdpa = torch.nn.functional.scaled_dot_product_attention
    for backend in ("CUDNN_ATTENTION", "FLASH_ATTENTION"):
        for name, causal_flag in (("full_attention", False), ("causal_attention", True)):
            try:
                with sdpa_kernel(getattr(SDPBackend, backend)):
                    med, best = timed(lambda: sdpa(q, k, v, is_causal=causal_flag), args.repeats, torch)
                out["sdpa"].setdefault(backend, {})[name] = {"ms_median": med, "ms_min": best}
            except Exception as e:  # a backend may be missing on this build
                out["sdpa"].setdefault(backend, {})[name] = {"error": str(e).splitlines()[0]}
    if args.backward:
        backward(out, variants, flex, sdpa, (q, k, v), args.repeats, torch, sdpa_kernel, SDPBackend, create_block_mask, L)
    if args.serving:
        del q, k, v
        try:
            out["serving"] = serving(args.serving, sdpa, args.repeats, torch)
        except Exception as e:  # e.g. out of memory: the rest of the baseline stands
            out["serving"] = {"error": str(e).splitlines()[0] if str(e) else type(e).__name__}
    json.dump(out, open(args.json, "w"), indent=2)
    return 0


def serving(path, sdpa, repeats, torch):
    """One step of the serving trace with SDPA, sequence by sequence, on each request's keys already
    gathered out of the pages into contiguous tensors (the gather not timed) and the key/value heads
    already repeated for the query heads: prefill chunks under a bottom-right causal mask
    (causal_lower_right), decoding rows unmasked. What attnc's paged kernels do in one launch, a
    server without paged attention does in as many calls."""
    from torch.nn.attention.bias import causal_lower_right

    t = json.load(open(path))
    H, Hkv, D = t["heads"], t["kv_heads"], t["head_dim"]
    g = torch.Generator(device="cuda").manual_seed(1)
    calls = []
    for r in t["requests"]:
        ql, kl = r["q_len"], r["kv_len"]
        q = torch.randn(1, H, ql, D, device="cuda", dtype=torch.bfloat16, generator=g)
        k, v = (torch.randn(1, Hkv, kl, D, device="cuda", dtype=torch.bfloat16, generator=g)
                .repeat_interleave(H // Hkv, 1) for _ in range(2))
        calls.append((q, k, v, causal_lower_right(ql, kl) if ql > 1 else None))

    def step():
        for q, k, v, mask in calls:
            sdpa(q, k, v, attn_mask=mask)

    med, best = timed(step, max(5, repeats // 4), torch)
    print(f"serving: SDPA sequence by sequence {med:.3f} ms a step", file=sys.stderr)
    return {"sdpa_per_sequence_ms": med, "sdpa_per_sequence_ms_min": best, "requests": len(calls)}


def backward(out, variants, flex, sdpa, qkv, repeats, torch, sdpa_kernel, SDPBackend, create_block_mask, L):
    """Forward + backward of each variant (FlexAttention) and of SDPA's full and causal rows:
    out["flex_bwd"][name] and out["sdpa_bwd"][backend][name]."""
    q, k, v = (x.detach().clone().requires_grad_(True) for x in qkv)
    dout = torch.randn_like(q)
    out["flex_bwd"], out["sdpa_bwd"] = {}, {}
    for name, (mask_mod, score_mod) in variants.items():
        try:
            bm = create_block_mask(mask_mod, B=None, H=None, Q_LEN=L, KV_LEN=L) if mask_mod else None
            run = lambda: flex(q, k, v, score_mod=score_mod, block_mask=bm).backward(dout)  # noqa: E731
            med, best = timed(run, repeats, torch)
            out["flex_bwd"][name] = {"ms_median": med, "ms_min": best}
            print(f"flex {name} forward + backward: {med:.3f} ms", file=sys.stderr)
        except Exception as e:  # e.g. a score_mod whose backward the installed PyTorch lacks
            out["flex_bwd"][name] = {"error": str(e).splitlines()[0] if str(e) else type(e).__name__}
    for backend in ("CUDNN_ATTENTION", "FLASH_ATTENTION"):
        for name, causal_flag in (("full_attention", False), ("causal_attention", True)):
            try:
                with sdpa_kernel(getattr(SDPBackend, backend)):
                    med, best = timed(lambda: sdpa(q, k, v, is_causal=causal_flag).backward(dout), repeats, torch)
                out["sdpa_bwd"].setdefault(backend, {})[name] = {"ms_median": med, "ms_min": best}
            except Exception as e:
                out["sdpa_bwd"].setdefault(backend, {})[name] = {"error": str(e).splitlines()[0]}


if __name__ == "__main__":
    sys.exit(main())
