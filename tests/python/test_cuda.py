"""CUDA tensors: the cuda target in place on PyTorch's current stream, forward and backward,
against the cpu target. The GPU cases run only where torch.cuda.is_available(); the routing and
its errors (device checks made before any device memory is touched) run everywhere."""

import os

import pytest
import torch

import attnc
import attnc.ops

GPU = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")

SRC = """import std.masks;
import std.documents;
import std.scores;
kernel causal_bf16 { mask = causal; dtype = bf16; lse = true; }
kernel causal_f32 { mask = causal; }
kernel doc_f16(doc: tensor<i32>[len]) { mask = document_causal(doc); dtype = f16; }
kernel alibi_bf16(slopes: tensor<f32>[heads]) { mask = causal; score = alibi(slopes); dtype = bf16; }
"""
LIB = attnc.loads(SRC)


def inputs(dtype, device, b=2, hq=4, hkv=2, length=133, d=64, seed=0, layout_blhd=False):
    """Q, K, V (GQA) on `device`; with layout_blhd, strided views of [B, L, H, D] tensors."""
    g = torch.Generator().manual_seed(seed)
    out = []
    for h in (hq, hkv, hkv):
        t = torch.randn(b, length, h, d, generator=g) if layout_blhd else torch.randn(b, h, length, d, generator=g)
        t = t.to(dtype=dtype, device=device)
        out.append(t.transpose(1, 2) if layout_blhd else t)
    return out


def close(got, want, tol):
    torch.testing.assert_close(got.detach().float().cpu(), want.detach().float().cpu(), atol=tol, rtol=tol)


# --- Everywhere: the routing and the errors that come before any device memory is touched.


def test_the_target_follows_the_device():
    # No target named: the extension runs the backend registry's target for q's device (the cpu
    # for host tensors), exactly as when it is named.
    assert attnc.ops._stream(torch.empty(1)) == 0
    q, k, v = inputs(torch.float32, "cpu", d=16)
    assert torch.equal(LIB.causal_f32(q, k, v), LIB.causal_f32(q, k, v, target="cpu"))
    with pytest.raises(attnc.Error, match="unknown target 'gpu'"):
        LIB.causal_f32(q, k, v, target="gpu")


def test_meta_tensors_are_refused():
    q, k, v = inputs(torch.float32, "meta", d=16)
    with pytest.raises(attnc.Error, match="q is on meta"):
        LIB.causal_f32(q, k, v)


def spec(t, device=None):
    """attnc.ops._spec of a CPU tensor, claiming to live on `device` (DLPack type, index)."""
    s = attnc.ops._spec(t)
    return s if device is None else (*s, *device)


def core_run(kernel, q, k, v, buffers, target, devices):
    """Kernel._core.run on CPU tensors that claim the devices in `devices` (name -> (type, index));
    every call here fails in the device checks, before any memory is read."""
    out = torch.empty(*q.shape[:3], v.shape[3])
    claim = lambda name, t: spec(t, devices.get(name))  # noqa: E731
    kernel._core.run(claim("q", q), claim("k", k), claim("v", v), claim("out", out), None,
                     {n: claim(n, b) for n, b in buffers.items()}, {}, target, 0)


CUDA0, CUDA1 = (2, 0), (2, 1)


def test_mixed_devices_are_refused():
    q, k, v = inputs(torch.float32, "cpu", d=16)
    with pytest.raises(attnc.Error, match="k is on cuda:0, not cpu"):
        core_run(LIB.causal_f32, q, k, v, {}, "cpu", {"k": CUDA0})
    doc = torch.zeros(133, dtype=torch.int32)
    qh, kh, vh = inputs(torch.float16, "cpu", d=16)
    on_gpu = {"q": CUDA0, "k": CUDA0, "v": CUDA0, "out": CUDA0}
    with pytest.raises(attnc.Error, match="argument 'doc' is on cpu, not cuda:0 like q"):
        core_run(LIB.doc_f16, qh, kh, vh, {"doc": doc}, "cuda", on_gpu)
    with pytest.raises(attnc.Error, match="v is on cuda:1, not cuda:0"):
        core_run(LIB.doc_f16, qh, kh, vh, {"doc": doc}, "cuda", {**on_gpu, "v": CUDA1, "doc": CUDA0})


