"""attnc.torch.context_parallel_attention on 2 and 4 gloo processes (spawned here, CPU) against
single-process attnc.torch.flex_attention: Out, LSE and the gradients of Q, K, V and of captured
learnable tensors, <= 1e-5 in f32; causal, sliding window, documents, ALiBi, rows no key reaches;
odd lengths and uneven shards; both layouts; the causal skips counted exactly; one compile per
case; deterministic gradients. Also the shard helpers, the one-rank path and the errors."""

import os
import re
import subprocess
import sys

import pytest
import torch

import attnc
import attnc.torch as at
from conftest import ROOT

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from context_parallel_cases import CASES, inputs, mods, skipped_pairs  # noqa: E402


def child_env():
    """The environment of spawned ranks: one thread each, and this attnc package on their path
    whatever their working directory (the build tree's or the installed one)."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(attnc.__file__)))
    path = os.pathsep.join(p for p in (package, os.environ.get("PYTHONPATH")) if p)
    return dict(os.environ, OMP_NUM_THREADS="1", PYTHONPATH=path)


def spawn_ranks(world, tmp_path):
    """Runs context_parallel_worker.py as `world` gloo ranks; their saved results by rank."""
    init = f"file://{tmp_path}/rendezvous"
    env = child_env()
    ranks = [subprocess.Popen([sys.executable, os.path.join(HERE, "context_parallel_worker.py"), str(r), str(world),
                               init, str(tmp_path)], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
             for r in range(world)]
    logs = [p.communicate(timeout=600)[0].decode() for p in ranks]
    for r, (p, log) in enumerate(zip(ranks, logs)):
        assert p.returncode == 0, f"rank {r} failed:\n{log}"
    return [torch.load(tmp_path / f"rank{r}.pt") for r in range(world)]


def reference(case):
    """Single-process flex_attention: Out, LSE and the gradients, for the full sequence."""
    t = inputs(case)
    q, k, v = (t[n].clone().requires_grad_() for n in ("q", "k", "v"))
    mask_mod, score_mod = mods(case, t)
    block_mask = at.create_block_mask(mask_mod, None, None, case["L"], case["L"])
    out, lse = at.flex_attention(q, k, v, score_mod=score_mod, block_mask=block_mask, return_lse=True)
    torch.autograd.backward([out, lse], [t["dout"], t["dlse"]])
    ref = dict(out=out.detach(), lse=lse.detach(), dq=q.grad, dk=k.grad, dv=v.grad)
    if score_mod is not None:
        ref.update(dslopes=t["slopes"].grad, dbias=t["bias"].grad)
    return ref


def assert_close(name, got, want):
    assert got.shape == want.shape, name
    assert torch.equal(torch.isfinite(got), torch.isfinite(want)), f"{name}: non-finite values differ"
    assert not torch.isnan(got).any(), f"{name}: NaN"
    finite = torch.isfinite(want)
    assert torch.equal(got[~finite], want[~finite]), f"{name}: infinities differ"
    err = (got[finite] - want[finite]).abs().max().item() if finite.any() else 0.0
    assert err <= 1e-5, f"{name}: max abs error {err}"


@pytest.mark.parametrize("world", sorted(CASES))
def test_ring_matches_one_process(world, tmp_path):
    results = spawn_ranks(world, tmp_path)
    for case in CASES[world]:
        ref = reference(case)
        name, layout = case["name"], case["layout"]
        got = [r[name] for r in results]
        for key in ("out", "lse", "dq", "dk", "dv"):
            assert_close(f"{world} ranks, {name}, {key}", at.context_parallel_unshard([g[key] for g in got], layout,
                                                                                     dim=2), ref[key])
        for key in ("dslopes", "dbias"):
            if key in ref:
                for r, g in enumerate(got):  # every rank holds the group's sum
                    assert_close(f"{world} ranks, {name}, {key} on rank {r}", g[key], ref[key])
        # One kernel for every ring step and pair: the offsets are the kernel's arguments.
        assert all(g["compiles"] <= 1 for g in got), [g["compiles"] for g in got]
        pairs = (2 if layout == "zigzag" else 1) ** 2 * world  # per rank: its Q chunks x every K/V chunk
        for g in got:
            assert g["steps"] == world
            assert g["launches"] + g["skipped"] == pairs and g["backward_launches"] + g["backward_skipped"] == pairs
            assert g["backward_skipped"] == g["skipped"]
            assert g["bytes_sent"] > 0
        if case["mask"] == "causal":
            assert [g["skipped"] for g in got] == skipped_pairs(case, world)
        if case["name"] == "fully_masked_rows":  # rows no key reaches: Out 0, LSE -inf, gradients finite
            out = at.context_parallel_unshard([g["out"] for g in got], layout)
            lse = at.context_parallel_unshard([g["lse"] for g in got], layout)
            empty = torch.isneginf(lse)
            assert empty[0, 0, 0] and empty.sum() >= 2 * 4
            assert (out[empty] == 0).all()
    # Deterministic: the last case run again gives the same bits on every rank.
    last = CASES[world][-1]["name"]
    for r in results:
        for key in ("out", "lse", "dq", "dk", "dv", "dslopes", "dbias"):
            assert torch.equal(r["repeat"][key], r[last][key]), key


def test_shard_and_unshard():
    x = torch.arange(2 * 3 * 37).reshape(2, 3, 37)
    for world in (1, 2, 3, 4):
        for layout in ("zigzag", "contiguous"):
            shards = [at.context_parallel_shard(x, r, world, layout, dim=2) for r in range(world)]
            assert sorted(s.shape[2] for s in shards)[-1] - sorted(s.shape[2] for s in shards)[0] <= 2
            assert torch.equal(at.context_parallel_unshard(shards, layout, dim=2), x)
    # 37 over 4 zigzag ranks: 8 chunks of 4, the first 5 of them one longer (5 5 5 5 5 4 4 4).
    shards = [at.context_parallel_shard(torch.arange(37), r, 4, "zigzag", dim=0) for r in range(4)]
    assert shards[0].tolist() == list(range(0, 5)) + list(range(33, 37))
    assert shards[3].tolist() == list(range(15, 20)) + list(range(20, 25))
    with pytest.raises(attnc.Error, match="layout"):
        at.context_parallel_shard(x, 0, 2, "striped")
    with pytest.raises(attnc.Error, match="rank 0's shard has 10 positions; the zigzag layout of 19 over 2 ranks"):
        at.context_parallel_unshard([shards[3], shards[0]], "zigzag", dim=0)


def test_one_rank_without_a_process_group():
    """No initialized process group: one rank, which is flex_attention (the plan skips nothing
    here: one Q chunk pair per K/V chunk pair of the same sequence, both zigzag chunks)."""
    case = CASES[2][0]
    t = inputs(case)
    mask_mod, _ = mods(case, t)
    block_mask = at.create_block_mask(mask_mod, None, None, case["L"], case["L"])
    stats = at.ContextParallelStats()
    out, lse = at.context_parallel_attention(t["q"], t["k"], t["v"], block_mask=block_mask, return_lse=True,
                                             stats=stats)
    ref, ref_lse = at.flex_attention(t["q"], t["k"], t["v"], block_mask=block_mask, return_lse=True)
    assert (out - ref).abs().max() <= 1e-5 and (lse - ref_lse).abs().max() <= 1e-5
    # zigzag over one rank: chunks 0 and 1; chunk 0's queries see none of chunk 1's keys.
    assert (stats.launches, stats.skipped, stats.bytes_sent) == (3, 1, 0)


def test_errors():
    q = torch.randn(1, 2, 8, 16)
    with pytest.raises(attnc.Error, match="layout"):
        at.context_parallel_attention(q, q, q, layout="striped")
    with pytest.raises(attnc.Error, match="global lengths"):
        at.context_parallel_attention(q, q, q, block_mask=at.create_block_mask(lambda b, h, i, j: i >= j, None, None,
                                                                             4, 4))
    with pytest.raises(attnc.Error, match="4 dimensions"):
        at.context_parallel_attention(q[0], q, q)


def test_plan_counts_tiles():
    """Kernel.plan: the tile plan the ring asks before each launch, with the offsets as arguments."""
    kernel = attnc.loads("kernel c(q_off: int, kv_off: int) { mask = q + q_off >= kv + kv_off; }").c
    assert kernel._core.plan(10, 9, {}, {"q_off": 0.0, "kv_off": 10.0})[1:] == (0, 0)  # all above the diagonal
    tiles, full, partial = kernel._core.plan(130, 130, {}, {"q_off": 0.0, "kv_off": 0.0})
    assert tiles == 9 and full + partial == 6
    with pytest.raises(attnc.Error, match="q_off"):
        kernel._core.plan(10, 9, {}, {})


def test_guide_example_runs_under_torchrun(tmp_path):
    """docs/guide.md, "Context parallel": its script, launched as the guide says (torchrun, 2 ranks)."""
    with open(os.path.join(ROOT, "docs", "guide.md"), encoding="utf-8") as f:
        text = f.read()
    section = text.split("### Context parallel", 1)[1]
    script = section.split("```python\n", 1)[1].split("```", 1)[0]
    command = section.split("```sh\n", 1)[1].split("```", 1)[0].strip()
    assert command.startswith("torchrun --nproc-per-node 2 ")
    (tmp_path / "ring.py").write_text(script)
    run = subprocess.run([sys.executable, "-m", "torch.distributed.run", "--nproc-per-node", "2",
                          "--standalone", str(tmp_path / "ring.py")], cwd=tmp_path,
                         env=child_env(), capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    # The two ranks print to one pipe, and an unbuffered print writes its text and its newline
    # apart: one rank's line may run into the other's ("...error 3.0e-07rank 1: ...").
    errors = [float(e) for e in re.findall(r"max abs error (\d\.\de[+-]\d+)", run.stdout)]
    assert len(errors) == 2 and max(errors) <= 1e-5, run.stdout
    # 301 positions, documents of 100: on each rank some pairs are skipped (causal, and chunks
    # that share no document).
    skipped = [int(n) for n in re.findall(r"launches, (\d+) skipped", run.stdout)]
    assert len(skipped) == 2 and min(skipped) > 0, run.stdout
