// The kernel's element type: what Q, K and V hold (filled in per kernel), and whether
// it is FP8. Before the rest of a path's code that reads it: the entry point, and a matrix path's
// extern stages (backends/cpu/SourceParts.h: both parts of its source).
namespace {

enum class IoType { F32, F16, BF16, E4M3, E5M2 };
constexpr IoType kIoType = ATTN_IO_TYPE;  // Q, K and V's
constexpr bool kFp8 = kIoType == IoType::E4M3 || kIoType == IoType::E5M2;  // descaled Q, K, V; no backward

}  // namespace
