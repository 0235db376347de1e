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
    with pytest.raises(attnc.Error, match="nested .*varlen_attention"):
        at.flex_attention(nested, nested, nested)
    # What the message suggests runs: the jagged tensor's values and offsets as a ragged batch.
    seqs = [torch.randn(3, 2, 8), torch.randn(5, 2, 8)]
    jagged = torch.nested.nested_tensor(seqs, layout=torch.jagged)
    out = at.varlen_attention(jagged.values(), jagged.values(), jagged.values(), jagged.offsets(), jagged.offsets())
    for s, rows in zip(seqs, out.split([3, 5])):
        x = s.transpose(0, 1)
        torch.testing.assert_close(rows.transpose(0, 1), torch.nn.functional.scaled_dot_product_attention(x, x, x))
