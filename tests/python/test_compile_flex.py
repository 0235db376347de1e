"""A training script written for torch's FlexAttention, with only its import changed to attnc.torch,
under torch.compile(fullgraph=True): one graph with no breaks, the same outputs and gradients as
eager (a captured nn.Parameter included), and a changed Python number (the soft cap) between calls
compiles no new kernel."""

import torch

# The one line that differs from the FlexAttention script: was torch.nn.attention.flex_attention.
from attnc.torch import create_block_mask, flex_attention

import attnc.torch as attnc_torch


class DocumentAttention(torch.nn.Module):
    """Self-attention over packed documents with learnable ALiBi slopes and a soft cap, written as
    FlexAttention users write it: callables that close over tensors, a Parameter and a float."""

    def __init__(self, dim=32, heads=4, softcap=20.0):
        super().__init__()
        self.heads = heads
        self.softcap = softcap
        self.qkv = torch.nn.Linear(dim, 3 * dim)
        self.proj = torch.nn.Linear(dim, dim)
        self.slopes = torch.nn.Parameter(torch.linspace(0.05, 0.4, heads))

    def forward(self, x, block_mask):
        b, n, d = x.shape
        q, k, v = self.qkv(x).view(b, n, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        slopes, cap = self.slopes, self.softcap

        def score_mod(score, b, h, q_idx, kv_idx):
            score = cap * torch.tanh(score / cap)
            return score - slopes[h] * (q_idx - kv_idx)

        a = flex_attention(q, k, v, score_mod=score_mod, block_mask=block_mask)
        return x + self.proj(a.transpose(1, 2).reshape(b, n, d))


def _document_mask(n):
    doc = torch.zeros(n, dtype=torch.int64)
    doc[n // 3:] = 1
    doc[2 * n // 3:] = 2

    def document_causal(b, h, q_idx, kv_idx):
        return (doc[q_idx] == doc[kv_idx]) & (q_idx >= kv_idx)

    return create_block_mask(document_causal, None, None, n, n)


def _step(model, x, block_mask):
    out = model(x, block_mask)
    loss = out.square().mean()
    loss.backward()
    return out, loss


def test_training_script_compiles_to_one_graph_with_eager_gradients():
    torch.manual_seed(0)
    n = 45  # not a tile multiple
    x = torch.randn(2, n, 32)
    block_mask = _document_mask(n)
    model = DocumentAttention()

    explanation = torch._dynamo.explain(model)(x, block_mask)
    assert explanation.graph_count == 1
    assert explanation.graph_break_count == 0

    eager_out, eager_loss = _step(model, x, block_mask)
    eager_grads = {name: p.grad.clone() for name, p in model.named_parameters()}
    model.zero_grad()
    compiled = torch.compile(model, fullgraph=True)
    out, loss = _step(compiled, x, block_mask)
    torch.testing.assert_close(out, eager_out, atol=1e-5, rtol=1e-5)
    for name, p in model.named_parameters():
        torch.testing.assert_close(p.grad, eager_grads[name], atol=1e-5, rtol=1e-5, msg=name)
    assert model.slopes.grad.abs().sum() > 0  # the captured Parameter has its gradient

    # A few optimizer steps, compiled and eager from the same start, stay together.
    eager_model = DocumentAttention()
    eager_model.load_state_dict(model.state_dict())
    compiled_opt = torch.optim.SGD(model.parameters(), lr=0.1)
    eager_opt = torch.optim.SGD(eager_model.parameters(), lr=0.1)
    for _ in range(3):
        for m, opt in ((compiled, compiled_opt), (eager_model, eager_opt)):
            opt.zero_grad()
            _step(m, x, block_mask)
            opt.step()
    torch.testing.assert_close(model.slopes, eager_model.slopes, atol=1e-5, rtol=1e-5)

    # The soft cap is a run-time argument of the kernel: another value compiles no kernel.
    misses = attnc_torch._compiled.cache_info().misses
    model.softcap = 7.5
    eager_model.softcap = 7.5
    torch.testing.assert_close(compiled(x, block_mask), eager_model(x, block_mask), atol=1e-5, rtol=1e-5)
    assert attnc_torch._compiled.cache_info().misses == misses


def test_a_number_held_in_a_tensor_changes_without_a_new_graph():
    """Dynamo re-traces its graph for each new Python float a compiled function reads; a number held in
    a captured tensor (indexed with a constant, the tensor on either side of an operator) is a kernel
    argument it does not guard on: changed in place, it costs neither a graph nor a kernel."""
    from torch._dynamo.utils import counters

    torch._dynamo.reset()
    counters.clear()
    torch.manual_seed(0)
    q, k, v = (torch.randn(1, 2, 40, 16) for _ in range(3))
    cap = torch.tensor([20.0])

    def attend(q, k, v):
        return flex_attention(q, k, v, score_mod=lambda s, b, h, i, j: cap[0] * torch.tanh(s / cap[0]))

    compiled = torch.compile(attend, fullgraph=True)
    for value in (20.0, 3.0):
        cap.fill_(value)
        expected = torch.softmax(value * torch.tanh(q @ k.transpose(-1, -2) / 4.0 / value), -1) @ v
        torch.testing.assert_close(compiled(q, k, v), expected, atol=1e-5, rtol=1e-5)
    assert counters["stats"]["unique_graphs"] == 1
