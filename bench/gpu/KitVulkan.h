// The kit's Vulkan check, without the compiler: modules `attnc compile -t vulkan` wrote (NAME.spv
// and NAME.layout, the layout text of NAME.spv.h) run through the loader's vulkan target
// (runtime/VulkanCompiler.h) on the Vulkan device (the NVIDIA ICD on the GPU machine), compared
// with the f64 CUDA reference of the same kernel's CUDA source, and timed.
#pragma once

#include <filesystem>
#include <random>
#include <string>

#include "bench/gpu/KitCheck.h"

namespace attn::kit {

/// Checks every NAME.spv of `dir` against the f64 reference appended to NAME.cu (from `dir`, else
/// `cuda_dir`) at (Lq, Lkv) = (77, 77), (200, 333), (1, 3001) with GQA 4/2, one line per kernel;
/// with `time_len` > 0 also times it on B=4, H=16, L=time_len (5 dispatches, GPU timestamps).
/// Returns the failures. `device` is the CUDA device of the references.
int check_vulkan_folder(CudaDevice& device, const std::filesystem::path& dir,
                        const std::filesystem::path& cuda_dir, const CheckOptions& o, int64_t time_len,
                        std::mt19937& rng);

}  // namespace attn::kit
