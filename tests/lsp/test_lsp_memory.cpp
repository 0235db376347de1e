// The language server's memory per byte of document: the live heap that one analysis holds.
#include <boost/test/unit_test.hpp>
#include <string>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "lsp/Documents.h"

using namespace attn::lsp;

namespace {

// A document like bench/lsp/didchange_latency.py's: masks, score modifiers, fns and kernels
// (with doc comments and an import), `groups` of each, about 190 bytes a group.
[[maybe_unused]] std::string generated_document(int groups) {  // unused where skipped
  std::string s = "import std.masks;\n\n";
  for (int g = 0; g < groups; ++g) {
    std::string i = std::to_string(g);
    s += "/// Window mask " + i + ".\nmask m" + i + "(window: int) = q >= kv && q - kv < window + " + i +
         ";\n";
    s += "/// Soft cap " + i + ".\nscore s" + i + "(cap: float) = cap * tanh(score / cap) + " + i +
         ".0 * 0.001;\n";
    s += "fn g" + i + "(x: int) -> int = let y = x // 2, z = x % 3; y + z + " + i + ";\n";
    s += "kernel k" + i + "(slopes: tensor<f32>[heads]) {\n  mask = m" + i + "(g" + i + "(64)) || causal;\n";
    s += "  score = s" + i + "(30.0) |> s" + i + "(50.0);\n  dtype = bf16;\n}\n";
  }
  return s;
}

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ATTNC_OTHER_ALLOCATOR 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define ATTNC_OTHER_ALLOCATOR 1
#endif
// glibc's counters; not under AddressSanitizer, whose allocator glibc's counters do not see.
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33)) && \
    !defined(ATTNC_OTHER_ALLOCATOR)
// Bytes the program holds from the allocator (small blocks and mmapped ones), not pages.
size_t live_heap_bytes() {
  struct mallinfo2 m = ::mallinfo2();
  return m.uordblks + m.hblkhd;
}
#define ATTNC_HAVE_MALLINFO2 1
#endif

}  // namespace

// Live heap, not RSS: it does not depend on the allocator's fragmentation or on other tests, so the
// bound can be tight. Measured at 17.7 bytes per byte of text (branch lspast2: 64-byte expressions
// in an arena, one copy of the text, 24-byte occurrences; 29.3 before, 64.7 before lspast; see
// bench/results/lsp.md).
BOOST_AUTO_TEST_CASE(analysis_live_heap_per_document_byte) {
#if defined(ATTNC_HAVE_MALLINFO2)
  const std::string text = generated_document(2000);  // ~730 KB
  DocumentStore docs;
  // Warm-up: the stdlib module and ANTLR's shared DFA cache are paid once per process.
  docs.open("file:///tmp/attnc-lsp-memory/warm.attn", generated_document(50), 1);
  docs.analysis("file:///tmp/attnc-lsp-memory/warm.attn");
  docs.close("file:///tmp/attnc-lsp-memory/warm.attn");

  const size_t before = live_heap_bytes();
  const std::string uri = "file:///tmp/attnc-lsp-memory/big.attn";
  docs.open(uri, text, 1);
  auto a = docs.analysis(uri);
  BOOST_REQUIRE(a->main());
  for (const attn::Diagnostic& d : a->program->diags.all()) BOOST_TEST_MESSAGE(d.message);
  BOOST_REQUIRE_EQUAL(a->program->diags.all().size(), 0u);
  const size_t held = live_heap_bytes() - before;
  const double per_byte = static_cast<double>(held) / static_cast<double>(text.size());
  BOOST_TEST_MESSAGE("analysis of " << text.size() << " bytes holds " << held << " bytes: " << per_byte
                                    << " per byte");
  BOOST_CHECK_LE(per_byte, 18.5);

  // Closing gives it all back (within a small slack for the allocator's own bookkeeping).
  a.reset();
  docs.close(uri);
  const size_t after = live_heap_bytes();
  BOOST_CHECK_LE(after, before + text.size() / 4);
#else
  BOOST_TEST_MESSAGE("no mallinfo2 on this C library, or another allocator (a sanitizer): skipped");
#endif
}
