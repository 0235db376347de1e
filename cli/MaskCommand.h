// `attnc mask FILE KERNEL --len N [--len-kv M] [--block BQ,BK] [--png F|--svg F]`: the tile plan.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace attn::cli {

/// Options of `attnc mask`.
struct MaskCommandOptions {
  std::string file;     ///< the .attn file
  std::string kernel;   ///< kernel name in it
  int64_t len = 0;      ///< query length (required, > 0)
  int64_t len_kv = 0;   ///< key length; 0: same as `len`
  std::string block;    ///< "BQ,BK" or "B"; empty: the target's tiles, else the kernel's `block`, else 64
  std::string target;   ///< plan in this backend's tiles (backends/Backend.h); empty: none
  std::string png;      ///< write the picture as PNG here
  std::string svg;      ///< write the picture as SVG here
  int64_t corner = 64;  ///< the picture's element panel: the top-left corner x corner
  std::vector<std::string> args;  ///< NAME=FILE.npy (buffers) or NAME=VALUE (scalars)
  int head = -1;                  ///< plan for this head only; -1: one plan valid for every head
};

/// Plans the kernel's tiles for the given lengths, prints tile counts, density and timing, and
/// draws the plan (tile kinds, plus the element mask of a small corner). Returns the exit code.
int run_mask_command(const MaskCommandOptions& o);

}  // namespace attn::cli
