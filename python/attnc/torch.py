"""The FlexAttention drop-in: `from attnc.torch import flex_attention, create_block_mask` in place of
`torch.nn.attention.flex_attention`'s. The mask_mod and score_mod are traced into .attn
(`to_attn` shows the text), compiled once per distinct text, and run as attnc kernels through the
torch operator `torch.ops.attnc.attention`. The block mask is the traced mask itself: attnc plans
its tiles (O(tiles)) at each call, and no dense [Q_LEN, KV_LEN] mask is ever made.
`context_parallel_attention` runs the same callables over a sequence sharded across the ranks of a
torch.distributed group (ring attention; attnc/context_parallel.py).
"""

import functools
import subprocess
import tempfile
import warnings
from pathlib import Path

import numpy as np
import torch

from ._backend import Error
from .library import loads
from .context_parallel import ContextParallelStats, RingAttention, RingCall, global_lengths, group_of, layout_chunks
from .ops import call_kernel, run_planned
from .sequence_shards import context_parallel_shard, context_parallel_unshard
from .trace import trace_mods

__all__ = ["BlockMask", "ContextParallelStats", "PagedAttention", "and_masks", "context_parallel_attention",
           "context_parallel_shard", "context_parallel_unshard", "create_block_mask", "flex_attention", "noop_mask",
           "or_masks", "to_attn", "varlen_attention"]

# torch dtypes of queries as kernels' dtypes; the FP8 ones compute on the values as they are (descale
# factors 1: attnc.load's kernels take others) and return bfloat16.
_DTYPES = {torch.float32: "f32", torch.bfloat16: "bf16", torch.float16: "f16", torch.float8_e4m3fn: "e4m3",
           torch.float8_e5m2: "e5m2"}


