namespace {

// Jobs' key chunks start on the key-block test's blocks, as the forward's chunks do.
static_assert(kBackwardChunk % kSkipBlock == 0 && kKeyChunk % kSkipBlock == 0, "key chunks of whole skip blocks");
// Calls after a job's first start on whole vectors of keys.
static_assert(kBackwardCall % kLanes == 0, "calls of whole vectors of keys");

/// A dense 3-D f32 or i32 grid [keys, rows, planes] (rows innermost, then keys) as a Halide output
/// buffer: element (x, r, p) at (p * keys + x) * rows + r.
struct Grid3 {
  halide_buffer_t buf{};
  halide_dimension_t dim[3]{};
  void set(void* data, halide_type_t type, int32_t keys, int32_t rows, int32_t planes) {
    dim[0] = halide_dimension_t{0, keys, rows, 0};
    dim[1] = halide_dimension_t{0, rows, 1, 0};
    dim[2] = halide_dimension_t{0, planes, keys * rows, 0};
    buf.host = static_cast<uint8_t*>(data);
    buf.type = type;
    buf.dimensions = 3;
    buf.dim = dim;
  }
};

/// Scratch of one backward job: its running dK and dV over the chunk's keys (which the pipeline
/// continues in place), and the buffer gradients of one (query tile, key chunk) pair.
struct BackwardScratch {
  std::vector<float> dk_acc, dv_acc, grad, k_rows, v_rows;
  std::vector<int32_t> index;
};
thread_local BackwardScratch backward_scratch;

/// A buffer of floats that the calling thread keeps for its next call: the staged tiles and the dQ
/// shares take tens of MB (L=4096, H=8: 96 MB), and fresh pages of them cost the kernel as much time
/// as a sliding window's whole backward (page faults that zero them). Contents are not kept.
struct ReusedFloats {
  std::unique_ptr<float[]> data;
  size_t size = 0;
  /// At least n floats, or nullptr when out of memory.
  float* get(size_t n) {
    if (n > size) data.reset(new (std::nothrow) float[n]), size = data ? n : 0;
    return data.get();
  }
};
struct BackwardStaging {
  ReusedFloats q_tiles, dout_tiles, q_cols, dout_cols, stats, dq_parts;
};
thread_local BackwardStaging backward_staging;

bool same_shape(void* uc, const DLTensor* t, const char* name, const int64_t* shape, int ndim) {
  for (int d = 0; d < ndim; ++d)
    if (t->shape[d] != shape[d])
      return fail(uc, "%s: %s has extent %lld in dimension %d, expected %lld", kKernelName, name,
                  (long long)t->shape[d], d, (long long)shape[d]), false;
  return true;
}

}  // namespace

