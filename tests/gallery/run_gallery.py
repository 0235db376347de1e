#!/usr/bin/env python3
"""The attention-gym gallery through `attnc run` against PyTorch's own flex_attention.

Every mask_mod and score_mod generator of attention-gym (attn_gym.masks, attn_gym.mods) is written
in .attn in this directory, one file per attn_gym module. Each case below builds the generator's
inputs from a seeded RNG, runs flex_attention (eager, on the CPU) with the mods attn_gym's
generator returns, runs the .attn kernel with `attnc run -t cpu` and `-t reference` on the same
Q, K, V and arguments, and compares Out and the log-sum-exp. Exit status 1 when any case differs by
more than the tolerance or attnc fails.

    run_gallery.py --attnc build/cli/attnc [-k NAME_PART] [--jobs N] [--keep DIR]
"""

import argparse
import concurrent.futures
import dataclasses
import functools
import inspect
import os
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path
from typing import Callable

import numpy as np
import torch
import torch.nn.attention.flex_attention as flex_module
import torch.nn.functional as F
from torch.nn.attention.flex_attention import AuxRequest, create_block_mask, flex_attention, noop_mask

import attn_gym.masks as gym_masks
import attn_gym.mods as gym_mods
from attn_gym.masks.vsa import generate_vsa_padding_mask_mod

HERE = Path(__file__).resolve().parent
TARGETS = ("cpu", "reference")
TOLERANCE = 1e-4


@dataclasses.dataclass
class Shape:
    batch: int
    heads: int  # query heads
    q_len: int
    head_dim: int = 16
    kv_heads: int | None = None  # fewer than heads: grouped-query attention
    kv_len: int | None = None  # differs from q_len: cross-attention
    value_dim: int | None = None

    def __post_init__(self):
        self.kv_heads = self.kv_heads or self.heads
        self.kv_len = self.kv_len or self.q_len
        self.value_dim = self.value_dim or self.head_dim

    def __str__(self):
        s = f"B{self.batch} H{self.heads}"
        s += f"/{self.kv_heads}" if self.kv_heads != self.heads else ""
        s += f" L{self.q_len}" + (f"x{self.kv_len}" if self.kv_len != self.q_len else "")
        s += f" D{self.head_dim}" + (f"/{self.value_dim}" if self.value_dim != self.head_dim else "")
        return s


@dataclasses.dataclass
class Mods:
    """What a case gives flex_attention (attn_gym's mods) and attnc (the kernel's arguments)."""

    mask_mod: Callable | None = None
    score_mod: Callable | None = None
    args: dict = dataclasses.field(default_factory=dict)  # the kernel's tensor arguments by name


@dataclasses.dataclass
class Case:
    file: str
    kernel: str
    shape: Shape
    make: Callable[[np.random.Generator], Mods]
    q_scale: float = 1.0  # larger scores, for the cases whose mod only bites on them


CASES: list[Case] = []


def case(file, kernel, shape, q_scale=1.0):
    """Registers the decorated function, which builds a case's mods from an RNG."""

    def register(make):
        CASES.append(Case(file, kernel, shape, make, q_scale))
        return make

    return register


def i32(x):
    return np.ascontiguousarray(np.asarray(x, dtype=np.int32))


def random_lengths(rng, total, count):
    """`count` positive lengths that add up to `total`."""
    cuts = np.sort(rng.choice(np.arange(1, total), size=count - 1, replace=False))
    return np.diff(np.concatenate([[0], cuts, [total]])).tolist()


def documents(rng, total, count):
    """attn_gym's offsets for random document lengths, and the document id of every position."""
    lengths = random_lengths(rng, total, count)
    offsets = gym_masks.document_mask.length_to_offsets(lengths, "cpu")
    return offsets, {"document_id": i32(np.repeat(np.arange(count), lengths)), "offsets": i32(offsets)}


# --- attn_gym.masks ---


@case("causal.attn", "causal_mask", Shape(2, 4, 131, kv_heads=2))
def _(rng):
    return Mods(mask_mod=gym_masks.causal_mask)


