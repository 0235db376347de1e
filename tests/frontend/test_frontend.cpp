// Frontend and lowering unit tests: lexing rules, doc comments, imports, named-argument
// application, constant folding, the structural hash, and the formatter's idempotence.
#define BOOST_TEST_MODULE frontend
#include <boost/test/unit_test.hpp>
#include <sstream>

#include "codegen/KernelIR.h"
#include "codegen/Lower.h"
#include "codegen/LowerBuiltin.h"
#include "frontend/Builtins.h"
#include "frontend/Format.h"
#include "frontend/Program.h"
#include "tests/support/TestSupport.h"

using namespace attn;
namespace fs = std::filesystem;

namespace {

std::unique_ptr<Program> load(const std::string& text) { return load_program_text("t.attn", text); }

std::shared_ptr<const KernelIR> lower(const std::string& text, const std::string& kernel) {
  auto p = load(text);
  BOOST_REQUIRE_MESSAGE(!p->diags.has_errors(), render_diagnostics(p->diags, p->sources));
  DiagnosticEngine diags;
  auto ir = lower_kernel(*p, *p->kernel(kernel), diags);
  BOOST_REQUIRE(ir);
  return ir;
}

std::string str(const Halide::Expr& e) {
  std::ostringstream s;
  s << e;
  return s.str();
}

std::string format(const std::string& text) {
  SourceManager sm;
  DiagnosticEngine diags;
  FileId f = sm.add("t.attn", text);
  auto out = format_source(sm, f, diags);
  BOOST_REQUIRE_MESSAGE(out, render_diagnostics(diags, sm));
  return *out;
}

}  // namespace

BOOST_AUTO_TEST_CASE(floor_division_and_comments) {
  // After an operand `//` divides; at the start of a line or after `;` it comments.
  auto ir = lower(
      "mask m = q // 4 == kv // 4;  // same block of 4\n// a comment line\nkernel k { mask = m; }", "k");
  BOOST_TEST(str(ir->mask) == "((q/4) == (kv/4))");
}

BOOST_AUTO_TEST_CASE(python_floor_division_and_modulo) {
  // Negative divisors follow Python: -7 // 2 == -4, 7 // -2 == -4, -7 % 3 == 2, 7 % -3 == -2.
  auto ir = lower("kernel k(d: int) { mask = (q - 7) // d == kv; }", "k");
  BOOST_TEST(str(ir->mask).find("select") != std::string::npos);
  auto c = lower(
      "kernel k { mask = (0 - 7) // 2 == -4 && 7 // -2 == -4 && (0 - 7) % 3 == 2 && 7 % -3 == -2; }", "k");
  BOOST_TEST(str(c->mask) == "(uint1)1");
}

BOOST_AUTO_TEST_CASE(doc_comments_attach_to_definitions) {
  auto p = load(
      "/// First line.\n/// Second line.\nmask a = q >= kv;\n\n// Not attached (blank line).\n\nmask b2 = q "
      "< kv;\n");
  BOOST_TEST(p->main()->find("a")->doc == "First line.\nSecond line.");
  BOOST_TEST(p->main()->find("b2")->doc.empty());
}

BOOST_AUTO_TEST_CASE(named_arguments_apply_at_other_indices) {
  auto ir = lower("mask causal = q >= kv;\nkernel k { mask = causal(q = q + 8); }", "k");
  BOOST_TEST(str(ir->mask) == "((kv + -8) <= q)");
  auto packed = lower(R"(
mask causal = q >= kv;
mask packed(inner: mask, start: tensor<i32>[n]) = inner(q = q - start[q], kv = kv - start[kv]);
kernel k(start: tensor<i32>[n]) { mask = packed(causal, start); }
)",
                      "k");
  BOOST_TEST(str(packed->mask).find("start(q)") != std::string::npos);
  BOOST_TEST(str(packed->mask).find("start(kv)") != std::string::npos);
}

// q_len and kv_len are ints wherever q and kv are: masks, scores, sinks, fns, named arguments.
BOOST_AUTO_TEST_CASE(lengths_are_index_variables) {
  auto ir = lower(R"(
fn from_end(x: int) -> int = x + (kv_len - q_len);
mask late = from_end(q) >= kv;
score shift = score + float(kv_len - q_len) * 0.5;
kernel k { mask = late && late(q_len = q_len + 1); score = shift; sink = float(q_len) - 1.0; }
)",
                  "k");
  const std::string mask = str(ir->mask), score = str(ir->score), sink = str(ir->sink);
  BOOST_TEST(mask.find("q_len") != std::string::npos);
  BOOST_TEST(mask.find("kv_len") != std::string::npos);
  BOOST_TEST(mask.find("(kv + q_len) + 1)") != std::string::npos, mask);  // the named argument
  BOOST_TEST(score.find("kv_len") != std::string::npos, score);
  BOOST_TEST(sink.find("q_len") != std::string::npos, sink);
  auto std_mask = lower("import std.masks;\nkernel k { mask = causal_from_end; }", "k");
  BOOST_TEST(str(std_mask->mask) == "((kv + q_len) <= (kv_len + q))", str(std_mask->mask));
}

