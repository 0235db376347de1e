// A tiny straight-line program over doubles: how tile-plan conditions run without Halide.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace attn {

/// A dense, row-major host buffer that a mask reads (`doc[q]`, ...). Not owned.
struct TileBuffer {
  enum class Elem : uint8_t { I32, F32, U8 };
  Elem elem = Elem::I32;
  const void* data = nullptr;
  std::vector<int64_t> shape;

  int64_t numel() const;
  /// Element `i` (row-major, flat) as a double.
  double at(int64_t i) const;
};

/// Range minimum/maximum over a TileBuffer: a sparse table over blocks of 32 elements, so a box
/// query costs O(1) per contiguous row plus at most 64 element reads. O(n) memory.
class BufferRanges {
 public:
  explicit BufferRanges(const TileBuffer& buffer);
  const TileBuffer& buffer() const { return buffer_; }
  /// Min (`want_max` false) or max of the buffer over the box [lo[d], hi[d]] (inclusive, `n`
  /// entries each). Bounds are clamped to the buffer; a box outside it, or `n` other than the
  /// buffer's rank, gives the whole buffer's.
  double box(const double* lo, const double* hi, size_t n, bool want_max) const;

 private:
  double range(int64_t a, int64_t b, bool want_max) const;  // flat [a, b]
  TileBuffer buffer_;
  std::vector<std::vector<double>> min_, max_;  // [level][block]
  double all_min_ = 0, all_max_ = 0;
};

enum class TileOpCode : uint8_t {
  Const,
  Input,
  Add,
  Sub,
  Mul,
  Div,
  Mod,
  Min,
  Max,
  EQ,
  NE,
  LT,
  LE,
  And,
  Or,
  Not,
  Select,
  Abs,
  Cast,
  Load,
  LoadMin,
  LoadMax,
  Math,
  Extent,
  Loop,
  Accum,
  EndLoop,
};

/// Functions of TileOpCode::Math (in `imm`): float ones, then the i32 bit operations (shift
/// counts 0..31). Pow and the binary bit operations take two operands.
enum class TileMath : uint8_t {
  Exp,
  Log,
  Sqrt,
  Tanh,
  Sin,
  Cos,
  Floor,
  Ceil,
  Round,
  Trunc,
  Pow,
  Erf,
  Atan,
  BitAnd,
  BitOr,
  BitXor,
  BitNot,
  ShiftLeft,
  ShiftRight,
};

/// One instruction; its result is the register with the instruction's index.
struct TileOp {
  TileOpCode code = TileOpCode::Const;
  bool is_float = false;           ///< float semantics (f32 rounding) rather than integer ones
  int32_t a = -1, b = -1, c = -1;  ///< operand registers; see TileProgram::ops
  double imm = 0;                  ///< Const: the value; Cast: target bits (8, 32)
};

/// SSA code, straight-line but for counted loops (bounded reductions). Input: `a` is the input
/// slot. Load/LoadMin/LoadMax: `a` is the buffer, `b` the first of its operand registers in
/// `operands` (Load: `c` indices; LoadMin/Max: `c` low bounds then `c` high bounds). Select:
/// `a ? b : c`. Math: `imm` is a TileMath. Extent: the run-time extent of buffer `a`'s dimension
/// `imm`. Loop: runs the ops up to its EndLoop (`c`) for j = 0 .. `a` - 1 (none when `a` <= 0); its
/// register holds j. Accum (inside Loop `c`): starts at register `a` (defined before the loop) when
/// the loop starts and combines register `b` into itself each iteration with `imm`, a TileOpCode
/// among Add, Min, Max; after the loop it holds the result. EndLoop: `a` is its Loop. Loops nest.
/// Integers follow Halide (Euclidean `/` and `%`, x/0 = x%0 = 0); booleans are 0 and 1.
struct TileProgram {
  std::vector<TileOp> ops;
  std::vector<int32_t> operands;
  std::vector<int32_t> outputs;      ///< registers holding the results
  std::vector<std::string> inputs;   ///< input slot names (for printing)
  std::vector<std::string> buffers;  ///< buffer slot names
  /// Per op: which of the input slots marked in `input_class` it depends on (bit set).
  std::vector<uint8_t> op_class;

  /// Fills `op_class` from a class bit per input slot. A loop's ops all get the union of their
  /// classes, so that a class runs whole loops or none.
  void classify(const std::vector<uint8_t>& input_class);
  /// Runs, in order, the ops whose class equals `cls` (every op when `cls` is 0xff), writing
  /// their results to `regs` (one per op).
  void run(double* regs, const double* inputs, const std::vector<BufferRanges>* buffers,
           uint8_t cls = 0xff) const;
  /// Runs the program; returns the output registers' values.
  std::vector<double> eval(const std::vector<double>& inputs,
                           const std::vector<BufferRanges>* buffers = nullptr) const;
  /// A readable listing (`%3 = add %1 %2`).
  std::string str() const;
};

}  // namespace attn
