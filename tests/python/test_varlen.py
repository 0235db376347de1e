"""Ragged batches from PyTorch: attnc.torch.varlen_attention (torch.nn.attention.varlen's shape)
against torch SDPA run sequence by sequence, with empty and one-row sequences, GQA, windows,
sinks, a kernel of one's own that reads `b`, their gradients against a dense PyTorch formulation,
and the errors."""

import math

import pytest
import torch
import torch.nn.functional as F

import attnc
import attnc.torch as at


def packed(q_lens, k_lens, hq=4, hkv=2, d=16, dtype=torch.float32, seed=0):
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(sum(q_lens), hq, d, generator=g).to(dtype)
    k = torch.randn(sum(k_lens), hkv, d, generator=g).to(dtype)
    v = torch.randn(sum(k_lens), hkv, d, generator=g).to(dtype)
    cu = [torch.tensor([0, *torch.tensor(lens).cumsum(0).tolist()], dtype=torch.int32) for lens in (q_lens, k_lens)]
    return q, k, v, cu[0], cu[1]


def per_sequence(q, k, v, cu_q, cu_k, mask=None, sink=None, keep_double=False):
    """Out [Tq, Hq, D] and LSE [Tq, Hq] by dense math, one sequence at a time; `mask(i, j)` -> bool
    [Lq, Lk] of positions within the sequence. Differentiable; float64 with `keep_double`."""
    outs, lses = [], []
    groups = q.shape[1] // k.shape[1]
    for b in range(len(cu_q) - 1):
        qs = q[cu_q[b]:cu_q[b + 1]].double().transpose(0, 1)
        ks = k[cu_k[b]:cu_k[b + 1]].double().transpose(0, 1).repeat_interleave(groups, 0)
        vs = v[cu_k[b]:cu_k[b + 1]].double().transpose(0, 1).repeat_interleave(groups, 0)
        s = qs @ ks.transpose(-1, -2) / math.sqrt(q.shape[-1])
        if mask is not None:
            i, j = torch.arange(s.shape[1])[:, None], torch.arange(s.shape[2])[None, :]
            s = s.masked_fill(~mask(i, j), -math.inf)
        if sink is not None:
            s = torch.cat([s, sink.double()[:, None, None].expand(-1, s.shape[1], 1)], -1)
            vs = torch.cat([vs, vs.new_zeros(vs.shape[0], 1, vs.shape[2])], 1)
        lse = torch.logsumexp(s, -1)
        p = torch.nan_to_num(torch.exp(s - lse[..., None]))
        outs.append((p @ vs).transpose(0, 1))
        lses.append(lse.transpose(0, 1))
    out, lse = torch.cat(outs), torch.cat(lses)
    return (out, lse) if keep_double else (out.float(), lse.float())


LENGTHS = [([5, 0, 1, 77, 130], [5, 0, 1, 77, 130]), ([1, 1, 1], [700, 33, 1])]


@pytest.mark.parametrize("q_lens,k_lens", LENGTHS)
def test_against_sdpa_sequence_by_sequence(q_lens, k_lens):
    q, k, v, cu_q, cu_k = packed(q_lens, k_lens)
    out = at.varlen_attention(q, k, v, cu_q, cu_k, max(q_lens), max(k_lens))
    for b in range(len(q_lens)):
        if q_lens[b] == 0:
            continue
        qs, ks, vs = (t[c[b]:c[b + 1]].transpose(0, 1) for t, c in ((q, cu_q), (k, cu_k), (v, cu_k)))
        if ks.shape[1] == 0:
            want = torch.zeros_like(qs)  # no keys: a fully masked row is 0
        else:
            want = F.scaled_dot_product_attention(qs, ks, vs, enable_gqa=True)
        torch.testing.assert_close(out[cu_q[b]:cu_q[b + 1]].transpose(0, 1), want, atol=2e-5, rtol=1e-4)


def test_causal_window_and_lse():
    q_lens = [5, 0, 1, 77, 130]
    q, k, v, cu_q, cu_k = packed(q_lens, q_lens, seed=1)
    aux = type("Aux", (), {"lse": True})()
    out, lse = at.varlen_attention(q, k, v, cu_q, cu_k, is_causal=True, window_size=(20, 0), return_aux=aux)
    want, want_lse = per_sequence(q, k, v, cu_q, cu_k, mask=lambda i, j: (j <= i) & (i - j <= 20))
    assert out.shape == (sum(q_lens), 4, 16) and lse.shape == (sum(q_lens), 4)
    torch.testing.assert_close(out, want, atol=2e-5, rtol=1e-4)
    torch.testing.assert_close(lse, want_lse, atol=2e-5, rtol=1e-4)