/// The backward of the dense batch `args` describes, or of one sequence of a ragged batch as a
/// one-entry view of it (backward_ragged), whose `b` is b0. Adds the buffer gradients to
/// `grad_sums` (the wanted gradients' elements, row-major, one buffer after another in order),
/// which the entry point writes once every sequence is done.
static int backward_dense(Context& ctx, const attn_backward_args* args, int64_t b0, std::vector<float>& grad_sums) {
  void* uc = &ctx;
  if (!check_tensor(uc, args->q, "q", 4, false) || !check_tensor(uc, args->k, "k", 4, false) ||
      !check_tensor(uc, args->v, "v", 4, false) || !check_tensor(uc, args->out, "out", 4, false) ||
      !check_tensor(uc, args->dout, "dout", 4, false) || !check_tensor(uc, args->lse, "lse", 3, true) ||
      !check_tensor(uc, args->dq, "dq", 4, false) || !check_tensor(uc, args->dk, "dk", 4, false) ||
      !check_tensor(uc, args->dv, "dv", 4, false) || (args->dlse && !check_tensor(uc, args->dlse, "dlse", 3, true)))
    return -1;
  const int64_t* qs = args->q->shape;
  const int64_t* ks = args->k->shape;
  const int64_t* vs = args->v->shape;
  int64_t B = qs[0], Hq = qs[1], Lq = qs[2], D = qs[3], Hkv = ks[1], Lk = ks[2], Dv = vs[3];
  [[maybe_unused]] const int64_t q_end = Lq;  // `q_len`: a dense batch's queries start at 0
  const int64_t k_shape[4] = {B, Hkv, Lk, D}, v_shape[4] = {B, Hkv, Lk, Dv}, o_shape[4] = {B, Hq, Lq, Dv};
  if (!same_shape(uc, args->k, "k", k_shape, 4) || !same_shape(uc, args->v, "v", v_shape, 4) ||
      !same_shape(uc, args->out, "out", o_shape, 4) || !same_shape(uc, args->dout, "dout", o_shape, 4) ||
      !same_shape(uc, args->lse, "lse", qs, 3) || (args->dlse && !same_shape(uc, args->dlse, "dlse", qs, 3)) ||
      !same_shape(uc, args->dq, "dq", qs, 4) || !same_shape(uc, args->dk, "dk", k_shape, 4) ||
      !same_shape(uc, args->dv, "dv", v_shape, 4))
    return -1;
  if (Hkv <= 0 || Hq % Hkv != 0)
    return fail(uc, "%s: %lld query heads are not a multiple of %lld key/value heads", kKernelName, (long long)Hq,
                (long long)Hkv), -1;
  if ((kHeadDim && D != kHeadDim) || D <= 0)
    return fail(uc, "%s: head dimension %lld, the kernel was compiled for %lld", kKernelName, (long long)D,
                (long long)kHeadDim), -1;
  if ((kValueDim && Dv != kValueDim) || Dv <= 0)
    return fail(uc, "%s: value dimension %lld, the kernel was compiled for %lld", kKernelName, (long long)Dv,
                (long long)kValueDim), -1;
  if (args->num_buffers != kNumBuffers || (kNumBuffers && !args->buffers))
    return fail(uc, "%s: %d buffers given, the kernel takes %d", kKernelName, args->num_buffers, kNumBuffers), -1;
  if (args->num_scalars != kNumScalars || (kNumScalars && !args->scalars))
    return fail(uc, "%s: %d scalars given, the kernel takes %d", kKernelName, args->num_scalars, kNumScalars), -1;
  ATTN_VIEW_BUFFERS
  // The buffer gradients asked for: f32 tensors of their buffer's shape, each dense in `grad_parts`
  // (row-major) at grad_offset[i], -1 when not wanted.
  int64_t grad_offset[kNumBuffers + 1], grad_total = 0;
  for (int i = 0; i < kNumBuffers; ++i) {
    grad_offset[i] = -1;
    DLTensor* g = args->buffer_grads ? args->buffer_grads[i] : nullptr;
    if (!g) continue;
    const halide_buffer_t& view = buffer_views[i]->buf;
    if (view.type.code != halide_type_float)
      return fail(uc, "%s: buffer %d is not f32 and has no gradient", kKernelName, i), -1;
    if (!check_tensor(uc, g, "a buffer gradient", view.dimensions, true)) return -1;
    int64_t elements = 1;
    for (int d = 0; d < view.dimensions; ++d) {
      if (g->shape[d] != view.dim[d].extent)
        return fail(uc, "%s: the gradient of buffer %d has extent %lld in dimension %d, expected %d", kKernelName, i,
                    (long long)g->shape[d], d, view.dim[d].extent), -1;
      elements *= view.dim[d].extent;
    }
    grad_offset[i] = grad_total;
    grad_total += elements;
  }
  const int64_t Dp = round_up(D, kLanes), Dv_pad = round_up(Dv, kLanes), groups = Hq / Hkv;
  const int64_t tiles = (Lq + kTileQ - 1) / kTileQ, chunks = (Lk + kBackwardChunk - 1) / kBackwardChunk;
  if (tiles * Hq * B >= (int64_t(1) << 31) || chunks * Hkv * B >= (int64_t(1) << 31))
    return fail(uc, "%s: too many tiles (%lld)", kKernelName, (long long)(tiles * Hq * B)), -1;
  KeySide k, v;
  if (Lk > 0 && (!prepare_key_side(uc, args->k, "k", Dp, false, k) || !prepare_key_side(uc, args->v, "v", Dv_pad, false, v)))
    return -1;
  // Q and dO as padded f32 tiles, rows and (for the score and dP blocks) columns innermost, with each
  // row's stats: the LSE (+inf for a row no key reached, so that every P of it is 0) and
  // delta = rowsum(dO * O) - dLSE.
  const int64_t row_tasks = B * Hq * tiles;
  BackwardStaging& staging = backward_staging;
  float* q_tiles = staging.q_tiles.get(size_t(row_tasks * kTileQ * Dp));
  float* dout_tiles = staging.dout_tiles.get(size_t(row_tasks * kTileQ * Dv_pad));
  float* q_cols = staging.q_cols.get(size_t(row_tasks * kTileQ * Dp));
  float* dout_cols = staging.dout_cols.get(size_t(row_tasks * kTileQ * Dv_pad));
  float* stats = staging.stats.get(size_t(row_tasks * 2 * kTileQ));
  if (row_tasks > 0 && !(q_tiles && dout_tiles && q_cols && dout_cols && stats))
    return fail(uc, "%s: out of memory for the staged tiles", kKernelName), -1;
  auto at = [](const DLTensor* t, int64_t b, int64_t h, int64_t l) {
    return base_of(t) + (b * stride_of(t, 0) + h * stride_of(t, 1) + l * stride_of(t, 2)) * (t->dtype.bits / 8);
  };
  int status = parallel_for(uc, int(row_tasks), [&](int task) {
    const int64_t t = task % tiles, h = task / tiles % Hq, b = task / tiles / Hq;
    float* qt = q_tiles + task * kTileQ * Dp;
    float* dt = dout_tiles + task * kTileQ * Dv_pad;
    float* st = stats + task * 2 * kTileQ;
    std::fill(qt, qt + kTileQ * Dp, 0.0f);  // padding columns and rows past Lq
    std::fill(dt, dt + kTileQ * Dv_pad, 0.0f);
    std::vector<float> out_row(static_cast<size_t>(Dv));
    for (int64_t r = 0; r < kTileQ; ++r) {
      const int64_t row = t * kTileQ + r;
      if (row >= Lq) {
        st[r] = INFINITY, st[kTileQ + r] = 0.0f;
        continue;
      }
      read_row(at(args->q, b, h, row), qt + r * Dp, D);
      read_row(at(args->dout, b, h, row), dt + r * Dv_pad, Dv);
      read_row(at(args->out, b, h, row), out_row.data(), Dv);
      float delta = 0.0f;
      for (int64_t c = 0; c < Dv; ++c) delta += dt[r * Dv_pad + c] * out_row[size_t(c)];
      float lse;
      memcpy(&lse, at(args->lse, b, h, row), 4);
      if (args->dlse) {
        float dlse;
        memcpy(&dlse, at(args->dlse, b, h, row), 4);
        delta -= dlse;
      }
      st[r] = lse == -INFINITY ? INFINITY : lse, st[kTileQ + r] = delta;
    }
    float* qc = q_cols + task * kTileQ * Dp;
    float* dc = dout_cols + task * kTileQ * Dv_pad;
    for (int64_t r = 0; r < kTileQ; ++r) {
      for (int64_t c = 0; c < Dp; ++c) qc[c * kTileQ + r] = qt[r * Dp + c];
      for (int64_t c = 0; c < Dv_pad; ++c) dc[c * kTileQ + r] = dt[r * Dv_pad + c];
    }
    return 0;
  });
  if (status != 0) return status;
  // Keys each query tile may see: all, or the hull of the caller's ranges over its rows.
  std::vector<int32_t> window(size_t(2 * tiles));
  ATTN_KV_RANGES
  if (given && given_block <= 0)
    return fail(uc, "%s: kv_ranges_block_q is %lld", kKernelName, (long long)given_block), -1;
  for (int64_t t = 0; t < tiles; ++t) {
    int64_t lo = 0, hi = Lk;
    if (given) {
      lo = Lk, hi = 0;
      int64_t last_row = t * kTileQ + kTileQ < Lq ? t * kTileQ + kTileQ - 1 : Lq - 1;
      for (int64_t blk = t * kTileQ / given_block; blk <= last_row / given_block; ++blk) {
        int64_t a = given[2 * blk] > 0 ? given[2 * blk] : 0, e = given[2 * blk + 1] < Lk ? given[2 * blk + 1] : Lk;
        if (a < e) lo = a < lo ? a : lo, hi = e > hi ? e : hi;
      }
      if (lo >= hi) lo = hi = 0;
    }
    window[size_t(2 * t)] = int32_t(lo), window[size_t(2 * t + 1)] = int32_t(hi);
  }
  // Key-major: one job per (key chunk, key/value head, batch entry) visits every query tile of every
  // query head of its group in a fixed order, so dK and dV need no atomics. Each pair's dQ share
  // goes to its own slot (`dq_written` says which), summed over the chunks in order afterwards;
  // buffer gradients likewise per job.
  const int64_t jobs = chunks * Hkv * B, slot = kTileQ * Dp;
  float* dq_parts = staging.dq_parts.get(size_t(chunks * row_tasks * slot));
  if (!dq_parts && chunks * row_tasks > 0) return fail(uc, "%s: out of memory for the dQ shares", kKernelName), -1;
  std::vector<uint8_t> dq_written(size_t(chunks * row_tasks));
  std::vector<float> grad_parts(size_t(grad_total * jobs));
  const halide_type_t f32 = halide_type_t(halide_type_float, 32, 1), i32 = halide_type_t(halide_type_int, 32, 1);
  char* dk_base = static_cast<char*>(args->dk->data) + args->dk->byte_offset;
  char* dv_base = static_cast<char*>(args->dv->data) + args->dv->byte_offset;
  const int64_t esize = args->q->dtype.bits / 8;
  status = parallel_for(uc, int(jobs), [&](int job) {
    const int64_t chunk = job % chunks, hk = job / chunks % Hkv, b = job / chunks / Hkv;
    const int32_t key_lo = int32_t(chunk * kBackwardChunk);
    const int32_t keys = int32_t(Lk - key_lo < kBackwardChunk ? Lk - key_lo : kBackwardChunk);
    const int32_t key_count = int32_t(round_up(keys, kLanes));
    BackwardScratch& s = backward_scratch;
    s.dk_acc.assign(size_t(key_count * Dp), 0.0f), s.dv_acc.assign(size_t(key_count * Dv_pad), 0.0f);
    s.grad.resize(size_t(kBackwardCall * kTileQ * kNumReads));
    s.index.resize(size_t(kBackwardCall * kTileQ * kIndexSlots));
    // The chunk's first K and V rows; each call sees its own keys as rows [call_lo, call_lo + count).
    const float* k_rows = k.plane(hk, b) + key_lo * Dp;
    const float* v_rows = v.plane(hk, b) + key_lo * Dv_pad;
    if (key_lo + key_count > Lk) {
      // The pipeline reads every key of its calls' whole vectors unclamped (no bounds arithmetic in
      // its inner loops): past Lk, zero rows of a copy of the chunk's K and V (masked anyway).
      s.k_rows.assign(size_t(key_count * Dp), 0.0f), s.v_rows.assign(size_t(key_count * Dv_pad), 0.0f);
      std::copy(k.plane(hk, b) + key_lo * Dp, k.plane(hk, b) + Lk * Dp, s.k_rows.begin());
      std::copy(v.plane(hk, b) + key_lo * Dv_pad, v.plane(hk, b) + Lk * Dv_pad, s.v_rows.begin());
      k_rows = s.k_rows.data(), v_rows = s.v_rows.data();
    }
    Plane k_call, v_call, dk_out, dv_out;
    Grid3 grad_out, index_out;
    float* job_grads = grad_parts.data() + job * grad_total;
    for (int64_t g = 0; g < groups; ++g) {
      const int64_t h = hk * groups + g;
      for (int64_t t = 0; t < tiles; ++t) {
        const int64_t row0 = t * kTileQ, last_q = row0 + kTileQ - 1 < Lq ? row0 + kTileQ - 1 : Lq - 1;
        // The pair's keys: the chunk within the tile's window, less the blocks of kSkipBlock keys at
        // either end that the key-block test rules out (the tile plan, transposed: keys by tiles),
        // then less the whole vectors of keys it rules out in the partly masked end blocks (the
        // diagonal of a causal or sliding-window tile, a document's edge): the calls compute every
        // key they cover.
        int32_t lo = key_lo > window[size_t(2 * t)] ? key_lo : window[size_t(2 * t)];
        int32_t hi = key_lo + keys < window[size_t(2 * t + 1)] ? key_lo + keys : window[size_t(2 * t + 1)];
        auto masked = [&](int32_t x, int32_t width) {
          const int32_t end = x + width < hi ? x + width : hi;
          return kHasKeyTest && keys_masked(int(row0), int(last_q), x, end - 1, int(b0 + b), int(b0 + b), int(h), int(h), int(Lq), int(Lk), args->scalars);
        };
        lo = lo / kSkipBlock * kSkipBlock;
        while (lo < hi && masked(lo, kSkipBlock)) lo += kSkipBlock;
        while (lo < hi && masked(lo, kLanes)) lo += kLanes;
        if (lo >= hi) continue;
        int32_t last = (hi - 1) / kSkipBlock * kSkipBlock;
        while (last > lo && masked(last, kSkipBlock)) last -= kSkipBlock;
        if (last + kSkipBlock < hi) hi = last + kSkipBlock;
        last = (hi - 1) / kLanes * kLanes;
        while (last > lo && masked(last, kLanes)) last -= kLanes;
        if (last + kLanes < hi) hi = last + kLanes;
        const int64_t task = (b * Hq + h) * tiles + t;
        Plane q_tile(q_tiles + task * slot, Dp, kTileQ);
        Plane q_tile_t(q_cols + task * slot, kTileQ, Dp);
        Plane dout_tile(dout_tiles + task * kTileQ * Dv_pad, Dv_pad, kTileQ);
        Plane dout_tile_t(dout_cols + task * kTileQ * Dv_pad, kTileQ, Dv_pad);
        Plane stats_tile(stats + task * 2 * kTileQ, kTileQ, 2);
        float* dq_slot = dq_parts + (chunk * row_tasks + task) * slot;
        std::fill(dq_slot, dq_slot + slot, 0.0f);
        Plane dq_out(dq_slot, Dp, kTileQ);
        const int64_t rows = last_q - row0 + 1;
        // Calls of at most kBackwardCall keys from lo (a vector start), each whole vectors of keys
        // within the chunk's rounded-up keys; the pipeline adds each call's share to the pair's dQ
        // and the job's dK and dV in place.
        for (int32_t call_lo = lo; call_lo < hi; call_lo += kBackwardCall) {
          const int32_t call_hi = hi - call_lo < kBackwardCall ? hi : call_lo + kBackwardCall;
          const int32_t count = int32_t(round_up(call_hi - call_lo, kLanes)), offset = call_lo - key_lo;
          // K and V rows of the call's keys, indexed by key (their first row is key call_lo).
          k_call.set(k_rows + offset * Dp, Dp, count, 0), k_call.dim[1].min = call_lo;
          v_call.set(v_rows + offset * Dv_pad, Dv_pad, count, 0), v_call.dim[1].min = call_lo;
          dk_out.set(s.dk_acc.data() + offset * Dp, Dp, count, 0);
          dv_out.set(s.dv_acc.data() + offset * Dv_pad, Dv_pad, count, 0);
          grad_out.set(s.grad.data(), f32, count, kTileQ, kNumReads);
          index_out.set(s.index.data(), i32, count, kTileQ, kIndexSlots);
          int result = ATTN_PIPELINE_FN(uc, &q_tile.buf, &q_tile_t.buf, &k_call.buf, &v_call.buf, &dout_tile.buf,
              &dout_tile_t.buf, &stats_tile.buf, &dq_out.buf, &dk_out.buf, &dv_out.buf, int32_t(Lq), int32_t(Lk),
              int32_t(D), int32_t(Dp), int32_t(Dv_pad), int32_t(t), int32_t(h), int32_t(b0 + b), call_lo,
              count ATTN_EXTRA_ARGS, &dq_out.buf, &dk_out.buf, &dv_out.buf ATTN_GRAD_OUTPUTS);
          if (result != 0) {
            if (!ctx.failed) fail(uc, "%s: the backward kernel failed (Halide error %d)", kKernelName, result);
            return result;
          }
          // Each read's gradients to the element it read (positions that contribute nothing skipped).
          auto element = [&](const BackwardRead& read, const halide_buffer_t& view, int32_t x, int64_t r) {
            int64_t flat = 0;
            for (int d = 0; d < read.dims; ++d) {
              const int32_t i = s.index[size_t((int64_t(read.slot + d) * count + x) * kTileQ + r)];
              if (i < 0 || i >= view.dim[d].extent) return int64_t(-1);
              flat = flat * view.dim[d].extent + i;
            }
            return flat;
          };
          for (int rd = 0; rd < kNumReads; ++rd) {
            const BackwardRead& read = kReads[rd];
            if (grad_offset[read.buffer] < 0) continue;
            const halide_buffer_t& view = buffer_views[read.buffer]->buf;
            const float* gv = s.grad.data() + int64_t(rd) * count * kTileQ;
            if (read.uniform) {
              // One element for the whole call: per-row sums (a vector loop), then the rows in order.
              float row_sums[kTileQ] = {};
              for (int32_t x = 0; x < call_hi - call_lo; ++x)
                for (int64_t r = 0; r < rows; ++r) row_sums[r] += gv[x * kTileQ + r];
              float total = 0.0f;
              for (int64_t r = 0; r < rows; ++r) total += row_sums[r];
              const int64_t flat = element(read, view, 0, 0);
              if (total != 0.0f && flat >= 0) job_grads[grad_offset[read.buffer] + flat] += total;
              continue;
            }
            for (int64_t r = 0; r < rows; ++r)
              for (int32_t x = 0; x < call_hi - call_lo; ++x) {
                const float value = gv[x * kTileQ + r];
                if (value == 0.0f) continue;
                const int64_t flat = element(read, view, x, r);
                if (flat >= 0) job_grads[grad_offset[read.buffer] + flat] += value;
              }
          }
        }
        dq_written[size_t(chunk * row_tasks + task)] = 1;
      }
    }
    for (int32_t x = 0; x < keys; ++x) {
      char* dk_row = dk_base + (b * stride_of(args->dk, 0) + hk * stride_of(args->dk, 1) + (key_lo + x) * stride_of(args->dk, 2)) * esize;
      char* dv_row = dv_base + (b * stride_of(args->dv, 0) + hk * stride_of(args->dv, 1) + (key_lo + x) * stride_of(args->dv, 2)) * esize;
      write_io_row(dk_row, s.dk_acc.data() + x * Dp, 1.0f, D);
      write_io_row(dv_row, s.dv_acc.data() + x * Dv_pad, 1.0f, Dv);
    }
    return 0;
  });
  if (status != 0) return status;
  // dQ: each tile's shares summed over the key chunks in order.
  char* dq_base = static_cast<char*>(args->dq->data) + args->dq->byte_offset;
  status = parallel_for(uc, int(row_tasks), [&](int task) {
    const int64_t t = task % tiles, h = task / tiles % Hq, b = task / tiles / Hq;
    std::vector<float> sum(static_cast<size_t>(slot));
    for (int64_t chunk = 0; chunk < chunks; ++chunk) {
      if (!dq_written[size_t(chunk * row_tasks + task)]) continue;
      const float* part = dq_parts + (chunk * row_tasks + task) * slot;
      for (int64_t i = 0; i < slot; ++i) sum[size_t(i)] += part[i];
    }
    for (int64_t r = 0; r < kTileQ && t * kTileQ + r < Lq; ++r) {
      char* dst = dq_base + (b * stride_of(args->dq, 0) + h * stride_of(args->dq, 1) + (t * kTileQ + r) * stride_of(args->dq, 2)) * esize;
      write_io_row(dst, sum.data() + r * Dp, 1.0f, D);
    }
    return 0;
  });
  if (status != 0) return status;
  ATTN_SINK_GRADIENTS
  // Buffer gradients: the jobs' partial sums in job order (and the sink's).
  if (grad_sums.empty()) grad_sums.assign(size_t(grad_total), 0.0f);
  for (int64_t e = 0; e < grad_total; ++e) {
    float total = 0.0f;
    for (int64_t job = 0; job < jobs; ++job) total += grad_parts[size_t(job * grad_total + e)];
    if (!sink_grads.empty()) total += sink_grads[size_t(e)];
    grad_sums[size_t(e)] += total;
  }
  return 0;
}

