// Runs a kernel through the SPIR-V backend on the Vulkan device: the `-t vulkan` target.
#pragma once

#include <string>

#include "attn/compiler.hpp"
#include "backends/io/KernelIO.h"
#include "backends/io/PerSequence.h"

namespace attn {

/// Device features the run may use; tests switch them off to cover the fallback paths.
struct VulkanRunOptions {
  bool subgroups = true;             ///< subgroup shuffles (else one invocation per query row)
  bool f16_storage = true;           ///< f16 buffers (else f16 data travels as f32)
  bool shared_tiles_on_cpu = false;  ///< stage K/V in workgroup memory on a CPU device too
  int repeat = 1;                    ///< dispatches in a row, for timing
  int assume_subgroup_size = 0;      ///< tests: pretend the device reported this subgroup size
};

/// What a run measured.
struct VulkanRunStats {
  double gpu_ms = -1;  ///< one dispatch, from GPU timestamps (-1: none)
  std::string device;  ///< the device's name
};

/// The loader request of `ir`'s module for the process's Vulkan device, head dims `head_dim` and
/// `value_dim`, and the features `options` allows; the module is compiled once per process and
/// configuration. Throws vk::VulkanError (no Vulkan loader or device).
const KernelRequest& vulkan_device_request(const KernelIR& ir, int head_dim, int value_dim,
                                           const VulkanRunOptions& options = {});

/// Validates `in` like the reference, compiles the kernel for the device and these shapes (the
/// module once per process; its pipeline through attn::process_loader(), which keeps the
/// pipeline cache on disk), runs it and reads the results back. A ragged batch or paged cache
/// runs one sequence at a time (backends/io/PerSequence.h). Throws InputError, EvalError (a
/// buffer index out of range, named like the reference does), vk::VulkanError (no loader or
/// device, a failed Vulkan call).
KernelOutputs run_vulkan(const KernelIR& ir, const KernelInputs& in, const VulkanRunOptions& options = {},
                         VulkanRunStats* stats = nullptr);

/// run_vulkan on a dense batch at `place` (one sequence of a ragged batch as a batch of one).
KernelOutputs run_vulkan_at(const KernelIR& ir, const KernelInputs& in, const VulkanRunOptions& options,
                            const SequencePlace& place);

/// The backward pass on the Vulkan device (backends/spirv/SpirvBackward.h): the forward for Out and
/// its LSE, D = rowsum(dOut * Out) - dLSE on the host, the query-major and key-major modules (built
/// once per process and kernel), and the buffer gradients' partials summed in key order on the
/// host. Deterministic. Throws like run_vulkan, and InputError for a request validate_gradient_request
/// refuses or partials past 32-bit indexing.
KernelGradients run_vulkan_backward(const KernelIR& ir, const KernelInputs& in,
                                    const GradientRequest& request, const VulkanRunOptions& options = {});

}  // namespace attn
