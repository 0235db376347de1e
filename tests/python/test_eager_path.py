"""Torch calls that need no autograd skip the custom op's dispatch (attnc.ops.call_kernel); calls
that need it, and calls under a dispatch mode, still go through torch.ops.attnc.attention."""

import torch
from torch.utils._python_dispatch import TorchDispatchMode

import attnc

LIB = attnc.loads("import std.masks;\nkernel causal_attention { mask = causal; }\n")


class OpsSeen(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.ops = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops.append(str(func))
        return func(*args, **(kwargs or {}))


def test_eager_path_equals_the_operator():
    q, k, v = (torch.randn(2, 3, 17, 8, generator=torch.Generator().manual_seed(i)) for i in range(3))
    fast = LIB.causal_attention(q, k, v)
    op, _ = torch.ops.attnc.attention(LIB.causal_attention.id, q, k, v, [], "", [], "", "cpu", 0)
    assert torch.equal(fast, op)
    assert fast.grad_fn is None


def test_inputs_that_need_grad_go_through_the_operator():
    q = torch.randn(1, 2, 9, 8, requires_grad=True)
    k, v = torch.randn(1, 2, 9, 8), torch.randn(1, 2, 9, 8)
    assert LIB.causal_attention(q, k, v).grad_fn is not None
    with torch.no_grad():
        assert LIB.causal_attention(q, k, v).grad_fn is None


def test_a_dispatch_mode_sees_the_operator():
    q = k = v = torch.randn(1, 1, 8, 8)
    with OpsSeen() as mode:
        LIB.causal_attention(q, k, v)
    assert any("attnc.attention" in op for op in mode.ops)
