"""Eager torch calls skip the custom op's dispatch (attnc.ops.call_kernel): its eager body when no
autograd is needed, attnc.ops._Attention (the same formula, no torch.library wrapper) when it is;
calls under a dispatch mode still go through torch.ops.attnc.attention."""

import torch
from torch.utils._python_dispatch import TorchDispatchMode

import attnc

LIB = attnc.loads("import std.masks;\nkernel causal_attention { mask = causal; }\n")
ALIBI = attnc.loads("import std.masks;\nimport std.scores;\n"
                    "kernel a(slopes: tensor<f32>[heads]) { mask = causal; score = alibi(slopes); lse = true; }\n").a


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
    op, _, _ = torch.ops.attnc.attention(LIB.causal_attention.id, q, k, v, [], "", [], "", "cpu", 0)
    assert torch.equal(fast, op)
    assert fast.grad_fn is None


def test_inputs_that_need_grad_get_a_graph_node():
    q = torch.randn(1, 2, 9, 8, requires_grad=True)
    k, v = torch.randn(1, 2, 9, 8), torch.randn(1, 2, 9, 8)
    assert type(LIB.causal_attention(q, k, v).grad_fn).__name__ == "_AttentionBackward"
    with torch.no_grad():
        assert LIB.causal_attention(q, k, v).grad_fn is None


def test_light_autograd_equals_the_operators():
    def inputs():
        g = torch.Generator().manual_seed(1)
        q, k, v = (torch.randn(2, 4, 21, 8, generator=g, requires_grad=True) for _ in range(3))
        slopes = torch.tensor([0.5, 0.25, 0.125, 0.0625], requires_grad=True)
        return q, k, v, slopes

    light = inputs()
    out, lse = ALIBI(*light[:3], slopes=light[3], return_lse=True)
    (out.square().sum() + lse.sum()).backward()
    op = inputs()
    out2, lse2, _ = torch.ops.attnc.attention(ALIBI.id, *op[:3], [op[3]], "slopes", [], "", "cpu", 0)
    assert type(out2.grad_fn).__name__.startswith("GeneratedBackwardFor_attnc_attention")  # the custom op's
    (out2.square().sum() + lse2.sum()).backward()
    assert torch.equal(out, out2) and torch.equal(lse, lse2)
    for a, b in zip(light, op):
        assert torch.equal(a.grad, b.grad)


def test_a_dispatch_mode_sees_the_operator():
    q = k = v = torch.randn(1, 1, 8, 8)
    with OpsSeen() as mode:
        LIB.causal_attention(q, k, v)
    assert any("attnc.attention" in op for op in mode.ops)
