"""attnc kernels as one PyTorch operator, `torch.ops.attnc.attention`: a torch.library.custom_op
with a fake (meta) implementation, so calls stay in the graph under torch.compile(fullgraph=True),
and an autograd formula: `torch.ops.attnc.attention_backward`, the kernel's backward pass (cpu,
cuda, reference or vulkan), giving dQ, dK, dV and the gradients of f32 buffers that require them.

Kernels are registered by a string id (the op's first argument) rather than as one op each: a
kernel's buffers and scalars vary, and one schema with lists of them covers every kernel. The
schema has no list of strings: argument names travel comma-separated (they are identifiers).
"""

from typing import List, Optional, Tuple

import torch

from ._backend import KERNELS, Error


def _names(joined):
    return joined.split(",") if joined else []


def _check_device(q):
    """Tensors attnc can hand to a kernel: in host or CUDA memory (meta tensors have no data)."""
    if not (q.is_cpu or q.is_cuda):
        raise Error(f"attnc runs kernels from Python on CPU and CUDA tensors; q is on {q.device}")


def _stream(q):
    """The stream a call on GPU tensors launches on: PyTorch's current stream of q's device (0 for
    host tensors). The target itself is the extension's choice for q's device when none is named."""
    return torch.cuda.current_stream(q.device).cuda_stream if q.is_cuda else 0


# The packed layouts' int32 tensors, by their names in the extension: a ragged batch's boundaries,
# a paged cache's table and key counts. None of them: a dense batch.
_LAYOUT = ("cu_seqlens_q", "cu_seqlens_k", "page_table", "kv_lens")


def _layout(cu_seqlens_q, cu_seqlens_k, page_table=None, kv_lens=None):
    """The operator's layout arguments as _run's `ragged` dict (None: a dense batch)."""
    given = {n: t for n, t in zip(_LAYOUT, (cu_seqlens_q, cu_seqlens_k, page_table, kv_lens)) if t is not None}
    return given or None


