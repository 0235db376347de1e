"""Every ```python example of README.md and docs/python.md runs (from the repository root).

The examples are fragments: they use inputs a reader has at hand (q, k, v, the buffers of
samples/packed_training.attn's kernels, FlexAttention-style mask_mod/score_mod callables). The
prelude below defines exactly those, small; each example then runs as written and its outputs are
checked for shape and finiteness.
"""

import os
import re

import pytest
import torch

from conftest import ROOT

DOCS = ["README.md", os.path.join("docs", "python.md")]


def python_blocks(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        text = f.read()
    return re.findall(r"^```python\n(.*?)^```", text, flags=re.S | re.M)


def prelude():
    g = torch.Generator().manual_seed(0)
    B, H, L, D = 1, 2, 80, 32
    q, k, v = (torch.randn(B, H, L, D, generator=g).to(torch.bfloat16) for _ in range(3))
    d = torch.tensor([i // 30 for i in range(L)], dtype=torch.int32)  # documents of 30 tokens
    st = torch.tensor([0, 30, 60], dtype=torch.int32)
    s = torch.tensor([0.5, 0.25])

    def causal(b, h, q_idx, kv_idx):
        return q_idx >= kv_idx

    def document_causal(b, h, q_idx, kv_idx):
        return (q_idx >= kv_idx) & (d[q_idx] == d[kv_idx])

    def alibi(score, b, h, q_idx, kv_idx):
        return score + s[h] * (kv_idx - q_idx)

    return dict(B=B, L=L, q=q, k=k, v=v, d=d, st=st, s=s, causal=causal,
                document_causal=document_causal, alibi=alibi)


EXAMPLES = [(path, i, block) for path in DOCS for i, block in enumerate(python_blocks(path))]


def test_the_docs_have_examples():
    assert {path for path, _, _ in EXAMPLES} == set(DOCS)


@pytest.mark.parametrize("path,index,block", EXAMPLES, ids=[f"{p}#{i}" for p, i, _ in EXAMPLES])
def test_example_runs(path, index, block, monkeypatch):
    if "torch.cuda" in block and not torch.cuda.is_available():
        pytest.skip("the example runs on a CUDA GPU")
    monkeypatch.chdir(ROOT)
    names = prelude()
    exec(compile(block, f"{path} (python example {index})", "exec"), names)
    outputs = [names[n] for n in ("out", "lse") if n in names]
    for x in outputs:
        assert isinstance(x, torch.Tensor) and torch.isfinite(x.float()).all()
    if "out" in names:
        assert names["out"].shape == names["q"].shape
