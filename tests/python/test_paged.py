"""Paged KV caches from PyTorch: attnc.torch.PagedAttention (plan once, run per layer) against dense
math on each sequence's keys gathered from the pages, for chunked prefill and decoding, pages out of
order and shared, GQA, bf16, sinks, a kernel of one's own, and the errors."""

import math

import pytest
import torch

import attnc
import attnc.torch as at


def paged(q_lens, kv_lens, page_size, hq=4, hkv=2, d=16, dtype=torch.float32, seed=0):
    """Packed queries and a cache whose pages are shuffled, sequence 1 sharing sequence 0's first page."""
    g = torch.Generator().manual_seed(seed)
    used = [-(-n // page_size) for n in kv_lens]
    pages = sum(used) + 2
    order = torch.randperm(pages, generator=g).tolist()
    table = torch.full((len(kv_lens), max(used) + 1), -1, dtype=torch.int32)
    for b, n in enumerate(used):
        for p in range(n):
            table[b, p] = table[0, 0] if (b == 1 and p == 0) else order.pop()
    k = torch.randn(pages, page_size, hkv, d, generator=g).to(dtype)
    v = torch.randn(pages, page_size, hkv, d, generator=g).to(dtype)
    q = torch.randn(sum(q_lens), hq, d, generator=g).to(dtype)
    cu = torch.tensor([0, *torch.tensor(q_lens).cumsum(0).tolist()], dtype=torch.int32)
    return q, k, v, cu, table, torch.tensor(kv_lens, dtype=torch.int32)


def dense(q, k, v, cu, table, kv_lens, mask=None, sink=None):
    """Out [Tq, Hq, D] and LSE [Tq, Hq] by dense math on each sequence's gathered keys; `mask(i, j)`
    of query and key positions, a sequence's queries at kv_len - q_len on."""
    outs, lses = [], []
    page_size, groups = k.shape[1], q.shape[1] // k.shape[2]
    for b in range(len(cu) - 1):
        n, q_len = int(kv_lens[b]), int(cu[b + 1] - cu[b])
        rows = [int(table[b, j // page_size]) * page_size + j % page_size for j in range(n)]
        ks = k.flatten(0, 1)[rows].double().transpose(0, 1).repeat_interleave(groups, 0)
        vs = v.flatten(0, 1)[rows].double().transpose(0, 1).repeat_interleave(groups, 0)
        qs = q[cu[b]:cu[b + 1]].double().transpose(0, 1)
        s = qs @ ks.transpose(-1, -2) / math.sqrt(q.shape[-1])
        if mask is not None:
            i, j = torch.arange(n - q_len, n)[:, None], torch.arange(n)[None, :]
            s = s.masked_fill(~mask(i, j), -math.inf)
        if sink is not None:
            s = torch.cat([s, sink.double()[:, None, None].expand(-1, s.shape[1], 1)], -1)
            vs = torch.cat([vs, torch.zeros_like(vs[:, :1])], 1)
        lse = torch.logsumexp(s, -1)
        outs.append(torch.nan_to_num(torch.exp(s - lse[..., None])) @ vs)
        lses.append(lse)
    return torch.cat([o.transpose(0, 1) for o in outs]).float(), torch.cat([l.transpose(0, 1) for l in lses]).float()


# Chunked prefill starting mid-page, a whole prompt, decoding rows, a sequence with no queries.
LAYOUTS = [([5, 37, 1, 0, 100], [5, 77, 300, 9, 100], 8), ([1, 1, 1], [700, 33, 1], 16)]


@pytest.mark.parametrize("q_lens,kv_lens,page_size", LAYOUTS)
@pytest.mark.parametrize("target", [None, "vulkan"])
def test_causal_is_bottom_right_with_the_lse(q_lens, kv_lens, page_size, target):
    q, k, v, cu, table, lens = paged(q_lens, kv_lens, page_size)
    attention = at.PagedAttention().plan(cu, table, lens, is_causal=True)
    with torch.no_grad():
        out, lse = attention.run(q, k, v, return_lse=True, target=target)
        again = attention.run(q, k, v, target=target)  # the same plan, another layer
    want, want_lse = dense(q, k, v, cu, table, lens, mask=lambda i, j: j <= i)
    torch.testing.assert_close(out, want, atol=2e-4, rtol=2e-4)
    torch.testing.assert_close(lse, want_lse, atol=2e-4, rtol=2e-4)
    assert torch.equal(out, again)


def test_bf16_window_and_sinks():
    q, k, v, cu, table, lens = paged([3, 1], [130, 67], 64, hq=8, hkv=1, d=64, dtype=torch.bfloat16, seed=1)
    sinks = torch.randn(8)
    attention = at.PagedAttention().plan(cu, table, lens, is_causal=True, window_size=(31, -1), sinks=sinks)
    with torch.no_grad():
        out = attention.run(q, k, v)
    want, _ = dense(q, k, v, cu, table, lens, mask=lambda i, j: (j <= i) & (i - j <= 31), sink=sinks)
    torch.testing.assert_close(out.float(), want, atol=2e-2, rtol=2e-2)


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_a_head_major_cache_through_a_strided_view(dtype):
    """A cache stored [pages, Hkv, page_size, D] (each head's rows of a page together) and passed as
    the [pages, page_size, Hkv, D] view: the same bits as its contiguous copy (bf16 decoding reads the
    rows through their addresses, f32 and prefill copy them)."""
    q, k, v, cu, table, lens = paged([1, 1, 3], [300, 77, 130], 16, hq=8, hkv=2, d=64, dtype=dtype, seed=3)
    k_view, v_view = k.transpose(1, 2).contiguous().transpose(1, 2), v.transpose(1, 2).contiguous().transpose(1, 2)
    assert k_view.stride(1) == 64 and torch.equal(k_view, k)
    attention = at.PagedAttention().plan(cu, table, lens, is_causal=True, dtype=dtype)
    with torch.no_grad():
        assert torch.equal(attention.run(q, k_view, v_view), attention.run(q, k, v))


def test_a_kernel_of_ones_own_sees_positions_and_the_sequence():
    kernel = attnc.loads("kernel every_other(bias: tensor<f32>[batch]) {\n"
                         "  mask = kv % 2 == q % 2;\n  score = score + bias[b];\n}\n").every_other
    q, k, v, cu, table, lens = paged([4, 2], [9, 20], 8, seed=2)
    bias = torch.tensor([0.5, -1.0])
    with torch.no_grad():
        out = at.PagedAttention().plan(cu, table, lens, kernel=kernel, bias=bias).run(q, k, v)
    want, _ = dense(q, k, v, cu, table, lens, mask=lambda i, j: j % 2 == i % 2)  # a per-sequence bias cancels
    torch.testing.assert_close(out, want, atol=2e-4, rtol=2e-4)


def test_errors():
    q, k, v, cu, table, lens = paged([2, 1], [10, 3], 8)
    with pytest.raises(attnc.Error, match="plan"):
        at.PagedAttention().run(q, k, v)
    bad = table.clone()
    bad[0, 1] = 99
    with pytest.raises(attnc.Error, match=r"page_table\[0\]\[1\] is 99, outside the cache's"):
        with torch.no_grad():
            at.PagedAttention().plan(cu, bad, lens).run(q, k, v)
    with pytest.raises(attnc.Error, match="sequence 0 has 2 queries but 1 keys"):
        with torch.no_grad():
            at.PagedAttention().plan(cu, table, torch.tensor([1, 3], dtype=torch.int32)).run(q, k, v)
    with pytest.raises(attnc.Error, match="no backward"):
        at.PagedAttention().plan(cu, table, lens).run(q.requires_grad_(), k, v)


def test_a_decode_step_compiles_to_one_graph():
    """torch.compile(fullgraph=True) of a step that runs a planned PagedAttention: the operator with
    the page table and key counts as arguments, the same output as eager."""
    q, k, v, cu, table, lens = paged([1, 1, 4], [33, 70, 9], 16, seed=9)
    attention = at.PagedAttention().plan(cu, table, lens, is_causal=True, sinks=torch.randn(4))

    def step(q, k, v):
        return attention.run(q, k, v) * 2.0

    with torch.no_grad():
        eager = step(q, k, v)
        torch._dynamo.reset()
        assert torch._dynamo.explain(step)(q, k, v).graph_break_count == 0
        compiled = torch.compile(step, fullgraph=True)(q, k, v)
    torch.testing.assert_close(compiled, eager)


def test_runs_reuse_the_plan_of_their_shapes():
    q, k, v, cu, table, lens = paged([3, 1], [40, 17], 8)
    attention = at.PagedAttention().plan(cu, table, lens, is_causal=True)
    with torch.no_grad():
        first = attention.run(q, k, v)
        second = attention.run(q * 2, k, v)  # another layer: the same shapes, one plan
        assert len(attention._plans) == 1
        assert not next(iter(attention._plans.values())).planned  # the cpu plans each call itself
        other = attention.run(q.to(torch.bfloat16), k.to(torch.bfloat16), v.to(torch.bfloat16))
        assert len(attention._plans) == 2
    want = dense(q, k, v, cu, table, lens, mask=lambda i, j: j <= i)[0]
    torch.testing.assert_close(first, want, atol=2e-4, rtol=2e-4)
    torch.testing.assert_close(second, dense(q * 2, k, v, cu, table, lens, mask=lambda i, j: j <= i)[0],
                               atol=2e-4, rtol=2e-4)
    torch.testing.assert_close(other.float(), want, atol=3e-2, rtol=3e-2)
    attention.plan(cu, table, lens)  # a new layout drops the plans
    assert not attention._plans


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_a_planned_cuda_run_is_captured_in_a_cuda_graph():
    q, k, v, cu, table, lens = paged([1, 1, 1, 20], [700, 33, 1, 300], 16, hq=8, hkv=2, d=64,
                                     dtype=torch.bfloat16)
    q, k, v = q.cuda(), k.cuda(), v.cuda()
    attention = at.PagedAttention().plan(cu, table, lens, is_causal=True)
    with torch.no_grad():
        attention.run(q, k, v)  # plans; a graph captures only the planned launches
        assert next(iter(attention._plans.values())).planned
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            out = attention.run(q, k, v)
        q.copy_(torch.randn_like(q))  # the next step's queries, in the captured tensor
        graph.replay()
        torch.cuda.synchronize()
        want = attention.run(q, k, v)
    assert torch.equal(out, want)
    torch.testing.assert_close(out.float().cpu(), dense(q.cpu(), k.cpu(), v.cpu(), cu, table, lens,
                                                         mask=lambda i, j: j <= i)[0], atol=3e-2, rtol=3e-2)
