"""attnc.torch: the attention-gym gallery written as FlexAttention callables, through the drop-in,
against flex_attention itself; tracing, caching and untraceable callables."""

import pytest
import torch
from torch.nn.attention import flex_attention as fa

import attnc
import attnc.torch as at

L = 67
g = torch.Generator().manual_seed(3)
DOC = torch.arange(L) // 20  # int64, as attention-gym builds it
PREFIX = torch.tensor([10, 30])
SLOPES = torch.exp2(-8.0 * (torch.arange(4) + 1) / 4)


def causal(b, h, q_idx, kv_idx):
    return q_idx >= kv_idx


def sliding_window(b, h, q_idx, kv_idx):
    return (q_idx - kv_idx <= 16) & (q_idx >= kv_idx)


def prefix_lm(b, h, q_idx, kv_idx):
    return (kv_idx <= PREFIX[b]) | causal(b, h, q_idx, kv_idx)


def document(b, h, q_idx, kv_idx):
    return (DOC[q_idx] == DOC[kv_idx]) & (q_idx >= kv_idx)


def natten(b, h, q_idx, kv_idx):
    qx, qy, kx, ky = q_idx % 8, q_idx // 8, kv_idx % 8, kv_idx // 8
    cx, cy = qx.clamp(1, 6), qy.clamp(2, 6)
    return ((cx - kx).abs() <= 1) & ((cy - ky).abs() <= 2)


def alibi(score, b, h, q_idx, kv_idx):
    return score + SLOPES[h] * (kv_idx - q_idx)


def softcap(score, b, h, q_idx, kv_idx):
    score = score / 20.0
    score = torch.tanh(score)
    return score * 20.0


def relative_position(score, b, h, q_idx, kv_idx):
    return score + (q_idx - kv_idx)


def alibi_softcap(score, b, h, q_idx, kv_idx):
    return softcap(alibi(score, b, h, q_idx, kv_idx), b, h, q_idx, kv_idx)


def masked_score(score, b, h, q_idx, kv_idx):
    return torch.where(q_idx >= kv_idx, score, -float("inf"))


GALLERY = [
    ("causal", causal, None),
    ("sliding_window", sliding_window, None),
    ("prefix_lm", prefix_lm, None),
    ("document", document, None),
    ("natten", natten, None),
    ("and_or_masks", fa.and_masks(causal, fa.or_masks(sliding_window, document)), None),
    ("alibi", causal, alibi),
    ("softcap", None, softcap),
    ("relative_position", None, relative_position),
    ("alibi_softcap", document, alibi_softcap),
    ("where_score", None, masked_score),
]


@pytest.mark.parametrize("mask_mod,score_mod", [c[1:] for c in GALLERY], ids=[c[0] for c in GALLERY])
def test_gallery_against_flex_attention(qkv, mask_mod, score_mod):
    q, k, v = qkv
    ref_mask = fa.create_block_mask(mask_mod, 2, None, L, L, device="cpu") if mask_mod else None
    ref, ref_lse = fa.flex_attention(q, k, v, score_mod=score_mod, block_mask=ref_mask, enable_gqa=True,
                                     return_lse=True)
    mask = at.create_block_mask(mask_mod, 2, None, L, L) if mask_mod else None
    out, lse = at.flex_attention(q, k, v, score_mod=score_mod, block_mask=mask, enable_gqa=True, return_lse=True)
    torch.testing.assert_close(out, ref, atol=2e-5, rtol=1e-4)
    torch.testing.assert_close(lse, ref_lse, atol=2e-5, rtol=1e-4)
    # FlexAttention's own BlockMask works too: its mask_mod is traced.
    torch.testing.assert_close(at.flex_attention(q, k, v, score_mod=score_mod, block_mask=ref_mask, enable_gqa=True),
                               ref, atol=2e-5, rtol=1e-4)


def test_bf16_and_scale(qkv):
    q, k, v = (t.bfloat16() for t in qkv)
    ref = fa.flex_attention(q, k, v, score_mod=alibi, block_mask=fa.create_block_mask(document, None, None, L, L,
                                                                                       device="cpu"),
                            scale=0.3, enable_gqa=True)
    out = at.flex_attention(q, k, v, score_mod=alibi, block_mask=at.create_block_mask(document, None, None, L, L),
                            scale=0.3, enable_gqa=True)
    assert out.dtype == torch.bfloat16
    torch.testing.assert_close(out, ref, atol=2e-2, rtol=2e-2)


