"""attnc.load / attnc.loads: every stdlib definition and every sample kernel, against FlexAttention,
SDPA and attnc's reference target, on CPU (f32 and bf16, GQA, LSE); NumPy inputs; errors."""

import glob
import os

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from torch.nn.attention.flex_attention import create_block_mask, flex_attention

import attnc
from conftest import ROOT

HERE = os.path.dirname(os.path.abspath(__file__))
L = 67
g = torch.Generator().manual_seed(1)
SLOPES = torch.rand(4, generator=g)
SCALES = torch.rand(4, generator=g) + 0.5
TABLE = torch.randn(4, 17, generator=g)
T5_TABLE = torch.randn(4, 32, generator=g)
DOC = (torch.arange(L) // 20).int()
START = torch.tensor([0, 20, 40, 60], dtype=torch.int32)
GLOBAL = torch.rand(L, generator=g) < 0.1


def causal(b, h, q, kv):
    return q >= kv


# Each kernel of stdlib_kernels.attn: its arguments and its meaning as FlexAttention callables.
STDLIB = {
    "k_full": ({}, None, lambda s, b, h, q, kv: s * 0.5),
    "k_causal": ({}, causal, lambda s, b, h, q, kv: s / 2.0),
    "k_sliding": ({"slopes": SLOPES}, lambda b, h, q, kv: (q >= kv) & (q - kv < 16),
                  lambda s, b, h, q, kv: s + SLOPES[h] * (kv - q)),
    "k_bidir": ({}, lambda b, h, q, kv: (q - kv).abs() <= 8,
                lambda s, b, h, q, kv: s - torch.exp2(-8.0 * (h + 1) / 4) * (q - kv).abs()),
    "k_dilated": ({}, lambda b, h, q, kv: (q >= kv) & ((q - kv) % 3 == 0) & ((q - kv) // 3 < 8),
                  lambda s, b, h, q, kv: 5.0 * torch.tanh(s / 5.0)),
    "k_prefix": ({"scales": SCALES}, lambda b, h, q, kv: (kv < 20) | (q >= kv), lambda s, b, h, q, kv: s * SCALES[h]),
    "k_chunked": ({}, lambda b, h, q, kv: (q >= kv) & (q // 24 == kv // 24),
                  lambda s, b, h, q, kv: s - 0.5 * torch.log(1.0 + 0.25 * (q - kv).abs())),
    "k_block_causal": ({"table": TABLE}, lambda b, h, q, kv: kv // 16 <= q // 16,
                       lambda s, b, h, q, kv: s + TABLE[h, torch.clamp(kv - q, -8, 8) + 8]),
    "k_longformer": ({}, lambda b, h, q, kv: ((q - kv).abs() <= 6) | (q < 3) | (kv < 3), None),
    "k_sinks": ({}, lambda b, h, q, kv: (q >= kv) & ((kv < 4) | (q - kv < 12)), None),
    "k_natten": ({}, lambda b, h, q, kv: ((torch.clamp(q % 8, 1, 6) - kv % 8).abs() <= 1)
                 & ((torch.clamp(q // 8, 2, 6) - kv // 8).abs() <= 2), None),
    "k_same_document": ({"doc": DOC}, lambda b, h, q, kv: DOC[q] == DOC[kv], None),
    "k_document_causal": ({"doc": DOC}, lambda b, h, q, kv: (DOC[q] == DOC[kv]) & (q >= kv), None),
    "k_packed": ({"doc": DOC, "start": START}, lambda b, h, q, kv: (DOC[q] == DOC[kv]) & (q >= kv) & (q - kv < 10),
                 None),
    "k_with_global": ({"is_global": GLOBAL}, lambda b, h, q, kv: (q >= kv) | GLOBAL[q] | GLOBAL[kv], None),
    "k_longformer_flags": ({"is_global": GLOBAL},
                           lambda b, h, q, kv: ((q - kv).abs() <= 5) | GLOBAL[q] | GLOBAL[kv], None),
}


@pytest.fixture(scope="module")
def stdlib_lib():
    return attnc.load(os.path.join(HERE, "stdlib_kernels.attn"))


def flex(q, k, v, mask_mod, score_mod):
    mask = create_block_mask(mask_mod, None, None, q.shape[2], k.shape[2], device="cpu") if mask_mod else None
    return flex_attention(q, k, v, score_mod=score_mod, block_mask=mask, enable_gqa=True, return_lse=True)


def test_every_stdlib_definition_has_a_kernel(stdlib_lib):
    text = "".join(attnc.stdlib().values())
    import re

    defined = set(re.findall(r"^(?:mask|score)\s+(\w+)", text, re.M))
    used = open(os.path.join(HERE, "stdlib_kernels.attn")).read()
    assert defined and all(re.search(rf"\b{name}\b", used) for name in defined), defined


@pytest.mark.parametrize("name", sorted(STDLIB))
def test_stdlib_against_flex_attention(stdlib_lib, qkv, name):
    args, mask_mod, score_mod = STDLIB[name]
    q, k, v = qkv
    out, lse = getattr(stdlib_lib, name)(q, k, v, return_lse=True, **args)
    ref, ref_lse = flex(q, k, v, mask_mod, score_mod)
    torch.testing.assert_close(out, ref, atol=2e-5, rtol=1e-4)
    torch.testing.assert_close(lse, ref_lse, atol=2e-5, rtol=1e-4)


# causal_from_end with fewer queries than keys (FlashAttention's bottom-right causal): the last
# query sees every key; with as many it is causal.
@pytest.mark.parametrize("lq", [20, 67])
def test_causal_from_end_against_flex_attention(stdlib_lib, qkv, lq):
    q, k, v = qkv
    q = q[:, :, -lq:].contiguous()
    out, lse = stdlib_lib.k_causal_from_end(q, k, v, return_lse=True)
    ref, ref_lse = flex(q, k, v, lambda b, h, i, kv: i + (L - lq) >= kv, None)
    torch.testing.assert_close(out, ref, atol=2e-5, rtol=1e-4)
    torch.testing.assert_close(lse, ref_lse, atol=2e-5, rtol=1e-4)


def test_t5_bias_against_the_reference(stdlib_lib, qkv):
    q, k, v = qkv
    kernel = stdlib_lib.k_block_diagonal
    out, lse = kernel(q, k, v, table=T5_TABLE, return_lse=True)
    ref, ref_lse = kernel(q, k, v, table=T5_TABLE, return_lse=True, target="reference")
    torch.testing.assert_close(out, ref, atol=2e-5, rtol=1e-4)
    torch.testing.assert_close(lse, ref_lse, atol=2e-5, rtol=1e-4)


# Per query head and query tile of 16, two selected key tiles: its own and one two tiles on.
TOPK = torch.tensor([[[t, (t + 2 + h) % 5] for t in range(5)] for h in range(4)], dtype=torch.int32)


@pytest.mark.parametrize("name, args", [("k_natten_morton", {}), ("k_topk_tiles", {"topk": TOPK})])
def test_gelu_morton_and_topk_against_the_reference(stdlib_lib, qkv, name, args):
    q, k, v = qkv
    kernel = getattr(stdlib_lib, name)
    out, lse = kernel(q, k, v, return_lse=True, **args)
    ref, ref_lse = kernel(q, k, v, return_lse=True, target="reference", **args)
    torch.testing.assert_close(out, ref, atol=2e-5, rtol=1e-4)
    torch.testing.assert_close(lse, ref_lse, atol=2e-5, rtol=1e-4)


def test_against_sdpa(stdlib_lib, qkv):
    q, k, v = qkv
    ref = F.scaled_dot_product_attention(q, k, v, is_causal=True, scale=0.5 / 4, enable_gqa=True)
    torch.testing.assert_close(stdlib_lib.k_causal(q, k, v), ref, atol=2e-5, rtol=1e-4)
    ref = F.scaled_dot_product_attention(q, k, v, scale=0.5 / 4, enable_gqa=True)
    torch.testing.assert_close(stdlib_lib.k_full(q, k, v), ref, atol=2e-5, rtol=1e-4)


def test_bf16_against_flex_attention_and_sdpa(qkv):
    lib = attnc.loads("import std.masks;\nimport std.documents;\n"
                      "kernel c { mask = causal; dtype = bf16; lse = true; }\n"
                      "kernel d(doc: tensor<i32>[len]) { mask = document_causal(doc); dtype = bf16; }\n")
    q, k, v = (t.bfloat16() for t in qkv)
    out, lse = lib.c(q, k, v, return_lse=True)
    assert out.dtype == torch.bfloat16 and lse.dtype == torch.float32
    ref, ref_lse = flex(q, k, v, causal, None)
    torch.testing.assert_close(out, ref, atol=2e-2, rtol=2e-2)
    torch.testing.assert_close(lse, ref_lse, atol=2e-2, rtol=2e-2)
    sdpa = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
    torch.testing.assert_close(out, sdpa, atol=2e-2, rtol=2e-2)
    ref, _ = flex(q, k, v, STDLIB["k_document_causal"][1], None)
    torch.testing.assert_close(lib.d(q, k, v, doc=DOC), ref, atol=2e-2, rtol=2e-2)


def _sample_args(kernel, heads):
    args = {}
    for name, is_buffer, elem, dims in kernel.args:
        if not is_buffer:
            args[name] = 5
        elif name == "doc":
            args[name] = (torch.arange(L) // 20).int()
        elif name == "start":
            args[name] = torch.tensor([0, 20, 40, 60], dtype=torch.int32)
        elif elem == "bool":
            args[name] = torch.rand(L) < 0.1
        elif elem == "f32":
            args[name] = torch.rand([heads if d == "heads" else 64 for d in dims])
        else:
            pytest.fail(f"no input for argument {name} of {kernel.name}")
    return args


SAMPLES = sorted(glob.glob(os.path.join(ROOT, "samples", "*.attn")))


@pytest.mark.parametrize("path", SAMPLES, ids=[os.path.basename(p) for p in SAMPLES])
def test_samples_against_the_reference(path):
    lib = attnc.load(path)
    for name in lib.kernels:
        kernel = lib[name]
        dtype = {"f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16}[kernel.dtype]
        d = kernel.head_dim or 16
        gen = torch.Generator().manual_seed(2)
        q = torch.randn(1, 4, L, d, generator=gen).to(dtype)
        k, v = (torch.randn(1, 2, L, d, generator=gen).to(dtype) for _ in range(2))
        args = _sample_args(kernel, 4)
        out = kernel(q, k, v, **args)
        ref = kernel(q, k, v, target="reference", **args)
        tol = 2e-5 if dtype == torch.float32 else 2e-2
        torch.testing.assert_close(out, ref, atol=tol, rtol=tol, msg=lambda m: f"{name}: {m}")


def test_numpy_inputs_and_outputs(stdlib_lib, qkv):
    q, k, v = qkv
    out, lse = stdlib_lib.k_document_causal(q.numpy(), k.numpy(), v.numpy(), doc=DOC.numpy(), return_lse=True)
    assert isinstance(out, np.ndarray) and out.dtype == np.float32 and lse.shape == (2, 4, L)
    ref = stdlib_lib.k_document_causal(q, k, v, doc=DOC)
    np.testing.assert_allclose(out, ref.numpy(), atol=1e-6)


def test_zero_copy_strided_inputs(stdlib_lib):
    # [B, L, H, D] transposed to [B, H, L, D]: strided, with a contiguous last dimension.
    q, k, v = (torch.randn(2, L, 2, 16).transpose(1, 2) for _ in range(3))
    ref = F.scaled_dot_product_attention(q, k, v, is_causal=True, scale=0.5 / 4)
    torch.testing.assert_close(stdlib_lib.k_causal(q, k, v), ref, atol=2e-5, rtol=1e-4)


def test_errors(stdlib_lib, qkv):
    q, k, v = qkv
    assert issubclass(attnc.Error, ValueError)
    with pytest.raises(attnc.Error, match=r"q must be f32 \(kernel 'k_causal' has dtype f32\), got f64"):
        stdlib_lib.k_causal(q.double(), k, v)
    wide = torch.randn(2, 4, L, 32)[..., ::2]
    with pytest.raises(attnc.Error, match=r"q: the last dimension must be contiguous \(stride 1\), got stride 2"):
        stdlib_lib.k_causal(wide, k, v)
    with pytest.raises(attnc.Error, match=r"missing tensor argument 'doc'"):
        stdlib_lib.k_same_document(q, k, v)
    # int64 index tensors (torch's default) are taken for i32 buffers, range-checked (issue 32).
    torch.testing.assert_close(stdlib_lib.k_same_document(q, k, v, doc=DOC.long()),
                               stdlib_lib.k_same_document(q, k, v, doc=DOC.int()))
    with pytest.raises(attnc.Error, match=r"argument 'doc' holds values outside the 32-bit range"):
        stdlib_lib.k_same_document(q, k, v, doc=DOC.long() - 2**33)
    with pytest.raises(attnc.Error, match=r"argument 'doc' must be i32, got f32"):
        stdlib_lib.k_same_document(q, k, v, doc=DOC.float())
    with pytest.raises(attnc.Error, match=r"kernel 'k_causal' has no scalar argument 'window'"):
        stdlib_lib.k_causal(q, k, v, window=3)
    offset = attnc.loads("kernel x(off: int) { mask = q - kv < off; }")
    for bad in (2 ** 31, 1e99, float("nan"), 5.5, -3.7):
        with pytest.raises(attnc.Error, match=r"argument 'off' is an int: it must be a whole number from "
                                              r"-2147483648 to 2147483647"):
            offset.x(q, k, v, off=bad)
    with pytest.raises(attnc.Error, match=r"the query heads \(4\) must be a multiple of the key/value heads \(3\)"):
        stdlib_lib.k_causal(q, torch.randn(2, 3, L, 16), torch.randn(2, 3, L, 16))
    with pytest.raises(attnc.Error, match=r"does not compute the LSE"):
        attnc.loads("kernel x { }").x(q, k, v, return_lse=True)
    with pytest.raises(attnc.Error, match=r"<string>:1:19: error: unknown name 'casual'"):
        attnc.loads("kernel x { mask = casual; }")
    with pytest.raises(attnc.Error, match=r"error: "):
        attnc.load(os.path.join(HERE, "no-such-file.attn"))
    with pytest.raises(AttributeError, match=r"no kernel 'k_causl'"):
        stdlib_lib.k_causl


def test_sinks_and_row_maxima_on_numpy_torch_and_the_reference():
    """A kernel with `sink` and `return_max`: NumPy and torch inputs, the cpu and reference targets
    agree; fully masked rows give max -inf and LSE the sink; the sink tensor gets its gradient."""
    lib = attnc.loads("kernel k(sinks: tensor<f32>[heads]) {\n  mask = kv < q - 3;\n  sink = sinks[h];\n"
                      "  lse = true;\n  return_max = true;\n}\n", "sinks.attn")
    assert lib.k.return_max
    rng = np.random.default_rng(2)
    q, k, v = (rng.standard_normal((1, 2, 19, 16)).astype(np.float32) for _ in range(3))
    sinks = rng.standard_normal(2).astype(np.float32)
    out, lse, mx = lib.k(q, k, v, sinks=sinks, return_lse=True, return_max=True)
    ref = lib.k(q, k, v, sinks=sinks, return_lse=True, return_max=True, target="reference")
    for got, want in zip((out, lse, mx), ref):
        np.testing.assert_allclose(got, want, atol=1e-5, rtol=1e-5)
    assert np.isneginf(mx[..., :4]).all() and np.isfinite(mx[..., 4:]).all()
    np.testing.assert_allclose(lse[..., :4], np.broadcast_to(sinks[None, :, None], (1, 2, 4)), rtol=1e-6)
    assert (out[..., :4, :] == 0).all()
    ts = torch.tensor(sinks, requires_grad=True)
    tout, tmx = lib.k(*(torch.tensor(x) for x in (q, k, v)), sinks=ts, return_max=True)
    np.testing.assert_allclose(tout.detach().numpy(), out, atol=1e-6)
    np.testing.assert_array_equal(tmx.numpy(), mx)
    assert not tmx.requires_grad
    tout.sum().backward()
    assert ts.grad is not None and torch.isfinite(ts.grad).all()
    with pytest.raises(attnc.Error, match=r"does not write row maxima"):
        attnc.loads("kernel p { }\n", "p.attn").p(q, k, v, return_max=True)
