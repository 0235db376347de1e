"""torch.compile(fullgraph=True) of a small transformer block whose attention is an attnc kernel:
the torch.ops.attnc.attention operator and its fake implementation keep it in one graph."""

import torch

import attnc

LIB = attnc.loads("import std.masks;\nkernel causal_attention { mask = sliding_window(32); }\n")


class Block(torch.nn.Module):
    def __init__(self, dim=64, heads=4):
        super().__init__()
        self.heads = heads
        self.norm = torch.nn.LayerNorm(dim)
        self.qkv = torch.nn.Linear(dim, 3 * dim)
        self.proj = torch.nn.Linear(dim, dim)
        self.mlp = torch.nn.Sequential(torch.nn.Linear(dim, 4 * dim), torch.nn.GELU(), torch.nn.Linear(4 * dim, dim))

    def forward(self, x):
        b, n, d = x.shape
        q, k, v = self.qkv(self.norm(x)).view(b, n, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        a = LIB.causal_attention(q, k, v)  # q, k, v are strided views: no copy
        x = x + self.proj(a.transpose(1, 2).reshape(b, n, d))
        return x + self.mlp(x)


def test_compiled_block_matches_eager_without_graph_breaks():
    torch.manual_seed(0)
    block = Block().eval()
    x = torch.randn(2, 50, 64)
    with torch.no_grad():
        eager = block(x)
        explanation = torch._dynamo.explain(block)(x)
        compiled = torch.compile(block, fullgraph=True)(x)
    assert explanation.graph_break_count == 0
    torch.testing.assert_close(compiled, eager, atol=1e-5, rtol=1e-5)
