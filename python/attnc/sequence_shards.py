"""How a sequence is cut over the ranks of a context-parallel group (attnc.torch.context_parallel_*).

The sequence of length L is cut into chunks: 2 * world with layout "zigzag", world with
"contiguous". Chunk c holds L // chunks + (1 if c < L % chunks else 0) positions, from position
c * (L // chunks) + min(c, L % chunks): the first L % chunks chunks are one longer. With "zigzag"
rank r holds chunks r and 2 * world - 1 - r, in that order (torch's context parallel load
balancing: a causal mask gives every rank the same work); with "contiguous" chunk r.
"""

import torch

from ._backend import Error

LAYOUTS = ("zigzag", "contiguous")


def check_layout(layout):
    if layout not in LAYOUTS:
        raise Error(f"attnc.torch: layout must be one of {', '.join(repr(x) for x in LAYOUTS)}, got {layout!r}")


def shard_chunks(length, world, layout):
    """Per rank, its chunks as (global start, size) pairs, in the order the shard holds them."""
    check_layout(layout)
    if world < 1:
        raise Error(f"attnc.torch: a context-parallel group has at least one rank, got {world}")
    n = 2 * world if layout == "zigzag" else world
    base, extra = divmod(int(length), n)
    chunks = [(c * base + min(c, extra), base + (1 if c < extra else 0)) for c in range(n)]
    if layout == "zigzag":
        return [[chunks[r], chunks[n - 1 - r]] for r in range(world)]
    return [[chunks[r]] for r in range(world)]


def shard_length(length, rank, world, layout):
    """The number of positions rank `rank` holds."""
    return sum(size for _, size in shard_chunks(length, world, layout)[rank])


def context_parallel_shard(x, rank, world, layout="zigzag", dim=2):
    """Rank `rank`'s shard of the full tensor `x` along `dim` (the sequence; 2 for [B, H, L, D]): its
    chunks (module docstring) concatenated, a new contiguous tensor."""
    if not 0 <= rank < world:
        raise Error(f"attnc.torch.context_parallel_shard: rank {rank} is outside a group of {world}")
    chunks = shard_chunks(x.shape[dim], world, layout)[rank]
    return torch.cat([x.narrow(dim, start, size) for start, size in chunks], dim=dim)


def context_parallel_unshard(shards, layout="zigzag", dim=2):
    """The full tensor from every rank's shard (a list in rank order, e.g. from all_gather_object
    or the ranks' outputs): the inverse of context_parallel_shard."""
    shards = list(shards)
    if not shards:
        raise Error("attnc.torch.context_parallel_unshard: give every rank's shard, in rank order")
    world = len(shards)
    length = sum(s.shape[dim] for s in shards)
    layout_chunks = shard_chunks(length, world, layout)
    for r, s in enumerate(shards):
        want = sum(size for _, size in layout_chunks[r])
        if s.shape[dim] != want:
            raise Error(f"attnc.torch.context_parallel_unshard: rank {r}'s shard has {s.shape[dim]} positions; the "
                        f"{layout} layout of {length} over {world} ranks gives it {want}")
    pieces = []
    for r, s in enumerate(shards):
        offset = 0
        for start, size in layout_chunks[r]:
            pieces.append((start, s.narrow(dim, offset, size)))
            offset += size
    return torch.cat([p for _, p in sorted(pieces, key=lambda item: item[0])], dim=dim)
