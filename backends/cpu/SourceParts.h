// The two parts of a generated CPU source. The loader compiles a source that names its parts
// (kCpuSourcePartsLine, attn/compiler.hpp) twice side by side, -DATTN_PART=1 and -DATTN_PART=2, and
// links the objects: a cold compile takes the longer part's time, not the sum (docs/cpu.md). Any
// other build compiles the file whole (ATTN_PART 0). Part 1 holds the Halide pipelines, the
// runtime functions they call and the matrix paths' extern stages; part 2 the entry points
// (staging, the calls of the pipelines, the merges, the path choice) with the pipelines'
// declarations. Both hold the includes, Halide's runtime header, the call context and a matrix
// path's element code (its FP8 table serves the staging and the extern stages).
#pragma once

#include <string>

#include "attn/compiler.hpp"

namespace attn::cpu {

inline constexpr const char* kPipelinesPart = "#if ATTN_PART != 2  // part 1: the Halide pipelines\n";
inline constexpr const char* kEntriesPart = "#if ATTN_PART != 1  // part 2: the entry points\n";
inline constexpr const char* kDeclarationsPart = "#if ATTN_PART == 2  // part 1's pipeline, called here\n";
inline constexpr const char* kEndPart = "#endif\n";

/// The banner's line that names the parts (the loader reads it).
inline std::string source_parts_banner() {
  return std::string(kCpuSourcePartsLine) +
         "2 (the loader compiles -DATTN_PART=1, the Halide pipelines, and -DATTN_PART=2, the entry\n"
         "// points, side by side and links them; any other build compiles the file whole)\n";
}

/// After the includes: a build without -DATTN_PART compiles every part.
inline constexpr const char* kWholeSourceDefault = "#ifndef ATTN_PART\n#define ATTN_PART 0  // the whole source\n#endif\n";

}  // namespace attn::cpu
