// Helpers of the CPU backend tests: lower .attn text, compile it once per process, and run the
// compiled kernel on HostTensors through the attn_kernel_args ABI (optionally with strided views).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "backends/cpu/CpuBackend.h"
#include "backends/reference/Reference.h"
#include "codegen/KernelIR.h"

namespace attn::test {

/// A lowered kernel and its compiled CPU code.
struct CpuCompiled {
  std::shared_ptr<const KernelIR> ir;
  CpuKernelSource source;
  std::shared_ptr<CpuKernel> kernel;
};

/// Writes `src` (with its header) into a fresh folder and compiles it with every C++ compiler on
/// PATH (g++, clang++) under -Wall -Wextra -Werror: whole (-O1), then as the loader builds it, each
/// part (-DATTN_PART=1, 2) on its own (-O0) and the objects linked with every symbol defined. Fails
/// the test, naming `what`, on any diagnostic.
void check_compiles_warning_free(const CpuKernelSource& src, const std::string& what);

/// Lowers kernel `name` of `source` (fails the test on diagnostics), generates and compiles it for
/// `target` (the host's best when unset); cached by (source, name, target) for the whole test run.
const CpuCompiled& compile_cpu(const std::string& source, const std::string& name,
                               std::optional<CpuTarget> target = std::nullopt);

/// Lowers kernel `name` of `source`; fails the test on diagnostics.
std::shared_ptr<const KernelIR> lower_text(const std::string& source, const std::string& name);

/// What the CPU kernel returned.
struct CpuRun {
  int status = 0;
  std::string error;
  KernelOutputs outputs;  ///< out in the kernel's dtype; lse f32 when `with_lse`
};

/// Runs `c` on `in`. `strided` passes Q/K/V/Out as views with padding between rows and heads.
/// `ranges` fills attn_kernel_args::kv_ranges; `abi_version` is the version the call claims.
CpuRun run_cpu(const CpuCompiled& c, const KernelInputs& in, bool with_lse, bool strided = false,
               int threads = 2, const CpuKeyRanges* ranges = nullptr,
               int abi_version = ATTN_KERNEL_ABI_VERSION);

/// Largest |a - b| over all elements; equal infinities count as 0, a NaN as infinity.
double max_abs_diff(const HostTensor& a, const HostTensor& b);

/// sum(dOut * Out) + sum(dLSE * LSE) of the reference's forward on `in` (`r`'s dLSE, when given):
/// the loss the backward differentiates, for finite differences.
double reference_loss(const KernelIR& ir, const KernelInputs& in, const GradientRequest& r);

}  // namespace attn::test
