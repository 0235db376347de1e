/// Keys in blocks of ATTN_SKIP_BLOCK_COMMENT: blocks that the mask rules out for a whole query tile are skipped.
constexpr int kSkipBlock = ATTN_SKIP_BLOCK;
constexpr bool kHasKeyTest = ATTN_HAS_KEY_TEST;

/// Whether the mask is false for every query in [q_min, q_max] and key in [kv_min, kv_max] when
/// `q_len` and `kv_len` are q_len and kv_len: a sufficient condition from interval analysis of the
/// mask (codegen/PlanTiles), or false.
bool keys_masked([[maybe_unused]] int q_min, [[maybe_unused]] int q_max, [[maybe_unused]] int kv_min,
                 [[maybe_unused]] int kv_max, [[maybe_unused]] int b_min, [[maybe_unused]] int b_max,
                 [[maybe_unused]] int h_min, [[maybe_unused]] int h_max, [[maybe_unused]] int q_len,
                 [[maybe_unused]] int kv_len, [[maybe_unused]] const double* scalars) {
  return ATTN_KEYS_MASKED;
}
