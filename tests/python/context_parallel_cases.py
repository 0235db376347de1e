"""The cases of test_context_parallel.py, shared by the test (the single-process reference) and its
spawned ranks (context_parallel_worker.py): inputs made from a seed, and FlexAttention callables
whose q_idx and kv_idx are global positions."""

import torch

H, D = 2, 16


def inputs(case):
    """Full-sequence q, k, v, the callables' captured tensors and the output gradients."""
    g = torch.Generator().manual_seed(case["seed"])
    L = case["L"]
    q, k, v = (torch.randn(1, H, L, D, generator=g) for _ in range(3))
    # Cotangents of 0.1: the slopes' gradient sums ~L * window terms of (kv - q) * dscore, which at
    # scale 1 reaches ~40, where f32's rounding of two summation orders alone differs by 1e-5.
    dout = 0.1 * torch.randn(1, H, L, D, generator=g)
    dlse = 0.1 * torch.randn(1, H, L, generator=g)
    doc = torch.tensor([min(i // case["doc"], 3) for i in range(L)], dtype=torch.int64) if case.get("doc") else None
    slopes = torch.tensor([0.25, -0.125]).requires_grad_()
    bias = (0.1 * torch.randn(L, generator=g)).requires_grad_()
    return dict(q=q, k=k, v=v, dout=dout, dlse=dlse, doc=doc, slopes=slopes, bias=bias)


def mods(case, t):
    """(mask_mod, score_mod) of `case` over the captured tensors of `t` (inputs())."""
    if case["mask"] == "causal":
        def causal(b, h, q_idx, kv_idx):
            return q_idx >= kv_idx

        return causal, None
    lo, hi, doc, slopes, bias = case["lo"], case["hi"], t["doc"], t["slopes"], t["bias"]

    def window_documents(b, h, q_idx, kv_idx):  # sliding window [lo, hi) back, within a document
        return (q_idx - kv_idx >= lo) & (q_idx - kv_idx < hi) & (doc[q_idx] == doc[kv_idx])

    def alibi_bias(score, b, h, q_idx, kv_idx):  # ALiBi with learnable slopes, and a learnable bias per key
        return score + slopes[h] * (kv_idx - q_idx) + bias[kv_idx]

    return window_documents, alibi_bias


def skipped_pairs(case, world):
    """The exact number of (Q chunk, K/V chunk) pairs a causal mask leaves without a tile on each
    rank: with zigzag, chunk c's queries see no key of a later chunk, so rank r skips the pairs of
    its chunks r and 2 * world - 1 - r with later chunks, (2 * world - 1 - r) + r of them."""
    assert case["mask"] == "causal" and case["layout"] == "zigzag"
    return [2 * world - 1] * world


# world -> cases. Lengths are odd or not divisible by 2 * world (uneven shards).
CASES = {
    2: [
        dict(name="causal", mask="causal", layout="zigzag", L=37, seed=1),
        dict(name="window_documents_alibi_contiguous", mask="generic", layout="contiguous", L=45, seed=2, lo=0,
             hi=9, doc=13),
        dict(name="fully_masked_rows", mask="generic", layout="zigzag", L=40, seed=3, lo=1, hi=40, doc=10),
    ],
    4: [
        dict(name="causal", mask="causal", layout="zigzag", L=130, seed=4),
        dict(name="window_documents_alibi", mask="generic", layout="zigzag", L=77, seed=5, lo=0, hi=12, doc=21),
        dict(name="documents_contiguous", mask="generic", layout="contiguous", L=53, seed=6, lo=0, hi=53, doc=17),
    ],
}
