"""Context-parallel (ring) attention on torch.distributed: attnc.torch.context_parallel_attention.

Each rank holds its shard of Q, K and V along the sequence (attnc.sequence_shards says which
positions). K/V shards travel around the ring (rank r sends to r + 1 and receives from r - 1) with
torch.distributed point-to-point ops, the next transfer posted before the current block is
computed. Each (local Q chunk, visiting K/V chunk) pair runs one kernel, compiled once, whose mask
and score see global positions: the kernel takes `q_off` and `kv_off` as int arguments (attnc.trace,
OFFSETS). The kernel's tile plan decides per pair: a pair with no visited tile is skipped without a
launch. Partial rows merge through their LSE (docs/language.md, "Non-finite values": a row no key
reaches has Out 0 and LSE -inf). The backward circulates K/V again, with dK/dV accumulators that
travel one step behind their shard and end at its owner; every partial backward reads the final
Out and LSE of its rows. Sums run in a fixed order: gradients are deterministic for a fixed world
size and layout.
"""

import time

import torch
import torch.distributed as dist

from ._backend import Error
from .ops import _run, _run_backward, _spec
from .sequence_shards import check_layout, shard_chunks

_NEG_INF = float("-inf")
_FLT_MAX = 3.4028234663852886e38


class ContextParallelStats:
    """What context_parallel_attention did on this rank, summed over the calls it was passed to
    (`stats=`): kernel launches and (Q chunk, K/V chunk) pairs skipped because their tile plan has
    no tile to visit, forward and backward; bytes sent to and received from the ring's neighbours;
    the wall time of each ring step (compute, then the wait for the next block) and of each whole
    forward and backward."""

    def __init__(self):
        self.launches = 0
        self.skipped = 0
        self.backward_launches = 0
        self.backward_skipped = 0
        self.bytes_sent = 0
        self.bytes_received = 0
        self.step_seconds = []
        self.forward_seconds = []
        self.backward_step_seconds = []
        self.backward_seconds = []

    def __repr__(self):
        return (f"ContextParallelStats(launches={self.launches}, skipped={self.skipped}, "
                f"backward_launches={self.backward_launches}, backward_skipped={self.backward_skipped}, "
                f"bytes_sent={self.bytes_sent}, bytes_received={self.bytes_received})")


class _Ring:
    """The group's ring: transfers to the next rank and from the previous one, posted as one batch
    (batch_isend_irecv: gloo and NCCL alike; NCCL needs sends and receives of one step grouped)."""

    def __init__(self, group, rank, world, stats):
        self.group, self.rank, self.world, self.stats = group, rank, world, stats

    def post(self, sends=(), recvs=()):
        ops = [dist.P2POp(dist.isend, t, group=self.group, tag=tag, group_peer=(self.rank + 1) % self.world)
               for t, tag in sends]
        ops += [dist.P2POp(dist.irecv, t, group=self.group, tag=tag, group_peer=(self.rank - 1) % self.world)
                for t, tag in recvs]
        if self.stats is not None:
            self.stats.bytes_sent += sum(t.numel() * t.element_size() for t, _ in sends)
            self.stats.bytes_received += sum(t.numel() * t.element_size() for t, _ in recvs)
        return dist.batch_isend_irecv(ops) if ops else []


def _wait(requests):
    for r in requests:
        r.wait()


def _pack(*tensors, dtype=None):
    """One flat contiguous tensor of `tensors` (one message instead of several)."""
    return torch.cat([t.reshape(-1).to(dtype or t.dtype) for t in tensors])


def _unpack(flat, shapes):
    out, offset = [], 0
    for shape in shapes:
        n = 1
        for s in shape:
            n *= s
        out.append(flat[offset:offset + n].view(shape))
        offset += n
    return out


def merge_partial(out, lse, part_out, part_lse):
    """Merges a partial result (Out, LSE over other keys of the same rows) into (out, lse), in
    place (out float32). The split-merge rule of attn_split_merge.cuh on LSEs: the row's largest
    LSE m is the base (0 while every LSE is -inf, so a row no key reached keeps Out 0 and LSE -inf;
    the largest float while m is +Inf); a share of LSE +Inf weighs 1 and a NaN makes the row NaN."""
    m = torch.maximum(lse, part_lse)
    base = torch.where(m == _NEG_INF, 0.0, torch.where(m == float("inf"), _FLT_MAX, m))
    w_old = torch.where(lse == float("inf"), 1.0, torch.exp(lse - base))
    w_new = torch.where(part_lse == float("inf"), 1.0, torch.exp(part_lse - base))
    total = w_old + w_new
    merged = (out * w_old[..., None] + part_out.float() * w_new[..., None]) / total[..., None]
    out.copy_(torch.where((total != 0)[..., None], merged, 0.0))
    lse.copy_(torch.where(total != 0, m + torch.log(total), _NEG_INF))