/// A ragged batch (ABI version 2): checks the packed tensors, then runs backward_dense on each
/// sequence's views in order (PackedSequences.h). A sequence without queries still runs: its dK
/// and dV rows are written (zero).
static int backward_ragged(Context& ctx, const attn_backward_args* args, std::vector<float>& grad_sums) {
  void* uc = &ctx;
  if (!check_tensor(uc, args->q, "q", 3, false) || !check_tensor(uc, args->k, "k", 3, false) ||
      !check_tensor(uc, args->v, "v", 3, false) || !check_tensor(uc, args->out, "out", 3, false) ||
      !check_tensor(uc, args->dout, "dout", 3, false) || !check_tensor(uc, args->lse, "lse", 2, true) ||
      !check_tensor(uc, args->dq, "dq", 3, false) || !check_tensor(uc, args->dk, "dk", 3, false) ||
      !check_tensor(uc, args->dv, "dv", 3, false) || (args->dlse && !check_tensor(uc, args->dlse, "dlse", 2, true)))
    return -1;
  const int64_t* qs = args->q->shape;
  const int64_t* ks = args->k->shape;
  const int64_t Tq = qs[0], Hq = qs[1], Tk = ks[0], Hkv = ks[1], Dv = args->v->shape[2];
  const int64_t k_shape[3] = {Tk, Hkv, qs[2]}, v_shape[3] = {Tk, Hkv, Dv}, o_shape[3] = {Tq, Hq, Dv};
  if (!same_shape(uc, args->k, "ragged k", k_shape, 3) || !same_shape(uc, args->v, "ragged v", v_shape, 3) ||
      !same_shape(uc, args->out, "ragged out", o_shape, 3) || !same_shape(uc, args->dout, "ragged dout", o_shape, 3) ||
      !same_shape(uc, args->lse, "ragged lse", qs, 2) || (args->dlse && !same_shape(uc, args->dlse, "ragged dlse", qs, 2)) ||
      !same_shape(uc, args->dq, "ragged dq", qs, 3) || !same_shape(uc, args->dk, "ragged dk", k_shape, 3) ||
      !same_shape(uc, args->dv, "ragged dv", v_shape, 3))
    return -1;
  std::vector<int64_t> cu_q, cu_k;
  if (!read_boundaries(uc, args->cu_seqlens_q, "cu_seqlens_q", Tq, cu_q) ||
      !read_key_boundaries(uc, args->cu_seqlens_k, Tk, cu_q, cu_k))
    return -1;
  for (size_t b = 0; b + 1 < cu_q.size(); ++b) {
    const int64_t q0 = cu_q[b], q_rows = cu_q[b + 1] - q0, k0 = cu_k[b], k_rows = cu_k[b + 1] - k0;
    SequenceView q, k, v, out, lse, dout, dlse, dq, dk, dv;
    attn_backward_args one = *args;
    one.q = q.of(args->q, q0, q_rows), one.k = k.of(args->k, k0, k_rows), one.v = v.of(args->v, k0, k_rows);
    one.out = out.of(args->out, q0, q_rows), one.lse = lse.of(args->lse, q0, q_rows);
    one.dout = dout.of(args->dout, q0, q_rows), one.dlse = dlse.of(args->dlse, q0, q_rows);
    one.dq = dq.of(args->dq, q0, q_rows), one.dk = dk.of(args->dk, k0, k_rows), one.dv = dv.of(args->dv, k0, k_rows);
    one.kv_ranges = nullptr, one.kv_ranges_block_q = 0;
    one.cu_seqlens_q = one.cu_seqlens_k = nullptr;
    if (int status = backward_dense(ctx, &one, int64_t(b), grad_sums)) return status;
  }
  return 0;
}

