"""Shared inputs for the attnc package's tests (run by ctest's `python` label; docs/python.md)."""

import os
import warnings

import pytest
import torch

# Eager flex_attention warns that it is unfused on every call; the tests use it as the reference.
warnings.filterwarnings("ignore", message=".*flex_attention called without torch.compile.*")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture
def qkv():
    """GQA inputs: 4 query heads over 2 key/value heads, a length that is no multiple of a tile."""
    g = torch.Generator().manual_seed(0)
    q = torch.randn(2, 4, 67, 16, generator=g)
    k = torch.randn(2, 2, 67, 16, generator=g)
    v = torch.randn(2, 2, 67, 16, generator=g)
    return q, k, v
