namespace {

/// The key ranges of a call that passes none, for a mask that reads buffers: the kernel's tile plan
/// (the kPlan* tables) run on the call's lengths, scalars and buffers by the planner attnc's
/// runtime runs (the same code), so a direct call skips the keys `attnc run` skips. O(tiles) plus
/// one pass over each buffer the mask reads.
struct SelfPlan {
  attn_tile_eval::KeyRanges keys;
  std::vector<std::vector<char>> copies;  // dense copies of strided buffers

  /// False when there is nothing to plan or the plan cannot read the buffers (the kernel then
  /// visits every key and reports bad buffers itself). The buffers passed view_buffer's checks.
  bool make(int64_t Lq, int64_t Lk, const DLTensor* const* buffers, const double* scalars) {
    if (Lq <= 0 || Lk <= 0) return false;
    std::vector<attn_tile_eval::Ranges> ranges;
    ranges.reserve(size_t(kPlanNumBuffers));
    copies.resize(size_t(kPlanNumBuffers));
    for (int i = 0; i < kPlanNumBuffers; ++i) {
      const DLTensor* t = buffers[kPlanBuffers[i]];
      attn_tile_eval::Buffer b;
      b.elem = t->dtype.bits == 8 ? attn_tile_eval::Buffer::Elem::U8
               : t->dtype.code == kDLFloat ? attn_tile_eval::Buffer::Elem::F32
                                           : attn_tile_eval::Buffer::Elem::I32;
      b.shape.assign(t->shape, t->shape + t->ndim);
      b.data = dense(t, copies[size_t(i)]);
      ranges.emplace_back(b);
    }
    attn_tile_eval::PlanPrograms programs;
    programs.block_q = kPlanBlockQ, programs.block_kv = kPlanBlockKv;
    programs.tile = kPlanTile, programs.ranges = kPlanRanges, programs.ranges_exact = kPlanRangesExact;
    attn_tile_eval::PlanArgs in;
    in.q_len = Lq, in.kv_len = Lk;
    for (int i = 0; i < kPlanNumScalars; ++i) in.scalars.push_back(scalars[kPlanScalars[i]]);
    in.buffers = ranges.data();
    attn_tile_eval::Grid grid;
    attn_tile_eval::RunError error;
    if (!attn_tile_eval::plan_grid(programs, in, grid, error)) return false;
    keys = attn_tile_eval::key_ranges(grid);
    return true;
  }

 private:
  /// `t`'s elements in row-major order: its memory when already so, else a copy in `copy`. (Kept
  /// apart from the wrapper's helpers: the planner is emitted once, before the entry points.)
  static const void* dense(const DLTensor* t, std::vector<char>& copy) {
    const int64_t esize = t->dtype.bits / 8;
    const char* base = static_cast<const char*>(t->data) + t->byte_offset;
    int64_t n = 1;
    bool compact = true;
    for (int d = t->ndim - 1; d >= 0; --d) {
      if (t->shape[d] > 1 && t->strides && t->strides[d] != n) compact = false;
      n *= t->shape[d];
    }
    if (compact || n == 0) return base;
    copy.resize(size_t(n * esize));
    std::vector<int64_t> idx(size_t(t->ndim), 0);
    for (int64_t i = 0; i < n; ++i) {
      int64_t offset = 0;
      for (int d = 0; d < t->ndim; ++d) offset += idx[size_t(d)] * t->strides[d];
      memcpy(copy.data() + i * esize, base + offset * esize, size_t(esize));
      for (int d = t->ndim - 1; d >= 0 && ++idx[size_t(d)] == t->shape[d]; --d) idx[size_t(d)] = 0;
    }
    return copy.data();
  }
};

}  // namespace