@case("sliding_window.attn", "sliding_window_37", Shape(1, 4, 300, head_dim=32))
def _(rng):
    return Mods(mask_mod=gym_masks.generate_sliding_window(37))


@case("prefix_lm.attn", "prefix_lm_40", Shape(2, 2, 200))
def _(rng):
    return Mods(mask_mod=gym_masks.generate_prefix_lm_mask(40))


@case("dilated_sliding_window.attn", "dilated_sliding_window_24_3", Shape(1, 3, 257, kv_heads=1))
def _(rng):
    return Mods(mask_mod=gym_masks.generate_dilated_sliding_window(24, 3))


@case("global_sliding_window.attn", "global_sliding_window_16", Shape(1, 2, 290))
def _(rng):
    is_global = rng.random(290) < 0.04
    return Mods(
        mask_mod=gym_masks.generate_global_sliding_window(16, torch.from_numpy(is_global)),
        args={"is_global": is_global},
    )


@case("document_mask.attn", "doc_mask_causal", Shape(2, 2, 277))
def _(rng):
    offsets, args = documents(rng, 277, 5)
    return Mods(mask_mod=gym_masks.generate_doc_mask_mod(gym_masks.causal_mask, offsets), args=args)


@case("document_mask.attn", "doc_mask_noop", Shape(1, 4, 250, kv_heads=2))
def _(rng):
    offsets, args = documents(rng, 250, 7)
    return Mods(mask_mod=gym_masks.generate_doc_mask_mod(noop_mask, offsets), args=args)


@case("document_mask.attn", "doc_mask_sliding_window_8", Shape(1, 2, 300))
def _(rng):
    offsets, args = documents(rng, 300, 4)
    inner = gym_masks.generate_sliding_window(8)
    return Mods(mask_mod=gym_masks.generate_doc_mask_mod(inner, offsets), args=args)


@case("document_mask.attn", "packed_causal_doc_mask", Shape(1, 2, 199))
def _(rng):
    offsets, args = documents(rng, 199, 6)
    return Mods(mask_mod=gym_masks.generate_packed_causal_doc_mask_mod(offsets), args=args)


@case("batchify.attn", "batchify_causal_48", Shape(2, 2, 250))
def _(rng):
    return Mods(mask_mod=gym_masks.batchify_mask_mod(gym_masks.causal_mask, 48))


@case("batchify.attn", "batchify_noop_40", Shape(1, 4, 170, kv_heads=1))
def _(rng):
    return Mods(mask_mod=gym_masks.batchify_mask_mod(noop_mask, 40))


@case("shared_prefix.attn", "shared_prefix_mask", Shape(1, 2, 260))
def _(rng):
    # Three prompts, each followed by one to three continuations that share it.
    prefix_document_id = []
    for _ in range(3):
        prompt = len(prefix_document_id)
        prefix_document_id += [prompt] * (1 + int(rng.integers(1, 4)))
    lengths = random_lengths(rng, 260, len(prefix_document_id))
    offsets = gym_masks.document_mask.length_to_offsets(lengths, "cpu")
    prefix = torch.tensor(prefix_document_id)
    args = {
        "offsets": i32(offsets),
        "document_id": i32(np.repeat(np.arange(len(lengths)), lengths)),
        "prefix_document_id": i32(prefix_document_id),
    }
    return Mods(mask_mod=gym_masks.generate_shared_prefix_mask_mod(offsets, prefix), args=args)


@case("flamingo.attn", "vision_cross_attention_37", Shape(1, 2, 150, kv_len=5 * 37))
def _(rng):
    # Each image is seen by a run of text tokens from where it appears; the first tokens see none.
    starts = np.sort(rng.choice(np.arange(3, 150), size=5, replace=False))
    ends = np.minimum(starts + rng.integers(10, 80, size=5), 150)
    intervals = i32(np.stack([starts, ends], axis=1))
    mask_mod = gym_masks.generate_vision_cross_attention_mask_mod(torch.from_numpy(intervals), 37)
    return Mods(mask_mod=mask_mod, args={"intervals": intervals})


