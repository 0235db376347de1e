"""Autograd through torch.ops.attnc.attention: the kernel's backward pass (cpu) against SDPA and
dense PyTorch math (FlexAttention's CPU backward is not implemented in this torch), gradcheck, and
gradients of captured float buffers (a learnable ALiBi slope)."""

import pytest
import torch
import torch.nn.functional as F

import attnc
import attnc.torch as at

LIB = attnc.loads("import std.masks;\nkernel c { mask = causal; lse = true; }\n")


def leaf(*shape, seed):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed)).requires_grad_()


def test_gradients_against_sdpa_with_lse():
    q, k, v = leaf(2, 4, 37, 16, seed=0), leaf(2, 2, 37, 16, seed=1), leaf(2, 2, 37, 16, seed=2)
    out, lse = LIB.c(q, k, v, return_lse=True)
    (out.square().sum() + lse.sum()).backward()
    grads = [t.grad for t in (q, k, v)]
    q2, k2, v2 = (t.detach().clone().requires_grad_() for t in (q, k, v))
    ref = F.scaled_dot_product_attention(q2, k2, v2, is_causal=True, enable_gqa=True)
    scores = (q2 @ k2.repeat_interleave(2, 1).transpose(-1, -2)) / 4
    scores = scores.masked_fill(~torch.ones(37, 37, dtype=torch.bool).tril(), -float("inf"))
    (ref.square().sum() + torch.logsumexp(scores, -1).sum()).backward()
    for got, want in zip(grads, (q2.grad, k2.grad, v2.grad)):
        torch.testing.assert_close(got, want, atol=2e-5, rtol=1e-4)


@pytest.mark.filterwarnings("ignore:Input #.* is not a double precision")
def test_gradcheck():
    q, k, v = leaf(1, 2, 9, 4, seed=3), leaf(1, 1, 9, 4, seed=4), leaf(1, 1, 9, 4, seed=5)
    # f32 kernels: finite differences in f32 need a wide step and tolerance.
    assert torch.autograd.gradcheck(lambda q, k, v: LIB.c(q, k, v, return_lse=True), (q, k, v), eps=1e-2, atol=2e-2,
                                    rtol=2e-2)


def test_captured_float_buffers_get_gradients():
    L = 67
    q, k, v = leaf(2, 4, L, 16, seed=6), leaf(2, 2, L, 16, seed=7), leaf(2, 2, L, 16, seed=8)
    slopes = torch.exp2(-8.0 * (torch.arange(4) + 1) / 4).requires_grad_()

    def alibi(score, b, h, q_idx, kv_idx):
        return score + slopes[h] * (kv_idx - q_idx)

    mask = at.create_block_mask(lambda b, h, q_idx, kv_idx: q_idx >= kv_idx, 2, None, L, L)
    at.flex_attention(q, k, v, score_mod=alibi, block_mask=mask, enable_gqa=True).sum().backward()
    grads = [t.grad for t in (q, k, v, slopes)]
    q2, k2, v2, s2 = (t.detach().clone().requires_grad_() for t in (q, k, v, slopes))
    pos = torch.arange(L)
    scores = (q2 @ k2.repeat_interleave(2, 1).transpose(-1, -2)) / 4 + s2[:, None, None] * (pos - pos[:, None])
    scores = scores.masked_fill(pos[None, :] > pos[:, None], -float("inf"))
    (torch.softmax(scores, -1) @ v2.repeat_interleave(2, 1)).sum().backward()
    for got, want in zip(grads, (q2.grad, k2.grad, v2.grad, s2.grad)):
        torch.testing.assert_close(got, want, atol=1e-4, rtol=1e-4)


@pytest.mark.parametrize("target", ["vulkan", "reference"])
def test_host_copy_targets_give_the_cpu_gradients(target):
    """target='vulkan' (lavapipe in CI) and 'reference' run their own backward pass."""
    q, k, v = leaf(1, 4, 29, 8, seed=9), leaf(1, 2, 29, 8, seed=10), leaf(1, 2, 29, 8, seed=11)
    out = LIB.c(q, k, v, target=target)
    out.square().sum().backward()
    got = [t.grad for t in (q, k, v)]
    q2, k2, v2 = (t.detach().clone().requires_grad_() for t in (q, k, v))
    LIB.c(q2, k2, v2).square().sum().backward()
    for g, want in zip(got, (q2.grad, k2.grad, v2.grad)):
        torch.testing.assert_close(g, want, atol=1e-5, rtol=1e-4)


def test_the_backward_takes_strided_inputs_and_expanded_gradients():
    # The backward reads the callers' tensors in place: [B, L, H, D] views, and dOut as autograd
    # gives it (out.sum()'s is an expanded tensor of stride 0, made contiguous first).
    g = torch.Generator().manual_seed(6)
    blhd = [torch.randn(2, 29, h, 8, generator=g) for h in (4, 2, 2)]
    strided = [t.transpose(1, 2).requires_grad_() for t in blhd]
    dense = [t.transpose(1, 2).contiguous().requires_grad_() for t in blhd]
    assert not strided[0].is_contiguous()
    for ts in (strided, dense):
        out, lse = LIB.c(*ts, return_lse=True)
        (out.sum() + lse.sum()).backward()
    for a, b in zip(strided, dense):
        assert torch.equal(a.grad, b.grad)