class RingCall:
    """The fixed parts of one context-parallel call: the kernel, its buffers and scalars (without
    the offsets), the group and each rank's query and key/value chunks as (global start, size)."""

    def __init__(self, kernel, buffer_names, scalars, group, rank, world, q_chunks, kv_chunks, kv_shapes,
                 stats, target, threads):
        self.kernel, self.buffer_names, self.scalars = kernel, buffer_names, scalars
        self.group, self.rank, self.world = group, rank, world
        self.q_chunks, self.kv_chunks, self.kv_shapes = q_chunks, kv_chunks, kv_shapes
        self.stats, self.target, self.threads = stats, target, threads

    def pairs(self, src, buffers):
        """The (Q chunk, K/V chunk) pairs of a step whose K/V came from rank `src`, as (local Q
        start, size, local K/V start, size, scalars with the offsets, launched), the tile plan
        deciding `launched` (False: every tile proven empty)."""
        specs = {n: _spec(b) for n, b in buffers.items()}
        q_local = 0
        for q_start, q_size in self.q_chunks[self.rank]:
            kv_local = 0
            for kv_start, kv_size in self.kv_chunks[src]:
                if q_size and kv_size:
                    scalars = dict(self.scalars, q_off=float(q_start), kv_off=float(kv_start))
                    _, full, partial = self.kernel._core.plan(q_size, kv_size, specs, scalars)
                    yield q_local, q_size, kv_local, kv_size, scalars, full + partial > 0
                kv_local += kv_size
            q_local += q_size

    def forward(self, q, k, v, buffers):
        """(Out in q's dtype, LSE float32) of the local queries over every rank's keys."""
        started = time.perf_counter()
        stats, world = self.stats, self.world
        ring = _Ring(self.group, self.rank, world, stats)
        out = torch.zeros((*q.shape[:3], v.shape[3]), dtype=torch.float32, device=q.device)
        lse = torch.full(q.shape[:3], _NEG_INF, dtype=torch.float32, device=q.device)
        current = _pack(k, v) if world > 1 else None
        k_step, v_step = k, v
        for step in range(world):
            step_start = time.perf_counter()
            src = (self.rank - step) % world
            requests, incoming = [], None
            if step + 1 < world:  # the next block, posted before this one is computed
                incoming = torch.empty(sum(_numel(s) for s in self.kv_shapes[(src - 1) % world]),
                                       dtype=k.dtype, device=k.device)
                requests = ring.post(sends=[(current, 2 * step)], recvs=[(incoming, 2 * step)])
            for qs, qn, ks, kn, scalars, launched in self.pairs(src, buffers):
                if not launched:
                    if stats is not None:
                        stats.skipped += 1
                    continue
                part_out, part_lse, _ = _run(self.kernel, q[:, :, qs:qs + qn], k_step[:, :, ks:ks + kn],
                                             v_step[:, :, ks:ks + kn], buffers, scalars, self.target, self.threads,
                                             True)
                merge_partial(out[:, :, qs:qs + qn], lse[:, :, qs:qs + qn], part_out, part_lse)
                if stats is not None:
                    stats.launches += 1
            _wait(requests)
            if incoming is not None:
                current = incoming
                k_step, v_step = _unpack(incoming, self.kv_shapes[(src - 1) % world])
            if stats is not None:
                stats.step_seconds.append(time.perf_counter() - step_start)
        if stats is not None:
            stats.forward_seconds.append(time.perf_counter() - started)
        return out.to(q.dtype), lse

    def backward(self, q, k, v, buffers, out, lse, dout, dlse, wanted):
        """dQ, dK, dV of the local shards and the gradients of the buffers in `wanted`, summed over
        the group (the same on every rank)."""
        started = time.perf_counter()
        stats, world, rank = self.stats, self.world, self.rank
        ring = _Ring(self.group, rank, world, stats)
        dq = torch.zeros(q.shape, dtype=torch.float32, device=q.device)
        dbuffers = {n: torch.zeros(buffers[n].shape, dtype=torch.float32, device=buffers[n].device) for n in wanted}
        current = _pack(k, v) if world > 1 else None
        k_step, v_step = k, v
        accumulator = None  # dK and dV (float32, packed) of the shard computed last, on its way to its owner
        sending = []  # the requests of the accumulator sent last (it must live until it is sent)
        for step in range(world):
            step_start = time.perf_counter()
            src = (rank - step) % world
            kv_shape = self.kv_shapes[src]
            requests, incoming, received = [], None, None
            recvs, sends = [], []
            if step > 0:  # the accumulator of this step's shard, sent by the previous rank after its step
                received = torch.empty(sum(_numel(s) for s in kv_shape), dtype=torch.float32, device=q.device)
                recvs.append((received, 2 * step - 1))
            if step + 1 < world:
                incoming = torch.empty(sum(_numel(s) for s in self.kv_shapes[(src - 1) % world]),
                                       dtype=k.dtype, device=k.device)
                recvs.append((incoming, 2 * step))
                sends.append((current, 2 * step))
            requests = ring.post(sends=sends, recvs=recvs)
            dk_step = torch.zeros(kv_shape[0], dtype=torch.float32, device=q.device)
            dv_step = torch.zeros(kv_shape[1], dtype=torch.float32, device=q.device)
            for qs, qn, ks, kn, scalars, launched in self.pairs(src, buffers):
                if not launched:
                    if stats is not None:
                        stats.backward_skipped += 1
                    continue
                rows = slice(qs, qs + qn)
                dq_part, dk_part, dv_part, db_part = _run_backward(
                    self.kernel, q[:, :, rows], k_step[:, :, ks:ks + kn], v_step[:, :, ks:ks + kn], buffers, scalars,
                    self.target, self.threads, out[:, :, rows], lse[:, :, rows], dout[:, :, rows],
                    None if dlse is None else dlse[:, :, rows], wanted)
                dq[:, :, rows] += dq_part
                dk_step[:, :, ks:ks + kn] += dk_part
                dv_step[:, :, ks:ks + kn] += dv_part
                for n, g in zip(wanted, db_part):
                    dbuffers[n] += g
                if stats is not None:
                    stats.backward_launches += 1
            _wait(requests)
            _wait(sending)
            mine = _pack(dk_step, dv_step)
            accumulator = mine if received is None else received + mine
            if world > 1:  # on to the next rank: the one that computes this shard next, or its owner
                sending = ring.post(sends=[(accumulator, 2 * step + 1)])
            if incoming is not None:
                current = incoming
                k_step, v_step = _unpack(incoming, self.kv_shapes[(src - 1) % world])
            if stats is not None:
                stats.backward_step_seconds.append(time.perf_counter() - step_start)
        if world > 1:  # this rank's own dK and dV, from the last rank that computed them
            accumulator = torch.empty(sum(_numel(s) for s in self.kv_shapes[rank]), dtype=torch.float32,
                                      device=q.device)
            _wait(ring.post(recvs=[(accumulator, 2 * world - 1)]))
            _wait(sending)
        dk, dv = _unpack(accumulator, self.kv_shapes[rank])
        grads = [_sum_over_ranks(dbuffers[n], self.group, world, q.device) for n in wanted]
        if stats is not None:
            stats.backward_seconds.append(time.perf_counter() - started)
        return dq.to(q.dtype), dk.to(k.dtype), dv.to(v.dtype), grads


