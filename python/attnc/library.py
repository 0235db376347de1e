"""Libraries of kernels: attnc.load / attnc.loads, and the call convention of one kernel."""

import os
import sys

from . import _backend
from ._backend import KERNELS, Error


def _is_torch(x):
    return type(x).__module__.startswith("torch") and "torch" in sys.modules


_ops = None  # attnc.ops once a torch tensor has been seen (importing it imports torch)


def _out_shapes(q, v):
    """[B, Hq, Lq, Dv] and [B, Hq, Lq]; placeholders when the inputs are not 4-D (the kernel's
    checks then report them, with the command line's message)."""
    if len(q.shape) != 4 or len(v.shape) != 4:
        return (0, 0, 0, 0), (0, 0, 0)
    b, h, lq = (int(n) for n in q.shape[:3])
    return (b, h, lq, int(v.shape[3])), (b, h, lq)


_FP8 = ("e4m3", "e5m2")  # the FP8 dtypes: Q, K, V descaled, Out bf16, no backward


class Kernel:
    """One kernel of a library: `kernel(q, k, v, **params, return_lse=False, return_max=False, target=None)`.

    Q [B, Hq, Lq, D], K [B, Hkv, Lkv, D], V [B, Hkv, Lkv, Dv] in the kernel's dtype (any strides,
    the last dimension contiguous); the kernel's parameters by name (tensors for its buffers,
    numbers for its scalars). Returns Out [B, Hq, Lq, Dv] (and LSE [B, Hq, Lq], float32, natural
    log; then with return_max, for a kernel that sets it, the row maxima [B, Hq, Lq]) of the inputs' kind: torch tensors for torch inputs, NumPy arrays otherwise. The target
    follows the device (CPU tensors: `cpu`; CUDA tensors: `cuda`, on the current stream);
    `target="reference"` or `"vulkan"` overrides.

    An FP8 kernel (dtype e4m3 or e5m2) takes torch.float8_e4m3fn or float8_e5m2 Q, K, V and the
    keywords q_descale=, k_descale=, v_descale= (float32 tensors [1] or [B, Hkv], or numbers; each
    1 when absent): it computes on each element times its factor and returns a bfloat16 Out. Such a
    call runs eagerly (no autograd: FP8 kernels have no backward).
    """

    def __init__(self, core):
        self._core = core
        self.name = core.name
        self.dtype = core.dtype
        self.lse = core.lse
        # The kernel writes row maxima (return_max = true).
        self.return_max = getattr(core, "return_max", False)
        self.head_dim, self.value_dim = core.head_dim, core.value_dim  # 0: taken from the inputs
        self.args = core.args
        self._is_buffer = {name: is_buffer for name, is_buffer, _, _ in self.args}
        self.id = f"{self.name}-{core.hash[:16]}"
        KERNELS.setdefault(self.id, self)
        self.__doc__ = f"attnc kernel '{self.name}' (dtype {self.dtype}{', lse' if self.lse else ''}); " + (
            "arguments: " + ", ".join(a[0] for a in self.args) if self.args else "no arguments")

    def __repr__(self):
        return f"<attnc kernel {self.name}({', '.join(a[0] for a in self.args)}) {self.dtype}>"

    def split_params(self, params):
        """The keyword arguments as (buffers, scalars) dicts; unknown names and missing ones are
        left for the kernel's own checks (the command line's messages)."""
        buffers, scalars = {}, {}
        for name, value in params.items():
            if self._is_buffer.get(name, hasattr(value, "__dlpack__") or hasattr(value, "__array__")):
                buffers[name] = value
            elif isinstance(value, (bool, int, float)) or hasattr(value, "__float__"):
                scalars[name] = float(value)
            else:
                raise Error(f"argument '{name}' of kernel '{self.name}' is a scalar: give a number, "
                            f"not {type(value).__name__}")
        return buffers, scalars

    def __call__(self, q, k, v, *, return_lse=False, return_max=False, target=None, threads=0, q_descale=None,
                 k_descale=None, v_descale=None, **params):
        descales = {name: t for name, t in (("q_descale", q_descale), ("k_descale", k_descale),
                                            ("v_descale", v_descale)) if t is not None}
        if return_lse and not self.lse:
            raise Error(f"kernel '{self.name}' does not compute the LSE (set lse = true)")
        if return_max and not self.return_max:
            raise Error(f"kernel '{self.name}' does not write row maxima (set return_max = true)")
        buffers, scalars = self.split_params(params) if params else ({}, {})
        if _is_torch(q):
            global _ops
            if _ops is None:
                from . import ops as _ops
            if descales or self.dtype in _FP8:  # eager: an FP8 kernel has no backward to record
                descales = {n: _ops.as_descale(t, q) for n, t in descales.items()}
                out, lse, mx = _ops._run(self, q, k, v, buffers, scalars, target, threads, self.lse,
                                         descales=descales)
            else:
                out, lse, mx = _ops.call_kernel(self, q, k, v, buffers, scalars, target, threads)
        else:
            out, lse, mx = self.run_numpy(q, k, v, buffers, scalars, target, threads, descales)
        results = (out, *((lse,) if return_lse else ()), *((mx,) if return_max else ()))
        return results if len(results) > 1 else out

    def run_numpy(self, q, k, v, buffers, scalars, target, threads, descales=None):
        import numpy as np

        arrays = [x if hasattr(x, "__dlpack__") else np.asarray(x) for x in (q, k, v)]
        descales = {n: np.asarray(t, dtype=np.float32).reshape(np.shape(t) or (1,))
                    for n, t in (descales or {}).items()}
        buffers = {n: b if hasattr(b, "__dlpack__") else np.asarray(b) for n, b in buffers.items()}
        out_shape, lse_shape = _out_shapes(arrays[0], arrays[2])
        dtype = getattr(arrays[0], "dtype", np.float32)
        out = np.empty(out_shape, dtype=dtype if isinstance(dtype, np.dtype) else np.float32)
        lse = np.empty(lse_shape, dtype=np.float32) if self.lse else None
        mx = np.empty(lse_shape, dtype=np.float32) if self.return_max else None
        self.run_into(*arrays, out, lse, buffers, scalars, target or "", threads, mx, **descales)
        return out, lse, mx

    def run_into(self, q, k, v, out, lse, buffers, scalars, target, threads=0, max=None, **descales):
        """Runs into preallocated `out` (and `lse`, and `max` for a kernel that sets return_max; an FP8
        kernel's q_descale, k_descale, v_descale): the zero-copy path every front end takes."""
        self._core.run(q, k, v, out, lse, buffers, scalars, target, threads, **({} if max is None else {"max": max}),
                       **descales)


