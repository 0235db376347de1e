/// The dense batch `args` describes, or one sequence of a ragged batch or paged cache as a
/// one-entry view of it (attend_ragged, attend_paged), placed by `at` (fixed/RaggedBatch.h).
static int attend(Context& ctx, const attn_kernel_args* args, const CallPlace& at) {
  void* uc = &ctx;
  if (!check_tensor(uc, args->q, "q", 4, false) || !check_tensor(uc, args->k, "k", 4, false) ||
      !check_tensor(uc, args->v, "v", 4, false) || !check_tensor(uc, args->out, "out", 4, false))
    return -1;
  const int64_t* qs = args->q->shape;
  const int64_t* ks = args->k->shape;
  const int64_t* vs = args->v->shape;
  const int64_t* os = args->out->shape;
  int64_t B = qs[0], Hq = qs[1], Lq = qs[2], D = qs[3], Hkv = ks[1], Lk = ks[2], Dv = vs[3];
  if (ks[0] != B || ks[3] != D)
    return fail(uc, "%s: k has shape [%lld, %lld, %lld, %lld]; expected [%lld, Hkv, Lk, %lld] to match q", kKernelName,
                (long long)ks[0], (long long)ks[1], (long long)ks[2], (long long)ks[3], (long long)B, (long long)D), -1;
  if (vs[0] != B || vs[1] != Hkv || vs[2] != Lk)
    return fail(uc, "%s: v has shape [%lld, %lld, %lld, %lld]; expected [%lld, %lld, %lld, Dv] to match k", kKernelName,
                (long long)vs[0], (long long)vs[1], (long long)vs[2], (long long)vs[3], (long long)B, (long long)Hkv,
                (long long)Lk), -1;
  if (os[0] != B || os[1] != Hq || os[2] != Lq || os[3] != Dv)
    return fail(uc, "%s: out has shape [%lld, %lld, %lld, %lld]; expected [%lld, %lld, %lld, %lld]", kKernelName,
                (long long)os[0], (long long)os[1], (long long)os[2], (long long)os[3], (long long)B, (long long)Hq,
                (long long)Lq, (long long)Dv), -1;
  if (Hkv <= 0 || Hq % Hkv != 0)
    return fail(uc, "%s: %lld query heads are not a multiple of %lld key/value heads", kKernelName, (long long)Hq,
                (long long)Hkv), -1;
  if ((kHeadDim && D != kHeadDim) || D <= 0)
    return fail(uc, "%s: head dimension %lld, the kernel was compiled for %lld", kKernelName, (long long)D,
                (long long)kHeadDim), -1;
  if ((kValueDim && Dv != kValueDim) || Dv <= 0)
    return fail(uc, "%s: value dimension %lld, the kernel was compiled for %lld", kKernelName, (long long)Dv,
                (long long)kValueDim), -1;
  if (kLseRequired && !args->lse)
    return fail(uc, "%s: the kernel writes the log-sum-exp, but lse is NULL", kKernelName), -1;
  DLTensor* max_out = args->abi_version >= 4 ? args->max : nullptr;
  if (kMaxRequired && !max_out)
    return fail(uc, "%s: the kernel writes row maxima (return_max), but max is NULL", kKernelName), -1;
  for (DLTensor* row_out : {args->lse, max_out}) {
    if (!row_out) continue;
    const char* what = row_out == args->lse ? "lse" : "max";
    if (!check_tensor(uc, row_out, what, 3, true)) return -1;
    const int64_t* ls = row_out->shape;
    if (ls[0] != B || ls[1] != Hq || ls[2] != Lq)
      return fail(uc, "%s: %s has shape [%lld, %lld, %lld]; expected [%lld, %lld, %lld]", kKernelName, what,
                  (long long)ls[0], (long long)ls[1], (long long)ls[2], (long long)B, (long long)Hq, (long long)Lq), -1;
  }
  if (args->num_buffers != kNumBuffers || (kNumBuffers && !args->buffers))
    return fail(uc, "%s: %d buffers given, the kernel takes %d", kKernelName, args->num_buffers, kNumBuffers), -1;
  if (args->num_scalars != kNumScalars || (kNumScalars && !args->scalars))
    return fail(uc, "%s: %d scalars given, the kernel takes %d", kKernelName, args->num_scalars, kNumScalars), -1;
  if (B == 0 || Hq == 0 || Lq == 0) return 0;
  const int64_t b0 = at.b0, q0 = at.q0, q_end = q0 + Lq;  // `b` of entry 0; positions of the queries
  ATTN_VIEW_BUFFERS
  char* out_base = static_cast<char*>(args->out->data) + args->out->byte_offset;
  int64_t esize = args->out->dtype.bits / 8;
  int64_t ob = stride_of(args->out, 0) * esize, oh = stride_of(args->out, 1) * esize, ol = stride_of(args->out, 2) * esize;
  float* lse_base = args->lse ? reinterpret_cast<float*>(static_cast<char*>(args->lse->data) + args->lse->byte_offset) : nullptr;
  int64_t lb = args->lse ? stride_of(args->lse, 0) : 0, lh = args->lse ? stride_of(args->lse, 1) : 0;
  int64_t ll = args->lse ? stride_of(args->lse, 2) : 0;
  float* max_base = max_out ? reinterpret_cast<float*>(static_cast<char*>(max_out->data) + max_out->byte_offset) : nullptr;
  int64_t mb = max_out ? stride_of(max_out, 0) : 0, mh = max_out ? stride_of(max_out, 1) : 0;
  int64_t ml = max_out ? stride_of(max_out, 2) : 0;
  ATTN_ROW_FUNCTIONS
  const int64_t groups = Hq / Hkv;
  // FP8 kernels' descale factors per (batch entry, key/value head), checked by the entry point. K
  // and V are staged as they are: q_descale x k_descale multiplies the scores (it goes with the
  // query tile), v_descale Out (write_row).
  const bool descaled = args->abi_version >= 7;
  const Descale q_scale = descale_of(descaled ? args->q_descale : nullptr, b0);
  const Descale k_scale = descale_of(descaled ? args->k_descale : nullptr, b0);
  const Descale v_scale = descale_of(descaled ? args->v_descale : nullptr, b0);
  // Out = P·V / sum, LSE and the row max of one finished row, in the caller's layout and type, after
  // the sink: a row that nothing reached is Out 0, LSE -inf; a NaN sum (a NaN score) gives NaN. `pv`
  // is unnormalized, `max` in log2 units. False (with the message written) for an out-of-range read.
  auto write_row = [&](int64_t b, int64_t hr, int64_t qr, const float* pv, float max, float sum) {
    const float kept_max = sum != sum ? NAN : sum == 0.0f ? -INFINITY : max * 0.693147180559945309f;
    float scale = 1.0f;
    if (kHasSink) {
      RowLoadError bad;
      fold_sink(sink_logit(int32_t(b0 + b), int32_t(hr), int32_t(q0 + qr), bad), max, sum, scale);
      if (bad.buffer)
        return fail(uc, "%s: the sink reads buffer '%s' at index %d in dimension %d, outside [0, %d) (b=%lld h=%lld q=%lld)",
                    kKernelName, bad.buffer, int(bad.index), bad.dim, int(bad.extent), (long long)(b0 + b), (long long)hr,
                    (long long)(q0 + qr)), false;
    }
    const bool reached = sum != 0.0f;
    float inv = reached ? scale / sum * (kFp8 ? v_scale.at(b, hr / groups) : 1.0f) : 0.0f;
    char* dst = out_base + b * ob + hr * oh + qr * ol;
    if (reached)
      write_io_row(dst, pv, inv, Dv);
    else
      memset(dst, 0, size_t(Dv * esize));
    if (lse_base) lse_base[b * lb + hr * lh + qr * ll] = reached ? max * 0.693147180559945309f + logf(sum) : -INFINITY;
    if (max_base) max_base[b * mb + hr * mh + qr * ml] = kept_max;
    return true;
  };
  if (Lk == 0) {  // no keys: every row is fully masked
    const std::vector<float> none(size_t(Dv), 0.0f);
    for (int64_t b = 0; b < B; ++b)
      for (int64_t h = 0; h < Hq; ++h)
        for (int64_t r = 0; r < Lq; ++r)
          if (!write_row(b, h, r, none.data(), -INFINITY, 0.0f)) return -1;
    return 0;
  }
  int64_t Dv_pad = round_up(Dv, kLanes);
  // Decoding (one query row) with grouped heads: the query heads that share a key/value head fill
  // the rows of one tile (row r is head h + r, query 0) instead of one head per 32-row tile. Only
  // when the mask and score do not read the head index.
  const bool pack = kPackHeads && Lq == 1 && groups > 1;
  const int64_t chunks_per_group = (groups + kTileQ - 1) / kTileQ;
  // K and V that need converting are converted by the tasks themselves when at most two tasks
  // read each key/value plane (and a paged cache decoding), once up front otherwise.
  const int64_t tasks_per_plane = pack ? chunks_per_group : (Lq + kTileQ - 1) / kTileQ * groups;
  // The decoding layout when no task has more than a few rows (kDecodeRows): the pipeline computes
  // the scores of those rows only, and the matrix paths read K and V as plain rows
  // (fixed/MatrixStaging.h).
  const int64_t task_rows = pack ? (groups < kTileQ ? groups : kTileQ) : (Lq < kTileQ ? Lq : kTileQ);
  const bool decoding = ValueStage::decoding_layout(task_rows, D, Dv);
  // The pipeline's `decoding`: 0, or for the decoding layout 1 (the matrix paths: bf16 K and V rows
  // in place) or 2 (their row addresses: a paged cache's, or FP8 rows, read in place too).
  const int32_t decoding_layout = decoding ? (at.pages.table || kFp8 ? 2 : 1) : 0;
  KeyStage k;
  ValueStage v;
  if (!k.prepare(uc, args->k, "k", D, tasks_per_plane <= 2, at.pages, decoding) ||
      !v.prepare(uc, args->v, "v", Dv_pad, tasks_per_plane <= 2, at.pages, decoding))
    return -1;
  const char* q_base = base_of(args->q);
  int64_t q_esize = args->q->dtype.bits / 8;
  int64_t qb = stride_of(args->q, 0) * q_esize, qh = stride_of(args->q, 1) * q_esize, ql = stride_of(args->q, 2) * q_esize;
  // Keys each query tile may see, [lo, hi): all of them, or for a mask that reads buffers the hull
  // of the caller's ranges (version 2) over the tile's query positions. The pipeline intersects it
  // with the mask's closed-form hull.
  int64_t tiles = (Lq + kTileQ - 1) / kTileQ;
  if (tiles * Hq * B >= (int64_t(1) << 31))
    return fail(uc, "%s: too many query tiles (%lld)", kKernelName, (long long)(tiles * Hq * B)), -1;
  std::vector<int32_t> window(size_t(2 * tiles));
  ATTN_KV_RANGES
  if (given && given_block <= 0)
    return fail(uc, "%s: kv_ranges_block_q is %lld", kKernelName, (long long)given_block), -1;
  if (run_starts) {
    int64_t blocks = (q_end + given_block - 1) / given_block;
    for (int64_t blk = 0; blk < blocks; ++blk)
      if (run_starts[0] != 0 || run_starts[blk + 1] < run_starts[blk])
        return fail(uc, "%s: kv_run_starts is not non-decreasing from 0 (block %lld)", kKernelName, (long long)blk), -1;
  }
  for (int64_t t = 0; t < tiles; ++t) {
    int64_t lo = 0, hi = Lk;
    if (given) {
      lo = Lk, hi = 0;
      int64_t first_q = q0 + t * kTileQ, last_q = t * kTileQ + kTileQ < Lq ? first_q + kTileQ - 1 : q_end - 1;
      for (int64_t blk = first_q / given_block; blk <= last_q / given_block; ++blk) {
        int64_t a = given[2 * blk] > 0 ? given[2 * blk] : 0, e = given[2 * blk + 1] < Lk ? given[2 * blk + 1] : Lk;
        if (a < e) lo = a < lo ? a : lo, hi = e > hi ? e : hi;
      }
      if (lo >= hi) lo = hi = 0;
    }
    window[size_t(2 * t)] = int32_t(lo), window[size_t(2 * t + 1)] = int32_t(hi);
  }
  // One task per (query tile, query head, batch entry), tiles innermost: neighbouring tasks read
  // the same key/value head.
  const int64_t task_count = pack ? chunks_per_group * Hkv * B : tiles * Hq * B;
  const int64_t q_step = pack ? 0 : 1, head_step = pack ? 1 : 0;
  // Where task `task` is: its query tile t, first head h, batch entry b, first query row0, rows.
  auto locate = [&](int64_t task, int64_t& t, int64_t& h, int64_t& b, int64_t& row0, int64_t& rows) {
    if (pack) {
      int64_t chunk = task % chunks_per_group, hk = task / chunks_per_group % Hkv;
      t = 0, row0 = 0, b = task / chunks_per_group / Hkv, h = hk * groups + chunk * kTileQ;
      rows = groups - chunk * kTileQ < kTileQ ? groups - chunk * kTileQ : kTileQ;
    } else {
      t = task % tiles, h = task / tiles % Hq, b = task / tiles / Hq;
      row0 = t * kTileQ, rows = Lq - row0 < kTileQ ? Lq - row0 : kTileQ;
    }
  };
  // Split-KV: with fewer tasks than threads (decoding), each task's keys are cut into `splits`
  // shares of whole key blocks, at least one chunk each, computed as jobs of their own; each
  // leaves its rows unnormalized in `partial` and a second pass merges them.
  int64_t splits = 1;
  if (task_count < ctx.threads) {
    splits = (ctx.threads + task_count - 1) / task_count;
    if (splits > Lk / kKeyChunk) splits = Lk / kKeyChunk;
    if (splits < 1) splits = 1;
  }
  // Decoding from a paged cache: the pages interleave the key/value heads, so every head's task
  // reads the same pages. Cut into shares of 1024 keys taken share by share, every head in turn
  // (jobs share-major), each page comes from memory once for all the heads.
  const bool share_major = at.pages.table && decoding;
  constexpr int64_t kPagedShareKeys = 1024;
  if (share_major && splits < (Lk + kPagedShareKeys - 1) / kPagedShareKeys)
    splits = (Lk + kPagedShareKeys - 1) / kPagedShareKeys;
  const int64_t share = round_up((Lk + splits - 1) / splits, kSkipBlock);
  const int64_t slot_floats = Dv_pad + 2;  // P·V, max, sum
  std::vector<float> partial(splits > 1 ? size_t(task_count * splits * task_rows * slot_floats) : 0);
  int status = parallel_for(uc, int(task_count * splits), [&](int job) {
    const int64_t task = share_major ? job % task_count : job / splits;
    const int64_t part = share_major ? job / task_count : job % splits;
    int64_t t, h, b, row0, rows;
    locate(task, t, h, b, row0, rows);
    const int64_t last_q = row0 + (rows - 1) * q_step, last_h = h + (rows - 1) * head_step;
    TaskScratch& scratch = task_scratch;
    scratch.start(D, Dv_pad);
    // The tile's queries as the pipeline reads them (rows past Lq zero).
    Plane q_tile, out_tile(scratch.chunk.data(), Dv_pad + kLanes, kTileQ);
    stage_query_tile(scratch.q, D, rows, [&](int64_t r) {
      return q_base + b * qb + (h + r * head_step) * qh + (row0 + r * q_step) * ql;
    }, q_scale.at(b, h / groups) * k_scale.at(b, h / groups), q_tile, decoding);
    Plane k_head, v_head;
    if (!k.streamed) k.head(h / groups, b, Lk, k_head);
    if (!v.streamed) v.head(h / groups, b, Lk, v_head);
    // The window's runs of key blocks that the mask may allow, each chunk by chunk: the pipeline
    // takes at most ATTN_KEY_CHUNK keys a call, so the scores stay in cache.
    scratch.window_runs(window[size_t(2 * t)], window[size_t(2 * t + 1)], run_starts, runs, given_block, q0 + row0,
                        q0 + last_q, int32_t(Lk));
    if (splits > 1) scratch.clip(int32_t(part * share), int32_t(part * share + share));
    int32_t hi = 0;
    auto block_end = [&](int32_t x) {
      int32_t end = (x / kSkipBlock + 1) * kSkipBlock;
      return end < hi ? end : hi;
    };
    auto masked = [&](int32_t x) {
      return kHasKeyTest && keys_masked(int(q0 + row0), int(q0 + last_q), x, block_end(x) - 1, int(b0 + b), int(b0 + b), int(h),
                                        int(last_h), int(q_end), int(Lk), args->scalars);
    };
    bool first = true;
    for (size_t w = 0; w < scratch.windows.size(); w += 2) {
      hi = scratch.windows[w + 1];
      for (int32_t run_lo = scratch.windows[w]; run_lo < hi;) {
        if (masked(run_lo)) {
          run_lo = block_end(run_lo);
          continue;
        }
        int32_t run_hi = kHasKeyTest ? block_end(run_lo) : hi;
        while (run_hi < hi && !masked(run_hi)) run_hi = block_end(run_hi);
        // The run in place, or with streamed K/V in pieces of at most one chunk from a key block
        // start, each piece's rows converted into the task's scratch first.
        for (int32_t piece_lo = run_lo; piece_lo < run_hi;) {
          int32_t piece_hi = run_hi;
          if (k.streamed || v.streamed) {
            const int32_t first_row = piece_lo / kSkipBlock * kSkipBlock;
            piece_hi = first_row + kKeyChunk < run_hi ? first_row + kKeyChunk : run_hi;
            const int64_t end_row = round_up(piece_hi, kSkipBlock) < Lk ? round_up(piece_hi, kSkipBlock) : Lk;
            if (k.streamed) k.piece(h / groups, b, first_row, end_row, scratch.k_rows, k_head);
            if (v.streamed) v.piece(h / groups, b, first_row, end_row, scratch.v_rows, v_head);
          }
          for (int32_t next = piece_lo;;) {
            int result = ATTN_PIPELINE_FN(uc, &q_tile.buf, &k_head.buf, &v_head.buf, int32_t(q_end), int32_t(Lk), int32_t(D),
                int32_t(Dv_pad), int32_t(t), int32_t(rows), decoding_layout, int32_t(q_step), int32_t(q0), int32_t(h), int32_t(b0 + b), piece_lo, piece_hi, next ATTN_EXTRA_ARGS, &out_tile.buf);
            if (result != 0) {
              if (!ctx.failed) fail(uc, "%s: the kernel failed (Halide error %d)", kKernelName, result);
              return result;
            }
            scratch.absorb(first, rows);
            first = false;
            if (scratch.chunk_end() >= scratch.window_end()) break;
            next = scratch.chunk_end();
          }
          piece_lo = piece_hi;
        }
        run_lo = run_hi;
      }
    }
    for (int64_t r = 0; r < rows; ++r) {
      const float* pv = scratch.acc.data() + r * Dv_pad;
      const float max = scratch.row_max[size_t(r)], sum = scratch.row_sum[size_t(r)];
      if (splits == 1) {
        if (!write_row(b, h + r * head_step, row0 + r * q_step, pv, max, sum)) return -1;
        continue;
      }
      float* slot = partial.data() + ((task * splits + part) * task_rows + r) * slot_floats;
      if (sum != 0.0f)
        memcpy(slot, pv, size_t(Dv_pad) * 4);
      else
        memset(slot, 0, size_t(Dv_pad) * 4);  // a share with no allowed key
      slot[Dv_pad] = max, slot[Dv_pad + 1] = sum;
    }
    return 0;
  });
  if (status != 0 || splits == 1) return status;
  // Merge the shares as the chunks of one share were merged.
  return parallel_for(uc, int(task_count), [&](int task) {
    int64_t t, h, b, row0, rows;
    locate(task, t, h, b, row0, rows);
    TaskScratch& scratch = task_scratch;
    scratch.start(D, Dv_pad);
    for (int64_t part = 0; part < splits; ++part)
      scratch.absorb(partial.data() + (task * splits + part) * task_rows * slot_floats, slot_floats, part == 0, rows);
    for (int64_t r = 0; r < rows; ++r)
      if (!write_row(b, h + r * head_step, row0 + r * q_step, scratch.acc.data() + r * Dv_pad,
                     scratch.row_max[size_t(r)], scratch.row_sum[size_t(r)]))
        return -1;
    return 0;
  });
}

extern "C" __attribute__((visibility("default"))) int ATTN_ENTRY(const attn_kernel_args* args) {
  if (!args) return -1;
  const long hardware = sysconf(_SC_NPROCESSORS_ONLN);
  Context ctx{args->error, args->error_size, args->num_threads > 0 ? args->num_threads : (hardware > 0 ? int(hardware) : 1), false};
  void* uc = &ctx;
  if (args->error && args->error_size) args->error[0] = '\0';
  if (args->abi_version < 1 || args->abi_version > ATTN_KERNEL_ABI_VERSION)
    return fail(uc, "%s: ABI version %d, expected 1 to %d", kKernelName, args->abi_version, ATTN_KERNEL_ABI_VERSION),
           -1;
  if (!check_descales(uc, args)) return -1;
  auto one = [&](const attn_kernel_args* sequence, const CallPlace& at) { return attend(ctx, sequence, at); };
  if (args->abi_version >= 6 && (args->page_table || args->kv_lens)) return attend_paged(uc, args, one);
  if (args->abi_version >= 5 && (args->cu_seqlens_q || args->cu_seqlens_k)) return attend_ragged(uc, args, one);
  return attend(ctx, args, CallPlace{});
}
