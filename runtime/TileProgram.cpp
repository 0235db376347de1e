// TileProgram over the interpreter of TileProgramEval.h, and its listing.
#include "runtime/TileProgram.h"

#include <sstream>
#include <stdexcept>

namespace attn {

attn_tile_eval::Program TileProgram::view() const {
  attn_tile_eval::Program p;
  p.ops = ops.data();
  p.num_ops = ops.size();
  p.operands = operands.data();
  p.outputs = outputs.data();
  p.num_outputs = outputs.size();
  p.op_class = op_class.empty() ? nullptr : op_class.data();
  return p;
}

void TileProgram::classify(const std::vector<uint8_t>& input_class) {
  op_class = attn_tile_eval::classify(view(), input_class.data(), input_class.size());
}

void throw_run_error(const attn_tile_eval::RunError& error, const std::vector<std::string>& buffers) {
  using Kind = attn_tile_eval::RunError::Kind;
  const std::string name =
      error.buffer >= 0 && error.buffer < static_cast<int32_t>(buffers.size()) ? buffers[error.buffer] : "?";
  switch (error.kind) {
    case Kind::Rank:
      throw std::out_of_range("buffer '" + name + "' has rank " + std::to_string(error.rank) +
                              ", the mask indexes it with " + std::to_string(error.value) + " indices");
    case Kind::Index:
      throw std::out_of_range("index " + std::to_string(error.value) + " out of range of buffer '" + name +
                              "'");
    case Kind::Dimension:
      throw std::out_of_range("buffer '" + name + "' has no dimension " + std::to_string(error.value));
    case Kind::None: break;
  }
  throw std::logic_error("internal error: a tile program failed without a reason");
}

void TileProgram::run(double* regs, const double* inputs, const std::vector<BufferRanges>* ranges,
                      uint8_t cls) const {
  attn_tile_eval::RunError error;
  if (!attn_tile_eval::run(view(), regs, inputs, ranges ? ranges->data() : nullptr, cls, error))
    throw_run_error(error, buffers);
}

std::vector<double> TileProgram::eval(const std::vector<double>& in,
                                      const std::vector<BufferRanges>* ranges) const {
  std::vector<double> regs(ops.size());
  run(regs.data(), in.data(), ranges);
  std::vector<double> out;
  for (int32_t r : outputs) out.push_back(regs[r]);
  return out;
}

std::string TileProgram::str() const {
  static const char* names[] = {"const",    "input", "add",    "sub",  "mul",   "div",     "mod",
                                "min",      "max",   "eq",     "ne",   "lt",    "le",      "and",
                                "or",       "not",   "select", "abs",  "cast",  "load",    "load_min",
                                "load_max", "math",  "extent", "loop", "accum", "end_loop"};
  std::ostringstream os;
  for (size_t i = 0; i < ops.size(); ++i) {
    const TileOp& op = ops[i];
    os << "  %" << i << " = " << names[static_cast<int>(op.code)] << (op.is_float ? ".f" : "");
    switch (op.code) {
      case TileOpCode::Const: os << ' ' << op.imm; break;
      case TileOpCode::Input:
        os << ' ' << (op.a < static_cast<int32_t>(inputs.size()) ? inputs[op.a] : "?");
        break;
      case TileOpCode::Load:
      case TileOpCode::LoadMin:
      case TileOpCode::LoadMax: {
        os << ' ' << (op.a < static_cast<int32_t>(buffers.size()) ? buffers[op.a] : "?");
        const int32_t n = op.code == TileOpCode::Load ? op.c : 2 * op.c;
        for (int32_t k = 0; k < n; ++k) os << " %" << operands[op.b + k];
        break;
      }
      case TileOpCode::Cast: os << " %" << op.a << " to " << op.imm << " bits"; break;
      case TileOpCode::Extent:
        os << ' ' << (op.a < static_cast<int32_t>(buffers.size()) ? buffers[op.a] : "?") << " dim " << op.imm;
        break;
      case TileOpCode::Loop: os << " j < %" << op.a << " to %" << op.c; break;
      case TileOpCode::Accum:
        os << ' ' << names[static_cast<int>(op.imm)] << " from %" << op.a << " of %" << op.b << " in %"
           << op.c;
        break;
      case TileOpCode::EndLoop: os << " %" << op.a; break;
      case TileOpCode::Math:
        os << " fn" << op.imm << " %" << op.a << (op.b >= 0 ? " %" + std::to_string(op.b) : "");
        break;
      default:
        for (int32_t r : {op.a, op.b, op.c})
          if (r >= 0) os << " %" << r;
    }
    os << '\n';
  }
  os << "  return";
  for (int32_t r : outputs) os << " %" << r;
  os << '\n';
  return os.str();
}

}  // namespace attn
