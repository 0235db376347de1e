// The tile-program interpreter and range min/max over host buffers.
#include "runtime/TileProgram.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace attn {

int64_t TileBuffer::numel() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

double TileBuffer::at(int64_t i) const {
  switch (elem) {
    case Elem::I32: return static_cast<const int32_t*>(data)[i];
    case Elem::F32: return static_cast<const float*>(data)[i];
    case Elem::U8: return static_cast<const uint8_t*>(data)[i];
  }
  return 0;
}

namespace {
constexpr int64_t kBlock = 32;
constexpr int64_t kMaxRows = 4096;  // box rows scanned before falling back to whole-buffer bounds
}  // namespace

BufferRanges::BufferRanges(const TileBuffer& buffer) : buffer_(buffer) {
  const int64_t n = buffer_.numel();
  const int64_t blocks = (n + kBlock - 1) / kBlock;
  std::vector<double> lo(blocks, std::numeric_limits<double>::infinity());
  std::vector<double> hi(blocks, -std::numeric_limits<double>::infinity());
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
    const auto& pl = min_.back();
    const auto& ph = max_.back();
    std::vector<double> nl(blocks - 2 * w + 1), nh(blocks - 2 * w + 1);
    for (size_t i = 0; i < nl.size(); ++i) {
      nl[i] = std::min(pl[i], pl[i + w]);
      nh[i] = std::max(ph[i], ph[i + w]);
    }
    min_.push_back(std::move(nl));
    max_.push_back(std::move(nh));
  }
}

double BufferRanges::range(int64_t a, int64_t b, bool want_max) const {
  double r = want_max ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
  auto take = [&](double v) { r = want_max ? std::max(r, v) : std::min(r, v); };
  int64_t ba = a / kBlock, bb = b / kBlock;
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
  const auto& t = want_max ? max_[level] : min_[level];
  take(t[first]);
  take(t[bb - 1 - (int64_t{1} << level) + 1]);
  return r;
}

