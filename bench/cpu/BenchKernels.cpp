// Hand-built IR for the benchmark variants (what the lowering produces for the stdlib masks).
#include "bench/cpu/BenchKernels.h"

#include <stdexcept>

namespace attn::bench {

using Halide::Expr;

namespace {

KernelArg buffer_arg(const std::string& name, ElemType elem, const std::string& dim) {
  KernelArg a;
  a.kind = KernelArg::Kind::Buffer;
  a.name = name;
  a.elem = elem;
  a.dims = {dim};
  a.param = Halide::Internal::Parameter(halide_elem_type(elem), true, 1, name);
  return a;
}

Expr load(const KernelArg& a, const Expr& index) {
  return Halide::Internal::Call::make(halide_elem_type(a.elem), a.name, {index},
                                      Halide::Internal::Call::Image, Halide::Internal::FunctionPtr(), 0,
                                      Halide::Buffer<>(), a.param);
}

}  // namespace

std::vector<std::string> variant_names() {
  return {"full", "causal", "sliding256", "alibi", "softcap", "documents"};
}

KernelIR make_variant(const std::string& variant, int head_dim, DType dtype) {
  Expr q = index_var(IndexVar::Q), kv = index_var(IndexVar::KV), h = index_var(IndexVar::H);
  Expr s = score_var();
  KernelIR ir;
  ir.name = variant;
  ir.source_path = "bench/cpu/" + variant;
  ir.options.dtype = dtype;
  ir.options.head_dim = head_dim;
  ir.mask = Halide::Internal::const_true();
  ir.score = s;
  Expr causal = kv <= q;
  if (variant == "full") {
  } else if (variant == "causal") {
    ir.mask = causal;
  } else if (variant == "sliding256") {
    ir.mask = causal && q - kv < 256;
  } else if (variant == "alibi") {
    ir.args.push_back(buffer_arg("slopes", ElemType::F32, "heads"));
    ir.mask = causal;
    ir.score = s + load(ir.args[0], h) * Halide::cast<float>(kv - q);
  } else if (variant == "softcap") {
    ir.mask = causal;
    ir.score = 30.0f * Halide::tanh(s / 30.0f);
  } else if (variant == "documents") {
    ir.args.push_back(buffer_arg("doc", ElemType::I32, "len"));
    ir.mask = causal && load(ir.args[0], q) == load(ir.args[0], kv);
  } else {
    throw std::runtime_error("unknown variant " + variant);
  }
  return ir;
}

}  // namespace attn::bench
