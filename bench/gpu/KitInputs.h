// The kit's inputs (bench/gpu/kit_check.cpp): a generated kernel's run-time arguments read back from
// its ATTN_ARGS macro, buffers sized by what each dimension names, index buffers in range, and the
// deliberately out-of-range variant that shows the device flag.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "runtime/HostTensor.h"

namespace attn::kit {

/// One run-time argument from the ATTN_ARGS macro: "name:i32[len,heads]" or "name:f32".
struct ArgSpec {
  std::string name, elem;         ///< elem: i32, f32, bool (buffers) or the scalar's type
  std::vector<std::string> dims;  ///< as declared: a name or an integer literal
  bool buffer = false;
};

/// The arguments of a generated .cu (ATTN_ARGS), and whether it writes the LSE (ATTN_LSE 1).
std::vector<ArgSpec> parse_args(const std::string& source, bool& lse);

/// What a declared dimension stands for when the kit sizes a buffer.
enum class DimKind {
  Heads,    ///< `heads`: the query heads
  Length,   ///< a sequence length (`len`, or a name holding "len" or "seq"): max(Lq, Lkv)
  Tiles,    ///< `tiles`: ceil(length / 16), enough for any tile size of 16 or more
  Literal,  ///< an integer: exactly that (a literal dimension must match)
  Other,    ///< any other name (docs, span, buckets, top_k, edge_types): kOtherExtent
};
constexpr int64_t kOtherExtent = 320;  ///< over relative_bias(t, 128)'s span of 257
DimKind dim_kind(const std::string& dim);
int64_t dim_extent(const std::string& dim, int64_t heads, int64_t length);

/// The buffers of one launch, in declaration order: `heads` = Hq, lengths = max(Lq, Lkv). i32
/// buffers hold indices in range: every value is below the smallest literal or other extent of the
/// kernel's buffers (kOtherExtent when there is none), as sorted document ids (a new document every ~97
/// positions) for 1-D length buffers, 0 for a buffer named `start`, uniform otherwise; f32 buffers
/// small positive slopes; bool buffers about 1 in 50 set. `documents_1130`: documents of 1130
/// positions (the benchmark rows).
std::vector<HostTensor> make_buffers(const std::vector<ArgSpec>& args, int64_t heads, int64_t length,
                                     std::mt19937& rng, bool documents_1130 = false);

/// The same buffers with every dimension 1: any read at a head, query or key past the first is out
/// of range (the deliberate case that must raise the device flag).
std::vector<HostTensor> make_out_of_range_buffers(const std::vector<ArgSpec>& args);

/// Host bytes make_buffers would allocate (to refuse a kernel before allocating, not after).
int64_t buffer_bytes(const std::vector<ArgSpec>& args, int64_t heads, int64_t length);

/// A tensor of normal(0, 1) values (a fast generator: millions of elements per decode shape).
HostTensor random_tensor(ScalarType t, std::vector<int64_t> shape, std::mt19937& rng);

}  // namespace attn::kit
