// The tile-program interpreter and range min/max over host buffers, header-only C++17 without
// dependencies: the runtime (TileProgram.h) runs plans with it, and every generated CPU kernel whose
// mask reads buffers carries this very text (backends/cpu/SelfPlan.cpp), so the two cannot drift.
#ifndef ATTN_TILE_PROGRAM_EVAL_H
#define ATTN_TILE_PROGRAM_EVAL_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

// A generated kernel defines ATTN_TILE_EVAL_INTERNAL: its copy gets internal linkage, so kernels
// made by different attnc versions link into one program.
#ifdef ATTN_TILE_EVAL_INTERNAL
namespace {
#endif
namespace attn_tile_eval {

/// A dense, row-major host buffer that a mask reads (`doc[q]`, ...). Not owned.
struct Buffer {
  enum class Elem : uint8_t { I32, F32, U8 };
  Elem elem = Elem::I32;
  const void* data = nullptr;
  std::vector<int64_t> shape;

  int64_t numel() const {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
  }
  /// Element `i` (row-major, flat) as a double.
  double at(int64_t i) const {
    switch (elem) {
      case Elem::I32: return static_cast<const int32_t*>(data)[i];
      case Elem::F32: return static_cast<const float*>(data)[i];
      case Elem::U8: return static_cast<const uint8_t*>(data)[i];
    }
    return 0;
  }
};

/// Range minimum/maximum over a Buffer: a sparse table over blocks of 32 elements, so a box query
/// costs O(1) per contiguous row plus at most 64 element reads. O(n) memory.
class Ranges {
 public:
  explicit Ranges(const Buffer& buffer) : buffer_(buffer) {
    const int64_t n = buffer_.numel();
    const int64_t blocks = (n + kBlock - 1) / kBlock;
    std::vector<double> lo(static_cast<size_t>(blocks), std::numeric_limits<double>::infinity());
    std::vector<double> hi(static_cast<size_t>(blocks), -std::numeric_limits<double>::infinity());
    for (int64_t i = 0; i < n; ++i) {
      const double v = buffer_.at(i);
      lo[i / kBlock] = std::min(lo[i / kBlock], v);
      hi[i / kBlock] = std::max(hi[i / kBlock], v);
    }
    all_min_ = n ? *std::min_element(lo.begin(), lo.end()) : 0;
    all_max_ = n ? *std::max_element(hi.begin(), hi.end()) : 0;
    min_.push_back(std::move(lo));
    max_.push_back(std::move(hi));
    for (int64_t w = 1; 2 * w <= blocks; w *= 2) {
      const std::vector<double>& pl = min_.back();
      const std::vector<double>& ph = max_.back();
      std::vector<double> nl(static_cast<size_t>(blocks - 2 * w + 1)), nh(nl.size());
      for (size_t i = 0; i < nl.size(); ++i) {
        nl[i] = std::min(pl[i], pl[i + w]);
        nh[i] = std::max(ph[i], ph[i + w]);
      }
      min_.push_back(std::move(nl));
      max_.push_back(std::move(nh));
    }
  }
  const Buffer& buffer() const { return buffer_; }

  /// Min (`want_max` false) or max of the buffer over the box [lo[d], hi[d]] (inclusive, `n`
  /// entries each). Bounds are clamped to the buffer; a box outside it, or `n` other than the
  /// buffer's rank, gives the whole buffer's.
  double box(const double* lo, const double* hi, size_t n, bool want_max) const {
    const double whole = want_max ? all_max_ : all_min_;
    const size_t rank = buffer_.shape.size();
    if (buffer_.numel() == 0) return 0;
    if (rank == 0) return buffer_.at(0);
    if (n != rank || rank > 8) return whole;
    int64_t a[8], b[8], idx[8];
    int64_t rows = 1;
    for (size_t d = 0; d < rank; ++d) {
      const double ext = static_cast<double>(buffer_.shape[d] - 1);
      const double l = std::clamp(std::ceil(lo[d]), 0.0, ext), h = std::clamp(std::floor(hi[d]), 0.0, ext);
      if (!(l <= h)) return whole;  // empty or NaN: an index the kernel rejects anyway
      a[d] = static_cast<int64_t>(l);
      b[d] = static_cast<int64_t>(h);
      idx[d] = a[d];
      if (d + 1 < rank) rows *= b[d] - a[d] + 1;
    }
    if (rows > kMaxRows) return whole;
    double r = want_max ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    for (int64_t row = 0; row < rows; ++row) {
      int64_t base = 0;
      for (size_t d = 0; d + 1 < rank; ++d) base = base * buffer_.shape[d] + idx[d];
      base *= buffer_.shape[rank - 1];
      const double v = range(base + a[rank - 1], base + b[rank - 1], want_max);
      r = want_max ? std::max(r, v) : std::min(r, v);
      for (size_t d = rank - 1; d-- > 0;) {  // odometer over the outer dimensions
        if (++idx[d] <= b[d]) break;
        idx[d] = a[d];
      }
    }
    return r;
  }