def test_sinks_and_bf16():
    q_lens, k_lens = [3, 64, 1], [3, 64, 200]
    q, k, v, cu_q, cu_k = packed(q_lens, k_lens, dtype=torch.bfloat16, seed=2)
    sinks = torch.tensor([0.5, -1.0, 2.0, 0.0])
    out = at.varlen_attention(q, k, v, cu_q, cu_k, sinks=sinks)
    want, _ = per_sequence(q.float(), k.float(), v.float(), cu_q, cu_k, sink=sinks)
    assert out.dtype == torch.bfloat16
    torch.testing.assert_close(out.float(), want, atol=3e-2, rtol=3e-2)


def test_a_kernel_of_ones_own_reads_the_sequence_index():
    lib = attnc.loads("kernel biased(bias: tensor<f32>[batch]) { mask = kv <= q; score = score * bias[b]; }\n")
    q_lens = [4, 9, 1]
    q, k, v, cu_q, cu_k = packed(q_lens, q_lens, seed=3)
    bias = torch.tensor([1.0, 0.0, 3.0])
    out = at.varlen_attention(q, k, v, cu_q, cu_k, kernel=lib.biased, bias=bias)
    # Sequence 1 has bias 0: every kept score is 0, so each row is the mean of its kept values.
    vs = v[4:13].repeat_interleave(2, 1)
    want = vs.cumsum(0) / torch.arange(1, 10)[:, None, None]
    torch.testing.assert_close(out[4:13], want, atol=2e-5, rtol=1e-4)


def test_errors():
    q, k, v, cu_q, cu_k = packed([3, 4], [3, 4])
    with pytest.raises(attnc.Error, match="cu_seqlens_q decreases"):
        at.varlen_attention(q, k, v, torch.tensor([0, 5, 2, 7], dtype=torch.int32),
                            torch.tensor([0, 1, 2, 7], dtype=torch.int32))
    with pytest.raises(attnc.Error, match="ends at"):
        at.varlen_attention(q, k, v, torch.tensor([0, 3, 6], dtype=torch.int32), cu_k)
    with pytest.raises(attnc.Error, match="3 dimensions"):
        at.varlen_attention(q[None], k, v, cu_q, cu_k)
    aux = type("Aux", (), {"lse": True})()
    lib = attnc.loads("kernel plain { mask = kv <= q; }\n")
    with pytest.raises(attnc.Error, match="set lse = true"):
        at.varlen_attention(q, k, v, cu_q, cu_k, kernel=lib.plain, return_aux=aux)
    with pytest.raises(attnc.Error, match="no tensor argument 'sinks'"):
        at.varlen_attention(q, k, v, cu_q, cu_k, kernel=lib.plain, sinks=torch.zeros(4))


def test_causal_is_bottom_right_with_fewer_queries_than_keys():
    """torch's and FlashAttention's alignment: query i of a sequence with Lq queries and Lk keys
    sees keys j <= i + Lk - Lq; a window counts from that position too."""
    q_lens, k_lens = [3, 1, 20], [10, 7, 20]
    q, k, v, cu_q, cu_k = packed(q_lens, k_lens, seed=7)
    out = at.varlen_attention(q, k, v, cu_q, cu_k, is_causal=True, window_size=(4, 0))
    for b in range(len(q_lens)):
        off = k_lens[b] - q_lens[b]
        want, _ = per_sequence(q[cu_q[b]:cu_q[b + 1]], k[cu_k[b]:cu_k[b + 1]], v[cu_k[b]:cu_k[b + 1]],
                               [0, q_lens[b]], [0, k_lens[b]], mask=lambda i, j: (j <= i + off) & (i + off - j <= 4))
        torch.testing.assert_close(out[cu_q[b]:cu_q[b + 1]], want, atol=2e-5, rtol=1e-4)


def test_compiles_to_one_graph_with_its_backward():
    """torch.compile(fullgraph=True) of a step that calls varlen_attention: the operator with the
    boundaries as arguments, outputs and gradients as eager's."""
    q_lens = [5, 0, 1, 40]
    q, k, v, cu_q, cu_k = packed(q_lens, q_lens, seed=8)
    sinks = torch.tensor([0.5, -1.0, 2.0, 0.0])

    def step(q, k, v, sinks):
        return at.varlen_attention(q, k, v, cu_q, cu_k, is_causal=True, sinks=sinks).square().sum()

    def grads(fn):
        leaves = [t.clone().requires_grad_() for t in (q, k, v, sinks)]
        loss = fn(*leaves)
        return loss, torch.autograd.grad(loss, leaves)

    eager_loss, eager_grads = grads(step)
    torch._dynamo.reset()
    explanation = torch._dynamo.explain(step)(q, k, v, sinks)
    assert explanation.graph_break_count == 0
    compiled_loss, compiled_grads = grads(torch.compile(step, fullgraph=True))
    torch.testing.assert_close(compiled_loss, eager_loss)
    for a, b in zip(compiled_grads, eager_grads):
        torch.testing.assert_close(a, b)


