"""Serving steps over a paged KV cache on the CPU: attnc.torch.PagedAttention against PyTorch on the
same machine, in one run. PyTorch's SDPA has no paged path, so its side gathers each sequence's keys
out of the pages (what a server without paged kernels does; the gather is timed) and runs SDPA
sequence by sequence with a bottom-right causal mask. Prints each one's median time and attnc's ratio,
and the time of PagedAttention.plan for the whole batch.

    PYTHONPATH=build/python python bench/python/paged.py [--trace samples/serving/trace.json]

The trace (samples/serving/make_trace.py): 64 requests, prompts of 100-8000 tokens in 16-token pages,
half prefilling the last <= 512 tokens of their prompt, half decoding one token; Llama-3-8B's
attention (Hq 32 over Hkv 8, D 128). The pages are handed out in a seeded shuffled order. Steps: the
whole batch, and its decoding half alone. State the ISA beside the figures (bench/results/serving.md).
"""

import argparse
import json
import time

import torch
import torch.nn.functional as F

import attnc.torch as at
from timing import median_seconds


def layout(trace, g):
    """kv_lens, q_lens, page table and page count of the trace, its pages shuffled."""
    requests, page_size = trace["requests"], trace["page_size"]
    kv = torch.tensor([r["kv_len"] for r in requests], dtype=torch.int32)
    q = torch.tensor([r["q_len"] for r in requests], dtype=torch.int32)
    used = (kv + page_size - 1) // page_size
    order = torch.randperm(int(used.sum()), generator=g)
    table = torch.full((len(requests), int(used.max())), -1, dtype=torch.int32)
    at_page = 0
    for b, n in enumerate(used.tolist()):
        table[b, :n] = order[at_page:at_page + n].to(torch.int32)
        at_page += n
    return kv, q, table, int(used.sum())


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--trace", default="samples/serving/trace.json")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--layout", choices=("nhd", "hnd"), default="nhd",
                   help="the cache's storage: [pages, page_size, Hkv, D] (nhd) or [pages, Hkv, page_size, D] "
                        "(hnd, each head's rows of a page together), passed as a [pages, page_size, Hkv, D] view")
    p.add_argument("--dtypes", default="f32,bf16", help="comma-separated: f32, bf16")
    p.add_argument("--steps", default="mixed,decode", help="comma-separated: mixed, decode")
    a = p.parse_args()
    with open(a.trace) as f:
        trace = json.load(f)
    g = torch.Generator().manual_seed(0)
    kv_lens, q_lens, table, pages = layout(trace, g)
    page_size, Hq, Hkv, D = trace["page_size"], trace["heads"], trace["kv_heads"], trace["head_dim"]
    decoding = [b for b in range(len(q_lens)) if int(q_lens[b]) == 1]
    print(f"{a.trace}: {len(q_lens)} requests, {int(q_lens.sum())} query tokens over {int(kv_lens.sum())} keys in "
          f"{pages} pages of {page_size} ({a.layout}), Hq {Hq} Hkv {Hkv} D {D}, {torch.get_num_threads()} threads")
    print(f"{'step':14} {'dtype':8} {'attnc ms':>9} {'SDPA+gather ms':>15} {'ratio':>6}")
    dtypes = {"f32": torch.float32, "bf16": torch.bfloat16}
    for dtype in (dtypes[d] for d in a.dtypes.split(",")):
        if a.layout == "nhd":
            k_cache = torch.randn(pages, page_size, Hkv, D, generator=g).to(dtype)
            v_cache = torch.randn(pages, page_size, Hkv, D, generator=g).to(dtype)
        else:
            k_cache = torch.randn(pages, Hkv, page_size, D, generator=g).to(dtype).transpose(1, 2)
            v_cache = torch.randn(pages, Hkv, page_size, D, generator=g).to(dtype).transpose(1, 2)
        steps = {"mixed": range(len(q_lens)), "decode": decoding}
        for step, rows in ((name, steps[name]) for name in a.steps.split(",")):
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
                    idx = tab[b, :(n + page_size - 1) // page_size].long()
                    k = k_cache[idx].flatten(0, 1)[:n].transpose(0, 1)
                    v = v_cache[idx].flatten(0, 1)[:n].transpose(0, 1)
                    # Bottom-right causal, in SDPA's fastest form: none for one query, is_causal for a
                    # whole prompt, a boolean mask otherwise.
                    mask = None if m in (1, n) else torch.ones(m, n, dtype=torch.bool).tril(n - m)
                    outs.append(F.scaled_dot_product_attention(q[cu[b]:cu[b + 1]].transpose(0, 1), k, v,
                                                               attn_mask=mask, is_causal=1 < m == n,
                                                               enable_gqa=True).transpose(0, 1))
                return torch.cat(outs)

            with torch.no_grad():
                torch.testing.assert_close(attnc_run().float(), sdpa_run().float(), atol=3e-2, rtol=3e-2)
                t_attnc = median_seconds(attnc_run, a.repeats)
                t_sdpa = median_seconds(sdpa_run, a.repeats)
            print(f"{step:14} {str(dtype).split('.')[-1]:8} {t_attnc * 1e3:9.1f} {t_sdpa * 1e3:15.1f} "
                  f"{t_sdpa / t_attnc:6.2f}   (plan {plan_ms:.2f} ms)")
    decode_bytes = 2 * int(kv_lens[decoding].sum()) * Hkv * D
    print(f"decode step reads {decode_bytes * 4 / 1e6:.0f} MB of K/V in f32, {decode_bytes * 2 / 1e6:.0f} MB in bf16")


if __name__ == "__main__":
    main()
