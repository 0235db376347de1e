// The frontend fuzz target: one input through parsing, checking, formatting and lowering.
#pragma once

#include <cstddef>
#include <cstdint>

namespace attn::test {

/// Must never crash, hang or leak, whatever the bytes.
void fuzz_frontend_one(const uint8_t* data, size_t size);

}  // namespace attn::test
