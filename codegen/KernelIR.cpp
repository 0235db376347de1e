// The index and score variables of the IR.
#include "codegen/KernelIR.h"
#include "codegen/Lower.h"

namespace attn {

Halide::Expr index_var(IndexVar v) {
  // One shared node per variable: IR built anywhere compares equal with `same_as` too.
  static const Halide::Expr vars[] = {
      Halide::Internal::Variable::make(Halide::Int(32), "b"),
      Halide::Internal::Variable::make(Halide::Int(32), "h"),
      Halide::Internal::Variable::make(Halide::Int(32), "q"),
      Halide::Internal::Variable::make(Halide::Int(32), "kv"),
      Halide::Internal::Variable::make(Halide::Int(32), "q_len"),
      Halide::Internal::Variable::make(Halide::Int(32), "kv_len"),
  };
  return vars[static_cast<int>(v)];
}

Halide::Expr score_var() {
  static const Halide::Expr s = Halide::Internal::Variable::make(Halide::Float(32), "score");
  return s;
}

Halide::Type halide_elem_type(ElemType e) {
  switch (e) {
    case ElemType::I32: return Halide::Int(32);
    case ElemType::F32: return Halide::Float(32);
    case ElemType::Bool: return Halide::UInt(8);
  }
  return Halide::Int(32);
}

std::string kernel_name(const KernelIR& ir) { return ir.name; }

std::vector<KernelArgInfo> kernel_args(const KernelIR& ir) {
  std::vector<KernelArgInfo> out;
  for (const KernelArg& a : ir.args)
    out.push_back({a.name, a.kind == KernelArg::Kind::Buffer, a.elem, a.dims});
  return out;
}

const KernelOptions& kernel_options(const KernelIR& ir) { return ir.options; }

bool kernel_has_sink(const KernelIR& ir) { return ir.sink.defined(); }

std::shared_ptr<const KernelIR> with_dtype(const KernelIR& ir, DType dtype) {
  auto copy = std::make_shared<KernelIR>(ir);
  copy->options.dtype = dtype;
  return copy;
}

const char* dtype_name(DType d) {
  switch (d) {
    case DType::F32: return "f32";
    case DType::F16: return "f16";
    case DType::BF16: return "bf16";
    case DType::F8E4M3: return "e4m3";
    case DType::F8E5M2: return "e5m2";
  }
  return "f32";
}

std::optional<DType> dtype_named(const std::string& name) {
  for (DType d : {DType::F32, DType::F16, DType::BF16, DType::F8E4M3, DType::F8E5M2})
    if (name == dtype_name(d)) return d;
  return std::nullopt;
}

bool ignores_head_index(const KernelIR& ir) {
  return !(ir.mask.defined() && Halide::Internal::expr_uses_var(ir.mask, "h")) &&
         !(ir.score.defined() && Halide::Internal::expr_uses_var(ir.score, "h"));
}

bool reads_key_index(const Halide::Expr& e) { return Halide::Internal::expr_uses_var(e, "kv"); }

}  // namespace attn
