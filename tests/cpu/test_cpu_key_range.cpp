// Closed-form key ranges per query tile: what the CPU kernel visits for index-only masks.
#define BOOST_TEST_MODULE cpu_key_range
#include <boost/test/unit_test.hpp>

#include "backends/cpu/KeyRange.h"
#include "codegen/KernelIR.h"

using attn::IndexVar;
using attn::index_var;
namespace cpu = attn::cpu;
using Halide::Expr;

namespace {

// [lo, hi) for the tile starting at q0 with 32 rows and 4096 keys, evaluated to constants.
std::pair<int, int> range_at(const Expr& mask, int q0) {
  cpu::KeyRange r = cpu::key_range_for_query_tile(mask, Expr(q0), 32, Expr(4096));
  Expr lo = Halide::Internal::simplify(r.lo), hi = Halide::Internal::simplify(r.hi);
  const int64_t* l = Halide::Internal::as_const_int(lo);
  const int64_t* h = Halide::Internal::as_const_int(hi);
  BOOST_REQUIRE_MESSAGE(l && h, "not constant: " << lo << ", " << hi);
  return {int(*l), int(*h)};
}

}  // namespace

BOOST_AUTO_TEST_CASE(causal_and_sliding_window) {
  Expr q = index_var(IndexVar::Q), kv = index_var(IndexVar::KV);
  BOOST_TEST((range_at(kv <= q, 64) == std::pair{0, 96}));
  BOOST_TEST((range_at(q >= kv, 64) == std::pair{0, 96}));
  BOOST_TEST((range_at(kv <= q && q - kv < 256, 1024) == std::pair{769, 1056}));
  BOOST_TEST((range_at(q >= kv && q - kv < 256, 0) == std::pair{0, 32}));
  BOOST_TEST((range_at(Halide::Internal::const_true(), 0) == std::pair{0, 4096}));
}
