// Bounded reductions in the IR (`sum(j < n: e)` and the like) and buffer extents, the one IR
// variable kind a reduction bound adds. Light header: no Halide.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace Halide {
struct Expr;
}
namespace Halide::Internal {
struct Call;
}

namespace attn {

/// Bounded reductions `sum(j < n: e)` and the like stay reductions in the IR: a Call named
/// "attn_reduce_<op>" (PureExtern) with arguments (the Int(32) Variable j, the extent n, the body
/// e). j is in scope in the body only; n uses no index variable, score, load or other reduction's
/// variable. Every walker lowers them as loops and switches over Reduction without a default.
enum class Reduction : uint8_t { Sum, Any, All, Max, Min };

inline constexpr const char* kReductionNames[] = {"sum", "any", "all", "max", "min"};

/// The reduction `call` is, or nullopt.
std::optional<Reduction> reduction_of(const Halide::Internal::Call& call);

/// `op(var < extent: body)`: the Call described above. Its type is the body's.
Halide::Expr make_reduction(Reduction op, const std::string& var, const Halide::Expr& extent,
                            const Halide::Expr& body);

/// The value of an empty reduction of type `body`'s: 0, false, true, or the type's lowest
/// (max: -inf for floats) or highest (min) value.
Halide::Expr reduction_identity(Reduction op, const Halide::Expr& body);

/// A buffer extent inside the IR (a reduction bound over a buffer dimension) is Halide's own
/// Variable "<buffer>.extent.<dim>" on the buffer's Parameter. `name` is such a variable's name:
/// the buffer and dimension, or nullopt.
struct BufferExtent {
  std::string buffer;
  int dim = 0;
};
std::optional<BufferExtent> buffer_extent_of(const std::string& name);

}  // namespace attn
