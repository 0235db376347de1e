// AST -> IR: inlines every definition a kernel uses, binds its constants and simplifies.
// Light header (no Halide.h): the IR is opaque here; see codegen/KernelIR.h.
#pragma once

#include <memory>
#include <string>

#include "frontend/Program.h"

namespace attn {

struct KernelIR;

/// Lowers `kernel` (a kernel declaration of `program`'s main module). Semantic errors found only
/// while lowering (e.g. a mask option that is not a mask) go to `diags`; returns null then.
std::shared_ptr<const KernelIR> lower_kernel(const Program& program, const Decl& kernel,
                                             DiagnosticEngine& diags);

/// The IR as text, for `attnc dump --stage=ir` and golden tests.
std::string print_ir(const KernelIR& ir);

/// Canonical structural hash (hex SHA-256): independent of the kernel's and its arguments' names,
/// changed by any change of meaning (expressions, argument types, options).
std::string kernel_hash(const KernelIR& ir);

}  // namespace attn
