"""attnc kernels as one PyTorch operator, `torch.ops.attnc.attention`: a torch.library.custom_op
with a fake (meta) implementation, so calls stay in the graph under torch.compile(fullgraph=True).

Kernels are registered by a string id (the op's first argument) rather than as one op each: a
kernel's buffers and scalars vary, and one schema with lists of them covers every kernel. The
schema has no list of strings: argument names travel comma-separated (they are identifiers).
"""

from typing import List, Tuple

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
    kern = KERNELS[kernel]
    if len(q.shape) == 4 and len(v.shape) == 4:
        b, h, lq, dv = q.shape[0], q.shape[1], q.shape[2], v.shape[3]
    else:  # the kernel's own checks report the shapes
        b = h = lq = dv = 0
    out = torch.empty((b, h, lq, dv), dtype=q.dtype, device=q.device)
    lse = torch.empty((b, h, lq) if kern.lse else (0,), dtype=torch.float32, device=q.device)
    kern.run_into(q, k, v, out, lse if kern.lse else None, dict(zip(_names(buffer_names), buffers)),
                  dict(zip(_names(scalar_names), scalars)), target or _device_target(q), threads)
    return out, lse


@attention.register_fake
def _attention_fake(kernel, q, k, v, buffers, buffer_names, scalars, scalar_names, target, threads):
    kern = KERNELS[kernel]
    out = q.new_empty((q.shape[0], q.shape[1], q.shape[2], v.shape[3]))
    lse = q.new_empty((q.shape[0], q.shape[1], q.shape[2]) if kern.lse else (0,), dtype=torch.float32)
    return out, lse


def call_kernel(kernel, q, k, v, buffers, scalars, target, threads):
    """(out, lse or None) of `kernel` on torch tensors, through torch.ops.attnc.attention."""
    out, lse = attention(kernel.id, q, k, v, list(buffers.values()), ",".join(buffers),
                         list(scalars.values()), ",".join(scalars), target or "", threads)
    return out, (lse if kernel.lse else None)