 private:
  static constexpr int64_t kBlock = 32;
  static constexpr int64_t kMaxRows = 4096;  // box rows scanned before falling back to whole-buffer bounds

  double range(int64_t a, int64_t b, bool want_max) const {  // flat [a, b]
    double r = want_max ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    auto take = [&](double v) { r = want_max ? std::max(r, v) : std::min(r, v); };
    const int64_t ba = a / kBlock, bb = b / kBlock;
    if (bb - ba < 2) {
      for (int64_t i = a; i <= b; ++i) take(buffer_.at(i));
      return r;
    }
    for (int64_t i = a; i < (ba + 1) * kBlock; ++i) take(buffer_.at(i));
    for (int64_t i = bb * kBlock; i <= b; ++i) take(buffer_.at(i));
    // Middle blocks [ba+1, bb-1] from two overlapping power-of-two windows.
    const int64_t first = ba + 1, count = bb - 1 - first + 1;
    int level = 0;
    while ((int64_t{2} << level) <= count) ++level;
    const std::vector<double>& t =
        want_max ? max_[static_cast<size_t>(level)] : min_[static_cast<size_t>(level)];
    take(t[static_cast<size_t>(first)]);
    take(t[static_cast<size_t>(bb - 1 - (int64_t{1} << level) + 1)]);
    return r;
  }

