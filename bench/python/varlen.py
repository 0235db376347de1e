"""Ragged prefill on the CPU: attnc.torch.varlen_attention on a packed batch against PyTorch on the
same machine, in one run: SDPA run sequence by sequence (what a server without varlen kernels does)
and FlexAttention with a document mask over the packed batch (compiled once; the causal document
mask is built from the same boundaries). Prints each one's median time and attnc's ratio.

    PYTHONPATH=build/python python bench/python/varlen.py [--requests 16] [--min 100] [--max 2000]
        [--backward]

The trace is seeded: request lengths uniform in [--min, --max], causal, Hq 8 over Hkv 2, D 64,
float32 and bfloat16. `--backward` times a training step instead, forward and backward of
sum(out * w) with gradients to q, k and v, against SDPA's sequence by sequence (no flex). State
the ISA beside the figures (bench/results/serving.md).
"""

import argparse

import torch
import torch.nn.functional as F

import attnc.torch as at
from timing import median_seconds


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--requests", type=int, default=16)
    p.add_argument("--min", type=int, default=100)
    p.add_argument("--max", type=int, default=2000)
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--no-flex", action="store_true", help="skip FlexAttention (its compile takes minutes)")
    p.add_argument("--backward", action="store_true", help="time forward + backward (attnc and SDPA only)")
    a = p.parse_args()
    g = torch.Generator().manual_seed(0)
    lens = torch.randint(a.min, a.max + 1, (a.requests,), generator=g)
    cu = torch.cat([torch.zeros(1, dtype=torch.int32), lens.cumsum(0).to(torch.int32)])
    T, Hq, Hkv, D = int(lens.sum()), 8, 2, 64
    print(f"{a.requests} requests, {T} tokens, lengths {a.min}-{a.max}, Hq {Hq} Hkv {Hkv} D {D}, "
          f"{torch.get_num_threads()} threads")
    print(f"{'dtype':8} {'attnc ms':>9} {'SDPA/seq ms':>12} {'ratio':>6} {'flex ms':>9} {'ratio':>6}")
    for dtype in (torch.float32, torch.bfloat16):
        q = torch.randn(T, Hq, D, generator=g).to(dtype)
        k = torch.randn(T, Hkv, D, generator=g).to(dtype)
        v = torch.randn(T, Hkv, D, generator=g).to(dtype)
        bounds = cu.tolist()

        def attnc_run():
            return at.varlen_attention(q, k, v, cu, cu, is_causal=True)

        def sdpa_run():
            return torch.cat([F.scaled_dot_product_attention(
                q[s:e].transpose(0, 1), k[s:e].transpose(0, 1), v[s:e].transpose(0, 1), is_causal=True,
                enable_gqa=True).transpose(0, 1) for s, e in zip(bounds, bounds[1:])])

        if a.backward:
            w = torch.randn(T, Hq, D, generator=g).to(dtype)
            leaves = [t.clone().requires_grad_() for t in (q, k, v)]

            def step(run):
                def go():
                    for t in leaves:
                        t.grad = None
                    (run(*leaves) * w).sum().backward()
                    return [t.grad for t in leaves]
                return go

            def attnc_train(q, k, v):
                return at.varlen_attention(q, k, v, cu, cu, is_causal=True)

            def sdpa_train(q, k, v):
                return torch.cat([F.scaled_dot_product_attention(
                    q[s:e].transpose(0, 1), k[s:e].transpose(0, 1), v[s:e].transpose(0, 1), is_causal=True,
                    enable_gqa=True).transpose(0, 1) for s, e in zip(bounds, bounds[1:])])

            for got, want in zip(step(attnc_train)(), step(sdpa_train)()):
                torch.testing.assert_close(got.float(), want.float(), atol=5e-2, rtol=5e-2)
            t_attnc = median_seconds(step(attnc_train), a.repeats)
            t_sdpa = median_seconds(step(sdpa_train), a.repeats)
            print(f"{str(dtype).split('.')[-1]:8} {t_attnc * 1e3:9.1f} {t_sdpa * 1e3:12.1f} "
                  f"{t_sdpa / t_attnc:6.2f}   (forward + backward)")
            continue
        with torch.no_grad():
            torch.testing.assert_close(attnc_run().float(), sdpa_run().float(), atol=3e-2, rtol=3e-2)
            t_attnc = median_seconds(attnc_run, a.repeats)
            t_sdpa = median_seconds(sdpa_run, a.repeats)
            flex = ""
            if not a.no_flex:
                from torch.nn.attention.flex_attention import create_block_mask, flex_attention

                doc = torch.repeat_interleave(torch.arange(a.requests), lens)
                mask = create_block_mask(lambda b, h, i, j: (doc[i] == doc[j]) & (j <= i), None, None, T, T,
                                         device="cpu")
                compiled = torch.compile(flex_attention)
                qf, kf, vf = (t.transpose(0, 1)[None] for t in (q, k, v))
                t_flex = median_seconds(lambda: compiled(qf, kf, vf, block_mask=mask, enable_gqa=True), a.repeats)
                flex = f"{t_flex * 1e3:9.1f} {t_flex / t_attnc:6.2f}"
        print(f"{str(dtype).split('.')[-1]:8} {t_attnc * 1e3:9.1f} {t_sdpa * 1e3:12.1f} "
              f"{t_sdpa / t_attnc:6.2f} {flex}")


if __name__ == "__main__":
    main()