def _numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def _sum_over_ranks(t, group, world, device):
    """The sum of every rank's `t`, in rank order (an all-gather, then a fixed order: the same bits
    on every rank and every run, whatever the backend's reduction order)."""
    if world == 1:
        return t
    local = t.to(device)
    gathered = [torch.empty_like(local) for _ in range(world)]
    dist.all_gather(gathered, local, group=group)
    total = gathered[0].clone()
    for g in gathered[1:]:
        total += g
    return total.to(t.device)


class RingAttention(torch.autograd.Function):
    """Autograd of the ring: forward and backward as RingCall's, the buffers' gradients summed over
    the group."""

    @staticmethod
    def forward(ctx, call, q, k, v, *buffers):
        named = dict(zip(call.buffer_names, buffers))
        out, lse = call.forward(q, k, v, named)
        ctx.save_for_backward(q, k, v, out, lse, *buffers)
        ctx.call = call
        ctx.set_materialize_grads(False)
        return out, lse

    @staticmethod
    def backward(ctx, dout, dlse):
        call = ctx.call
        q, k, v, out, lse, *buffers = ctx.saved_tensors
        if dout is None:
            dout = torch.zeros_like(out)
        wanted = [n for n, need in zip(call.buffer_names, ctx.needs_input_grad[4:]) if need]
        dq, dk, dv, grads = call.backward(q, k, v, dict(zip(call.buffer_names, buffers)), out, lse, dout, dlse,
                                          wanted)
        by_name = dict(zip(wanted, grads))
        return (None, dq, dk, dv, *(by_name.get(n) for n in call.buffer_names))


def group_of(group):
    """(group, rank, world) of `group` (None: the default group; without an initialized process
    group, one rank)."""
    if group is None and not (dist.is_available() and dist.is_initialized()):
        return None, 0, 1
    return group, dist.get_rank(group), dist.get_world_size(group)


def global_lengths(q, k, group, world):
    """Every rank's (q length, kv length), gathered once per call."""
    if world == 1:
        return [(q.shape[2], k.shape[2])]
    mine = torch.tensor([q.shape[2], k.shape[2]], dtype=torch.int64, device=q.device)
    gathered = [torch.empty_like(mine) for _ in range(world)]
    dist.all_gather(gathered, mine, group=group)
    return [tuple(int(x) for x in g.tolist()) for g in gathered]


def layout_chunks(lengths, world, layout, what):
    """Each rank's chunks of the sequence whose shards have `lengths` (one per rank), checked
    against the layout."""
    check_layout(layout)
    total = sum(lengths)
    chunks = shard_chunks(total, world, layout)
    for r, n in enumerate(lengths):
        want = sum(size for _, size in chunks[r])
        if n != want:
            raise Error(f"attnc.torch.context_parallel_attention: rank {r}'s {what} shard has {n} positions; the "
                        f"{layout} layout of {total} over {world} ranks gives it {want} (cut the sequence with "
                        f"attnc.torch.context_parallel_shard)")
    return chunks, total