@torch.library.custom_op("attnc::attention", mutates_args=())
def attention(kernel: str, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, buffers: List[torch.Tensor],
              buffer_names: str, scalars: List[float], scalar_names: str, target: str, threads: int,
              cu_seqlens_q: Optional[torch.Tensor] = None, cu_seqlens_k: Optional[torch.Tensor] = None,
              page_table: Optional[torch.Tensor] = None,
              kv_lens: Optional[torch.Tensor] = None) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Out, LSE and row maxima of attnc kernel `kernel` (the LSE whether or not the kernel sets lse;
    the maxima empty, shape [0], unless it sets return_max). With cu_seqlens_q and cu_seqlens_k a
    ragged batch, with cu_seqlens_q, page_table and kv_lens a paged cache (docs/python.md): q is then
    [Tq, Hq, D], Out [Tq, Hq, Dv], the LSE and maxima [Tq, Hq]."""
    # Always with the LSE: autograd saves it for the backward, which then need not run the forward.
    out, lse, mx = _run(KERNELS[kernel], q, k, v, dict(zip(_names(buffer_names), buffers)),
                        dict(zip(_names(scalar_names), scalars)), target, threads, True,
                        ragged=_layout(cu_seqlens_q, cu_seqlens_k, page_table, kv_lens))
    return out, lse, (mx if mx is not None else lse.new_empty((0,)))


def as_descale(t, q):
    """An FP8 kernel's descale factor as the extension takes it: a float32 tensor on q's device (a
    number: [1])."""
    if not isinstance(t, torch.Tensor):
        return torch.tensor([float(t)], dtype=torch.float32, device=q.device)
    return t


# FP8 kernels write a bfloat16 Out (docs/language.md, section 7).
_FP8_TYPES = (torch.float8_e4m3fn, torch.float8_e5m2)


def _run(kern, q, k, v, buffers, scalars, target, threads, with_lse, ragged=None, backward_next=False,
         descales=None):
    """The operator's eager body: Out, with `with_lse` the LSE (else None) and for a kernel that
    sets return_max the row maxima (else None), into new tensors; a kernel without lse then runs
    with it (the backward reads the forward's LSE). `ragged`: the int32 tensors of a packed batch by
    their names in the extension (cu_seqlens_q and cu_seqlens_k; or cu_seqlens_q, page_table and
    kv_lens for a paged cache), q [Tq, Hq, D]: Out [Tq, Hq, Dv], LSE and maxima [Tq, Hq].
    `backward_next`: autograd recorded the call (the extension may compile the backward meanwhile).
    `descales`: an FP8 kernel's q_descale, k_descale, v_descale by name."""
    out, lse, mx = _outputs(kern, q, v, with_lse, ragged)
    _check_device(q)
    target = target or ""  # the extension picks the target of q's device
    extra = _extra_specs(mx, ragged)
    if backward_next:
        extra["backward_next"] = True
    if descales:
        extra.update((name, _spec(t)) for name, t in descales.items())
    kern._core.run(_spec(q), _spec(k), _spec(v), _spec(out), None if lse is None else _spec(lse),
                   {n: _spec(b) for n, b in buffers.items()} if buffers else {}, scalars, target, threads,
                   _stream(q), **extra)
    return out, lse, mx


def _outputs(kern, q, v, with_lse, ragged):
    """New Out, LSE (with `with_lse`, else None) and row maxima (for a kernel that sets return_max,
    else None) for a call of `kern` on q and v, on q's device."""
    rows = 2 if ragged else 3  # the dimensions of a row index: [Tq, Hq] or [B, Hq, Lq]
    if len(q.shape) == rows + 1 and len(v.shape) >= 1:
        shape = (*q.shape[:rows], v.shape[-1])
    else:  # the kernel's own checks report the shapes
        shape = (0,) * (rows + 1)
    # `device=` costs ~1 µs a call even when it is the CPU.
    device = {} if q.is_cpu else {"device": q.device}
    out = torch.empty(shape, dtype=torch.bfloat16 if q.dtype in _FP8_TYPES else q.dtype, **device)
    lse = torch.empty(shape[:rows], dtype=torch.float32, **device) if with_lse else None
    mx = torch.empty(shape[:rows], dtype=torch.float32, **device) if getattr(kern, "return_max", False) else None
    return out, lse, mx


def _extra_specs(mx, ragged):
    """The extension's keyword tensors of a call: the row maxima and a packed batch's layout."""
    extra = {} if mx is None else {"max": _spec(mx)}
    if ragged:
        extra.update((name, _spec(t)) for name, t in ragged.items())
    return extra


def run_planned(kern, q, k, v, buffers, scalars, target, threads, ragged, plans):
    """(out, lse or None, row maxima or None) of `kern` on a packed batch laid out as `ragged`, through
    the plan of calls of these shapes in `plans` (a dict the caller keeps with its layout; planned at
    the first such call): on cuda a planned call allocates, copies and waits for nothing, so a CUDA
    graph can capture it. None where the plain eager path does not apply (torch.compile, a mode, a
    tensor subclass): the caller then takes call_kernel."""
    tensors = (q, k, v, *buffers.values()) if buffers else (q, k, v)
    if not (_no_mode() and all(type(t) in _PLAIN for t in tensors)):
        return None
    if buffers:
        buffers = _as_kernel_types(kern, buffers)
    out, lse, mx = _outputs(kern, q, v, kern.lse or q.is_cpu, ragged)  # the cpu: one compile with _run's
    _check_device(q)
    target = target or ""
    specs = {n: _spec(b) for n, b in buffers.items()} if buffers else {}
    key = (kern.id, target, q.device, q.dtype, tuple(q.shape), tuple(k.shape), tuple(v.shape),
           tuple((n, tuple(b.shape)) for n, b in buffers.items()) if buffers else ())
    plan = plans.get(key)
    if plan is None:
        plan = plans[key] = kern._core.plan_call(_spec(q), _spec(k), _spec(v), _spec(out),
                                                 None if lse is None else _spec(lse), specs, scalars, target,
                                                 **_extra_specs(mx, ragged))
    kern._core.run(_spec(q), _spec(k), _spec(v), _spec(out), None if lse is None else _spec(lse), specs, scalars,
                   target, threads, _stream(q), call_plan=plan, **_extra_specs(mx, ragged))
    return out, (lse if kern.lse else None), mx


# torch dtypes as DLPack (type code, bits): int, uint, float, bfloat, bool, and DLPack 1.1's
# float8_e4m3fn and float8_e5m2 (attn/kernel_abi.h's ATTN_DL_FLOAT8_*).
_DLPACK = {torch.float32: (2, 32), torch.float16: (2, 16), torch.bfloat16: (4, 16), torch.float64: (2, 64),
           torch.int32: (0, 32), torch.int64: (0, 64), torch.int16: (0, 16), torch.int8: (0, 8),
           torch.uint8: (1, 8), torch.bool: (6, 8), torch.float8_e4m3fn: (10, 8), torch.float8_e5m2: (12, 8)}


def _spec(t):
    """A tensor as the extension's tuple (data pointer, DLPack type, shape, strides; no strides:
    dense; for a CUDA tensor then DLPack's kDLCUDA and the device index), which reads the tensor's
    own fields: torch's __dlpack__ costs ~4.5 µs a tensor (and on a GPU syncs streams) and
    `.numpy()` ~1.5 µs, this well under 1 µs, and it needs no detach. Other devices and dtypes go
    as they are (through DLPack), for the extension's messages."""
    code = _DLPACK.get(t.dtype)
    if code is None:
        return t
    if t.is_cpu:
        return (t.data_ptr(), code[0], code[1], t.shape, () if t.is_contiguous() else t.stride())
    if t.is_cuda:
        return (t.data_ptr(), code[0], code[1], t.shape, () if t.is_contiguous() else t.stride(), 2, t.device.index)
    return t


@attention.register_fake
def _attention_fake(kernel, q, k, v, buffers, buffer_names, scalars, scalar_names, target, threads,
                    cu_seqlens_q=None, cu_seqlens_k=None, page_table=None, kv_lens=None):
    rows = q.shape[:2] if cu_seqlens_q is not None else q.shape[:3]  # [Tq, Hq] or [B, Hq, Lq]
    out = q.new_empty((*rows, v.shape[-1]), dtype=torch.bfloat16 if q.dtype in _FP8_TYPES else q.dtype)
    lse = q.new_empty(rows, dtype=torch.float32)
    mx = lse.new_empty(lse.shape if getattr(KERNELS[kernel], "return_max", False) else (0,))
    return out, lse, mx


@torch.library.custom_op("attnc::attention_backward", mutates_args=())
def attention_backward(kernel: str, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, buffers: List[torch.Tensor],
                       buffer_names: str, scalars: List[float], scalar_names: str, target: str, threads: int,
                       out: torch.Tensor, lse: torch.Tensor, dout: torch.Tensor, dlse: Optional[torch.Tensor],
                       grad_buffers: str, cu_seqlens_q: Optional[torch.Tensor] = None,
                       cu_seqlens_k: Optional[torch.Tensor] = None
                       ) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor, List[torch.Tensor]]:
    """dQ, dK, dV and the gradients of the buffers named in `grad_buffers` (comma-separated) of
    loss = sum(dout * out) + sum(dlse * lse), from the forward's `out` and `lse`; of a ragged batch
    with cu_seqlens_q and cu_seqlens_k (a paged cache has no backward)."""
    return _run_backward(KERNELS[kernel], q, k, v, dict(zip(_names(buffer_names), buffers)),
                         dict(zip(_names(scalar_names), scalars)), target, threads, out, lse, dout, dlse,
                         _names(grad_buffers), ragged=_layout(cu_seqlens_q, cu_seqlens_k))


