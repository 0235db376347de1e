// AST -> IR: inlines every definition a kernel uses, binds its constants and simplifies.
// Light header (no Halide.h): the IR is opaque here; see codegen/KernelIR.h.
#pragma once

#include <memory>
#include <string>

#include "codegen/KernelOptions.h"
#include "frontend/Program.h"

namespace attn {

struct KernelIR;

/// Lowers `kernel` (a kernel declaration of `program`'s main module). Semantic errors found only
/// while lowering (e.g. a mask option that is not a mask) go to `diags`; returns null then.
std::shared_ptr<const KernelIR> lower_kernel(const Program& program, const Decl& kernel,
                                             DiagnosticEngine& diags);

/// A run-time argument as seen from outside the IR.
struct KernelArgInfo {
  std::string name;
  bool is_buffer = false;
  ElemType elem = ElemType::F32;  ///< buffer element type, or the scalar's type (I32/F32/Bool)
  std::vector<std::string> dims;  ///< buffers: the declared dimensions
};

/// The kernel's name, arguments and options, for code that does not include Halide.h.
std::string kernel_name(const KernelIR& ir);
std::vector<KernelArgInfo> kernel_args(const KernelIR& ir);
const KernelOptions& kernel_options(const KernelIR& ir);
/// Whether the kernel sets `sink`.
bool kernel_has_sink(const KernelIR& ir);

/// A copy of `ir` with another I/O dtype (`attnc bench --dtype`); its hash changes accordingly.
std::shared_ptr<const KernelIR> with_dtype(const KernelIR& ir, DType dtype);

/// The IR as text, for `attnc dump --stage=ir` and golden tests.
std::string print_ir(const KernelIR& ir);

/// The score's derivatives (codegen/ScoreGradient.h) as text, for `attnc dump --stage=grad`.
std::string print_score_gradient(const KernelIR& ir);

/// Canonical structural hash (hex SHA-256): independent of the kernel's and its arguments' names,
/// changed by any change of meaning (expressions, argument types, options).
std::string kernel_hash(const KernelIR& ir);

}  // namespace attn
