"""FP8 kernels (dtype e4m3, e5m2) from attnc.load on torch.float8_e4m3fn and float8_e5m2 tensors:
against torch SDPA on the dequantized inputs (value * descale), per-tensor and per-head descale
factors, GQA, lengths that are not tile multiples, rows with no key, the reference target, and the
errors of descale factors of the wrong shape and of a backward."""

import pytest
import torch
import torch.nn.functional as F

import attnc

SOURCE = """
import std.masks;
kernel causal8 { mask = causal; dtype = e4m3; lse = true; }
kernel plain5 { dtype = e5m2; }
"""

FP8 = {"causal8": torch.float8_e4m3fn, "plain5": torch.float8_e5m2}


@pytest.fixture(scope="module")
def lib():
    return attnc.loads(SOURCE)


def inputs(dtype, B, Hq, Hkv, Lq, Lkv, D, per_head, seed):
    g = torch.Generator().manual_seed(seed)
    q, k, v = (torch.randn(B, h, n, D, generator=g) * 3 for h, n in ((Hq, Lq), (Hkv, Lkv), (Hkv, Lkv)))
    shape = (B, Hkv) if per_head else (1,)
    scales = [torch.rand(shape, generator=g) + 0.25 for _ in range(3)]
    return (q.to(dtype), k.to(dtype), v.to(dtype)), scales


def sdpa(q, k, v, scales, causal):
    """SDPA in double on the dequantized inputs, key/value heads repeated for GQA."""
    group = q.shape[1] // k.shape[1]

    def dequantize(x, s, repeat):
        s = s.double()
        x = x.double() * (s[:, :, None, None] if s.dim() == 2 else s)
        return x.repeat_interleave(repeat, 1)

    q_scale = scales[0] if scales[0].dim() == 1 else scales[0].repeat_interleave(group, 1)
    Q = dequantize(q, q_scale, 1)
    K, V = dequantize(k, scales[1], group), dequantize(v, scales[2], group)
    mask = torch.ones(q.shape[2], k.shape[2], dtype=torch.bool).tril() if causal else None
    return F.scaled_dot_product_attention(Q, K, V, attn_mask=mask)


# One head dim throughout: the cpu target compiles a kernel per (D, Dv) it is called with.
@pytest.mark.parametrize("name,shape,per_head", [
    ("causal8", (2, 4, 2, 37, 37, 32), False),
    ("causal8", (1, 6, 2, 70, 70, 32), True),
    ("plain5", (2, 2, 1, 1, 93, 32), True),  # decoding, grouped heads
    ("plain5", (1, 3, 3, 45, 20, 32), False),
])
def test_fp8_kernels_match_sdpa_on_dequantized_inputs(lib, name, shape, per_head):
    (q, k, v), scales = inputs(FP8[name], *shape, per_head, seed=shape[4])
    out = getattr(lib, name)(q, k, v, q_descale=scales[0], k_descale=scales[1], v_descale=scales[2])
    assert out.dtype == torch.bfloat16 and out.shape == (*q.shape[:3], v.shape[3])
    want = sdpa(q, k, v, scales, name == "causal8")
    assert (out.double() - want).abs().max() <= 1e-2 * max(want.abs().max(), 1.0)


def test_absent_factors_are_one_and_numbers_are_factors(lib):
    (q, k, v), _ = inputs(torch.float8_e5m2, 1, 2, 2, 9, 9, 32, False, seed=3)
    one = torch.ones(1)
    torch.testing.assert_close(lib.plain5(q, k, v), lib.plain5(q, k, v, q_descale=one, k_descale=one, v_descale=one))
    # A power of two scales Out exactly.
    torch.testing.assert_close(lib.plain5(q, k, v, v_descale=4.0).float(), 4 * lib.plain5(q, k, v).float())


@pytest.mark.parametrize("target", ["reference", "vulkan"])
def test_other_targets_agree(lib, target):
    """The reference, and vulkan (lavapipe in CI), which converts FP8 on load."""
    (q, k, v), scales = inputs(torch.float8_e4m3fn, 1, 4, 2, 33, 33, 32, True, seed=5)
    kw = dict(q_descale=scales[0], k_descale=scales[1], v_descale=scales[2], return_lse=True)
    out, lse = lib.causal8(q, k, v, **kw)
    ref_out, ref_lse = lib.causal8(q, k, v, target=target, **kw)
    assert (out.float() - ref_out.float()).abs().max() <= 1e-2 * ref_out.float().abs().max()
    assert (lse - ref_lse).abs().max() <= 1e-3


def test_rows_with_no_key_are_zero_with_lse_minus_infinity(lib):
    # No keys at all (Lkv = 0): every row is fully masked (test_cpu_fp8 masks some rows of many).
    (q, k, v), scales = inputs(torch.float8_e4m3fn, 1, 2, 1, 6, 0, 32, True, seed=7)
    out, lse = lib.causal8(q, k, v, k_descale=scales[1], return_lse=True)
    assert (out == 0).all() and (lse == float("-inf")).all()


def test_descale_of_the_wrong_shape_is_named(lib):
    (q, k, v), _ = inputs(torch.float8_e4m3fn, 2, 4, 2, 9, 9, 32, False, seed=9)
    with pytest.raises(attnc.Error, match=r"k_descale must be f32 \[1\] \(the whole tensor\) or \[2, 2\] "
                                          r"\(per batch entry and key/value head\), got f32 \[2, 4\]"):
        lib.causal8(q, k, v, k_descale=torch.ones(2, 4))
    with pytest.raises(attnc.Error, match=r"q_descale must be f32"):
        lib.causal8(q, k, v, q_descale=torch.ones(1, dtype=torch.float64))


def test_fp8_kernels_have_no_backward(lib):
    with pytest.raises(Exception, match="has no backward pass: compile a bf16 copy"):
        attnc.loads("kernel k { dtype = e5m2; backward = true; }")