BOOST_AUTO_TEST_CASE(inline_mask_arguments_are_evaluated_where_applied) {
  auto ir = lower(R"(
mask shifted(inner: mask) = inner(q = q - 4);
kernel k { mask = shifted(q >= kv); }
)",
                  "k");
  BOOST_TEST(str(ir->mask) == "((kv + 4) <= q)");
}

BOOST_AUTO_TEST_CASE(score_pipes_apply_left_to_right) {
  auto ir = lower(
      "score plus(x: float) = score + x;\nscore times(x: float) = score * x;\n"
      "kernel k { score = plus(1.0) |> times(3.0); }",
      "k");
  BOOST_TEST(str(ir->score) == "(((float32)score*3.000000f) + 3.000000f)");
}

BOOST_AUTO_TEST_CASE(constants_fold) {
  auto ir = lower("mask w(window: int) = q - kv < window * 2 + 1;\nkernel k { mask = w(3); }", "k");
  BOOST_TEST(str(ir->mask) == "(q < (kv + 7))");
}

BOOST_AUTO_TEST_CASE(hash_ignores_names_and_sees_meaning) {
  auto a = lower("kernel first(doc: tensor<i32>[n]) { mask = doc[q] == doc[kv]; }", "first");
  auto b = lower("kernel second(tokens: tensor<i32>[m]) { mask = tokens[q] == tokens[kv]; }", "second");
  auto c = lower("kernel third(doc: tensor<i32>[n]) { mask = doc[q] != doc[kv]; }", "third");
  auto d = lower("kernel k { score = score * 0.1; }", "k");
  auto e = lower("kernel k { score = score * 0.10000001; }", "k");
  auto f = lower("kernel k { score = score * 0.1; dtype = bf16; }", "k");
  BOOST_TEST(kernel_hash(*a) == kernel_hash(*b));
  BOOST_TEST(kernel_hash(*a) != kernel_hash(*c));
  BOOST_TEST(kernel_hash(*d) != kernel_hash(*e));
  BOOST_TEST(kernel_hash(*d) != kernel_hash(*f));
}

BOOST_AUTO_TEST_CASE(relative_imports) {
  test::TempDir dir;
  test::write_file(dir.path() / "lib.attn", "mask near = q - kv < 4 && q >= kv;\n");
  test::write_file(dir.path() / "main.attn", "import \"lib.attn\";\nkernel k { mask = near; }\n");
  auto p = load_program((dir.path() / "main.attn").string());
  BOOST_TEST(!p->diags.has_errors(), render_diagnostics(p->diags, p->sources));
}

BOOST_AUTO_TEST_CASE(formatter_normalizes_and_keeps_comments) {
  std::string in =
      "import std.masks;// all\n\n\n\nmask  w( n :int )=causal&&q-kv<n ;/* why */\n"
      "kernel k{\nmask=w(4);   // four\nblock=[64,32];\nscale = -0.5;\n}\n";
  std::string out = format(in);
  BOOST_TEST(out ==
             "import std.masks;  // all\n\nmask w(n: int) = causal && q - kv < n;  /* why */\n"
             "kernel k {\n  mask = w(4);  // four\n  block = [64, 32];\n  scale = -0.5;\n}\n");
  BOOST_TEST(format(out) == out);
}

BOOST_AUTO_TEST_CASE(formatter_is_idempotent_on_every_attn_file) {
  std::vector<fs::path> files;
  for (const char* dir : {"stdlib", "samples", "tests/golden"})
    for (const auto& f : test::files_under(test::source_dir() / dir, ".attn")) files.push_back(f);
  // Fuzzer-found inputs too: whatever parses must format stably.
  for (const auto& f : test::files_under(test::source_dir() / "tests/fuzz/corpus", "")) files.push_back(f);
  for (const auto& f : test::files_under(test::source_dir() / "tests/errors/cases", ".attn"))
    files.push_back(f);
  BOOST_TEST(files.size() > 40u);
  for (const fs::path& f : files) {
    SourceManager sm;
    DiagnosticEngine diags;
    auto once = format_source(sm, sm.add(f.string(), test::read_file(f)), diags);
    if (!once) continue;  // files with syntax errors are not formatted
    BOOST_TEST(format(*once) == *once, f << " is not stable under formatting");
  }
}

