"""A small causal transformer trained on CPU for a few hundred steps with attnc attention, beside
the same model (same initial weights, same batches) on PyTorch's SDPA; prints both loss curves.

    PYTHONPATH=build/python python samples/python/train_tiny.py [--steps 300]
"""

import argparse

import torch
import torch.nn.functional as F

import attnc

LIB = attnc.loads("import std.masks;\nkernel causal_attention { mask = causal; }\n")


class Block(torch.nn.Module):
    def __init__(self, dim, heads, attention):
        super().__init__()
        self.heads, self.attention = heads, attention
        self.norm1, self.norm2 = torch.nn.LayerNorm(dim), torch.nn.LayerNorm(dim)
        self.qkv, self.proj = torch.nn.Linear(dim, 3 * dim), torch.nn.Linear(dim, dim)
        self.mlp = torch.nn.Sequential(torch.nn.Linear(dim, 4 * dim), torch.nn.GELU(), torch.nn.Linear(4 * dim, dim))

    def forward(self, x):
        b, n, d = x.shape
        q, k, v = self.qkv(self.norm1(x)).view(b, n, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        a = self.attention(q, k, v)
        x = x + self.proj(a.transpose(1, 2).reshape(b, n, d))
        return x + self.mlp(self.norm2(x))


class Model(torch.nn.Module):
    def __init__(self, attention, vocab=16, dim=64, heads=4, layers=2, length=64):
        super().__init__()
        self.embed, self.pos = torch.nn.Embedding(vocab, dim), torch.nn.Parameter(torch.zeros(length, dim))
        self.blocks = torch.nn.ModuleList(Block(dim, heads, attention) for _ in range(layers))
        self.head = torch.nn.Linear(dim, vocab)

    def forward(self, tokens):
        x = self.embed(tokens) + self.pos[: tokens.shape[1]]
        for block in self.blocks:
            x = block(x)
        return self.head(x)


def batches(steps, batch=16, length=64, vocab=16):
    # A copy task: the second half repeats the first, so attention has something to learn.
    g = torch.Generator().manual_seed(0)
    for _ in range(steps):
        half = torch.randint(0, vocab, (batch, length // 2), generator=g)
        yield torch.cat([half, half], 1)


def train(attention, steps):
    torch.manual_seed(0)
    model = Model(attention)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    losses = []
    for tokens in batches(steps):
        logits = model(tokens[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), tokens[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=300)
    steps = parser.parse_args().steps
    ours = train(LIB.causal_attention, steps)
    sdpa = train(lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True), steps)
    print("step   attnc     sdpa")
    for i in range(0, steps, max(steps // 15, 1)):
        print(f"{i:4d}  {ours[i]:.4f}  {sdpa[i]:.4f}")
    print(f"last  {ours[-1]:.4f}  {sdpa[-1]:.4f}   largest gap {max(abs(a - b) for a, b in zip(ours, sdpa)):.2e}")


if __name__ == "__main__":
    main()