def _run_backward(kern, q, k, v, buffers, scalars, target, threads, out, lse, dout, dlse, wanted, ragged=None):
    """The backward's eager body: dQ, dK, dV and the gradients of the buffers named in `wanted`,
    on the callers' tensors as they are (a gradient whose last dimension is not contiguous, such as
    an expanded one, is made so). `ragged`: a packed batch's cu_seqlens_q and cu_seqlens_k (int32,
    by those names), as _run's."""
    dq, dk, dv = (torch.empty(t.shape, dtype=t.dtype, device=t.device) for t in (q, k, v))
    dbuffers = {n: torch.empty(buffers[n].shape, dtype=torch.float32, device=buffers[n].device) for n in wanted}
    _check_device(q)
    target = target or ""  # the extension picks the target of q's device
    if (dout.stride(-1) != 1 and dout.shape[-1] > 1) or q.is_cuda:  # GPU kernels: 16-byte aligned rows
        dout = dout.contiguous()
    if dlse is not None and not dlse.is_contiguous():
        dlse = dlse.contiguous()
    kern._core.backward(_spec(q), _spec(k), _spec(v), {n: _spec(b) for n, b in buffers.items()}, scalars,
                        _spec(out), _spec(lse), _spec(dout), None if dlse is None else _spec(dlse), _spec(dq),
                        _spec(dk), _spec(dv), {n: _spec(b) for n, b in dbuffers.items()}, target, threads,
                        _stream(q), **{name: _spec(t) for name, t in (ragged or {}).items()})
    return dq, dk, dv, [dbuffers[n] for n in wanted]


