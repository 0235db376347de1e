// The IR as text: `attnc dump --stage=ir` and the IR golden tests.
#include <sstream>

#include "codegen/KernelIR.h"
#include "codegen/Lower.h"
#include "codegen/ScoreGradient.h"
#include "frontend/Types.h"

namespace attn {

std::string print_ir(const KernelIR& ir) {
  std::ostringstream out;
  out << "kernel " << ir.name << "\n";
  for (const KernelArg& a : ir.args) {
    if (a.kind == KernelArg::Kind::Buffer) {
      Type t = Type::tensor(a.elem, a.dims);
      out << "  arg " << a.name << ": " << type_name(t) << "\n";
    } else {
      out << "  arg " << a.name << ": "
          << (a.elem == ElemType::I32   ? "int"
              : a.elem == ElemType::F32 ? "float"
                                        : "bool")
          << " (run-time scalar)\n";
    }
  }
  const KernelOptions& o = ir.options;
  out << "  dtype     " << dtype_name(o.dtype) << "\n";
  out << "  head_dim  " << (o.head_dim ? std::to_string(o.head_dim) : "any") << "\n";
  out << "  value_dim " << (o.value_dim ? std::to_string(o.value_dim) : "head_dim") << "\n";
  if (o.scale) {
    std::ostringstream s;
    s.precision(9);
    s << *o.scale;
    out << "  scale     " << s.str() << "\n";
  } else {
    out << "  scale     1/sqrt(head_dim)\n";
  }
  out << "  lse       " << (o.lse ? "true" : "false") << "\n";
  if (o.return_max) out << "  return_max true\n";
  if (o.backward) out << "  backward  true\n";
  if (o.block_q) out << "  block     [" << o.block_q << ", " << o.block_kv << "]\n";
  out << "  mask      " << ir.mask << "\n";
  out << "  score     " << ir.score << "\n";
  if (ir.sink.defined()) out << "  sink      " << ir.sink << "\n";
  return out.str();
}

std::string print_score_gradient(const KernelIR& ir) {
  const ScoreGradient g = differentiate_score(ir);
  std::ostringstream out;
  out << "kernel " << ir.name << "\n";
  out << "  score          " << ir.score << "\n";
  out << "  d/d score      " << g.dscore << "\n";
  for (const BufferGradient& r : g.reads) {
    out << "  d/d " << r.buffer << "[";
    for (size_t i = 0; i < r.index.size(); ++i) out << (i ? ", " : "") << r.index[i];
    out << "]  " << r.partial << "\n";
  }
  return out.str();
}

}  // namespace attn
