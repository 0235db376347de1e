"""attnc: attention kernels compiled from .attn source, called on PyTorch tensors, NumPy arrays
or anything that speaks DLPack. See docs/python.md.

    lib = attnc.load("model.attn")           # or attnc.loads(text)
    out = lib.gemma2_local(q, k, v)
    out, lse = lib.packed_alibi(q, k, v, slopes=s, doc=d, return_lse=True)

On CUDA a buffer index out of range reads 0 and is recorded on the device; `attnc.check_errors()`
waits for the GPU and raises Error for it (docs/python.md, "Errors on the GPU").

`attnc.load_generated(folder)` loads kernels that `attnc compile -t cuda` wrote, without the
compiler: all a runtime-only build can load (docs/python.md, "A runtime-only build").

`attnc.torch` holds the FlexAttention drop-in (imported on first use: NumPy users need no torch).
"""

from ._backend import Error, check_errors
from .library import Kernel, Library, load, load_generated, loads, stdlib

__all__ = ["Error", "Kernel", "Library", "check_errors", "load", "load_generated", "loads", "stdlib"]


def __getattr__(name):
    # `attnc.torch` without importing torch for callers who never use it.
    if name == "torch":
        import importlib

        return importlib.import_module(".torch", __name__)
    raise AttributeError(f"module 'attnc' has no attribute '{name}'")