@attention_backward.register_fake
def _attention_backward_fake(kernel, q, k, v, buffers, buffer_names, scalars, scalar_names, target, threads, out, lse,
                             dout, dlse, grad_buffers, cu_seqlens_q=None, cu_seqlens_k=None):
    wanted = _names(grad_buffers)
    grads = [b.new_empty(b.shape, dtype=torch.float32) for n, b in zip(_names(buffer_names), buffers) if n in wanted]
    return q.new_empty(q.shape), k.new_empty(k.shape), v.new_empty(v.shape), grads


def _setup_context(ctx, inputs, output):
    kernel, q, k, v, buffers, buffer_names, scalars, scalar_names, target, threads, *layout = inputs
    layout += [None] * (len(_LAYOUT) - len(layout))
    ctx.save_for_backward(q, k, v, *output[:2], *layout[:2], *buffers)
    ctx.mark_non_differentiable(output[2])  # the row maxima
    ctx.call = (kernel, buffer_names, scalars, scalar_names, target, threads)
    # Only float buffers can have gradients; the kernel's backward checks that its score reads them.
    ctx.grad_buffers = ",".join(n for n, b in zip(_names(buffer_names), buffers) if b.requires_grad)
    ctx.paged = layout[2] is not None or layout[3] is not None


def _backward(ctx, dout, dlse, dmax):
    kernel, buffer_names, scalars, scalar_names, target, threads = ctx.call
    q, k, v, out, lse, cu_seqlens_q, cu_seqlens_k, *buffers = ctx.saved_tensors
    if ctx.paged:
        raise Error("attnc: a paged KV cache has no backward; run it under torch.no_grad()")
    dlse = _lse_gradient(KERNELS[kernel], dlse)
    dq, dk, dv, dbuffers = attention_backward(kernel, q, k, v, buffers, buffer_names, scalars, scalar_names, target,
                                              threads, out, lse, dout, dlse, ctx.grad_buffers, cu_seqlens_q,
                                              cu_seqlens_k)
    grads = dict(zip(_names(ctx.grad_buffers), dbuffers))
    # The scalars' gradient mirrors how torch.library flattened them: a list of numbers is one leaf
    # (None), an empty list a list ([]).
    return (None, dq, dk, dv, [grads.get(n) for n in _names(buffer_names)], None, None if scalars else [], None,
            None, None, None, None, None, None)


def _lse_gradient(kern, dlse):
    """dLSE as the kernel's backward takes it: a kernel without lse = true returns no LSE, so none."""
    return dlse if kern.lse else None


attention.register_autograd(_backward, setup_context=_setup_context)


# The first forward that autograd records compiles the kernel's backward beside it (the cpu target:
# KernelLoadOptions::backward_next). bench/python/first_call.py turns it off to compare.
_COMPILE_BACKWARD_BESIDE = True


class _Attention(torch.autograd.Function):
    """The operator's autograd formula without torch.library's dispatch, for eager calls that need
    autograd and nothing else of the operator: the custom op's autograd wrapper (pytree walks,
    redispatch, setup_context) costs ~100-250 µs a call on a small kernel, this ~20-30 µs. The same
    bodies (_run, _run_backward) as the operator's."""

    @staticmethod
    def forward(ctx, kern, names, scalars, target, threads, ragged, q, k, v, *buffers):
        # With the LSE whatever the kernel sets: the backward reads it rather than run the forward again.
        out, lse, mx = _run(kern, q, k, v, dict(zip(names, buffers)), scalars, target, threads, True, ragged=ragged,
                            backward_next=_COMPILE_BACKWARD_BESIDE)
        ctx.save_for_backward(q, k, v, out, lse, *buffers)
        ctx.call = (kern, names, scalars, target, threads, ragged)
        if mx is not None:
            ctx.mark_non_differentiable(mx)
        outputs = (out, *((lse,) if kern.lse else ()), *((mx,) if mx is not None else ()))
        return outputs if len(outputs) > 1 else out

    @staticmethod
    def backward(ctx, dout, *rest):
        kern, names, scalars, target, threads, ragged = ctx.call
        dlse = _lse_gradient(kern, rest[0] if rest else None)
        q, k, v, out, lse, *buffers = ctx.saved_tensors
        # Only float buffers can require grad; the kernel's backward checks that its score reads them.
        wanted = [n for n, need in zip(names, ctx.needs_input_grad[9:]) if need]
        dq, dk, dv, dbuffers = _run_backward(kern, q, k, v, dict(zip(names, buffers)), scalars, target, threads,
                                             out, lse, dout, dlse, wanted, ragged=ragged)
        grads = dict(zip(wanted, dbuffers))
        return (None, None, None, None, None, None, dq, dk, dv, *(grads.get(n) for n in names))


