// Kernels whose buffer reads are guarded (docs/language.md: `&&`, `||` and `c ? a : b` evaluate
// only the operand they need, the score only at kept keys), and buffers that make the guarded
// reads out of range where the guard rules them out: every backend must run them as the reference
// does, with no error. `unguarded` makes the same read without a guard: an error everywhere.
#pragma once

#include <map>
#include <string>

#include "backends/reference/Reference.h"

namespace attn::test {

inline const char* const kGuardedReadsProgram = R"attn(
kernel and_guard(doc: tensor<i32>[len], start: tensor<i32>[docs]) {
  mask = doc[q] >= 0 && start[doc[q]] <= kv && kv <= q;
  lse = true;
}
kernel or_guard(doc: tensor<i32>[len], start: tensor<i32>[docs]) {
  mask = !(doc[q] < 0 || start[doc[q]] > kv) && kv <= q;
  lse = true;
}
kernel select_guard(doc: tensor<i32>[len], start: tensor<i32>[docs]) {
  mask = (doc[q] < 0 ? false : start[doc[q]] <= kv) && kv <= q;
  lse = true;
}
kernel score_guard(doc: tensor<i32>[len], bias: tensor<f32>[docs]) {
  mask = doc[kv] >= 0 && kv <= q;
  score = score + bias[doc[kv]];
  lse = true;
}
kernel unguarded(doc: tensor<i32>[len], start: tensor<i32>[docs]) {
  mask = start[doc[q]] <= kv && kv <= q;
  lse = true;
}
)attn";

inline const char* const kGuardedReadsKernels[] = {"and_guard", "or_guard", "select_guard", "score_guard",
                                                   "unguarded"};

/// The buffers of kernel `ir` at sequence length `len`: documents of 20 positions, then padding
/// (doc -1) from position 53 on, inside a query tile of every CPU path (16, 24, 32 rows), a GPU
/// tile and a key block; `start` and `bias` have one entry per document.
inline std::map<std::string, HostTensor> guarded_reads_buffers(const KernelIR& ir, int64_t len) {
  HostTensor doc(ScalarType::I32, {len}), start(ScalarType::I32, {3}), bias(ScalarType::F32, {3});
  for (int64_t i = 0; i < len; ++i) doc.set(i, i < 53 ? int(i / 20) : -1);
  for (int d = 0; d < 3; ++d) start.set(d, 20 * d), bias.set(d, 0.5 * d - 0.3);
  std::map<std::string, HostTensor> all = {{"doc", doc}, {"start", start}, {"bias", bias}}, used;
  for (const auto& [name, t] : all)
    if (ir.arg(name)) used.emplace(name, t);
  return used;
}

}  // namespace attn::test
