"""`python -m attnc ARGS`: the attnc command line (attnc/_cli.py)."""

import sys

from ._cli import main

sys.exit(main())
