"""attnc: attention kernels compiled from .attn source, called on PyTorch tensors, NumPy arrays
or anything that speaks DLPack. See docs/python.md.

    lib = attnc.load("model.attn")           # or attnc.loads(text)
    out = lib.gemma2_local(q, k, v)
    out, lse = lib.packed_alibi(q, k, v, slopes=s, doc=d, return_lse=True)

`attnc.torch` holds the FlexAttention drop-in (imported on first use: NumPy users need no torch).
"""

from ._core import Error
from .library import Kernel, Library, load, loads, stdlib

__all__ = ["Error", "Kernel", "Library", "load", "loads", "stdlib"]


def __getattr__(name):
    # `attnc.torch` without importing torch for callers who never use it.
    if name == "torch":
        import importlib

        return importlib.import_module(".torch", __name__)
    raise AttributeError(f"module 'attnc' has no attribute '{name}'")
