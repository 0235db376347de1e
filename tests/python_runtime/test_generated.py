"""attnc.load_generated: kernels generated ahead, run without the compiler (docs/python.md, "A
runtime-only build"). Everywhere: the folder's kernels and arguments, and the errors that come
before any device memory is touched. On a GPU: forward, backward with a buffer gradient,
torch.compile(fullgraph=True) and the out-of-range report, each against torch on the same inputs."""

import pytest

import attnc

try:
    import torch
except ImportError:  # the checks before the device need no torch
    torch = None
GPU = pytest.mark.skipif(torch is None or not torch.cuda.is_available(), reason="needs torch and a CUDA GPU")


def test_the_folder_lists_its_kernels(generated):
    lib = attnc.load_generated(generated)
    assert {"causal_bf16", "alibi_bf16", "doc_f16", "causal_f32"} <= set(lib.kernels)
    k = lib.alibi_bf16
    assert (k.dtype, k.head_dim, k.value_dim, k.lse) == ("bf16", 64, 64, True)
    assert k.args == [("slopes", True, "f32", ["heads"])]
    assert k._core.has_backward and not lib.causal_f32._core.has_backward  # f32: no tensor-core backward


def test_a_folder_without_manifest_is_an_error(tmp_path):
    with pytest.raises(attnc.Error, match="no manifest.json"):
        attnc.load_generated(tmp_path)


def test_host_tensors_are_refused(generated):
    lib = attnc.load_generated(generated)
    q = torch.zeros(1, 2, 8, 64) if torch is not None else pytest.importorskip("numpy").zeros((1, 2, 8, 64), "float32")
    with pytest.raises(attnc.Error, match="CUDA tensors"):
        lib.causal_f32(q, q, q)


def reference(q, k, v, bias=None, doc=None):
    """Causal attention in f32 (GQA by repeating K/V heads), plus ALiBi's slopes[h] * (kv - q)."""
    g = q.shape[1] // k.shape[1]
    k, v = k.float().repeat_interleave(g, 1), v.float().repeat_interleave(g, 1)
    s = q.float() @ k.transpose(-1, -2) / q.shape[-1] ** 0.5
    lq, lkv = q.shape[2], k.shape[2]
    pos = torch.arange(lkv, device=q.device)[None, :] - torch.arange(lq, device=q.device)[:, None]
    if bias is not None:
        s = s + bias[None, :, None, None] * pos
    keep = pos <= 0
    if doc is not None:
        keep = keep & (doc[:lq, None] == doc[None, :lkv])
    return torch.softmax(s.masked_fill(~keep, float("-inf")), -1) @ v


def qkv(dtype, lq=133, lkv=133, hq=4, hkv=2, requires_grad=False):
    g = torch.Generator(device="cuda").manual_seed(0)
    make = lambda h, n: torch.randn(2, h, n, 64, device="cuda", generator=g).to(dtype).requires_grad_(requires_grad)  # noqa: E731
    return make(hq, lq), make(hkv, lkv), make(hkv, lkv)


@GPU
def test_forward_matches_torch(generated):
    lib = attnc.load_generated(generated)
    q, k, v = qkv(torch.bfloat16)
    slopes = torch.tensor([0.5, 0.25, 0.125, 0.0625], device="cuda")
    torch.testing.assert_close(lib.causal_bf16(q, k, v).float(), reference(q, k, v), atol=3e-2, rtol=3e-2)
    torch.testing.assert_close(lib.alibi_bf16(q, k, v, slopes=slopes).float(), reference(q, k, v, slopes),
                               atol=3e-2, rtol=3e-2)
    doc = torch.arange(133, device="cuda", dtype=torch.int32) // 50
    q16, k16, v16 = (t.half() for t in (q, k, v))
    torch.testing.assert_close(lib.doc_f16(q16, k16, v16, doc=doc).float(), reference(q16, k16, v16, doc=doc),
                               atol=1e-2, rtol=1e-2)
    attnc.check_errors()


@GPU
def test_backward_with_a_buffer_gradient(generated):
    lib = attnc.load_generated(generated)
    q, k, v = qkv(torch.bfloat16, requires_grad=True)
    slopes = torch.tensor([0.5, 0.25, 0.125, 0.0625], device="cuda", requires_grad=True)
    dout = torch.randn(2, 4, 133, 64, device="cuda").to(torch.bfloat16)
    lib.alibi_bf16(q, k, v, slopes=slopes).backward(dout)
    got = [t.grad.float().clone() for t in (q, k, v, slopes)]
    for t in (q, k, v, slopes):
        t.grad = None
    reference(q, k, v, slopes).backward(dout.float())
    for g, t, name in zip(got, (q, k, v, slopes), "q k v slopes".split()):
        scale = max(1.0, t.grad.float().abs().max().item())
        assert (g - t.grad.float()).abs().max().item() / scale <= 3e-2, name
    attnc.check_errors()


@GPU
def test_torch_compile_fullgraph(generated):
    lib = attnc.load_generated(generated)
    q, k, v = qkv(torch.bfloat16)
    fn = torch.compile(lambda q, k, v: lib.causal_bf16(q, k, v) * 2, fullgraph=True)
    torch.testing.assert_close(fn(q, k, v).float(), 2 * reference(q, k, v), atol=6e-2, rtol=3e-2)


@GPU
def test_an_out_of_range_read_raises_at_check_errors(generated):
    lib = attnc.load_generated(generated)
    q, k, v = qkv(torch.bfloat16)
    slopes = torch.ones(1, device="cuda")  # 4 heads read slopes[h]: h >= 1 is out of range
    lib.alibi_bf16(q, k, v, slopes=slopes)  # returns at once
    with pytest.raises(attnc.Error, match=r"buffer 'slopes' index [1-3] is out of range \[0, 1\)"):
        attnc.check_errors()
    attnc.check_errors()  # reported once, then re-armed


@GPU
def test_a_kernel_without_lse_has_no_backward(generated):
    lib = attnc.load_generated(generated)
    q, k, v = qkv(torch.float32, requires_grad=True)
    with pytest.raises(attnc.Error, match="without lse = true"):
        lib.causal_f32(q, k, v).sum().backward()
