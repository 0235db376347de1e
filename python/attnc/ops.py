"""attnc kernels as one PyTorch operator, `torch.ops.attnc.attention`: a torch.library.custom_op
with a fake (meta) implementation, so calls stay in the graph under torch.compile(fullgraph=True),
and an autograd formula: `torch.ops.attnc.attention_backward`, the kernel's backward pass (cpu or
reference), giving dQ, dK, dV and the gradients of f32 buffers that require them.

Kernels are registered by a string id (the op's first argument) rather than as one op each: a
kernel's buffers and scalars vary, and one schema with lists of them covers every kernel. The
schema has no list of strings: argument names travel comma-separated (they are identifiers).
"""

from typing import List, Optional, Tuple

import torch

from ._core import Error
from .library import KERNELS


def _names(joined):
    return joined.split(",") if joined else []


def _device_target(t):
    if t.device.type == "cpu":
        return "cpu"
    raise Error(f"attnc runs kernels from Python on CPU tensors (and target='reference' or 'vulkan'); "
                f"q is on {t.device}: the cuda target is not wired to the Python package yet")


@torch.library.custom_op("attnc::attention", mutates_args=())
def attention(kernel: str, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, buffers: List[torch.Tensor],
              buffer_names: str, scalars: List[float], scalar_names: str, target: str,
              threads: int) -> Tuple[torch.Tensor, torch.Tensor]:
    """Out and LSE of attnc kernel `kernel` (LSE is empty unless the kernel sets lse)."""
    q, k, v, buffers = q.detach(), k.detach(), v.detach(), [b.detach() for b in buffers]
    return _run(KERNELS[kernel], q, k, v, dict(zip(_names(buffer_names), buffers)),
                dict(zip(_names(scalar_names), scalars)), target, threads)


def _run(kern, q, k, v, buffers, scalars, target, threads):
    """The operator's eager body: Out and LSE (empty unless the kernel sets lse) into new tensors."""
    if len(q.shape) == 4 and len(v.shape) == 4:
        b, h, lq, dv = q.shape[0], q.shape[1], q.shape[2], v.shape[3]
    else:  # the kernel's own checks report the shapes
        b = h = lq = dv = 0
    out = torch.empty((b, h, lq, dv), dtype=q.dtype, device=q.device)
    lse = torch.empty((b, h, lq) if kern.lse else (0,), dtype=torch.float32, device=q.device)
    kern.run_into(_view(q), _view(k), _view(v), _view(out), _view(lse) if kern.lse else None,
                  {n: _view(b) for n, b in buffers.items()}, scalars, target or _device_target(q), threads)
    return out, lse


def _view(t):
    """A NumPy view of a CPU tensor (same memory and strides) where NumPy has the dtype: torch's
    __dlpack__ costs ~4.5 µs a tensor, `.numpy()` ~1.5 µs. bf16 and other devices go as they are."""
    if t.device.type != "cpu" or t.dtype == torch.bfloat16:
        return t
    return (t.detach() if t.requires_grad else t).numpy()


@attention.register_fake
def _attention_fake(kernel, q, k, v, buffers, buffer_names, scalars, scalar_names, target, threads):
    kern = KERNELS[kernel]
    out = q.new_empty((q.shape[0], q.shape[1], q.shape[2], v.shape[3]))
    lse = q.new_empty((q.shape[0], q.shape[1], q.shape[2]) if kern.lse else (0,), dtype=torch.float32)
    return out, lse


