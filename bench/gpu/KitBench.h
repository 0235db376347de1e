// The kit's timings: one variant compiled, loaded and timed, and the autotuner over its tile shapes.
#pragma once

#include <filesystem>
#include <random>
#include <string>

#include "runtime/CudaDriver.h"

namespace attn::kit {

/// `s` as a JSON string literal.
std::string json_string(const std::string& s);

/// Compiles `f` (cold, NVRTC), loads it (warm) and times it on B=4, H=16, L=len: JSON fields,
/// each name prefixed with `prefix`. Without a device, the compile only.
std::string time_kernel(CudaDevice* device, const std::filesystem::path& f, const std::string& arch,
                        int64_t len, std::mt19937& rng, const std::string& prefix);

/// The autotuner over `dir`'s candidates (names.txt, 00.cu, 01.cu, ...; 00 is the table's):
/// checked against 00 on B=1, H=4, L=1000, timed on the benchmark shape. JSON fields.
/// `no_wgmma` leaves out Hopper's warpgroup shapes (when their own check failed on this device).
/// `cubins`: where precompile_tune() left the candidates' cubins (cubins/<variant>/NN.cubin and
/// NN.log), or empty: each is compiled here.
std::string tune_variant(CudaDevice& device, const std::filesystem::path& dir, int64_t len, std::mt19937& rng,
                         bool no_wgmma, const std::filesystem::path& cubins = {});

/// Compiles every `shards`-th candidate of tune/<variant>/NN.cu from the `shard`-th (in path
/// order) for `arch` into out/<variant>/NN.cubin and NN.log: the tuner's compiles, made in
/// parallel before it runs alone on the GPU. Prints one line per candidate; returns the failures.
int precompile_tune(const std::filesystem::path& tune, const std::filesystem::path& out,
                    const std::string& arch, int shard, int shards);

}  // namespace attn::kit
