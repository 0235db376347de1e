"""Serving steps over a paged KV cache on the CPU: attnc.torch.PagedAttention against PyTorch on the
same machine, in one run. PyTorch's SDPA has no paged path, so its side gathers each sequence's keys
out of the pages (what a server without paged kernels does; the gather is timed) and runs SDPA
sequence by sequence with a bottom-right causal mask. Prints each one's median time and attnc's ratio,
and the time of PagedAttention.plan for the whole batch.

    PYTHONPATH=build/python python bench/python/paged.py [--requests 64] [--min 100] [--max 8000]

The trace is seeded: request lengths uniform in [--min, --max], 16-token pages in a shuffled order,
half the requests prefilling their last --chunk tokens (chunked prefill), half decoding one token;
Hq 32 over Hkv 8, D 128. Steps: the mixed batch, and its decoding half alone. State the ISA beside the
figures (bench/results/serving.md).
"""

import argparse
import time

import torch
import torch.nn.functional as F

import attnc.torch as at
from timing import median_seconds


def trace(a, g):
    """kv_lens, q_lens, page table and page count of the seeded trace."""
    kv = torch.randint(a.min, a.max + 1, (a.requests,), generator=g)
    q = torch.where(torch.arange(a.requests) % 2 == 0, torch.clamp(kv, max=a.chunk), torch.ones_like(kv))
    used = (kv + a.page_size - 1) // a.page_size
    order = torch.randperm(int(used.sum()), generator=g)
    table = torch.full((a.requests, int(used.max())), -1, dtype=torch.int32)
    at_page = 0
    for b in range(a.requests):
        n = int(used[b])
        table[b, :n] = order[at_page:at_page + n].to(torch.int32)
        at_page += n
    return kv.to(torch.int32), q.to(torch.int32), table, int(used.sum())


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--requests", type=int, default=64)
    p.add_argument("--min", type=int, default=100)
    p.add_argument("--max", type=int, default=8000)
    p.add_argument("--chunk", type=int, default=512, help="the prefill requests' query tokens")
    p.add_argument("--page-size", type=int, default=16)
    p.add_argument("--repeats", type=int, default=5)
    a = p.parse_args()
    g = torch.Generator().manual_seed(0)
    kv_lens, q_lens, table, pages = trace(a, g)
    Hq, Hkv, D = 32, 8, 128
    print(f"{a.requests} requests, keys {a.min}-{a.max} ({int(kv_lens.sum())} in {pages} pages of {a.page_size}), "
          f"prefill chunks of {a.chunk}, Hq {Hq} Hkv {Hkv} D {D}, {torch.get_num_threads()} threads")
    print(f"{'step':14} {'dtype':8} {'attnc ms':>9} {'SDPA+gather ms':>15} {'ratio':>6}")
    for dtype in (torch.float32, torch.bfloat16):
        k_cache = torch.randn(pages, a.page_size, Hkv, D, generator=g).to(dtype)
        v_cache = torch.randn(pages, a.page_size, Hkv, D, generator=g).to(dtype)
        for step, rows in (("mixed", range(a.requests)), ("decode", range(1, a.requests, 2))):
            rows = list(rows)
            qs, kv, tab = q_lens[rows], kv_lens[rows], table[rows]
            cu = torch.cat([torch.zeros(1, dtype=torch.int32), qs.cumsum(0).to(torch.int32)])
            q = torch.randn(int(qs.sum()), Hq, D, generator=g).to(dtype)
            at.PagedAttention().plan(cu, tab, kv, is_causal=True, dtype=dtype)  # compiles the kernel once
            t0 = time.perf_counter()
            attention = at.PagedAttention().plan(cu, tab, kv, is_causal=True, dtype=dtype)
            plan_ms = (time.perf_counter() - t0) * 1e3

            def attnc_run():
                return attention.run(q, k_cache, v_cache)

            def sdpa_run():
                outs = []
                for b in range(len(rows)):
                    n, m = int(kv[b]), int(qs[b])
                    idx = tab[b, :(n + a.page_size - 1) // a.page_size].long()
                    k = k_cache[idx].flatten(0, 1)[:n].transpose(0, 1)
                    v = v_cache[idx].flatten(0, 1)[:n].transpose(0, 1)
                    mask = torch.ones(m, n, dtype=torch.bool).tril(n - m)  # bottom-right causal
                    outs.append(F.scaled_dot_product_attention(q[cu[b]:cu[b + 1]].transpose(0, 1), k, v,
                                                               attn_mask=mask, enable_gqa=True).transpose(0, 1))
                return torch.cat(outs)

            with torch.no_grad():
                torch.testing.assert_close(attnc_run().float(), sdpa_run().float(), atol=3e-2, rtol=3e-2)
                t_attnc = median_seconds(attnc_run, a.repeats)
                t_sdpa = median_seconds(sdpa_run, a.repeats)
            print(f"{step:14} {str(dtype).split('.')[-1]:8} {t_attnc * 1e3:9.1f} {t_sdpa * 1e3:15.1f} "
                  f"{t_sdpa / t_attnc:6.2f}   (plan {plan_ms:.2f} ms)")
    decode_bytes = 2 * int(kv_lens[1::2].sum()) * Hkv * D
    print(f"decode step reads {decode_bytes * 4 / 1e6:.0f} MB of K/V in f32, {decode_bytes * 2 / 1e6:.0f} MB in bf16")


if __name__ == "__main__":
    main()
