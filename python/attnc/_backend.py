"""The extension this package runs on: attnc._core (the compiler and the runtime) or, in a
runtime-only build (docs/python.md, "A runtime-only build"), attnc._runtime alone (kernels
generated ahead, CUDA tensors only)."""

try:
    from . import _core as core
except ImportError:  # the runtime-only build
    core = None
try:
    from . import _runtime as runtime
except ImportError:  # a build without the runtime-only extension
    runtime = None
if core is None and runtime is None:
    raise ImportError("attnc: neither extension (attnc._core, attnc._runtime) is built")

Error = core.Error if core is not None else runtime.Error

# Every kernel made in this process by id (name and structural hash): the torch operator
# (attnc.ops) takes the id, a string, so that torch.compile keeps the call in its graph. Here rather
# than in attnc.library, which imports attnc.ops when it first sees a torch tensor: attnc.ops then
# needs nothing of attnc.library (no import cycle).
KERNELS = {}
check_errors = core.check_errors if core is not None else runtime.check_errors


def require_compiler(what):
    """The compiler's extension, or Error saying that this build has none."""
    if core is None:
        raise Error(f"{what} needs attnc's compiler, which this runtime-only build lacks; load kernels "
                    "generated ahead with attnc.load_generated(folder) (attnc compile -t cuda -o folder)")
    return core
