// Inputs at and past attnc's limits (frontend/Limits.h): deep nesting, long chains of `let`s and
// definitions, exponential inlining, constant overflow. Each is one located diagnostic, never a
// crash, a hang or a huge allocation; what is accepted fits in a small stack.
#include <pthread.h>

#include <boost/test/unit_test.hpp>
#include <chrono>
#include <exception>
#include <functional>

#include "codegen/Lower.h"
#include "frontend/Format.h"
#include "frontend/Limits.h"
#include "frontend/Program.h"

using namespace attn;

namespace {

// Runs `f` on a thread with a `bytes` stack: what passes here has that much margin below the
// usual 8 MiB. Sanitizers grow every frame, so they get the whole 8 MiB.
void with_stack(size_t bytes, const std::function<void()>& f) {
#if defined(__SANITIZE_ADDRESS__)
  bytes = size_t{8} << 20;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  bytes = size_t{8} << 20;
#endif
#endif
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, bytes);
  // Boost.Test's REQUIRE throws: carry that back to this thread instead of terminating.
  struct Job {
    std::function<void()> f;
    std::exception_ptr failure;
  } job{f, nullptr};
  pthread_t thread;
  BOOST_REQUIRE(pthread_create(
                    &thread, &attr,
                    [](void* p) -> void* {
                      auto* j = static_cast<Job*>(p);
                      try {
                        j->f();
                      } catch (...) {
                        j->failure = std::current_exception();
                      }
                      return nullptr;
                    },
                    &job) == 0);
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
  if (job.failure) std::rethrow_exception(job.failure);
}

constexpr size_t kSmallStack = size_t{1} << 20;

std::vector<std::string> errors(const Program& p) {
  std::vector<std::string> out;
  for (const Diagnostic& d : p.diags.all())
    if (d.severity == Severity::Error) out.push_back(d.message);
  return out;
}

std::string lowering_errors(const std::string& text) {
  auto p = load_program_text("t.attn", text);
  BOOST_REQUIRE_MESSAGE(!p->diags.has_errors(), render_diagnostics(p->diags, p->sources));
  DiagnosticEngine diags;
  auto ir = lower_kernel(*p, *p->kernels().at(0), diags);
  BOOST_TEST(!ir);
  return render_diagnostics(diags, p->sources);
}

