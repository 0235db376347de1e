"""How many kernels a model compiles on the CPU: one forward (with the LSE) serves evaluation and
training calls alike, and the backward is the only other compile; counted from the loader's flight
recorder (ATTNC_TRACE) in a fresh process on an empty disk cache."""

import json
import os
import subprocess
import sys

import attnc

SCRIPT = r"""
import torch, attnc.torch as at
q, k, v = (torch.randn(1, 2, 40, 16, requires_grad=True) for _ in range(3))
score_mod = lambda s, b, h, i, j: s * 0.25 + (j - i) * 0.01
with torch.no_grad():
    evaluated = at.flex_attention(q, k, v, score_mod=score_mod)
trained = at.flex_attention(q, k, v, score_mod=score_mod)
trained.sum().backward()
assert torch.equal(evaluated, trained.detach())
"""


def test_evaluation_and_training_share_one_forward(tmp_path):
    trace = tmp_path / "trace.json"
    env = dict(os.environ, ATTNC_CACHE_DIR=str(tmp_path / "cache"), ATTNC_TRACE=str(trace),
               PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(attnc.__file__))))
    r = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    compiled = sorted(e.get("detail", "") for e in json.loads(trace.read_text())["events"]
                      if e["kind"] == "compile_start")
    assert compiled == ["attn_flex", "attn_flex_backward"]
