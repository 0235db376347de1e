// ---- attnc device library: what printed gradient expressions call ----------------------------
// Also compiled on the host by tests/cuda/test_cuda.cpp, which checks the printed derivatives
// against ScoreGradient's IR evaluated by the reference.
namespace attn_dev {

/// The row-major position of element `idx` in tensor argument `buf` (its gradient is contiguous),
/// or -1 (and an error report) when an index is out of range.
template <int N>
ATTN_HD long long flat_offset(const attn_cuda_params& p, int buf, const long long (&idx)[N]) {
  const attn_cuda_buffer& t = p.buffers[buf];
  long long offset = 0;
#pragma unroll
  for (int d = 0; d < N; ++d) {
    if (idx[d] < 0 || idx[d] >= t.shape[d]) {
      report_out_of_range(p, buf, d, idx[d]);
      return -1;
    }
    offset = offset * t.shape[d] + idx[d];
  }
  return offset;
}

}  // namespace attn_dev