def test_to_attn_text():
    text = at.to_attn(document, softcap)
    assert "kernel flex(buf0: tensor<i32>[d0], c0: float)" in text
    assert "mask = ((buf0[q] == buf0[kv]) && (q >= kv));" in text
    assert "score = (tanh((score / c0)) * c0);" in text
    assert "c0 = 20.0" in text  # the numbers' values, in a comment
    attnc.loads(text)  # what to_attn prints compiles
    folded = at.to_attn(document, softcap, constants=True)
    assert "kernel flex(buf0: tensor<i32>[d0])" in folded
    assert "score = (tanh((score / 20.0)) * 20.0);" in folded


def test_captured_tensors_are_buffers_and_numbers_constants(qkv):
    q, k, v = qkv
    doc = torch.zeros(L, dtype=torch.int64)
    window = 8

    def mask(b, h, q_idx, kv_idx):
        return (doc[q_idx] == doc[kv_idx]) & (q_idx - kv_idx < window) & (q_idx >= kv_idx)

    assert "< c0)" in at.to_attn(mask) and "c0 = 8" in at.to_attn(mask)
    block_mask = at.create_block_mask(mask, None, None, L, L)
    at.flex_attention(q, k, v, block_mask=block_mask, enable_gqa=True)
    compiles = at._compiled.cache_info().misses
    doc[30:] = 1  # new values, same structure: no new compile, and the new values are used
    out = at.flex_attention(q, k, v, block_mask=block_mask, enable_gqa=True)
    assert at._compiled.cache_info().misses == compiles
    ref = fa.flex_attention(q, k, v, block_mask=fa.create_block_mask(mask, None, None, L, L, device="cpu"),
                            enable_gqa=True)
    torch.testing.assert_close(out, ref, atol=2e-5, rtol=1e-4)
    window = 4  # a captured number is a run-time argument too: the same kernel, the new value used
    out = at.flex_attention(q, k, v, block_mask=block_mask, enable_gqa=True)
    assert at._compiled.cache_info().misses == compiles
    ref = fa.flex_attention(q, k, v, block_mask=fa.create_block_mask(mask, None, None, L, L, device="cpu"),
                            enable_gqa=True)
    torch.testing.assert_close(out, ref, atol=2e-5, rtol=1e-4)
    # constants=True folds them: one kernel per value.
    at.flex_attention(q, k, v, block_mask=block_mask, enable_gqa=True, constants=True)
    assert at._compiled.cache_info().misses == compiles + 1
    window = 5
    at.flex_attention(q, k, v, block_mask=block_mask, enable_gqa=True, constants=True)
    assert at._compiled.cache_info().misses == compiles + 2


def test_untraceable_callables_name_the_construct(qkv):
    q, k, v = qkv

    def python_if(b, h, q_idx, kv_idx):
        if q_idx > kv_idx:
            return True
        return False

    with pytest.raises(attnc.Error, match=r"Python control flow"):
        at.create_block_mask(python_if, None, None, L, L)

    def cumsum(score, b, h, q_idx, kv_idx):
        return score + torch.cumsum(q_idx, 0)

    with pytest.raises(attnc.Error, match=r"cannot trace torch\.cumsum"):
        at.flex_attention(q, k, v, score_mod=cumsum, enable_gqa=True)

    def bitwise(b, h, q_idx, kv_idx):
        return (q_idx & 1) == 0

    with pytest.raises(attnc.Error, match=r"'&' is traced only on booleans"):
        at.to_attn(bitwise)
    with pytest.raises(attnc.Error, match=r"pass enable_gqa=True"):
        at.flex_attention(q, k, v)
    with pytest.raises(attnc.Error, match=r"made for lengths \(67, 67\)"):
        at.flex_attention(q[:, :, :10], k, v, block_mask=at.create_block_mask(causal, None, None, L, L),
                          enable_gqa=True)


