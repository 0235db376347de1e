// The kit's serving step (kit_check --serving): one step of the shipped serving trace
// (samples/serving/trace.json) over one paged KV cache on the GPU.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "runtime/CudaDriver.h"

namespace attn::kit {

/// Serves the trace at `trace` (64 requests: prefill chunks and decoding rows over pages of 16
/// keys) with each kernel of `kernels` (a causal bf16 kernel: kit/check/causal_bf16_128.cu and its
/// warpgroup build): planned once, then timed as one grid (the build with kCudaOneGridFlag) and as
/// a launch per sequence (the plain build), each replayed from a CUDA graph and launched directly,
/// 20 times, CUDA events. The two builds' outputs must agree. Returns a JSON object. Without a
/// device (`device` null, the dry run) it compiles both builds and plans the step only.
std::string serve_trace(CudaDevice* device, const std::filesystem::path& trace,
                        const std::vector<std::filesystem::path>& kernels, const std::string& arch);

}  // namespace attn::kit
