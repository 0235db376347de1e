"""One rank of test_context_parallel.py: `python context_parallel_worker.py RANK WORLD INIT_METHOD OUT_DIR`.
Joins a gloo group, runs every case of context_parallel_cases.CASES[WORLD] forward and backward on
its shards, and saves what the test compares (its shards of Out, LSE, dQ, dK, dV, the captured
tensors' gradients, the stats and the compiles) to OUT_DIR/rank<RANK>.pt."""

import os
import sys

import torch
import torch.distributed as dist

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import attnc.torch as at  # noqa: E402
from context_parallel_cases import CASES, inputs, mods  # noqa: E402


def run_case(case, rank, world):
    t = inputs(case)
    shard = {n: at.context_parallel_shard(t[n], rank, world, case["layout"]) for n in ("q", "k", "v", "dout", "dlse")}
    q, k, v = (shard[n].requires_grad_() for n in ("q", "k", "v"))
    mask_mod, score_mod = mods(case, t)
    block_mask = at.create_block_mask(mask_mod, None, None, case["L"], case["L"])
    stats = at.ContextParallelStats()
    compiles = at._compiled.cache_info().misses
    out, lse = at.context_parallel_attention(q, k, v, score_mod=score_mod, block_mask=block_mask,
                                             layout=case["layout"], return_lse=True, stats=stats, threads=1)
    compiles = at._compiled.cache_info().misses - compiles
    torch.autograd.backward([out, lse], [shard["dout"], shard["dlse"]])
    result = dict(out=out.detach(), lse=lse.detach(), dq=q.grad, dk=k.grad, dv=v.grad, compiles=compiles,
                  launches=stats.launches, skipped=stats.skipped, backward_launches=stats.backward_launches,
                  backward_skipped=stats.backward_skipped, bytes_sent=stats.bytes_sent,
                  steps=len(stats.step_seconds))
    if score_mod is not None:
        result.update(dslopes=t["slopes"].grad, dbias=t["bias"].grad)
    return result


def main():
    rank, world, init, out_dir = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
    torch.set_num_threads(1)
    dist.init_process_group("gloo", init_method=init, rank=rank, world_size=world)
    try:
        results = {}
        for case in CASES[world]:
            results[case["name"]] = run_case(case, rank, world)
        # Determinism: the last case again gives the same bits.
        again = run_case(CASES[world][-1], rank, world)
        results["repeat"] = again
        torch.save(results, os.path.join(out_dir, f"rank{rank}.pt"))
    finally:
        dist.destroy_process_group()


if __name__ == "__main__":
    main()