double BufferRanges::box(const double* lo, const double* hi, size_t n, bool want_max) const {
  const double whole = want_max ? all_max_ : all_min_;
  const size_t rank = buffer_.shape.size();
  if (buffer_.numel() == 0) return 0;
  if (rank == 0) return buffer_.at(0);
  if (n != rank) return whole;
  std::vector<int64_t> a(rank), b(rank);
  int64_t rows = 1;
  for (size_t d = 0; d < rank; ++d) {
    const double ext = static_cast<double>(buffer_.shape[d] - 1);
    const double l = std::clamp(std::ceil(lo[d]), 0.0, ext), h = std::clamp(std::floor(hi[d]), 0.0, ext);
    if (!(l <= h)) return whole;  // empty or NaN: an index the kernel rejects anyway
    a[d] = static_cast<int64_t>(l);
    b[d] = static_cast<int64_t>(h);
    if (d + 1 < rank) rows *= b[d] - a[d] + 1;
  }
  if (rows > kMaxRows) return whole;
  double r = want_max ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
  std::vector<int64_t> idx(a.begin(), a.end() - 1);
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

namespace {

double euclid_div(double a, double b) {
  if (b == 0) return 0;
  return b > 0 ? std::floor(a / b) : -std::floor(a / -b);
}

double cast_value(double v, const TileOp& op) {
  if (op.is_float) return static_cast<float>(v);
  // Out-of-range conversions are undefined in Halide; here they saturate instead of being UB.
  const double t = std::isnan(v) ? 0 : std::clamp(std::trunc(v), -9.2e18, 9.2e18);
  if (op.imm == 8) return static_cast<double>(static_cast<uint8_t>(static_cast<int64_t>(t)));
  if (op.imm == 1) return v != 0;
  return static_cast<double>(static_cast<int32_t>(static_cast<int64_t>(t)));
}

double math(TileMath f, double x, double y) {
  const float v = static_cast<float>(x);
  // Int operands are exact in a double; bit operations act on their 32 bits. An unbounded
  // operand (a bound of +-inf) has no bits: the result is NaN, which no comparison holds for.
  const bool bits_known = std::isfinite(x) && std::isfinite(y);
  auto bits = [&](double v) {
    return bits_known ? static_cast<int32_t>(static_cast<int64_t>(std::clamp(v, -9.2e18, 9.2e18))) : 0;
  };
  const int32_t i = bits(x), j = bits(y);
  if (!bits_known && f >= TileMath::BitAnd) return std::nan("");
  switch (f) {
    case TileMath::Exp: return std::exp(v);
    case TileMath::Log: return std::log(v);
    case TileMath::Sqrt: return std::sqrt(v);
    case TileMath::Tanh: return std::tanh(v);
    case TileMath::Sin: return std::sin(v);
    case TileMath::Cos: return std::cos(v);
    case TileMath::Floor: return std::floor(v);
    case TileMath::Ceil: return std::ceil(v);
    case TileMath::Round: return std::nearbyint(v);
    case TileMath::Trunc: return std::trunc(v);
    case TileMath::Pow: return std::pow(v, static_cast<float>(y));
    case TileMath::Erf: return std::erf(v);
    case TileMath::Atan: return std::atan(v);
    case TileMath::BitAnd: return i & j;
    case TileMath::BitOr: return i | j;
    case TileMath::BitXor: return i ^ j;
    case TileMath::BitNot: return ~i;
    case TileMath::ShiftLeft: return static_cast<int32_t>(static_cast<uint32_t>(i) << (j & 31));
    case TileMath::ShiftRight: return i >> (j & 31);
  }
  return 0;
}

}  // namespace

void TileProgram::classify(const std::vector<uint8_t>& input_class) {
  op_class.assign(ops.size(), 0);
  for (size_t i = 0; i < ops.size(); ++i) {
    const TileOp& op = ops[i];
    uint8_t c = 0;
    auto use = [&](int32_t r) {
      if (r >= 0) c |= op_class[r];
    };
    switch (op.code) {
      case TileOpCode::Const: break;
      case TileOpCode::Input:
        c = op.a < static_cast<int32_t>(input_class.size()) ? input_class[op.a] : 0;
        break;
      case TileOpCode::Load:
        for (int32_t k = 0; k < op.c; ++k) use(operands[op.b + k]);
        break;
      case TileOpCode::LoadMin:
      case TileOpCode::LoadMax:
        for (int32_t k = 0; k < 2 * op.c; ++k) use(operands[op.b + k]);
        break;
      case TileOpCode::Extent: break;
      case TileOpCode::Loop: use(op.a); break;
      case TileOpCode::Accum: use(op.a), use(op.b); break;
      case TileOpCode::EndLoop: break;
      default: use(op.a), use(op.b), use(op.c);
    }
    op_class[i] = c;
    if (op.code == TileOpCode::EndLoop) {  // inner loops end first: the outer union wins
      uint8_t u = 0;
      for (size_t k = static_cast<size_t>(op.a); k <= i; ++k) u |= op_class[k];
      for (size_t k = static_cast<size_t>(op.a); k <= i; ++k) op_class[k] = u;
    }
  }
}

void TileProgram::run(double* regs, const double* inputs, const std::vector<BufferRanges>* ranges,
                      uint8_t cls) const {
  double tmp_lo[8], tmp_hi[8];
  for (size_t i = 0; i < ops.size(); ++i) {
    if (cls != 0xff && op_class[i] != cls) continue;
    const TileOp& op = ops[i];
    if (op.code == TileOpCode::Loop) {
      regs[i] = 0;
      for (int32_t k = static_cast<int32_t>(i) + 1; k < op.c; ++k)
        if (ops[k].code == TileOpCode::Accum && ops[k].c == static_cast<int32_t>(i)) regs[k] = regs[ops[k].a];
      if (!(regs[op.a] > 0)) i = static_cast<size_t>(op.c);  // no iteration: past the EndLoop
      continue;
    }
    if (op.code == TileOpCode::EndLoop) {
      if (regs[op.a] + 1 < regs[ops[op.a].a]) {
        regs[op.a] += 1;
        i = static_cast<size_t>(op.a);  // the loop's first op next
      } else {
        regs[i] = 0;
      }
      continue;
    }
    if (op.code == TileOpCode::Accum) {
      const double acc = regs[i], v = regs[op.b];
      double r = static_cast<TileOpCode>(op.imm) == TileOpCode::Add   ? acc + v
                 : static_cast<TileOpCode>(op.imm) == TileOpCode::Min ? std::min(acc, v)
                                                                      : std::max(acc, v);
      regs[i] = op.is_float ? static_cast<float>(r) : r;
      continue;
    }
    const double x = op.a >= 0 ? regs[op.a] : 0, y = op.b >= 0 ? regs[op.b] : 0;
    double r = 0;
    switch (op.code) {
      case TileOpCode::Const: r = op.imm; break;
      case TileOpCode::Input: r = inputs[op.a]; break;
      case TileOpCode::Add: r = x + y; break;
      case TileOpCode::Sub: r = x - y; break;
      case TileOpCode::Mul: r = x * y; break;
      case TileOpCode::Div: r = op.is_float ? x / y : euclid_div(x, y); break;
      case TileOpCode::Mod:
        if (op.is_float)
          r = x - y * std::floor(x / y);
        else
          r = y == 0 ? 0 : x - euclid_div(x, y) * y;
        break;
      case TileOpCode::Min: r = std::min(x, y); break;
      case TileOpCode::Max: r = std::max(x, y); break;
      case TileOpCode::EQ: r = x == y; break;
      case TileOpCode::NE: r = x != y; break;
      case TileOpCode::LT: r = x < y; break;
      case TileOpCode::LE: r = x <= y; break;
      case TileOpCode::And: r = (x != 0) && (y != 0); break;
      case TileOpCode::Or: r = (x != 0) || (y != 0); break;
      case TileOpCode::Not: r = x == 0; break;
      case TileOpCode::Select: r = x != 0 ? y : regs[op.c]; break;
      case TileOpCode::Abs: r = std::fabs(x); break;
      case TileOpCode::Cast: r = cast_value(x, op); break;
      case TileOpCode::Load: {
        const TileBuffer& buf = (*ranges)[op.a].buffer();
        if (static_cast<size_t>(op.c) != buf.shape.size())
          throw std::out_of_range(
              "buffer '" + (op.a < static_cast<int32_t>(buffers.size()) ? buffers[op.a] : std::string("?")) +
              "' has rank " + std::to_string(buf.shape.size()) + ", the mask indexes it with " +
              std::to_string(op.c) + " indices");
        int64_t flat = 0;
        for (int32_t d = 0; d < op.c; ++d) {
          const double v = regs[operands[op.b + d]];
          const int64_t ext = d < static_cast<int32_t>(buf.shape.size()) ? buf.shape[d] : 1;
          if (!(v >= 0 && v < static_cast<double>(ext)))
            throw std::out_of_range(
                "index " + std::to_string(static_cast<int64_t>(v)) + " out of range of buffer '" +
                (op.a < static_cast<int32_t>(buffers.size()) ? buffers[op.a] : std::string("?")) + "'");
          flat = flat * ext + static_cast<int64_t>(v);
        }
        r = buf.at(flat);
        break;
      }
      case TileOpCode::Math: r = math(static_cast<TileMath>(op.imm), x, y); break;
      case TileOpCode::Extent: {
        const TileBuffer& buf = (*ranges)[op.a].buffer();
        const size_t dim = static_cast<size_t>(op.imm);
        if (dim >= buf.shape.size())
          throw std::out_of_range(
              "buffer '" + (op.a < static_cast<int32_t>(buffers.size()) ? buffers[op.a] : std::string("?")) +
              "' has no dimension " + std::to_string(dim));
        r = static_cast<double>(buf.shape[dim]);
        break;
      }
      case TileOpCode::Loop:
      case TileOpCode::Accum:
      case TileOpCode::EndLoop: break;  // handled above
      case TileOpCode::LoadMin:
      case TileOpCode::LoadMax: {
        const int32_t rank = std::min<int32_t>(op.c, 8);
        for (int32_t d = 0; d < rank; ++d) {
          tmp_lo[d] = regs[operands[op.b + d]];
          tmp_hi[d] = regs[operands[op.b + op.c + d]];
        }
        r = (*ranges)[op.a].box(tmp_lo, tmp_hi, static_cast<size_t>(rank), op.code == TileOpCode::LoadMax);
        break;
      }
    }
    if (op.is_float && op.code != TileOpCode::Load && op.code != TileOpCode::LoadMin &&
        op.code != TileOpCode::LoadMax)
      r = static_cast<float>(r);
    regs[i] = r;
  }
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