@case("natten.attn", "natten_c18x14_k5x3", Shape(1, 2, 18 * 14))
def _(rng):
    return Mods(mask_mod=gym_masks.generate_natten(18, 14, 5, 3))


@case("natten.attn", "tiled_natten_c16x12_k5x3_t4x4", Shape(2, 2, 16 * 12, head_dim=32))
def _(rng):
    return Mods(mask_mod=gym_masks.generate_tiled_natten(16, 12, 5, 3, 4, 4))


@case("natten.attn", "morton_natten_c16x16_k5x3", Shape(1, 4, 16 * 16, kv_heads=2))
def _(rng):
    return Mods(mask_mod=gym_masks.generate_morton_natten(16, 16, 5, 3))


@case("jetspec.attn", "jetspec_tree_causal_p100_n45", Shape(1, 4, 45, kv_heads=2, kv_len=145))
def _(rng):
    parents = [-1] + [int(rng.integers(0, node)) for node in range(1, 45)]
    ancestor_matrix = gym_masks.build_tree_ancestor_matrix(parents, device="cpu")
    mask_mod = gym_masks.generate_jetspec_tree_causal_mask_mod(100, ancestor_matrix)
    return Mods(mask_mod=mask_mod, args={"ancestor_matrix": ancestor_matrix.numpy()})


@case("jetspec.attn", "jetspec_training_p37_block16", Shape(1, 2, 9 * 16, kv_len=37 + 9 * 16))
def _(rng):
    return Mods(mask_mod=gym_masks.generate_jetspec_training_mask_mod(37, 16))


@case("block_diffusion.attn", "block_diffusion_150_16", Shape(1, 2, 300))
def _(rng):
    return Mods(mask_mod=gym_masks.generate_block_diffusion_mask(150, 16))


@case("svg.attn", "svg_spatial_head", Shape(1, 2, 300))
def _(rng):
    return Mods(mask_mod=gym_masks.generate_spatial_head_mask_mod(20, 10, 28, 2, False, 8))


@case("svg.attn", "svg_spatial_head_sink", Shape(2, 2, 300, kv_heads=1))
def _(rng):
    return Mods(mask_mod=gym_masks.generate_spatial_head_mask_mod(20, 10, 28, 2, True, 8))


@case("svg.attn", "svg_temporal_head", Shape(1, 2, 300))
def _(rng):
    return Mods(mask_mod=gym_masks.generate_temporal_head_mask_mod(20, 10, 28, 2))


@case("sta.attn", "sta_2d_c12x20_k8x12_t4x4", Shape(1, 2, 240))
def _(rng):
    return Mods(mask_mod=gym_masks.generate_sta_mask_mod_2d((12, 20), (8, 12), (4, 4)))


@case("sta.attn", "sta_2d_c16x16_k8x12_t4x4_text37", Shape(1, 2, 256 + 37))
def _(rng):
    return Mods(mask_mod=gym_masks.generate_sta_mask_mod_2d((16, 16), (8, 12), (4, 4), 37))


@case("sta.attn", "sta_3d_c6x4x12_k4x4x8_t2x4x4", Shape(1, 2, 288))
def _(rng):
    return Mods(mask_mod=gym_masks.generate_sta_mask_mod_3d((6, 4, 12), (4, 4, 8), (2, 4, 4)))


@case("sta.attn", "sta_3d_c4x8x8_k2x4x8_t2x4x4_text29", Shape(1, 4, 256 + 29, kv_heads=2))
def _(rng):
    return Mods(mask_mod=gym_masks.generate_sta_mask_mod_3d((4, 8, 8), (2, 4, 8), (2, 4, 4), 29))


@case("vsa.attn", "vsa_padding_t32", Shape(1, 2, 200, kv_len=9 * 32))
def _(rng):
    sizes = i32(np.where(rng.random(9) < 0.5, 32, rng.integers(1, 32, size=9)))
    mask_mod = generate_vsa_padding_mask_mod(torch.from_numpy(sizes), 32)
    return Mods(mask_mod=mask_mod, args={"variable_block_sizes": sizes})