std::string doubling_chain(int n) {
  std::string s;
  for (int i = 0; i < n; ++i)
    s += "mask m" + std::to_string(i) + " = m" + std::to_string(i + 1) + " || m" + std::to_string(i + 1) +
         "(q = q + 1);\n";
  return s + "mask m" + std::to_string(n) + " = q >= kv;\nkernel k { mask = m0; }\n";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(limits)

BOOST_AUTO_TEST_CASE(a_let_chain_of_16000_bindings_is_one_diagnostic) {
  std::string text = "mask m = ";
  for (int i = 0; i < 16000; ++i)
    text += "let a" + std::to_string(i + 1) + " = a" + std::to_string(i) + ";\n";
  text = "fn f(a0: int) -> bool = " + text.substr(9) + "a16000 > 0;\n";
  with_stack(kSmallStack, [&] {
    auto p = load_program_text("t.attn", text);
    auto errs = errors(*p);
    BOOST_REQUIRE_EQUAL(errs.size(), 1u);
    BOOST_TEST(errs[0].find("expression nested too deeply") == 0u, errs[0]);
    SourceManager sm;
    DiagnosticEngine diags;
    BOOST_TEST(!format_source(sm, sm.add("t.attn", text), diags));
  });
}

BOOST_AUTO_TEST_CASE(long_operator_chains_and_brackets_are_bounded) {
  for (const char* op : {" + 1", " && true", " |> s"}) {
    std::string text = "score s = score;\nmask m = q > 0";
    for (int i = 0; i < 20000; ++i) text += op;
    auto p = load_program_text("t.attn", text + ";\n");
    auto errs = errors(*p);
    BOOST_REQUIRE_EQUAL(errs.size(), 1u);
    BOOST_TEST(errs[0].find("expression nested too deeply") == 0u, errs[0]);
  }
  std::string text = "mask m = " + std::string(3000, '(') + "q > 0" + std::string(3000, ')') + ";\n";
  BOOST_TEST(errors(*load_program_text("t.attn", text)).size() == 1u);
}

BOOST_AUTO_TEST_CASE(depth_does_not_add_up_across_declarations) {
  std::string text;
  for (int i = 0; i < 2000; ++i) {
    std::string n = std::to_string(i);
    text += "mask m" + n + "(w: int) = q - kv < w + " + n + ";\nkernel k" + n +
            "(x: tensor<f32>[n]) { mask = m" + n + "(" + n + "); score = score + x[kv]; }\n";
  }
  auto p = load_program_text("t.attn", text);
  BOOST_TEST(!p->diags.has_errors(), render_diagnostics(p->diags, p->sources));
}

BOOST_AUTO_TEST_CASE(the_deepest_accepted_expression_lowers_in_a_small_stack) {
  // Just under the bound: a chain of additions inside a few brackets and lets.
  std::string chain = "q";
  for (int i = 0; i < kMaxExpressionDepth - 20; ++i) chain += " + 1";
  std::string text = "mask m = let a = 1; let c = a; (((" + chain + "))) > kv + c;\nkernel k { mask = m; }\n";
  with_stack(kSmallStack, [&] {
    auto p = load_program_text("t.attn", text);
    BOOST_REQUIRE_MESSAGE(!p->diags.has_errors(), render_diagnostics(p->diags, p->sources));
    DiagnosticEngine diags;
    BOOST_TEST(lower_kernel(*p, *p->kernel("k"), diags));
    SourceManager sm;
    DiagnosticEngine fdiags;
    BOOST_TEST(format_source(sm, sm.add("t.attn", text), fdiags).has_value());
  });
}

BOOST_AUTO_TEST_CASE(a_chain_of_12000_definitions_is_one_diagnostic) {
  std::string text;
  for (int i = 0; i < 12000; ++i)
    text += "mask m" + std::to_string(i) + " = m" + std::to_string(i + 1) + " && q >= " + std::to_string(i) +
            ";\n";
  text += "mask m12000 = q >= kv;\nkernel k { mask = m0; }\n";
  with_stack(kSmallStack, [&] {
    auto p = load_program_text("t.attn", text);
    auto errs = errors(*p);
    BOOST_REQUIRE_EQUAL(errs.size(), 1u);
    BOOST_TEST(errs[0].find("is nested too deeply once 'm") != std::string::npos, errs[0]);
  });
}

BOOST_AUTO_TEST_CASE(the_longest_accepted_definition_chain_lowers_in_a_small_stack) {
  // Each definition nests two levels (`&&`, then the name), so this is just under the bound.
  const int n = kMaxInlineDepth / 2 - 4;
  std::string text;
  for (int i = 0; i < n; ++i)
    text += "mask m" + std::to_string(i) + " = m" + std::to_string(i + 1) + " && q >= " + std::to_string(i) +
            ";\n";
  text += "mask m" + std::to_string(n) + " = q >= kv;\nkernel k { mask = m0; }\n";
  with_stack(kSmallStack, [&] {
    auto p = load_program_text("t.attn", text);
    BOOST_REQUIRE_MESSAGE(!p->diags.has_errors(), render_diagnostics(p->diags, p->sources));
    DiagnosticEngine diags;
    BOOST_TEST(lower_kernel(*p, *p->kernel("k"), diags));
  });
}

BOOST_AUTO_TEST_CASE(exponential_inlining_stops_quickly_with_a_diagnostic) {
  for (int n : {22, 30}) {
    auto start = std::chrono::steady_clock::now();
    std::string out = lowering_errors(doubling_chain(n));
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    BOOST_TEST(
        out.find("error: kernel 'k' is too large once its definitions are inlined") != std::string::npos,
        out);
    BOOST_TEST(out.find("t.attn:" + std::to_string(n + 2) + ":12: error") != std::string::npos, out);
    BOOST_TEST(seconds < 3.0);
  }
  // A few doublings are fine.
  auto p = load_program_text("t.attn", doubling_chain(6));
  DiagnosticEngine diags;
  BOOST_TEST(lower_kernel(*p, *p->kernel("k"), diags));
}

BOOST_AUTO_TEST_CASE(overflow_of_a_bound_constant_is_located) {
  std::string out = lowering_errors("mask m(n: int) = q < n * n;\nkernel k { mask = m(65536); }\n");
  BOOST_TEST(out.find("t.attn:1:22: error: integer overflow: 65536 * 65536 is 4294967296, outside the "
                      "32-bit range") != std::string::npos,
             out);
  out = lowering_errors("mask m(n: int) = q < n // -1;\nkernel k { mask = m(0 - 2147483647 - 1); }\n");
  BOOST_TEST(out.find("error: integer overflow: -2147483648 // -1 is 2147483648") != std::string::npos, out);
}

BOOST_AUTO_TEST_SUITE_END()