def _dense_reference(q, k, v, score_fn):
    """Attention with an elementwise score function, in float64 from the same inputs."""
    q, k, v = (t.double() for t in (q, k, v))
    k, v = (t.repeat_interleave(q.shape[1] // t.shape[1], dim=1) for t in (k, v))
    s = score_fn(q @ k.transpose(-1, -2) / q.shape[-1] ** 0.5)
    return (torch.softmax(s, dim=-1) @ v).float()


@pytest.mark.parametrize("name,score_mod,dense", [
    ("cube", lambda s, b, h, i, j: torch.pow(s, 3), lambda s: s ** 3),
    ("cube_float_exponent", lambda s, b, h, i, j: s ** 3.0, lambda s: s ** 3),
    ("inverse_square", lambda s, b, h, i, j: torch.pow(s + 4.0, -2) * 4.0, lambda s: (s + 4.0) ** -2 * 4.0),
    ("power_of_two", lambda s, b, h, i, j: 2.0 ** s, lambda s: 2.0 ** s),
    ("odd_power_past_products", lambda s, b, h, i, j: torch.pow(s * 0.5, 33) * 1e-6,
     lambda s: (s * 0.5) ** 33 * 1e-6),
    ("zeroth", lambda s, b, h, i, j: torch.pow(s, 0) + s, lambda s: 1.0 + s),
    ("square", lambda s, b, h, i, j: torch.square(s) - s.square() + torch.float_power(s, 3), lambda s: s ** 3),
])
def test_pow_has_torch_meaning(qkv, name, score_mod, dense):
    # torch.pow(s, 3) was traced as exp(3 * log(s)): NaN for every negative score.
    q, k, v = qkv
    out = at.flex_attention(q, k, v, score_mod=score_mod, enable_gqa=True)
    assert not out.isnan().any(), name
    torch.testing.assert_close(out, _dense_reference(q, k, v, dense), atol=1e-4, rtol=1e-4)


def test_pow_without_an_exact_form_is_an_error(qkv):
    q, k, v = qkv
    # A non-integer exponent keeps torch's meaning: NaN for a negative base, as torch.pow gives.
    assert "exp((c0 * log(score)))" in at.to_attn(None, lambda s, b, h, i, j: torch.pow(s, 0.5))
    with pytest.raises(attnc.Error, match=r"traced base with a traced exponent"):
        at.to_attn(None, lambda s, b, h, i, j: torch.pow(s, s))
    with pytest.raises(attnc.Error, match=r"base <= 0"):
        at.to_attn(None, lambda s, b, h, i, j: (-2.0) ** s)
    with pytest.raises(attnc.Error, match=r"negative integer powers"):
        at.to_attn(lambda b, h, i, j: (i - j) ** -1 > 0)
    with pytest.raises(attnc.Error, match=r"\.item\(\)"):
        at.to_attn(None, lambda s, b, h, i, j: s * i.item())


def test_noop_and_or_masks(qkv):
    q, k, v = qkv
    for noop in (at.noop_mask, fa.noop_mask):  # torch's own reads b.device and b.new_ones
        out = at.flex_attention(q, k, v, block_mask=at.create_block_mask(noop, None, None, L, L), enable_gqa=True)
        torch.testing.assert_close(out, fa.flex_attention(q, k, v, enable_gqa=True), atol=2e-5, rtol=1e-4)
    ours = at.and_masks(causal, at.or_masks(sliding_window, document))
    theirs = fa.and_masks(causal, fa.or_masks(sliding_window, document))
    assert at.to_attn(ours) == at.to_attn(theirs)
    out = at.flex_attention(q, k, v, block_mask=at.create_block_mask(ours, None, None, L, L), enable_gqa=True)
    ref = fa.flex_attention(q, k, v, block_mask=fa.create_block_mask(theirs, None, None, L, L, device="cpu"),
                            enable_gqa=True)
    torch.testing.assert_close(out, ref, atol=2e-5, rtol=1e-4)


def test_int64_buffers_on_a_compiled_kernel(qkv):
    # attnc.loads(...).flex took only int32 index buffers, while the drop-in converted silently.
    q, k, v = qkv
    text = at.to_attn(document)
    kernel = attnc.loads(text).flex
    out = kernel(q, k, v, buf0=DOC)  # int64
    torch.testing.assert_close(out, kernel(q, k, v, buf0=DOC.int()))
    with pytest.raises(attnc.Error, match=r"outside the 32-bit range"):
        kernel(q, k, v, buf0=DOC + 2**40)


def test_softcap_values_share_one_kernel(qkv):
    # FlexAttention users' top complaint: a new scalar, a new compile. Here it is an argument.
    q, k, v = qkv

    def softcapped(cap):
        return lambda s, b, h, i, j: cap * torch.tanh(s / cap)

    at.flex_attention(q, k, v, score_mod=softcapped(30.0), enable_gqa=True)
    misses = at._compiled.cache_info().misses
    for cap in (31.0, 5.0):
        out = at.flex_attention(q, k, v, score_mod=softcapped(cap), enable_gqa=True)
        torch.testing.assert_close(out, _dense_reference(q, k, v, lambda x: cap * torch.tanh(x / cap)),
                                   atol=1e-4, rtol=1e-4)
    assert at._compiled.cache_info().misses == misses


def test_return_aux_and_kernel_options(qkv):
    q, k, v = qkv
    out, lse = at.flex_attention(q, k, v, score_mod=alibi, enable_gqa=True, return_lse=True)
    out2, aux = at.flex_attention(q, k, v, score_mod=alibi, enable_gqa=True, return_aux=fa.AuxRequest(lse=True))
    torch.testing.assert_close(out2, out)
    torch.testing.assert_close(aux.lse, lse)
    assert aux.max_scores is None
    out3, aux = at.flex_attention(q, k, v, score_mod=alibi, enable_gqa=True,
                                  return_aux=fa.AuxRequest(lse=True, max_scores=True))
    torch.testing.assert_close(out3, out)
    torch.testing.assert_close(aux.lse, lse)
    # The row maxima of the modified scores, in natural units as flex_attention's (which gives none
    # on the CPU), from the dense scores; a fully masked row's is -inf.
    qd, kd = q.double(), k.double().repeat_interleave(q.shape[1] // k.shape[1], dim=1)
    i, j = torch.arange(q.shape[2])[:, None], torch.arange(k.shape[2])[None, :]
    dense = qd @ kd.transpose(-1, -2) / q.shape[-1] ** 0.5 + SLOPES.double()[:, None, None] * (j - i)
    torch.testing.assert_close(aux.max_scores.double(), dense.amax(-1), atol=1e-5, rtol=1e-5)
    assert not aux.max_scores.requires_grad
    late = at.create_block_mask(lambda b, h, q_idx, kv_idx: kv_idx < q_idx - 5, None, None, q.shape[2], k.shape[2])
    _, aux = at.flex_attention(q, k, v, block_mask=late, enable_gqa=True, return_aux=fa.AuxRequest(max_scores=True))
    assert aux.lse is None
    assert torch.isneginf(aux.max_scores[..., :6]).all() and torch.isfinite(aux.max_scores[..., 6:]).all()
    with pytest.warns(UserWarning, match=r"ignores kernel_options BLOCK_M"):
        at.flex_attention(q, k, v, enable_gqa=True, kernel_options={"BLOCK_M": 64})


def test_block_mask_helpers():
    docs = torch.arange(300) // 90

    def doc_per_head(b, h, q_idx, kv_idx):
        return (docs[q_idx] == docs[kv_idx]) & (q_idx >= kv_idx) | (kv_idx < 10 * h + b)

    ours = at.create_block_mask(doc_per_head, 2, 3, 300, 260, BLOCK_SIZE=64)
    theirs = fa.create_block_mask(doc_per_head, 2, 3, 300, 260, device="cpu", BLOCK_SIZE=64)
    assert torch.equal(ours.to_dense(), theirs.to_dense().to(torch.int32))
    assert ours.sparsity() == pytest.approx(theirs.sparsity())
    assert "██" in ours.to_string() and ours.to_string().count("(") == 4  # limit=4 (batch, head) grids
    one = ours[1, 2]
    assert one.shape == (1, 1, 300, 260)
    assert torch.equal(one.to_dense()[0, 0], ours.to_dense()[1, 2])
    with pytest.raises(attnc.Error, match=r"index batch and head only"):
        ours[0, 0, 1]


def test_sinks_keyword_against_a_dense_formulation():
    """`sinks=`: a learnable sink per head (gpt-oss), out, lse and the sinks' gradient against the
    same softmax written densely with the sink as one more column of value 0."""
    gen = torch.Generator().manual_seed(5)
    q, k, v = (torch.randn(2, 4, n, 16, generator=gen, dtype=torch.float64) for n in (37, 41, 41))
    sinks = torch.randn(4, generator=gen, requires_grad=True)
    qf, kf, vf = (x.float() for x in (q, k, v))
    mask = at.create_block_mask(causal, None, None, 37, 41)
    out, lse = at.flex_attention(qf, kf, vf, block_mask=mask, sinks=sinks, return_lse=True)
    s64 = sinks.detach().double().requires_grad_()
    scores = (q @ k.transpose(-1, -2) / 4).masked_fill(~(torch.arange(37)[:, None] >= torch.arange(41)), -torch.inf)
    scores = torch.cat([scores, s64[None, :, None, None].expand(2, 4, 37, 1)], -1)
    want_lse = torch.logsumexp(scores, -1)
    want = torch.exp(scores - want_lse[..., None])[..., :41] @ v
    torch.testing.assert_close(out.double(), want, atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(lse.double(), want_lse, atol=1e-5, rtol=1e-5)
    grad = torch.randn(want.shape, generator=gen, dtype=torch.float64)
    (out.double() * grad).sum().backward()
    (want * grad).sum().backward()
    torch.testing.assert_close(sinks.grad.double(), s64.grad, atol=1e-5, rtol=1e-5)
    with pytest.raises(attnc.Error, match=r"sinks must be a float tensor of shape \[4\]"):
        at.flex_attention(qf, kf, vf, sinks=torch.zeros(3))
