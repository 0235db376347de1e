// The DLPack header the generated sources include, written beside them by `attnc compile`.
#pragma once

#include <filesystem>

namespace attn::cli {

/// Writes DIR/dlpack/dlpack.h (the copy attnc was built with) and DIR/dlpack/LICENSE (its notice).
/// Throws std::runtime_error, as write_output_file does.
void write_dlpack_header(const std::filesystem::path& dir);

}  // namespace attn::cli
