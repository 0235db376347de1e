// The kit's correctness check of one kernel: the forward on odd shapes with GQA, the backward's
// gradients, decoding over 32k keys, a ragged batch and a deliberately out-of-range launch, each
// against an f64 GPU reference appended to the kernel's own source; one result line per kernel.
#pragma once

#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "bench/gpu/KitKernel.h"
#include "runtime/CudaDriver.h"

namespace attn::kit {

struct CheckOptions {
  std::string arch = "sm_90a";
  std::string reference;      ///< attn_reference.cuh's text
  std::string reference_bwd;  ///< attn_reference_bwd.cuh's text
  bool backward = true;       ///< check NAME_backward.cu where the kit has one
  bool decode = true;         ///< Lq = 1..16 over 32768 keys, 32 query heads over 8
  bool out_of_range = true;   ///< the deliberate out-of-range launch
  bool ragged = true;         ///< a ragged batch of 5 sequences (cu_seqlens), one launch each
  /// Host bytes one launch's inputs may take; a kernel over it fails with a message instead of
  /// allocating (ATTNC_KIT_MAX_HOST_GB, default 4).
  int64_t max_host_bytes = int64_t(4) << 30;
  /// Where the forward + reference cubins are kept (FOLDER__NAME.cubin), for the Vulkan check's
  /// references (kit_check --vulkan); empty: not kept.
  std::filesystem::path cubins;
};

/// The cubin of `k`'s source with the f64 reference appended: from o.cubins when kept there, else
/// compiled by NVRTC (and kept when o.cubins is set).
std::vector<uint8_t> reference_cubin(const Kit& k, const CheckOptions& o);

/// The f64 reference forward of a prepared launch (`module`: the kernel's source with
/// attn_reference.cuh appended); its own error word says whether it read out of range.
struct Reference {
  std::vector<double> out, lse, max;
  bool out_of_range = false;
};
Reference run_reference(CudaDevice& device, const CudaModule& module, const CudaLaunchInfo& info,
                        const CudaPreparedLaunch& L);

/// Rows [first, first + rows) of a packed [T, H, C] tensor as a dense [1, H, rows, C] one.
HostTensor sequence_rows(const HostTensor& t, int64_t first, int64_t rows);

/// `info` without its run-time tile plan: the reference launches visit every key (a plan would
/// read the buffers on the host first).
CudaLaunchInfo without_plan(CudaLaunchInfo info);

/// Checks `k` on `device` and prints one line: "ok   NAME: ..." or "FAIL NAME: ...". Returns
/// the number of failed checks.
int check_kernel(CudaDevice& device, const Kit& k, const CheckOptions& o, std::mt19937& rng);

/// Without a device: compiles `k` (and its backward) as the check would and prints one line with
/// the registers, spills and NVRTC seconds ("nvrtc F s", "backward nvrtc B s"). Returns failures.
int compile_kernel(const Kit& k, const CheckOptions& o);

}  // namespace attn::kit