BOOST_AUTO_TEST_CASE(stdlib_files_are_formatted) {
  for (const auto& f : test::files_under(test::source_dir() / "stdlib", ".attn")) {
    std::string text = test::read_file(f);
    BOOST_TEST(format(text) == text, f << " is not formatted (run attnc fmt -i)");
  }
}

BOOST_AUTO_TEST_CASE(conversion_builtins_share_their_names_with_types) {
  auto ir = lower("fn half(x: int) -> int = int(float(x) * 0.5);\nkernel k { mask = half(q) >= kv; }", "k");
  BOOST_TEST(str(ir->mask).find("int32") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(bit_operators_have_python_precedence) {
  // Shifts are looser than + -, then &, ^, |, all tighter than comparisons: each side below is
  // the fully parenthesized reading of the other, and the constants fold to true.
  auto ir = lower(
      "kernel k { mask = (1 << 2 + 1 == 1 << (2 + 1)) && (6 & 3 ^ 5 | 8 == ((6 & 3) ^ 5) | 8) &&"
      " (~0 == -1) && (-16 >> 2 == -4) && (1 << 31 == 0x8000_0000) && (0xFFFFFFFF == -1) &&"
      " (0x7fff_ffff == 2147483647) && (5 ^ 3 == 6); }",
      "k");
  BOOST_TEST(str(ir->mask) == "(uint1)1");
}

BOOST_AUTO_TEST_CASE(bit_operators_lower_to_halide_bit_intrinsics) {
  auto ir = lower("kernel k(n: int) { mask = (q & 0x55 | kv ^ ~q) >= (kv << 2) && q >> n < kv; }", "k");
  for (const char* op : {"bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not"})
    BOOST_TEST(str(ir->mask).find(op) != std::string::npos, op);
  // A run-time shift count is taken modulo 32, the rule of every target (Halide's simplifier
  // writes `n & 31` as the equal Euclidean `n % 32`).
  BOOST_TEST(str(ir->mask).find("shift_right(q, n % 32)") != std::string::npos, str(ir->mask));
}

BOOST_AUTO_TEST_CASE(shift_count_bound_through_a_parameter_is_checked) {
  auto p = load("fn sh(x: int, n: int) -> int = x << n;\nkernel k { mask = sh(q, 33) > kv; }");
  BOOST_REQUIRE(!p->diags.has_errors());
  DiagnosticEngine diags;
  BOOST_TEST(!lower_kernel(*p, *p->kernel("k"), diags));
  BOOST_TEST(render_diagnostics(diags, p->sources).find("shift count 33 is out of range 0..31") !=
             std::string::npos);
}

BOOST_AUTO_TEST_CASE(kernels_and_definitions_are_separate_namespaces) {
  // The kernel `natten` uses std.masks.natten; a local kernel and mask may share a name too.
  auto ir = lower("import std.masks;\nkernel natten { mask = natten(8, 3, 3, 8); }", "natten");
  BOOST_TEST(str(ir->mask).find("q") != std::string::npos);
  auto local = lower("mask w = q - kv < 4;\nkernel w { mask = w; }", "w");
  BOOST_TEST(str(local->mask) == "(q < (kv + 4))");
  auto twice = load("kernel a { mask = q >= kv; }\nkernel a { mask = q >= kv; }");
  BOOST_TEST(twice->diags.has_errors());
}

BOOST_AUTO_TEST_CASE(elementwise_builtins_lower) {
  auto ir = lower(
      "kernel k { score = erf(score) + pow(score, 0.3) + atan(score) + trunc(score) + sign(score); }", "k");
  for (const char* f : {"erf_f32", "pow_f32", "atan_f32", "trunc_f32"})
    BOOST_TEST(str(ir->score).find(f) != std::string::npos, f);
  auto i = lower("kernel k { mask = sign(q - kv) >= 0; }", "k");
  BOOST_TEST(str(i->mask).find("float") == std::string::npos, str(i->mask));
}

BOOST_AUTO_TEST_CASE(builtin_and_option_tables_are_whole) {
  // Each table lists its enum in order (builtin_info throws otherwise), and every builtin lowers
  // to the type the table gives Sema: on ints, a Float builtin is float, the others int.
  BOOST_TEST(builtin_functions().size() == static_cast<size_t>(BuiltinFn::Int) + 1);
  for (const BuiltinInfo& b : builtin_functions()) {
    BOOST_TEST(builtin_info(b.fn).name == b.name);
    BOOST_TEST(find_builtin(b.name) == &b);
    std::vector<Halide::Expr> ints(static_cast<size_t>(b.min_args), Halide::Var("q"));
    const Halide::Expr e = lower_builtin(b.fn, ints);
    BOOST_TEST(e.type().is_float() == (b.result == BuiltinResult::Float), b.name << ": " << str(e));
    std::vector<Halide::Expr> floats(static_cast<size_t>(b.min_args), Halide::Expr(0.5f));
    BOOST_TEST(lower_builtin(b.fn, floats).type().is_float() == (b.result != BuiltinResult::Int), b.name);
  }
  BOOST_TEST(kernel_options().size() == static_cast<size_t>(KernelOption::ReturnMax) + 1);
  for (size_t i = 0; i < kernel_options().size(); ++i) {
    BOOST_TEST(static_cast<size_t>(kernel_options()[i].option) == i);
    BOOST_TEST(find_kernel_option(kernel_options()[i].key) == &kernel_options()[i]);
  }
  BOOST_TEST(!find_kernel_option("casual"));
}

BOOST_AUTO_TEST_CASE(formatter_spaces_bit_operators) {
  BOOST_TEST(format("mask m = ~q&0xF_F==kv>>1|kv<<2^3;\n") ==
             "mask m = ~q & 0xF_F == kv >> 1 | kv << 2 ^ 3;\n");
  BOOST_TEST(format("mask m = (~ q) == - kv;\n") == "mask m = (~q) == -kv;\n");
}

BOOST_AUTO_TEST_CASE(reductions_stay_reductions_in_the_ir) {
  // A dimension name in a bound is the buffer's run-time extent; the body keeps its variable.
  auto ir = lower(R"(
mask picked(topk: tensor<i32>[tiles, top_k]) = any(j < top_k: topk[q // 4, j] == kv // 4);
kernel k(sel: tensor<i32>[t, k]) { mask = picked(sel); }
)",
                  "k");
  BOOST_TEST(str(ir->mask) == "(uint1)attn_reduce_any(attn_r0, sel.extent.1, sel(q/4, attn_r0) == (kv/4))");
  // Nested reductions over a kernel scalar: one variable each.
  auto n = lower("kernel k(n: int) { score = score + float(sum(i < n: max(j < 4: i * j))); }", "k");
  BOOST_TEST(
      str(n->score).find("attn_reduce_sum(attn_r0, n, attn_reduce_max(attn_r1, 4, attn_r0*attn_r1))") !=
          std::string::npos,
      str(n->score));
  // The same kernel with another buffer name hashes the same; another bound does not.
  auto a = lower("kernel k(t: tensor<f32>[n, r]) { score = sum(d < r: t[q, d]); }", "k");
  auto b = lower("kernel k(u: tensor<f32>[m, s]) { score = sum(d < s: u[q, d]); }", "k");
  auto c = lower("kernel k(t: tensor<f32>[n, r]) { score = sum(d < n: t[q, d]); }", "k");
  BOOST_TEST(kernel_hash(*a) == kernel_hash(*b));
  BOOST_TEST(kernel_hash(*a) != kernel_hash(*c));
}

BOOST_AUTO_TEST_CASE(functions_return_several_values) {
  auto ir = lower(R"(
fn xy(p: int, w: int) -> (int, float) = let r = p // w; (p % w, r);
kernel k { mask = let (x, y) = xy(q, 8); x == kv % 8 && y < 2.5; }
)",
                  "k");
  BOOST_TEST(str(ir->mask) == "((float32((q/8)) < 2.500000f) && ((q % 8) == (kv % 8)))");
  auto p = load("fn xy(p: int) -> (int, int) = (p, p);\nmask m = let (a, b, c) = xy(q); a == b;\n");
  BOOST_TEST(p->diags.has_errors());
}

BOOST_AUTO_TEST_CASE(formatter_keeps_reductions_and_tuples) {
  std::string in =
      "fn xy(p:int)->(int,int)=(p%4,p//4);\nmask m(t: tensor<i32>[n, k]) = any( j<k :t[q,j]==kv )&&"
      "let (a,b)=xy(q);a==b;\n";
  std::string out = format(in);
  BOOST_TEST(out ==
             "fn xy(p: int) -> (int, int) = (p % 4, p // 4);\n"
             "mask m(t: tensor<i32>[n, k]) = any(j < k: t[q, j] == kv) && let (a, b) = xy(q); a == b;\n");
  BOOST_TEST(format(out) == out);
}
