"""The `attnc` console script of the Python package: runs the attnc binary the package carries
(attnc/bin/attnc, built with the extension), so that `pip install .` gives the command line too:
`attnc check`, `attnc mask --png`, `attnc lsp` for an editor. `python -m attnc` is the same."""

import os
import sys
from pathlib import Path


def binary():
    """The attnc binary inside the package, or None when this install has none (the runtime-only
    build)."""
    # Not resolved: in the build tree the module is a link to the source, the binary beside the link.
    path = Path(os.path.abspath(__file__)).parent / "bin" / "attnc"
    return path if path.is_file() and os.access(path, os.X_OK) else None


def main():
    path = binary()
    if path is None:
        sys.stderr.write("attnc: this install of the attnc package has no command line (a runtime-only build); "
                         "build the package from the source tree with `pip install .`\n")
        return 2
    sys.stdout.flush()
    os.execv(path, ["attnc", *sys.argv[1:]])
