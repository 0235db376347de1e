// The canonical structural hash of a kernel: its IR with arguments renamed by position, its
// argument types and its options, hashed with SHA-256.
#include <openssl/evp.h>

#include <cstdio>
#include <sstream>

#include "codegen/KernelIR.h"
#include "codegen/Lower.h"
#include "codegen/Reductions.h"
#include "frontend/Types.h"

namespace attn {

namespace {

namespace HI = Halide::Internal;

// Renames scalar argument variables and buffer loads to their position ("arg0", "arg1", ...).
class CanonicalNames : public HI::IRMutator {
 public:
  explicit CanonicalNames(const KernelIR& ir) {
    for (size_t i = 0; i < ir.args.size(); ++i) names_[ir.args[i].name] = "arg" + std::to_string(i);
  }

  using HI::IRMutator::visit;

  Halide::Expr visit(const HI::Variable* op) override {
    if (!op->param.defined()) return op;
    // A buffer extent (a reduction bound): "<buffer>.extent.<dim>" -> "argN.extent.<dim>".
    if (std::optional<BufferExtent> x = buffer_extent_of(op->name); x && names_.count(x->buffer))
      return HI::Variable::make(op->type, names_[x->buffer] + ".extent." + std::to_string(x->dim));
    auto it = names_.find(op->name);
    if (it == names_.end()) return op;
    return HI::Variable::make(op->type, it->second);
  }

  // Halide prints floats rounded; the hash must see every bit.
  Halide::Expr visit(const HI::FloatImm* op) override {
    char buf[40];
    std::snprintf(buf, sizeof buf, "fimm_%d_%a", op->type.bits(), op->value);
    return HI::Variable::make(op->type, buf);
  }

  Halide::Expr visit(const HI::Call* op) override {
    auto it = names_.find(op->name);
    if (op->call_type != HI::Call::Image || it == names_.end()) return HI::IRMutator::visit(op);
    std::vector<Halide::Expr> args;
    for (const Halide::Expr& a : op->args) args.push_back(mutate(a));
    return HI::Call::make(op->type, it->second, args, HI::Call::Halide);
  }

 private:
  std::map<std::string, std::string> names_;
};

std::string sha256_hex(const std::string& data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_Digest(data.data(), data.size(), digest, &len, EVP_sha256(), nullptr);
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < len; ++i) {
    out += hex[digest[i] >> 4];
    out += hex[digest[i] & 15];
  }
  return out;
}

}  // namespace

std::string kernel_hash(const KernelIR& ir) {
  CanonicalNames canon(ir);
  std::ostringstream s;
  s.precision(17);
  s << "attnc-ir-v1\n";
  for (const KernelArg& a : ir.args)
    s << (a.kind == KernelArg::Kind::Buffer ? "buffer " : "scalar ") << elem_type_name(a.elem) << " rank "
      << a.dims.size() << "\n";
  const KernelOptions& o = ir.options;
  s << "dtype " << dtype_name(o.dtype) << " head_dim " << o.head_dim << " value_dim " << o.value_dim
    << " scale " << (o.scale ? *o.scale : -1.0) << " lse " << o.lse << " block " << o.block_q << "x"
    << o.block_kv << "\n";
  // Only when set: the kernels that existed before the option keep their hashes (and caches).
  if (o.backward) s << "backward\n";
  if (o.return_max) s << "return_max\n";
  if (ir.sink.defined()) s << "sink " << canon.mutate(ir.sink) << "\n";
  s << "mask " << canon.mutate(ir.mask) << "\n";
  s << "score " << canon.mutate(ir.score) << "\n";
  return sha256_hex(s.str());
}

}  // namespace attn