@case("vsa.attn", "vsa_topk_t32", Shape(1, 4, 230, kv_heads=2, kv_len=9 * 32))
def _(rng):
    # Three of the nine key tiles for each of the eight query tiles, per batch and head.
    topk = i32(np.argsort(rng.random((1, 4, 8, 9)), axis=-1)[..., :3])
    mask_mod = gym_masks.generate_vsa_mask_mod(torch.from_numpy(topk), 32)
    return Mods(mask_mod=mask_mod, args={"topk_indices": topk})


@case("vsa.attn", "vsa_topk_padded_t32", Shape(2, 2, 256, kv_len=9 * 32))
def _(rng):
    # Five tiles each this time: the same kernel serves any top-k (a buffer extent).
    topk = i32(np.argsort(rng.random((2, 2, 8, 9)), axis=-1)[..., :5])
    sizes = i32(np.where(rng.random(9) < 0.5, 32, rng.integers(1, 32, size=9)))
    mask_mod = gym_masks.generate_vsa_mask_mod(torch.from_numpy(topk), 32, torch.from_numpy(sizes))
    return Mods(mask_mod=mask_mod, args={"topk_indices": topk, "variable_block_sizes": sizes})


# --- attn_gym.mods ---


@case("activation.attn", "activation_gelu", Shape(1, 2, 160, kv_heads=1))
def _(rng):
    return Mods(score_mod=gym_mods.generate_activation_score_mod())  # F.gelu, offset 1


@case("activation.attn", "activation_relu", Shape(1, 2, 150))
def _(rng):
    return Mods(score_mod=gym_mods.generate_activation_score_mod(F.relu, 1.0))


@case("activation.attn", "activation_sigmoid_causal", Shape(1, 2, 170))
def _(rng):
    score_mod = gym_mods.generate_activation_score_mod(torch.sigmoid, 0.5)
    return Mods(mask_mod=gym_masks.causal_mask, score_mod=score_mod)


@case("activation.attn", "activation_silu", Shape(2, 2, 130, kv_heads=1))
def _(rng):
    return Mods(score_mod=gym_mods.generate_activation_score_mod(F.silu, 1.0))


@case("activation.attn", "activation_gelu_tanh", Shape(1, 2, 140))
def _(rng):
    gelu_tanh = functools.partial(F.gelu, approximate="tanh")
    return Mods(score_mod=gym_mods.generate_activation_score_mod(gelu_tanh, 1.0))


@case("alibi.attn", "alibi_causal_h4", Shape(1, 4, 230, kv_heads=2))
def _(rng):
    return Mods(mask_mod=gym_masks.causal_mask, score_mod=gym_mods.generate_alibi_bias(4))


@case("graphormer.attn", "graphormer_spatial", Shape(2, 2, 150, head_dim=32, value_dim=16))
def _(rng):
    upper = np.triu(rng.random((2, 150, 150)) < 0.02, 1)
    adjacency = torch.from_numpy(upper | upper.transpose(0, 2, 1))
    distances = gym_mods.shortest_path_distances(adjacency, 5)
    spatial_bias = torch.from_numpy(rng.standard_normal((2, 7), dtype=np.float32))
    return Mods(
        score_mod=gym_mods.generate_graphormer_spatial_bias(spatial_bias, distances),
        args={"spatial_bias": spatial_bias.numpy(), "distances": distances.numpy()},
    )


@case("graphormer.attn", "graphormer_edge", Shape(2, 2, 70))
def _(rng):
    upper = np.triu(rng.random((2, 70, 70)) < 0.05, 1)
    adjacency = torch.from_numpy(upper | upper.transpose(0, 2, 1))
    edge_types = torch.from_numpy(rng.integers(0, 4, size=(2, 70, 70)))
    path_edge_types, path_lengths = gym_mods.shortest_path_edge_types(adjacency, edge_types, 5)
    edge_bias = torch.from_numpy(rng.standard_normal((2, 5, 4), dtype=np.float32))
    args = {
        "edge_bias": edge_bias.numpy(),
        "path_edge_types": path_edge_types.numpy(),
        "path_lengths": path_lengths.numpy(),
    }
    score_mod = gym_mods.generate_graphormer_edge_bias(edge_bias, path_edge_types, path_lengths)
    return Mods(score_mod=score_mod, args=args)