def _grads(loss, tensors):
    return torch.autograd.grad(loss, tensors)


@pytest.mark.parametrize("target", ["cpu", "reference", "vulkan"])
def test_backward_against_a_dense_formulation(target):
    """Causal with sinks and GQA, loss through Out and the LSE: dQ, dK, dV and d sinks against the
    same loss through per_sequence (float64 autograd), empty and one-row sequences included."""
    q_lens, k_lens = [5, 0, 1, 40, 3], [5, 4, 30, 40, 0]
    q, k, v, cu_q, cu_k = packed(q_lens, k_lens, seed=4)
    sinks = torch.tensor([0.5, -1.0, 2.0, 0.0])
    g = torch.Generator().manual_seed(5)
    w, u = torch.randn(sum(q_lens), 4, 16, generator=g), torch.randn(sum(q_lens), 4, generator=g)
    aux = type("Aux", (), {"lse": True})()
    leaves = [t.clone().requires_grad_() for t in (q, k, v, sinks)]
    lib = attnc.loads("import std.masks;\nkernel k(sinks: tensor<f32>[heads]) "
                      "{ mask = causal_from_end; sink = sinks[h]; lse = true; }\n")
    out, lse = at.varlen_attention(*leaves[:3], cu_q, cu_k, kernel=lib.k, sinks=leaves[3], return_aux=aux,
                                   target=target)
    got = _grads((out * w).sum() + (lse * u).sum(), leaves)
    dense = [t.clone().double().requires_grad_() for t in (q, k, v, sinks)]
    offsets = [kl - ql for ql, kl in zip(q_lens, k_lens)]
    want_out, want_lse = [], []
    for b in range(len(q_lens)):  # causal_from_end: query i sees keys j <= i + kv_len - q_len
        o, l = per_sequence(dense[0][cu_q[b]:cu_q[b + 1]], dense[1][cu_k[b]:cu_k[b + 1]],
                            dense[2][cu_k[b]:cu_k[b + 1]], [0, q_lens[b]], [0, k_lens[b]],
                            mask=lambda i, j, off=offsets[b]: j <= i + off, sink=dense[3], keep_double=True)
        want_out.append(o), want_lse.append(l)
    want = _grads((torch.cat(want_out) * w).sum() + (torch.cat(want_lse) * u).sum(), dense)
    for name, a, b in zip(("dq", "dk", "dv", "dsinks"), got, want):
        torch.testing.assert_close(a.double(), b, atol=2e-4, rtol=1e-3, msg=name)


def test_backward_of_a_kernel_that_reads_the_sequence_index():
    """score * bias[b]: each sequence's scale gets its own gradient, summed over its rows."""
    lib = attnc.loads("kernel biased(bias: tensor<f32>[batch]) { mask = kv <= q; score = score * bias[b]; }\n")
    q_lens = [4, 9, 1]
    q, k, v, cu_q, cu_k = packed(q_lens, q_lens, seed=6)
    bias = torch.tensor([1.0, 0.5, 3.0], requires_grad=True)
    out = at.varlen_attention(q, k, v, cu_q, cu_k, kernel=lib.biased, bias=bias)
    (got,) = _grads((out ** 2).sum(), [bias])
    dense = bias.detach().double().requires_grad_()
    outs = []
    for b in range(len(q_lens)):
        qs = q[cu_q[b]:cu_q[b + 1]].double().transpose(0, 1)
        ks = k[cu_k[b]:cu_k[b + 1]].double().transpose(0, 1).repeat_interleave(2, 0)
        vs = v[cu_k[b]:cu_k[b + 1]].double().transpose(0, 1).repeat_interleave(2, 0)
        s = qs @ ks.transpose(-1, -2) / 4.0 * dense[b]
        n = s.shape[-1]
        s = s.masked_fill(torch.arange(n)[None, :] > torch.arange(n)[:, None], -math.inf)
        outs.append((torch.softmax(s, -1) @ vs).transpose(0, 1))
    (want,) = _grads((torch.cat(outs) ** 2).sum(), [dense])
    torch.testing.assert_close(got.double(), want, atol=2e-4, rtol=1e-3)
