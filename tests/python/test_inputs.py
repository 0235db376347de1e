"""attnc.torch.flex_attention's messages for inputs its kernels cannot take (issue 32)."""

import pytest
import torch

import attnc
import attnc.torch as at


def test_nested_and_meta_inputs_are_clear_errors():
    q = torch.randn(1, 1, 8, 4)
    with pytest.raises(attnc.Error, match="meta tensor"):
        at.flex_attention(q.to("meta"), q, q)
    nested = torch.nested.nested_tensor([torch.randn(1, 3, 4), torch.randn(1, 5, 4)], layout=torch.jagged)
    with pytest.raises(attnc.Error, match="nested"):
        at.flex_attention(nested, nested, nested)