@case("latent_attention.attn", "mla_rope_causal", Shape(1, 4, 200, head_dim=32, kv_heads=1))
def _(rng):
    query_rope = rng.standard_normal((1, 4, 200, 64), dtype=np.float32) * np.float32(0.125)
    key_rope = rng.standard_normal((1, 1, 200, 64), dtype=np.float32) * np.float32(0.125)
    rope = torch.from_numpy(query_rope), torch.from_numpy(key_rope)
    score_mod = gym_mods.generate_mla_rope_score_mod(*rope, num_heads=4)
    args = {"query_rope": query_rope, "key_rope": key_rope}
    return Mods(mask_mod=gym_masks.causal_mask, score_mod=score_mod, args=args)


@case("sandwich.attn", "sandwich_causal", Shape(1, 4, 300))
def _(rng):
    score_mod = gym_mods.generate_sandwich_bias(4, 300, d_bar=128)
    # The generator keeps its tables in the closure: give attnc the very same ones.
    tables = inspect.getclosurevars(score_mod).nonlocals
    assert tables["offset"] == 300 - 1
    args = {"rel_bias": tables["rel_bias"].numpy(), "head_scale": tables["head_scale"].numpy()}
    return Mods(mask_mod=gym_masks.causal_mask, score_mod=score_mod, args=args)


@case("softcapping.attn", "tanh_softcap_30", Shape(1, 2, 200), q_scale=40.0)
def _(rng):
    return Mods(score_mod=gym_mods.generate_tanh_softcap(30))


@case("softcapping.attn", "tanh_softcap_approx_2_causal", Shape(2, 2, 120, kv_heads=1), q_scale=3.0)
def _(rng):
    return Mods(mask_mod=gym_masks.causal_mask, score_mod=gym_mods.generate_tanh_softcap(2, approx=True))


# --- running and comparing ---


def flex(shape, q, k, v, mods):
    """Out and LSE from flex_attention with attn_gym's mods, eager: the mask_mod and score_mod at
    every position (the block mask's sparsity is not used), the softmax over the whole row."""
    block_mask = None
    if mods.mask_mod is not None:
        block_mask = create_block_mask(
            mods.mask_mod, shape.batch, shape.heads, shape.q_len, shape.kv_len, device="cpu"
        )
    out, aux = flex_attention(
        torch.from_numpy(q),
        torch.from_numpy(k),
        torch.from_numpy(v),
        score_mod=mods.score_mod,
        block_mask=block_mask,
        enable_gqa=shape.heads != shape.kv_heads,
        return_aux=AuxRequest(lse=True),
    )
    return out.numpy(), aux.lse.numpy()


def attnc_run(attnc, case, args, target, workdir):
    """Runs the case's kernel on one target with the tensor arguments `args` (saved in workdir);
    returns (out, lse) or the error text."""
    out, lse = workdir / f"out-{target}.npy", workdir / f"lse-{target}.npy"
    cmd = [attnc, "run", str(HERE / case.file), case.kernel, "-t", target, "-o", str(out), "--lse", str(lse)]
    cmd += [f"--{n}={workdir / (n + '.npy')}" for n in "qkv"]
    for name in args:
        cmd += ["--arg", f"{name}={workdir / f'arg-{name}.npy'}"]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        return f"attnc exited {done.returncode}: {done.stderr.strip()}"
    return np.load(out), np.load(lse)


def max_error(got, want):
    """The largest absolute difference, or inf where the two disagree on a non-finite value
    (a fully masked row has LSE -inf on both sides)."""
    worst = 0.0
    for a, b in zip(got, want):
        if a.shape != b.shape:
            return float("inf")
        finite = np.isfinite(b)
        if not np.array_equal(np.isfinite(a), finite) or not np.array_equal(a[~finite], b[~finite]):
            return float("inf")
        if finite.any():
            worst = max(worst, float(np.max(np.abs(a[finite].astype(np.float64) - b[finite]))))
    return worst