def test_the_cuda_target_takes_gpu_tensors_of_device_0():
    q, k, v = inputs(torch.float32, "cpu", d=16)
    with pytest.raises(attnc.Error, match="target 'cuda' takes tensors in GPU memory; q is on cpu"):
        LIB.causal_f32(q, k, v, target="cuda")
    with pytest.raises(attnc.Error, match=r"device 0 \(cuda:0\); q is on cuda:1"):
        core_run(LIB.causal_f32, q, k, v, {}, "cuda", {"q": CUDA1, "k": CUDA1, "v": CUDA1, "out": CUDA1})


@pytest.mark.skipif(torch.cuda.is_available() or os.path.exists("/dev/nvidia0"), reason="a GPU is present")
def test_without_a_gpu_the_cuda_target_is_a_clear_error():
    # The extension loads the driver lazily: here it reports that there is none (or no device).
    q, k, v = inputs(torch.float32, "cpu", d=16)
    with pytest.raises(RuntimeError, match="CUDA"):
        core_run(LIB.causal_f32, q, k, v, {}, "cuda", {"q": CUDA0, "k": CUDA0, "v": CUDA0, "out": CUDA0})


# --- On a GPU: the cuda target against the cpu target.


@GPU
def test_forward_matches_the_cpu_target():
    q, k, v = inputs(torch.bfloat16, "cuda", layout_blhd=True)  # strided views, taken as they are
    out, lse = LIB.causal_bf16(q, k, v, return_lse=True)
    assert out.device == q.device and lse.device == q.device and out.dtype == torch.bfloat16
    want, want_lse = LIB.causal_bf16(*(t.cpu() for t in (q, k, v)), return_lse=True)
    close(out, want, 2e-2)
    close(lse, want_lse, 2e-3)
    out32 = LIB.causal_f32(*inputs(torch.float32, "cuda", d=32))
    close(out32, LIB.causal_f32(*inputs(torch.float32, "cpu", d=32)), 1e-4)


@GPU
def test_buffers_on_a_side_stream():
    q, k, v = inputs(torch.float16, "cuda")
    doc = (torch.arange(133, dtype=torch.int32) // 40).cuda()
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        out = LIB.doc_f16(q, k, v, doc=doc)  # on `side`, not the default stream
    torch.cuda.current_stream().wait_stream(side)
    close(out, LIB.doc_f16(q.cpu(), k.cpu(), v.cpu(), doc=doc.cpu()), 2e-3)
    with pytest.raises(attnc.Error, match="argument 'doc' is on cpu, not cuda:0 like q"):
        LIB.doc_f16(q, k, v, doc=doc.cpu())


def leaves(tensors):
    return [t.detach().clone().requires_grad_() for t in tensors]


@GPU
def test_backward_matches_the_cpu_target():
    base = inputs(torch.bfloat16, "cuda", layout_blhd=True)
    slopes = torch.tensor([0.5, 0.25, 0.125, 0.0625])
    gpu = leaves([*base, slopes.cuda()])
    cpu = leaves([*(t.cpu() for t in base), slopes])
    grads = []
    for q, k, v, s in (gpu, cpu):
        out = LIB.alibi_bf16(q, k, v, slopes=s)
        (out.float().square().sum()).backward()
        grads.append([t.grad for t in (q, k, v, s)])
    for got, want in zip(*grads):
        assert got.device.type == "cuda"
        close(got, want, 5e-2 * max(1.0, want.abs().max().item()))


@GPU
def test_lse_gradients_match_the_cpu_target():
    base = inputs(torch.bfloat16, "cuda", hq=2, hkv=2, length=70, d=128)
    grads = []
    for ts in (leaves(base), leaves([t.cpu() for t in base])):
        out, lse = LIB.causal_bf16(*ts, return_lse=True)
        (out.float().sum() + lse.sum()).backward()  # an expanded dOut, and a dLSE
        grads.append([t.grad for t in ts])
    for got, want in zip(*grads):
        close(got, want, 5e-2 * max(1.0, want.abs().max().item()))


@GPU
def test_the_cuda_backward_scope_is_a_clear_error():
    q, k, v = leaves(inputs(torch.float32, "cuda", d=32))
    out = LIB.causal_f32(q, k, v)
    with pytest.raises(attnc.Error, match="CUDA backward supports bf16 and f16 with head dimensions 64 or 128"):
        out.sum().backward()


@GPU
def test_compiled_calls_on_cuda_equal_eager():
    q, k, v = inputs(torch.bfloat16, "cuda")

    def f(q, k, v):
        return LIB.causal_bf16(q, k, v) * 2

    close(torch.compile(f, fullgraph=True)(q, k, v), f(q, k, v), 0)