extern "C" __attribute__((visibility("default"))) int ATTN_ENTRY(const attn_backward_args* args) {
  if (!args) return -1;
  (void)kLseRequired, (void)kMaxRequired, (void)kPackHeads;  // the forward's: the backward always reads the LSE, packs no heads
  const long hardware = sysconf(_SC_NPROCESSORS_ONLN);
  Context ctx{args->error, args->error_size, args->num_threads > 0 ? args->num_threads : (hardware > 0 ? int(hardware) : 1), false};
  void* uc = &ctx;
  if (args->error && args->error_size) args->error[0] = '\0';
  if (args->abi_version < 1 || args->abi_version > ATTN_BACKWARD_ABI_VERSION)
    return fail(uc, "%s: backward ABI version %d, expected 1 to %d", kKernelName, args->abi_version,
                ATTN_BACKWARD_ABI_VERSION), -1;
  const bool ragged = args->abi_version >= 2 && (args->cu_seqlens_q || args->cu_seqlens_k);
  std::vector<float> grad_sums;
  if (int status = ragged ? backward_ragged(ctx, args, grad_sums) : backward_dense(ctx, args, 0, grad_sums)) return status;
  // The buffer gradients asked for, each the sum over the sequences (backward_dense checked their
  // shapes; a ragged batch of no sequence reads nothing and writes zeros).
  int64_t at = 0;
  for (int i = 0; i < kNumBuffers; ++i) {
    DLTensor* g = args->buffer_grads ? args->buffer_grads[i] : nullptr;
    if (!g) continue;
    if (!check_tensor(uc, g, "a buffer gradient", g->ndim, true)) return -1;
    int64_t elements = 1;
    for (int d = 0; d < g->ndim; ++d) elements *= g->shape[d];
    float* base = reinterpret_cast<float*>(static_cast<char*>(g->data) + g->byte_offset);
    for (int64_t e = 0; e < elements; ++e, ++at) {
      int64_t offset = 0, rest = e;
      for (int d = g->ndim - 1; d >= 0; --d) {
        offset += rest % g->shape[d] * stride_of(g, d);
        rest /= g->shape[d];
      }
      base[offset] = size_t(at) < grad_sums.size() ? grad_sums[size_t(at)] : 0.0f;
    }
  }
  return 0;
}