def stale_in_docs(files):
    """The gallery files that docs/gallery.md does not show exactly as they are."""
    page = (HERE.parents[1] / "docs" / "gallery.md").read_text()
    return [f for f in files if f"```attn\n{(HERE / f).read_text()}```" not in page]


def prepare(case, root):
    """Writes the case's inputs under root; returns its directory, Q, K, V and attn_gym's mods."""
    rng = np.random.default_rng(zlib.crc32(case.kernel.encode()))  # the same inputs whatever runs
    s = case.shape
    q = rng.standard_normal((s.batch, s.heads, s.q_len, s.head_dim), dtype=np.float32)
    q *= np.float32(case.q_scale)
    k = rng.standard_normal((s.batch, s.kv_heads, s.kv_len, s.head_dim), dtype=np.float32)
    v = rng.standard_normal((s.batch, s.kv_heads, s.kv_len, s.value_dim), dtype=np.float32)
    mods = case.make(rng)
    workdir = root / case.kernel
    workdir.mkdir(exist_ok=True)
    for name, array in (("q", q), ("k", k), ("v", v)):
        np.save(workdir / f"{name}.npy", array)
    for name, array in mods.args.items():
        np.save(workdir / f"arg-{name}.npy", array)
    return workdir, (q, k, v), mods


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--attnc", required=True, help="the attnc binary")
    parser.add_argument("-k", dest="pattern", default="", help="only the kernels whose name contains this")
    parser.add_argument("--jobs", type=int, default=min(4, os.cpu_count() or 1), help="attnc runs at once")
    parser.add_argument("--keep", help="write the inputs and outputs under this directory and keep them")
    opts = parser.parse_args()
    # Plain eager flex_attention: otherwise it compiles its operator with dynamo (backend "eager")
    # at every new shape, which takes minutes over the gallery's shapes and then fails once dynamo
    # turns the shapes symbolic.
    flex_module._FLEX_ATTENTION_DISABLE_COMPILE_DEBUG = True
    cases = [c for c in CASES if opts.pattern in c.kernel]
    if not cases:
        sys.exit(f"no case matches '{opts.pattern}'")

    started = time.time()
    with tempfile.TemporaryDirectory(prefix="attnc-gallery-") as tmp, concurrent.futures.ThreadPoolExecutor(
        opts.jobs
    ) as pool:
        root = Path(opts.keep or tmp)
        root.mkdir(parents=True, exist_ok=True)
        rows = []
        for c in cases:
            workdir, (q, k, v), mods = prepare(c, root)
            runs = {t: pool.submit(attnc_run, opts.attnc, c, mods.args, t, workdir) for t in TARGETS}
            rows.append((c, flex(c.shape, q, k, v, mods), runs))

        failures = 0
        print(f"{'case':42} {'file':28} {'shape':24} " + " ".join(f"{t:>10}" for t in TARGETS))
        for c, want, runs in rows:
            cells, notes = [], []
            for t in TARGETS:
                got = runs[t].result()
                if isinstance(got, str):
                    cells.append("error")
                    notes.append(f"  {t}: {got}")
                    failures += 1
                    continue
                err = max_error(got, want)
                cells.append(f"{err:.1e}" + ("" if err <= TOLERANCE else " FAIL"))
                failures += err > TOLERANCE
            print(f"{c.kernel:42} {c.file:28} {str(c.shape):24} " + " ".join(f"{x:>10}" for x in cells))
            for n in notes:
                print(n)
        for f in stale_in_docs(sorted({c.file for c in cases})):
            print(f"docs/gallery.md does not show {f} as it is")
            failures += 1
    verdict = "FAILED" if failures else "passed"
    print(f"{len(cases)} cases x {len(TARGETS)} targets, max |Out - flex| and |LSE - flex| <= {TOLERANCE}: "
          f"{verdict} ({failures} failures) in {time.time() - started:.0f} s")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