class Library:
    """The kernels of one .attn program, as attributes (`lib.causal(q, k, v)`) and by name
    (`lib["causal"]`)."""

    def __init__(self, kernels, origin):
        self._kernels = {k.name: Kernel(k) for k in kernels}
        self._origin = origin

    @property
    def kernels(self):
        """Kernel names in file order."""
        return list(self._kernels)

    def __getitem__(self, name):
        try:
            return self._kernels[name]
        except KeyError:
            raise KeyError(f"no kernel '{name}' in {self._origin}; kernels: {', '.join(self._kernels)}") from None

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self._kernels[name]
        except KeyError:
            raise AttributeError(
                f"no kernel '{name}' in {self._origin}; kernels: {', '.join(self._kernels)}") from None

    def __dir__(self):
        return list(self._kernels) + ["kernels"]

    def __repr__(self):
        return f"<attnc library {self._origin}: {', '.join(self._kernels)}>"


def load(path):
    """The kernels of the .attn file at `path` (imports resolve beside it; `std.*` is built in).
    Raises attnc.Error with the located diagnostics (`file:line:col: error: ...`)."""
    path = os.fspath(path)
    return Library(_backend.require_compiler("attnc.load").compile_file(path), path)


def loads(text, name="<string>"):
    """The kernels of .attn source `text`; `name` stands for the file in diagnostics."""
    return Library(_backend.require_compiler("attnc.loads").compile_text(name, text), name)


def stdlib():
    """The standard library the package carries: {'std.masks': source, ...}."""
    return dict(_backend.require_compiler("attnc.stdlib").stdlib_modules())


def load_generated(folder):
    """The CUDA kernels `attnc compile -t cuda [--cuda-backward] -o folder` wrote, as a Library:
    no compiler needed (the runtime-only build loads only these). Each runs on CUDA tensors on the
    current stream; its backward needs the kernel's `NAME_backward.cu` (--cuda-backward) and
    `lse = true` (autograd saves the LSE). Raises attnc.Error for a folder without a manifest."""
    if _backend.runtime is None:
        raise Error("attnc.load_generated needs the extension attnc._runtime, which this build lacks")
    folder = os.fspath(folder)
    return Library(_backend.runtime.load_folder(folder), folder)
