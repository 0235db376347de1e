// TilePlanProgram <-> text (see TilePlanText.h).
#include "runtime/TilePlanText.h"

#include <cstdio>
#include <sstream>
#include <stdexcept>

namespace attn {

namespace {

std::string number(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

void write_names(std::ostringstream& os, const char* key, const std::vector<std::string>& names) {
  os << key << ' ' << names.size();
  for (const std::string& n : names) os << ' ' << n;
  os << '\n';
}

void write_program(std::ostringstream& os, const char* name, const TileProgram& p) {
  os << "program " << name << '\n';
  write_names(os, "inputs", p.inputs);
  write_names(os, "buffers", p.buffers);
  os << "ops " << p.ops.size() << '\n';
  for (const TileOp& op : p.ops)
    os << static_cast<int>(op.code) << ' ' << op.is_float << ' ' << op.a << ' ' << op.b << ' ' << op.c << ' '
       << number(op.imm) << '\n';
  os << "operands " << p.operands.size();
  for (int32_t r : p.operands) os << ' ' << r;
  os << "\noutputs " << p.outputs.size();
  for (int32_t r : p.outputs) os << ' ' << r;
  os << '\n';
}

class Reader {
 public:
  explicit Reader(std::string_view text) : is_(std::string(text)) {}

  void expect(const std::string& word) {
    std::string w;
    if (!(is_ >> w) || w != word) fail("expected '" + word + "'");
  }
  template <class T>
  T get() {
    T v{};
    if (!(is_ >> v)) fail("expected a value");
    return v;
  }
  double get_double() {
    std::string w = get<std::string>();
    char* end = nullptr;
    const double v = std::strtod(w.c_str(), &end);
    if (*end) fail("bad number '" + w + "'");
    return v;
  }
  std::vector<std::string> names(const std::string& key) {
    expect(key);
    const size_t n = count();
    std::vector<std::string> v(n);
    for (auto& s : v) s = get<std::string>();
    return v;
  }
  size_t count() {
    const int64_t n = get<int64_t>();
    if (n < 0 || n > (int64_t{1} << 24)) fail("bad count");
    return static_cast<size_t>(n);
  }
  std::string line() {
    is_.get();  // the separating space
    std::string s;
    std::getline(is_, s);
    return s;
  }
  TileProgram program(const std::string& name) {
    expect("program");
    expect(name);
    TileProgram p;
    p.inputs = names("inputs");
    p.buffers = names("buffers");
    expect("ops");
    p.ops.resize(count());
    for (size_t i = 0; i < p.ops.size(); ++i) {
      TileOp& op = p.ops[i];
      const int code = get<int>();
      // Opcodes are only ever appended: an older runtime rejects a newer plan here.
      if (code < 0 || code > static_cast<int>(TileOpCode::EndLoop)) fail("bad opcode");
      op.code = static_cast<TileOpCode>(code);
      op.is_float = get<int>() != 0;
      op.a = get<int32_t>();
      op.b = get<int32_t>();
      op.c = get<int32_t>();
      op.imm = get_double();
    }
    expect("operands");
    p.operands.resize(count());
    for (int32_t& r : p.operands) r = get<int32_t>();
    expect("outputs");
    p.outputs.resize(count());
    for (int32_t& r : p.outputs) r = get<int32_t>();
    check(p);
    return p;
  }

 private:
  // Every register an op reads is an earlier op; slots and buffers exist; loops nest, each Accum
  // in its innermost loop with a start value from before it.
  void check(const TileProgram& p) {
    auto reg = [&](int32_t r, size_t i) {
      if (r < 0 || static_cast<size_t>(r) >= i) fail("operand out of order");
    };
    std::vector<int32_t> loops;
    for (size_t i = 0; i < p.ops.size(); ++i) {
      const TileOp& op = p.ops[i];
      switch (op.code) {
        case TileOpCode::Extent:
          if (op.a < 0 || static_cast<size_t>(op.a) >= p.buffers.size()) fail("bad buffer");
          if (!(op.imm >= 0 && op.imm < 8) || op.imm != static_cast<int>(op.imm)) fail("bad dimension");
          break;
        case TileOpCode::Loop:
          reg(op.a, i);
          if (op.c <= static_cast<int32_t>(i) || static_cast<size_t>(op.c) >= p.ops.size() ||
              p.ops[op.c].code != TileOpCode::EndLoop || p.ops[op.c].a != static_cast<int32_t>(i))
            fail("bad loop");
          loops.push_back(static_cast<int32_t>(i));
          break;
        case TileOpCode::Accum: {
          const auto f = static_cast<TileOpCode>(op.imm);
          if (loops.empty() || op.c != loops.back() ||
              (f != TileOpCode::Add && f != TileOpCode::Min && f != TileOpCode::Max) ||
              op.imm != static_cast<int>(op.imm))
            fail("bad accumulator");
          reg(op.a, static_cast<size_t>(op.c));
          reg(op.b, i);
          break;
        }
        case TileOpCode::EndLoop:
          if (loops.empty() || op.a != loops.back()) fail("bad loop end");
          loops.pop_back();
          break;
        case TileOpCode::Const: break;
        case TileOpCode::Input:
          if (op.a < 0 || static_cast<size_t>(op.a) >= p.inputs.size()) fail("bad input slot");
          break;
        case TileOpCode::Load:
        case TileOpCode::LoadMin:
        case TileOpCode::LoadMax: {
          if (op.a < 0 || static_cast<size_t>(op.a) >= p.buffers.size()) fail("bad buffer");
          const int32_t n = op.code == TileOpCode::Load ? op.c : 2 * op.c;
          if (op.c < 0 || op.c > 8 || op.b < 0 || static_cast<size_t>(op.b) + n > p.operands.size())
            fail("bad operands");
          for (int32_t k = 0; k < n; ++k) reg(p.operands[op.b + k], i);
          break;
        }
        case TileOpCode::Not:
        case TileOpCode::Abs:
        case TileOpCode::Cast: reg(op.a, i); break;
        case TileOpCode::Math:
          reg(op.a, i);
          if (op.imm < 0 || op.imm > static_cast<double>(TileMath::ShiftRight)) fail("bad math function");
          if (op.b >= 0) reg(op.b, i);
          break;
        case TileOpCode::Select: reg(op.a, i), reg(op.b, i), reg(op.c, i); break;
        default: reg(op.a, i), reg(op.b, i);
      }
    }
    if (!loops.empty()) fail("unterminated loop");
    for (int32_t r : p.outputs) reg(r, p.ops.size());
  }
  [[noreturn]] void fail(const std::string& what) { throw std::invalid_argument("tile plan text: " + what); }
  std::istringstream is_;
};

}  // namespace

std::string write_tile_plan_program(const TilePlanProgram& plan) {
  std::ostringstream os;
  os << "attn-tile-plan " << kTilePlanTextVersion << '\n';
  os << "block " << plan.block_q << ' ' << plan.block_kv << '\n';
  os << "index_only " << plan.index_only << "\nranges_exact " << plan.ranges_exact << '\n';
  write_names(os, "scalars", plan.scalars);
  write_names(os, "buffers", plan.buffers);
  std::string error = plan.element_error;
  for (char& c : error)
    if (c == '\n' || c == '\r') c = ' ';
  os << "element_error " << error.size() << ' ' << error << '\n';
  write_program(os, "tile", plan.tile);
  write_program(os, "ranges", plan.ranges);
  if (plan.element_error.empty()) write_program(os, "element", plan.element);
  return os.str();
}

TilePlanProgram read_tile_plan_program(std::string_view text) {
  Reader r(text);
  TilePlanProgram p;
  r.expect("attn-tile-plan");
  const int version = r.get<int>();
  if (version == 1)
    throw std::invalid_argument(
        "tile plan text: version 1, an older attnc's (its programs do not take q_len and kv_len); "
        "regenerate the source with this attnc's `attnc compile`");
  if (version != kTilePlanTextVersion) throw std::invalid_argument("tile plan text: unknown version");
  r.expect("block");
  p.block_q = r.get<int>();
  p.block_kv = r.get<int>();
  if (p.block_q <= 0 || p.block_kv <= 0) throw std::invalid_argument("tile plan text: bad block");
  r.expect("index_only");
  p.index_only = r.get<int>() != 0;
  r.expect("ranges_exact");
  p.ranges_exact = r.get<int>() != 0;
  p.scalars = r.names("scalars");
  p.buffers = r.names("buffers");
  r.expect("element_error");
  if (r.count() > 0) p.element_error = r.line();
  p.tile = r.program("tile");
  p.ranges = r.program("ranges");
  if (p.element_error.empty()) p.element = r.program("element");
  const size_t ns = p.scalars.size(), nb = p.buffers.size();
  if (p.tile.inputs.size() != 10 + ns || p.ranges.inputs.size() != 7 + ns ||
      (p.element_error.empty() && p.element.inputs.size() != 6 + ns) || p.tile.buffers.size() != nb ||
      p.ranges.buffers.size() != nb || (p.element_error.empty() && p.element.buffers.size() != nb))
    throw std::invalid_argument("tile plan text: programs do not match the plan's arguments");
  if (p.tile.outputs.size() != 2 || p.ranges.outputs.size() != 4 ||
      (p.element_error.empty() && p.element.outputs.size() != 1))
    throw std::invalid_argument("tile plan text: wrong number of outputs");
  return p;
}

}  // namespace attn