class BlockMask:
    """A mask_mod for attnc.torch.flex_attention, with the sizes it was made for. Unlike
    FlexAttention's BlockMask it holds no per-block tables: the tiles are planned by attnc from the
    traced mask at each call (O(tiles)). `to_attn()` prints the traced mask; `to_dense()`,
    `sparsity()`, `to_string()` and indexing over batch and head are FlexAttention's, computed
    from the mask itself on BLOCK_SIZE blocks when asked (O(Q_LEN x KV_LEN), for inspection)."""

    def __init__(self, mask_mod, B, H, Q_LEN, KV_LEN, BLOCK_SIZE=128):
        self.mask_mod = mask_mod
        self.shape = (B, H, Q_LEN, KV_LEN)
        self.seq_lengths = (Q_LEN, KV_LEN)
        self.BLOCK_SIZE = (BLOCK_SIZE, BLOCK_SIZE) if isinstance(BLOCK_SIZE, int) else tuple(BLOCK_SIZE)
        trace_mods(mask_mod, None)  # an untraceable mask fails here, as FlexAttention's would

    def to_attn(self):
        return to_attn(self.mask_mod)

    def to_dense(self):
        """[B, H, Q blocks, KV blocks] int32: 1 where a block holds an allowed element (B or H 1 when
        the mask was made for every batch entry or head alike)."""
        B, H, Q, KV = self.shape
        bq, bk = self.BLOCK_SIZE
        q_idx, kv_idx = torch.arange(Q)[:, None], torch.arange(KV)[None, :]
        pad_q, pad_kv = -Q % bq, -KV % bk
        out = torch.zeros(B or 1, H or 1, -(-Q // bq), -(-KV // bk), dtype=torch.int32)
        for b in range(B or 1):
            for h in range(H or 1):
                allowed = torch.as_tensor(self.mask_mod(torch.tensor(b), torch.tensor(h), q_idx, kv_idx))
                allowed = torch.nn.functional.pad(allowed.expand(Q, KV).to(torch.int32), (0, pad_kv, 0, pad_q))
                out[b, h] = allowed.reshape(out.shape[2], bq, out.shape[3], bk).amax(dim=(1, 3))
        return out

    def sparsity(self):
        """The percentage of blocks no allowed element reaches (skipped)."""
        dense = self.to_dense()
        return 100.0 * (1.0 - dense.sum().item() / dense.numel())

    def to_string(self, grid_size=(20, 20), limit=4):
        """Each (batch, head)'s blocks drawn as characters: █ all computed, ░ partly, blank none."""
        dense = self.to_dense()
        rows, cols = dense.shape[-2:]
        max_rows, max_cols = (rows, cols) if grid_size == -1 else \
            (grid_size, grid_size) if isinstance(grid_size, int) else grid_size
        row_step, col_step = max(1, -(-rows // max_rows)), max(1, -(-cols // max_cols))
        text = ""
        for n, (b, h) in enumerate((b, h) for b in range(dense.shape[0]) for h in range(dense.shape[1])):
            if n == limit:
                text += "...\n"
                break
            text += f"({b}, {h})\n"
            for r in range(0, rows, row_step):
                for c in range(0, cols, col_step):
                    share = dense[b, h, r:r + row_step, c:c + col_step].float().mean().item()
                    text += "██" if share == 1 else "  " if share == 0 else "░░"
                text += "\n"
        return text

    def __getitem__(self, index):
        """The mask of one batch entry (or a range of them), and optionally of some heads:
        `block_mask[b]`, `block_mask[b, h]`, `block_mask[:, 2:4]`."""
        index = index if isinstance(index, tuple) else (index,)
        if len(index) > 2:
            raise Error("attnc.torch.BlockMask: index batch and head only (attnc plans query blocks itself)")
        B, H, Q, KV = self.shape
        starts, sizes = [], []
        for i, size in zip(index + (slice(None),) * (2 - len(index)), (B, H)):
            if isinstance(i, int):
                if size is not None and not -size <= i < size:
                    raise Error(f"attnc.torch.BlockMask: index {i} is out of range for {size}")
                starts.append(i % size if size is not None else i)
                sizes.append(1)
            elif isinstance(i, slice) and i.step in (None, 1):
                start, stop, _ = i.indices(size if size is not None else 1)
                starts.append(start)
                sizes.append(size if size is None else max(stop - start, 0))
            else:
                raise Error("attnc.torch.BlockMask: index with ints or slices of step 1")
        mask_mod, (b0, h0) = self.mask_mod, starts

        def selected(b, h, q_idx, kv_idx):
            return mask_mod(b + b0, h + h0, q_idx, kv_idx)

        return BlockMask(selected, sizes[0], sizes[1], Q, KV, self.BLOCK_SIZE)

    def plot(self, path=None, head=0, corner=64):
        """The tile plan attnc makes of this mask at its lengths, in its BLOCK_SIZE tiles, drawn as
        SVG with its axes and a legend (full, partial and empty tiles; beside them the top-left
        `corner` x `corner` elements), as `attnc mask --svg` draws it: for head `head`, every batch
        entry together. Returns the SVG text, and writes it to `path` when one is given. Notebooks
        show a BlockMask as this picture (_repr_svg_)."""
        from . import _cli

        binary = _cli.binary()
        if binary is None:
            raise Error("attnc.torch.BlockMask.plot draws with the attnc binary, which this install of the "
                        "package does not have (a runtime-only build)")
        mask, _, trace = trace_mods(self.mask_mod, None)
        _, _, Q, KV = self.shape
        with tempfile.TemporaryDirectory(prefix="attnc-plot-") as scratch:
            folder = Path(scratch)
            (folder / "mask.attn").write_text(_kernel_text(mask, None, trace))
            args = []
            for name, t in trace.values().items():  # captured tensors, as the kernel takes them
                np.save(folder / f"{name}.npy", t.detach().numpy())
                args += ["--arg", f"{name}={folder / (name + '.npy')}"]
            for i, (value, kind) in enumerate(trace.numbers):  # captured Python numbers
                args += ["--arg", f"c{i}={int(value) if kind == 'int' else float(value)!r}"]
            svg = folder / "plan.svg"
            run = subprocess.run([str(binary), "mask", str(folder / "mask.attn"), "--len", str(Q), "--len-kv",
                                  str(KV), "--block", f"{self.BLOCK_SIZE[0]},{self.BLOCK_SIZE[1]}", "--head",
                                  str(head), "--corner", str(corner), "--svg", str(svg), *args],
                                 capture_output=True, text=True)
            if run.returncode != 0:
                raise Error(f"attnc mask failed to draw the plan: {run.stderr.strip()}")
            text = svg.read_text()
        if path is not None:
            Path(path).write_text(text)
        return text

    def _repr_svg_(self):
        return self.plot()

    def __repr__(self):
        return f"attnc.torch.BlockMask(shape={self.shape}, mask_mod={getattr(self.mask_mod, '__name__', self.mask_mod)})"


def noop_mask(b, h, q_idx, kv_idx):
    """FlexAttention's noop_mask: every key of every row."""
    return True


def _combined(mask_mods, op, empty, name):
    if not all(callable(m) for m in mask_mods):
        raise Error(f"attnc.torch.{name} takes mask_mod callables")

    def mask_mod(b, h, q_idx, kv_idx):
        result = empty
        for m in mask_mods:
            result = op(result, m(b, h, q_idx, kv_idx))
        return result

    mask_mod.__name__ = f"{name}({', '.join(getattr(m, '__name__', type(m).__name__) for m in mask_mods)})"
    return mask_mod


def and_masks(*mask_mods):
    """FlexAttention's and_masks: a mask_mod true where every one of `mask_mods` is."""
    return _combined(mask_mods, lambda a, b: a & b, True, "and_masks")


def or_masks(*mask_mods):
    """FlexAttention's or_masks: a mask_mod true where any of `mask_mods` is."""
    return _combined(mask_mods, lambda a, b: a | b, False, "or_masks")


def create_block_mask(mask_mod, B, H, Q_LEN, KV_LEN, device=None, BLOCK_SIZE=None, _compile=False):
    """FlexAttention's create_block_mask: `mask_mod(b, h, q_idx, kv_idx) -> bool`. B and H may be
    None (every batch/head alike); device and BLOCK_SIZE are accepted for compatibility (attnc
    chooses its tiles per target)."""
    return BlockMask(mask_mod, B, H, Q_LEN, KV_LEN, BLOCK_SIZE if BLOCK_SIZE is not None else 128)


def _kernel_text(mask, score, trace, dtype="f32", scale=None, lse=False, values=False, sink=None, return_max=False):
    lines = ["// Traced by attnc.torch from FlexAttention callables."]
    if values and trace.numbers:  # not in the text that is compiled: its values are arguments
        lines.append(f"// The Python numbers, passed as arguments at each call: {trace.describe_numbers()}.")
    lines.append(f"kernel flex({trace.params()}) {{")
    if mask is not None:
        lines.append(f"  mask = {mask};")
    if score is not None:
        lines.append(f"  score = {score};")
    if dtype != "f32":
        lines.append(f"  dtype = {dtype};")
    if scale is not None:
        lines.append(f"  scale = {float(scale)!r};")
    if sink is not None:
        lines.append(f"  sink = {sink}[h];")
    if lse:
        lines.append("  lse = true;")
    if return_max:
        lines.append("  return_max = true;")
    lines.append("}")
    return "\n".join(lines) + "\n"


def to_attn(mask_mod=None, score_mod=None, constants=False):
    """The .attn text of a kernel with these callables (as flex_attention compiles it in f32), with
    a comment on the values its number arguments take for these callables."""
    return _kernel_text(*trace_mods(mask_mod, score_mod, constants), values=True)


@functools.lru_cache(maxsize=256)
def _compiled(text, name="flex"):
    # One compile per distinct text in a process; the loader's disk cache keeps it across processes.
    return getattr(loads(text, "<attnc.torch>"), name)


class _TracedKernel:
    """What a graph that torch.compile traces needs of a kernel to call torch.ops.attnc.attention:
    its registry id, whether it writes the LSE and row maxima, and its arguments."""

    def __init__(self, kernel_id, lse, return_max, args):
        self.id, self.lse, self.return_max, self.args = kernel_id, lse, return_max, args


@torch._dynamo.assume_constant_result
def _kernel_facts(text, name):
    """Compiles (or finds) the kernel `name` of `text` while Dynamo traces, and gives the graph what
    it needs of it as constants: Dynamo runs this function instead of tracing it (the compile is a
    call into the extension, which it cannot trace), and the kernel stays registered by its id."""
    k = _compiled(text, name)
    return k.id, bool(k.lse), bool(k.return_max), tuple((n, b, e, tuple(d)) for n, b, e, d in k.args)


def _kernel(text, name="flex"):
    """The kernel `name` of `text`: the loaded one, or under torch.compile its constants
    (_kernel_facts), so that the call stays in one graph with fullgraph=True."""
    if torch.compiler.is_compiling():
        return _TracedKernel(*_kernel_facts(text, name))
    return _compiled(text, name)


_warned_options = set()  # kernel_options keys already warned about, once per process


def _check_kernel_options(kernel_options):
    """FlexAttention's kernel_options tune its Triton kernels (block sizes, stages, warps): attnc
    chooses its tiles per target, so none has a meaning here. Each key is named once, in a warning,
    rather than ignored silently."""
    if not kernel_options:
        return
    unknown = sorted(str(k) for k in kernel_options if str(k) not in _warned_options)
    if unknown:
        _warned_options.update(unknown)
        warnings.warn(f"attnc.torch.flex_attention ignores kernel_options {', '.join(unknown)}: attnc chooses its "
                      f"tiles per target", stacklevel=3)


def _check_inputs(query, key, value, enable_gqa):
    for name, t in (("query", query), ("key", key), ("value", value)):
        if getattr(t, "is_nested", False):
            raise Error(f"attnc.torch.flex_attention: {name} is a nested (jagged) tensor; flex_attention takes "
                        f"dense tensors (torch's refuses nested ones too). For sequences of different lengths "
                        f"use attnc.torch.varlen_attention(q.values(), k.values(), v.values(), q.offsets(), "
                        f"k.offsets(), ...) with any attnc kernel as kernel=, or pack them into one "
                        f"[1, H, L, D] tensor and mask across documents with a captured document-id tensor "
                        f"(docs/python.md)")
        if t.device.type == "meta":
            raise Error(f"attnc.torch: {name} is a meta tensor (no data); attnc kernels run on CPU or CUDA "
                        f"tensors")
        if t.dim() != 4:
            raise Error(f"{name} must have 4 dimensions [B, H, L, D], got shape {tuple(t.shape)}")
    if query.dtype not in _DTYPES:
        raise Error(f"attnc.torch: query has dtype {query.dtype}; attnc kernels take float32, bfloat16, float16, "
                    "float8_e4m3fn or float8_e5m2")
    if not enable_gqa and query.shape[1] != key.shape[1]:
        raise Error(f"query has {query.shape[1]} heads and key {key.shape[1]}: pass enable_gqa=True for "
                    f"grouped-query attention")


def flex_attention(query, key, value, score_mod=None, block_mask=None, scale=None, enable_gqa=False,
                   return_lse=False, kernel_options=None, constants=False, *, return_aux=None, sinks=None):
    """torch.nn.attention.flex_attention.flex_attention on attnc kernels. `block_mask` may be
    attnc.torch's or FlexAttention's own BlockMask (its mask_mod is traced). Returns out, or
    (out, lse) with return_lse (lse: float32, natural log), or (out, AuxOutput) with
    return_aux=AuxRequest(lse=..., max_scores=...) as torch 2.15's (max_scores: each row's largest
    kept score, natural units, -inf for a fully masked row; no gradient). The Python numbers in the callables
    are the kernel's run-time arguments (softcap 30 and 31 share one compile); `constants=True`
    folds them into the kernel instead (one compile per value, sometimes faster).

    `sinks` (an attnc extension; FlexAttention cannot express it): a float tensor [Hq] of learnable
    sink logits, gpt-oss style. Each row's softmax also sums exp(sinks[h]) for a virtual key of value
    0 (the kernel option `sink`), so out and lse include it; sinks gets its gradient."""
    _check_inputs(query, key, value, enable_gqa)
    mask_mod = getattr(block_mask, "mask_mod", None)
    if block_mask is not None:
        lengths = getattr(block_mask, "seq_lengths", None)
        if lengths is not None and tuple(lengths) != (query.shape[2], key.shape[2]):
            raise Error(f"the block mask was made for lengths {tuple(lengths)}, the inputs have "
                        f"({query.shape[2]}, {key.shape[2]}): make one for these lengths")
    _check_kernel_options(kernel_options)
    want_lse = return_lse
    want_max = False
    if return_aux is not None:
        if return_lse:
            raise Error("attnc.torch.flex_attention: pass return_lse or return_aux, not both (as torch)")
        want_lse = bool(getattr(return_aux, "lse", False))
        want_max = bool(getattr(return_aux, "max_scores", False))
    mask, score, trace = trace_mods(mask_mod, score_mod, constants)
    sink = None
    if sinks is not None:
        if not isinstance(sinks, torch.Tensor) or not sinks.is_floating_point() or tuple(sinks.shape) != (
                query.shape[1],):
            raise Error(f"attnc.torch.flex_attention: sinks must be a float tensor of shape [{query.shape[1]}] "
                        f"(one logit per query head), got "
                        f"{tuple(sinks.shape) if isinstance(sinks, torch.Tensor) else type(sinks).__name__}")
        sink = trace.buffer(sinks)
    kernel = _kernel(_kernel_text(mask, score, trace, _DTYPES[query.dtype], scale, want_lse, sink=sink,
                                    return_max=want_max))
    out, lse, max_scores = call_kernel(kernel, query, key, value, trace.values(), trace.scalars(), None, 0)
    if return_aux is not None:
        from torch.nn.attention.flex_attention import AuxOutput

        return out, AuxOutput(lse=lse if want_lse else None, max_scores=max_scores if want_max else None)
    return (out, lse) if return_lse else out


def context_parallel_attention(query, key, value, score_mod=None, block_mask=None, group=None, layout="zigzag", *,
                               scale=None, enable_gqa=False, return_lse=False, constants=False, stats=None,
                               target=None, threads=0):
    """flex_attention over a sequence sharded across the ranks of a torch.distributed `group` (None:
    the default group; without an initialized process group, one rank): ring attention. Each rank
    passes its shard of query, key and value along dimension 2 ([B, H, L_shard, D]), cut by
    `layout` as context_parallel_shard cuts it ("zigzag": chunks r and 2 * world - 1 - r of
    2 * world; "contiguous": chunk r), and gets its rows of the result: Out [B, Hq, L_shard, Dv], or
    (Out, LSE [B, Hq, L_shard] float32) with return_lse, each row over every rank's keys.

    score_mod and block_mask (made for the global lengths) are FlexAttention's; their q_idx and
    kv_idx are global positions, and captured tensors (document ids, a learnable bias) are indexed
    with them: capture the whole tensor on every rank. K/V shards travel around the ring (gloo or
    NCCL point-to-point ops, the next block posted before the current one is computed); every step
    runs one kernel, compiled once (the offsets are its arguments), on each (Q chunk, K/V chunk) pair
    whose tile plan has a tile to visit, and skips the others without launching. The backward
    circulates K/V again with their dK/dV; captured float tensors get their gradient summed over
    the steps and the ranks (the same on every rank), deterministically. `stats`: a
    ContextParallelStats to count launches, skipped pairs, bytes and step times into. `scale`,
    `enable_gqa`, `constants`, `target` and `threads` as in flex_attention and the kernels."""
    _check_inputs(query, key, value, enable_gqa)
    group, rank, world = group_of(group)
    lengths = global_lengths(query, key, group, world)
    q_chunks, q_len = layout_chunks([n for n, _ in lengths], world, layout, "query")
    kv_chunks, kv_len = layout_chunks([n for _, n in lengths], world, layout, "key/value")
    if block_mask is not None:
        mask_lengths = getattr(block_mask, "seq_lengths", None)
        if mask_lengths is not None and tuple(mask_lengths) != (q_len, kv_len):
            raise Error(f"the block mask was made for lengths {tuple(mask_lengths)}, the whole sequences have "
                        f"({q_len}, {kv_len}): make it for the global lengths")
    mask, score, trace = trace_mods(getattr(block_mask, "mask_mod", None), score_mod, constants, offsets=True)
    kernel = _compiled(_kernel_text(mask, score, trace, _DTYPES[query.dtype], scale, lse=True))
    buffers = trace.values()
    b, hkv, d, dv = key.shape[0], key.shape[1], key.shape[3], value.shape[3]
    kv_shapes = [((b, hkv, n, d), (b, hkv, n, dv)) for _, n in lengths]
    call = RingCall(kernel, tuple(buffers), trace.scalars(), group, rank, world, q_chunks, kv_chunks, kv_shapes,
                    stats, target or "", threads)
    out, lse = RingAttention.apply(call, query, key, value, *buffers.values())
    return (out, lse) if return_lse else out


def _varlen_text(dtype, is_causal, window_size, scale, sinks):
    """The .attn kernel varlen_attention and PagedAttention run: FlashAttention's masks as attnc
    expressions, aligned bottom-right as torch's and FlashAttention's are (a sequence's last query
    at its last key: query q stands at position q + kv_len - q_len; with a paged cache q_len is
    kv_len, and q already that position)."""
    left, right = window_size
    at = "(q + kv_len - q_len)"
    mask = [m for m, on in ((f"kv <= {at}", is_causal), (f"{at} - kv <= {int(left)}", left >= 0),
                            (f"kv - {at} <= {int(right)}", right >= 0)) if on]
    options = [f"dtype = {dtype};", "lse = true;"]
    if mask:
        options.insert(0, f"mask = {' && '.join(mask)};")
    if scale is not None:
        options.append(f"scale = {float(scale)!r};")
    if sinks:
        options.append("sink = sinks[h];")
    params = "(sinks: tensor<f32>[heads])" if sinks else ""
    return f"kernel varlen{params} {{ {' '.join(options)} }}\n"


def varlen_attention(query, key, value, cu_seq_q, cu_seq_k, max_q=None, max_k=None, *, is_causal=False,
                     scale=None, window_size=(-1, -1), return_aux=None, sinks=None, kernel=None, target=None,
                     threads=0, **params):
    """torch.nn.attention.varlen.varlen_attn on attnc kernels: a ragged batch of packed sequences.
    query [Tq, Hq, D], key and value [Tk, Hkv, D] (Hq a multiple of Hkv), cu_seq_q and cu_seq_k
    int32 [N + 1]: sequence b is query rows cu_seq_q[b]:cu_seq_q[b + 1] and key rows
    cu_seq_k[b]:cu_seq_k[b + 1]. max_q and max_k are accepted for torch's signature and not needed.
    Returns out [Tq, Hq, D], or (out, lse [Tq, Hq]) when return_aux asks for the lse.

    The mask: `is_causal` and `window_size` (left, right; -1: unbounded), aligned bottom-right as
    torch's and FlashAttention's (a sequence's last query sees up to its last key: std.masks'
    causal_from_end). `sinks` (an attnc extension): float [Hq] learnable sink logits. Or any attnc
    kernel as `kernel=` (e.g. `attnc.loads(text).name`) with its arguments as keywords (`sinks=`
    then its argument of that name): `b` is then the sequence's index. The CPU, reference and
    vulkan targets take ragged batches, forward and backward: gradients flow to query, key, value, sinks
    and the kernel's float tensor arguments that require them. The cuda target takes their forward. Under torch.compile the call is
    torch.ops.attnc.attention with the boundaries: one graph with fullgraph=True."""
    for name, t in (("query", query), ("key", key), ("value", value)):
        if t.dim() != 3:
            raise Error(f"{name} must have 3 dimensions [T, H, D] (a packed ragged batch), got shape {tuple(t.shape)}")
    cu = []
    for name, t in (("cu_seq_q", cu_seq_q), ("cu_seq_k", cu_seq_k)):
        if not isinstance(t, torch.Tensor) or t.dim() != 1 or t.dtype not in (torch.int32, torch.int64):
            raise Error(f"attnc.torch.varlen_attention: {name} must be a 1-D int32 tensor of sequences + 1 entries")
        cu.append(t.to(device="cpu", dtype=torch.int32).contiguous())
    if kernel is None:
        if query.dtype not in _DTYPES:
            raise Error(f"attnc.torch: query has dtype {query.dtype}; attnc kernels take float32, bfloat16, float16, "
                        "float8_e4m3fn or float8_e5m2")
        if sinks is not None and (not sinks.is_floating_point() or tuple(sinks.shape) != (query.shape[1],)):
            raise Error(f"attnc.torch.varlen_attention: sinks must be a float tensor of shape [{query.shape[1]}]")
        kernel = _kernel(_varlen_text(_DTYPES[query.dtype], is_causal, tuple(window_size), scale, sinks is not None),
                         "varlen")
        buffers, scalars = ({"sinks": sinks.to(torch.float32)} if sinks is not None else {}), {}
    else:
        if sinks is not None:  # the kernel's own argument of that name (its checks say if it has none)
            params = {**params, "sinks": sinks}
        buffers, scalars = kernel.split_params(params) if params else ({}, {})
    want_lse = bool(getattr(return_aux, "lse", False)) if return_aux is not None else False
    if want_lse and not kernel.lse:
        raise Error("attnc.torch.varlen_attention: return_aux asks for the LSE; set lse = true in the kernel")
    out, lse, _ = call_kernel(kernel, query, key, value, buffers, scalars, target, threads,
                              ragged={"cu_seqlens_q": cu[0], "cu_seqlens_k": cu[1]})
    return (out, lse) if want_lse else out


class PagedAttention:
    """Attention over a paged KV cache, planned once per batch layout and run once per layer, in the
    shape of FlashInfer's and vLLM's wrappers: `plan(...)` takes the layout (which queries belong to
    which sequence, each sequence's pages and key count) and the kernel; `run(query, k_cache,
    v_cache)` attends. The same plan serves every layer that shares the layout.

        paged = attnc.torch.PagedAttention()
        paged.plan(cu_seqlens_q, page_table, kv_lens, is_causal=True)
        out = paged.run(query, k_cache, v_cache)   # per layer

    query [Tq, Hq, D] packed (sequence b's queries are rows cu_seqlens_q[b]:cu_seqlens_q[b + 1]);
    k_cache and v_cache [pages, page_size, Hkv, D]; page_table int32 [N, max_pages]; kv_lens int32
    [N]. Sequence b's key j is row j % page_size of page page_table[b][j // page_size]. A sequence's
    queries are its last tokens, whose keys are already in the cache: query i is at position
    kv_lens[b] - q_len + i, which is what `q` means to the mask (so `is_causal` is FlashInfer's
    causal, bottom-right, for chunked prefill and decoding alike). Any page size works. The CPU,
    reference and vulkan targets take paged caches; there is no backward for them.

    On CUDA the first run of each shape plans the layout's launches once (each sequence's grid, the
    page table uploaded, the split-KV workspace allocated); later runs of the plan allocate, copy
    and wait for nothing, so a CUDA graph can capture them (run once before capturing, as with any
    graph). A new plan(...) drops the old plans: graphs captured with them must be captured again.
    One wrapper's runs must not overlap on two streams (they share the workspace)."""

    def __init__(self):
        self._layout = None
        self._plans = {}
        self._kernel = None
        self._params = {}

    def plan(self, cu_seqlens_q, page_table, kv_lens, *, is_causal=False, window_size=(-1, -1), scale=None,
             sinks=None, kernel=None, dtype=None, **params):
        """Fixes the batch layout (host int32 copies) and the kernel: `is_causal`, `window_size`
        (left, right; -1 unbounded), `scale` and `sinks` (float [Hq]) as in varlen_attention, or
        any attnc kernel as `kernel=` with its arguments as keywords (`b` is the sequence's index,
        `q` and `kv` positions in it). `dtype`: the queries' and cache's torch dtype (default the
        first run's)."""
        layout = []
        for name, t, dims in (("cu_seqlens_q", cu_seqlens_q, 1), ("page_table", page_table, 2), ("kv_lens", kv_lens, 1)):
            if not isinstance(t, torch.Tensor) or t.dim() != dims or t.dtype not in (torch.int32, torch.int64):
                raise Error(f"attnc.torch.PagedAttention.plan: {name} must be a {dims}-D int32 tensor")
            layout.append(t.to(device="cpu", dtype=torch.int32).contiguous())
        if sinks is not None and not sinks.is_floating_point():
            raise Error("attnc.torch.PagedAttention.plan: sinks must be a float tensor of shape [Hq]")
        self._layout = dict(zip(("cu_seqlens_q", "page_table", "kv_lens"), layout))
        self._plans = {}  # the calls' plans by shapes (ops.run_planned), made again for a new layout
        self._mask = (is_causal, tuple(window_size), scale, sinks is not None)
        self._kernel = kernel
        self._params = {"sinks": sinks.to(torch.float32)} if sinks is not None else dict(params)
        if kernel is None and dtype is not None:
            self._default_kernel(dtype)  # compiled now rather than at the first run
        return self

    def _default_kernel(self, dtype):
        """The kernel plan()'s mask options name, for queries of `dtype` (its only argument: sinks)."""
        if dtype not in _DTYPES:
            raise Error(f"attnc.torch: query has dtype {dtype}; attnc kernels take float32, bfloat16, float16, "
                        "float8_e4m3fn or float8_e5m2")
        return _kernel(_varlen_text(_DTYPES[dtype], *self._mask), "varlen")

    def run(self, query, k_cache, v_cache, *, return_lse=False, target=None, threads=0):
        """out [Tq, Hq, Dv], or (out, lse [Tq, Hq]) with return_lse, for the planned layout."""
        if self._layout is None:
            raise Error("attnc.torch.PagedAttention.run: call plan(...) first")
        if query.dim() != 3 or k_cache.dim() != 4 or v_cache.dim() != 4:
            raise Error(f"attnc.torch.PagedAttention.run: query must be [T, Hq, D] and the caches [pages, page_size, "
                        f"Hkv, D], got {tuple(query.shape)}, {tuple(k_cache.shape)}, {tuple(v_cache.shape)}")
        if torch.is_grad_enabled() and any(t.requires_grad for t in (query, k_cache, v_cache)):
            raise Error("attnc.torch.PagedAttention: there is no backward for a paged cache; run it under "
                        "torch.no_grad() or with inputs that do not require grad")
        if self._kernel is None:
            kernel, buffers, scalars = self._default_kernel(query.dtype), self._params, {}
        else:
            kernel = self._kernel
            buffers, scalars = kernel.split_params(self._params) if self._params else ({}, {})
        if return_lse and not kernel.lse:
            raise Error("attnc.torch.PagedAttention.run: return_lse asks for the LSE; set lse = true in the kernel")
        planned = run_planned(kernel, query, k_cache, v_cache, buffers, scalars, target, threads, self._layout,
                              self._plans)
        out, lse, _ = planned or call_kernel(kernel, query, k_cache, v_cache, buffers, scalars, target, threads,
                                             ragged=self._layout)
        return (out, lse) if return_lse else out

