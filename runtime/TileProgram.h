// A tiny straight-line program over doubles: how tile-plan conditions run without Halide.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/TileProgramEval.h"

namespace attn {

/// A dense, row-major host buffer that a mask reads (`doc[q]`, ...), its range min/max, and the
/// programs' instructions: runtime/TileProgramEval.h, the text generated kernels carry.
using TileBuffer = attn_tile_eval::Buffer;
using BufferRanges = attn_tile_eval::Ranges;
using TileOpCode = attn_tile_eval::OpCode;
using TileMath = attn_tile_eval::MathFn;
using TileOp = attn_tile_eval::Op;

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
  /// The program as the interpreter takes it (valid while this object is unchanged).
  attn_tile_eval::Program view() const;
};

/// Throws std::out_of_range describing `error` (a failed run of a program over `buffers`).
[[noreturn]] void throw_run_error(const attn_tile_eval::RunError& error,
                                  const std::vector<std::string>& buffers);

}  // namespace attn