@torch.library.custom_op("attnc::attention_backward", mutates_args=())
def attention_backward(kernel: str, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, buffers: List[torch.Tensor],
                       buffer_names: str, scalars: List[float], scalar_names: str, target: str, threads: int,
                       dout: torch.Tensor, dlse: Optional[torch.Tensor],
                       grad_buffers: str) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor, List[torch.Tensor]]:
    """dQ, dK, dV and the gradients of the buffers named in `grad_buffers` (comma-separated) of
    loss = sum(dout * out) + sum(dlse * lse)."""
    kern = KERNELS[kernel]
    names, wanted = _names(buffer_names), _names(grad_buffers)
    dq, dk, dv = (torch.empty(t.shape, dtype=t.dtype, device=t.device) for t in (q, k, v))
    dbuffers = {n: torch.empty(b.shape, dtype=torch.float32, device=b.device) for n, b in zip(names, buffers)
                if n in wanted}
    kern._core.backward(q.detach(), k.detach(), v.detach(), dict(zip(names, (b.detach() for b in buffers))),
                        dict(zip(_names(scalar_names), scalars)), dout, dlse, dq, dk, dv, dbuffers,
                        target or _device_target(q), threads)
    return dq, dk, dv, [dbuffers[n] for n in wanted]


@attention_backward.register_fake
def _attention_backward_fake(kernel, q, k, v, buffers, buffer_names, scalars, scalar_names, target, threads, dout,
                             dlse, grad_buffers):
    wanted = _names(grad_buffers)
    grads = [b.new_empty(b.shape, dtype=torch.float32) for n, b in zip(_names(buffer_names), buffers) if n in wanted]
    return q.new_empty(q.shape), k.new_empty(k.shape), v.new_empty(v.shape), grads


def _setup_context(ctx, inputs, output):
    kernel, q, k, v, buffers, buffer_names, scalars, scalar_names, target, threads = inputs
    ctx.save_for_backward(q, k, v, *buffers)
    ctx.call = (kernel, buffer_names, scalars, scalar_names, target, threads)
    # Only float buffers can have gradients; the kernel's backward checks that its score reads them.
    ctx.grad_buffers = ",".join(n for n, b in zip(_names(buffer_names), buffers) if b.requires_grad)


def _backward(ctx, dout, dlse):
    kernel, buffer_names, scalars, scalar_names, target, threads = ctx.call
    q, k, v, *buffers = ctx.saved_tensors
    dlse = dlse if KERNELS[kernel].lse else None
    dq, dk, dv, dbuffers = attention_backward(kernel, q, k, v, buffers, buffer_names, scalars, scalar_names, target,
                                              threads, dout, dlse, ctx.grad_buffers)
    grads = dict(zip(_names(ctx.grad_buffers), dbuffers))
    return (None, dq, dk, dv, [grads.get(n) for n in _names(buffer_names)], None, [None] * len(scalars), None, None,
            None)


attention.register_autograd(_backward, setup_context=_setup_context)


def _plain_eager(tensors):
    """True when the operator would only run its eager body: plain tensors, no autograd to record,
    not traced by torch.compile and no torch function or dispatch mode (a profiler, FakeTensorMode)
    that should see the operator."""
    if torch.compiler.is_compiling() or torch._C._is_torch_function_mode_enabled() or \
            torch._C._get_dispatch_mode(torch._C._TorchDispatchModeKey.FAKE) is not None or \
            torch._C._len_torch_dispatch_stack() > 0:
        return False
    grad = torch.is_grad_enabled()
    return all(type(t) is torch.Tensor and not (grad and t.requires_grad) for t in tensors)


def call_kernel(kernel, q, k, v, buffers, scalars, target, threads):
    """(out, lse or None) of `kernel` on torch tensors, through torch.ops.attnc.attention — or, when
    the operator would only run its eager body (no autograd, no tracing, no mode), that body
    directly: the custom op's dispatch costs about as much again as that whole call on small inputs."""
    if _plain_eager((q, k, v, *buffers.values())):
        out, lse = _run(kernel, q, k, v, buffers, scalars, target, threads)
        return out, (lse if kernel.lse else None)
    out, lse = attention(kernel.id, q, k, v, list(buffers.values()), ",".join(buffers),
                         list(scalars.values()), ",".join(scalars), target or "", threads)
    return out, (lse if kernel.lse else None)
