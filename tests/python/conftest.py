"""Shared inputs for the attnc package's tests (run by ctest's `python` label; docs/python.md)."""

import os
import sysconfig

import pytest
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture
def qkv():
    """GQA inputs: 4 query heads over 2 key/value heads, a length that is no multiple of a tile."""
    g = torch.Generator().manual_seed(0)
    q = torch.randn(2, 4, 67, 16, generator=g)
    k = torch.randn(2, 2, 67, 16, generator=g)
    v = torch.randn(2, 2, 67, 16, generator=g)
    return q, k, v


def pytest_configure(config):
    # scripts/test-installed-package.sh: the suite must test the pip-installed package, not a
    # build tree or the sources on sys.path.
    if os.environ.get("ATTNC_TEST_INSTALLED"):
        import attnc

        where = os.path.realpath(os.path.dirname(os.path.dirname(attnc.__file__)))
        site = {os.path.realpath(sysconfig.get_paths()[k]) for k in ("purelib", "platlib")}
        if where not in site:
            raise pytest.UsageError(f"ATTNC_TEST_INSTALLED: attnc was imported from {attnc.__file__}, "
                                    f"not from the installed package ({', '.join(sorted(site))})")
    # Eager flex_attention, the tests' reference, warns that it is unfused and that return_lse is
    # deprecated (return_aux replaces it in newer torch); neither says anything about attnc.
    config.addinivalue_line("filterwarnings", "ignore:flex_attention called without torch.compile:UserWarning")
    config.addinivalue_line("filterwarnings", "ignore:return_lse is deprecated:FutureWarning")