def _no_mode():
    """True when nothing should see the operator: not traced by torch.compile, no torch function
    or dispatch mode (a profiler, FakeTensorMode), no functorch transform."""
    return not (torch.compiler.is_compiling() or torch._C._is_torch_function_mode_enabled() or
                torch._C._get_dispatch_mode(torch._C._TorchDispatchModeKey.FAKE) is not None or
                torch._C._len_torch_dispatch_stack() > 0 or torch._C._are_functorch_transforms_active())


_PLAIN = (torch.Tensor, torch.nn.Parameter)  # no __torch_function__ of their own

_INTEGERS = (torch.int64, torch.int16, torch.int8, torch.uint8)


def _as_kernel_types(kernel, buffers):
    """Integer tensors for i32 buffers as int32 (torch indexes with int64): values past the int32
    range are an error, not wrapped. Other types are left to the kernel's own message."""
    elems = {name: elem for name, is_buffer, elem, _ in getattr(kernel, "args", ()) if is_buffer}
    out = {}
    for name, t in buffers.items():
        if isinstance(t, torch.Tensor) and elems.get(name) == "i32" and t.dtype in _INTEGERS:
            if t.numel() and t.device.type != "meta" and not isinstance(t, torch._subclasses.FakeTensor) and \
                    _no_mode() and (int(t.min()) < -(2**31) or int(t.max()) >= 2**31):
                raise Error(f"argument '{name}' holds values outside the 32-bit range of an i32 buffer")
            t = t.to(torch.int32)
        out[name] = t
    return out


def call_kernel(kernel, q, k, v, buffers, scalars, target, threads, ragged=None):
    """(out, lse or None, row maxima or None) of `kernel` on torch tensors. Through torch.ops.attnc.attention when
    something should see the operator (torch.compile, a mode, a tensor subclass); otherwise its
    eager body directly, or _Attention when autograd must record the call: the custom op's
    dispatch costs more than the whole eager call on small inputs. `ragged`: a packed batch's int32
    layout tensors by name (_LAYOUT), as _run's."""
    if buffers:
        buffers = _as_kernel_types(kernel, buffers)
    tensors = (q, k, v, *buffers.values()) if buffers else (q, k, v)
    if _no_mode() and all(type(t) in _PLAIN for t in tensors):
        if not (torch.is_grad_enabled() and any(t.requires_grad for t in tensors)):
            # On the CPU with the LSE whatever the kernel sets, as the forward that autograd records
            # runs it: evaluation and training calls of a kernel share one compile (a float a row).
            out, lse, mx = _run(kernel, q, k, v, buffers, scalars, target, threads, kernel.lse or q.is_cpu, ragged)
            return out, (lse if kernel.lse else None), mx
        if ragged and "page_table" in ragged:
            raise Error("attnc: a paged KV cache has no backward; run it under torch.no_grad() or with inputs that "
                        "do not require grad")
        outputs = _Attention.apply(kernel, tuple(buffers), scalars, target, threads, ragged, q, k, v,
                                   *buffers.values())
        outputs = outputs if isinstance(outputs, tuple) else (outputs,)
        out, lse, mx = outputs[0], outputs[1] if kernel.lse else None, outputs[-1] if len(outputs) > 1 else None
        return out, lse, (mx if getattr(kernel, "return_max", False) else None)
    out, lse, mx = attention(kernel.id, q, k, v, list(buffers.values()), ",".join(buffers),
                             list(scalars.values()), ",".join(scalars), target or "", threads,
                             **(ragged or {}))
    return out, (lse if kernel.lse else None), (mx if getattr(kernel, "return_max", False) else None)
