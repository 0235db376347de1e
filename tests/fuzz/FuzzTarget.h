// The fuzz targets: a .attn file through parsing, checking, formatting and lowering; a .npy file;
// the language server's framed input.
#pragma once

#include <cstddef>
#include <cstdint>

namespace attn::test {

/// Must never crash, hang or leak, whatever the bytes.
void fuzz_frontend_one(const uint8_t* data, size_t size);

/// The .npy reader (runtime/Npy.h) on the bytes as a file: a tensor or an NpyError, nothing else.
void fuzz_npy_one(const uint8_t* data, size_t size);

/// The language server's input: framing (lsp/Framing.h), then every message through the server.
void fuzz_lsp_framing_one(const uint8_t* data, size_t size);

}  // namespace attn::test