  Buffer buffer_;
  std::vector<std::vector<double>> min_, max_;  // [level][block]
  double all_min_ = 0, all_max_ = 0;
};

/// Operations of a tile program (only ever appended: plans are stored as their numbers).
enum class OpCode : uint8_t {
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

/// Functions of OpCode::Math (in `imm`): float ones, then the i32 bit operations (shift counts
/// 0..31). Pow and the binary bit operations take two operands.
enum class MathFn : uint8_t {
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

/// One instruction; its result is the register with the instruction's index. The meaning of the
/// fields per opcode is documented at attn::TileProgram (runtime/TileProgram.h).
struct Op {
  OpCode code = OpCode::Const;
  bool is_float = false;           ///< float semantics (f32 rounding) rather than integer ones
  int32_t a = -1, b = -1, c = -1;  ///< operand registers
  double imm = 0;                  ///< Const: the value; Cast: target bits (8, 32)
};

/// A program as arrays (the runtime's vectors, or a generated kernel's constant tables).
struct Program {
  const Op* ops = nullptr;
  size_t num_ops = 0;
  const int32_t* operands = nullptr;
  const int32_t* outputs = nullptr;
  size_t num_outputs = 0;
  /// Per op, the classes of input slots it depends on (classify); needed when running one class.
  const uint8_t* op_class = nullptr;
};

/// Why a run stopped: a Load with the wrong number of indices (`value` the index count, `rank`
/// the buffer's) or an index out of range (`value` the index), or an Extent of a missing
/// dimension (`value` it).
struct RunError {
  enum class Kind : uint8_t { None, Rank, Index, Dimension };
  Kind kind = Kind::None;
  int32_t buffer = -1;
  int64_t value = 0, rank = 0;
};

/// Per op: which of the input slots marked in `input_class` (`n` slots) it depends on (bit set). A
/// loop's ops all get the union of their classes, so that a class runs whole loops or none.
inline std::vector<uint8_t> classify(const Program& p, const uint8_t* input_class, size_t n) {
  std::vector<uint8_t> cls(p.num_ops, 0);
  for (size_t i = 0; i < p.num_ops; ++i) {
    const Op& op = p.ops[i];
    uint8_t c = 0;
    auto use = [&](int32_t r) {
      if (r >= 0) c |= cls[static_cast<size_t>(r)];
    };
    switch (op.code) {
      case OpCode::Const:
      case OpCode::Extent:
      case OpCode::EndLoop: break;
      case OpCode::Input: c = op.a < static_cast<int32_t>(n) ? input_class[op.a] : 0; break;
      case OpCode::Load:
        for (int32_t k = 0; k < op.c; ++k) use(p.operands[op.b + k]);
        break;
      case OpCode::LoadMin:
      case OpCode::LoadMax:
        for (int32_t k = 0; k < 2 * op.c; ++k) use(p.operands[op.b + k]);
        break;
      case OpCode::Loop: use(op.a); break;
      case OpCode::Accum: use(op.a), use(op.b); break;
      default: use(op.a), use(op.b), use(op.c);
    }
    cls[i] = c;
    if (op.code == OpCode::EndLoop) {  // inner loops end first: the outer union wins
      uint8_t u = 0;
      for (size_t k = static_cast<size_t>(op.a); k <= i; ++k) u |= cls[k];
      for (size_t k = static_cast<size_t>(op.a); k <= i; ++k) cls[k] = u;
    }
  }
  return cls;
}

namespace detail {

inline double euclid_div(double a, double b) {
  if (b == 0) return 0;
  return b > 0 ? std::floor(a / b) : -std::floor(a / -b);
}

inline double cast_value(double v, const Op& op) {
  if (op.is_float) return static_cast<float>(v);
  // Out-of-range conversions are undefined in Halide; here they saturate instead of being UB.
  const double t = std::isnan(v) ? 0 : std::clamp(std::trunc(v), -9.2e18, 9.2e18);
  if (op.imm == 8) return static_cast<double>(static_cast<uint8_t>(static_cast<int64_t>(t)));
  if (op.imm == 1) return v != 0;
  return static_cast<double>(static_cast<int32_t>(static_cast<int64_t>(t)));
}

inline double math(MathFn f, double x, double y) {
  const float v = static_cast<float>(x);
  // Int operands are exact in a double; bit operations act on their 32 bits. An unbounded
  // operand (a bound of +-inf) has no bits: the result is NaN, which no comparison holds for.
  const bool bits_known = std::isfinite(x) && std::isfinite(y);
  auto bits = [&](double w) {
    return bits_known ? static_cast<int32_t>(static_cast<int64_t>(std::clamp(w, -9.2e18, 9.2e18))) : 0;
  };
  const int32_t i = bits(x), j = bits(y);
  if (!bits_known && f >= MathFn::BitAnd) return std::nan("");
  switch (f) {
    case MathFn::Exp: return std::exp(v);
    case MathFn::Log: return std::log(v);
    case MathFn::Sqrt: return std::sqrt(v);
    case MathFn::Tanh: return std::tanh(v);
    case MathFn::Sin: return std::sin(v);
    case MathFn::Cos: return std::cos(v);
    case MathFn::Floor: return std::floor(v);
    case MathFn::Ceil: return std::ceil(v);
    case MathFn::Round: return std::nearbyint(v);
    case MathFn::Trunc: return std::trunc(v);
    case MathFn::Pow: return std::pow(v, static_cast<float>(y));
    case MathFn::Erf: return std::erf(v);
    case MathFn::Atan: return std::atan(v);
    case MathFn::BitAnd: return i & j;
    case MathFn::BitOr: return i | j;
    case MathFn::BitXor: return i ^ j;
    case MathFn::BitNot: return ~i;
    case MathFn::ShiftLeft: return static_cast<int32_t>(static_cast<uint32_t>(i) << (j & 31));
    case MathFn::ShiftRight: return i >> (j & 31);
  }
  return 0;
}

}  // namespace detail

/// Runs, in order, the ops of `p` whose class equals `cls` (every op when `cls` is 0xff), writing
/// their results to `regs` (one per op). Returns false, with `error` filled, when a Load or Extent
/// does not fit its buffer. `ranges` holds the program's buffers, in order.
inline bool run(const Program& p, double* regs, const double* inputs, const Ranges* ranges, uint8_t cls,
                RunError& error) {
  double tmp_lo[8], tmp_hi[8];
  for (size_t i = 0; i < p.num_ops; ++i) {
    if (cls != 0xff && p.op_class[i] != cls) continue;
    const Op& op = p.ops[i];
    if (op.code == OpCode::Loop) {
      regs[i] = 0;
      for (int32_t k = static_cast<int32_t>(i) + 1; k < op.c; ++k)
        if (p.ops[k].code == OpCode::Accum && p.ops[k].c == static_cast<int32_t>(i))
          regs[k] = regs[p.ops[k].a];
      if (!(regs[op.a] > 0)) i = static_cast<size_t>(op.c);  // no iteration: past the EndLoop
      continue;
    }
    if (op.code == OpCode::EndLoop) {
      if (regs[op.a] + 1 < regs[p.ops[op.a].a]) {
        regs[op.a] += 1;
        i = static_cast<size_t>(op.a);  // the loop's first op next
      } else {
        regs[i] = 0;
      }
      continue;
    }
    if (op.code == OpCode::Accum) {
      const double acc = regs[i], v = regs[op.b];
      const OpCode f = static_cast<OpCode>(op.imm);
      const double r = f == OpCode::Add ? acc + v : f == OpCode::Min ? std::min(acc, v) : std::max(acc, v);
      regs[i] = op.is_float ? static_cast<float>(r) : r;
      continue;
    }
    const double x = op.a >= 0 ? regs[op.a] : 0, y = op.b >= 0 ? regs[op.b] : 0;
    double r = 0;
    switch (op.code) {
      case OpCode::Const: r = op.imm; break;
      case OpCode::Input: r = inputs[op.a]; break;
      case OpCode::Add: r = x + y; break;
      case OpCode::Sub: r = x - y; break;
      case OpCode::Mul: r = x * y; break;
      case OpCode::Div: r = op.is_float ? x / y : detail::euclid_div(x, y); break;
      case OpCode::Mod:
        if (op.is_float)
          r = x - y * std::floor(x / y);
        else
          r = y == 0 ? 0 : x - detail::euclid_div(x, y) * y;
        break;
      case OpCode::Min: r = std::min(x, y); break;
      case OpCode::Max: r = std::max(x, y); break;
      case OpCode::EQ: r = x == y; break;
      case OpCode::NE: r = x != y; break;
      case OpCode::LT: r = x < y; break;
      case OpCode::LE: r = x <= y; break;
      case OpCode::And: r = (x != 0) && (y != 0); break;
      case OpCode::Or: r = (x != 0) || (y != 0); break;
      case OpCode::Not: r = x == 0; break;
      case OpCode::Select: r = x != 0 ? y : regs[op.c]; break;
      case OpCode::Abs: r = std::fabs(x); break;
      case OpCode::Cast: r = detail::cast_value(x, op); break;
      case OpCode::Load: {
        const Buffer& buf = ranges[op.a].buffer();
        if (static_cast<size_t>(op.c) != buf.shape.size()) {
          error = {RunError::Kind::Rank, op.a, op.c, static_cast<int64_t>(buf.shape.size())};
          return false;
        }
        int64_t flat = 0;
        for (int32_t d = 0; d < op.c; ++d) {
          const double v = regs[p.operands[op.b + d]];
          const int64_t ext = buf.shape[static_cast<size_t>(d)];
          if (!(v >= 0 && v < static_cast<double>(ext))) {
            error = {RunError::Kind::Index, op.a, static_cast<int64_t>(v)};
            return false;
          }
          flat = flat * ext + static_cast<int64_t>(v);
        }
        r = buf.at(flat);
        break;
      }
      case OpCode::Math: r = detail::math(static_cast<MathFn>(op.imm), x, y); break;
      case OpCode::Extent: {
        const Buffer& buf = ranges[op.a].buffer();
        const size_t dim = static_cast<size_t>(op.imm);
        if (dim >= buf.shape.size()) {
          error = {RunError::Kind::Dimension, op.a, static_cast<int64_t>(dim)};
          return false;
        }
        r = static_cast<double>(buf.shape[dim]);
        break;
      }
      case OpCode::Loop:
      case OpCode::Accum:
      case OpCode::EndLoop: break;  // handled above
      case OpCode::LoadMin:
      case OpCode::LoadMax: {
        const int32_t rank = std::min<int32_t>(op.c, 8);
        for (int32_t d = 0; d < rank; ++d) {
          tmp_lo[d] = regs[p.operands[op.b + d]];
          tmp_hi[d] = regs[p.operands[op.b + op.c + d]];
        }
        r = ranges[op.a].box(tmp_lo, tmp_hi, static_cast<size_t>(rank), op.code == OpCode::LoadMax);
        break;
      }
    }
    if (op.is_float && op.code != OpCode::Load && op.code != OpCode::LoadMin && op.code != OpCode::LoadMax)
      r = static_cast<float>(r);
    regs[i] = r;
  }
  return true;
}

}  // namespace attn_tile_eval
#ifdef ATTN_TILE_EVAL_INTERNAL
}  // namespace
#endif

#endif  // ATTN_TILE_PROGRAM_EVAL_H
