// fuzz_npy_one: the .npy reader on arbitrary bytes.
#include <sstream>

#include "runtime/Npy.h"
#include "tests/fuzz/FuzzTarget.h"

namespace attn::test {

void fuzz_npy_one(const uint8_t* data, size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    HostTensor t = read_npy_stream(in, "fuzz.npy");
    // What was read must be as large as its shape says.
    if (t.bytes.size() != static_cast<size_t>(t.numel()) * scalar_type_size(t.type)) __builtin_trap();
    if (t.numel() > 0) (void)t.get(t.numel() - 1);
  } catch (const NpyError&) {
  }
}

}  // namespace attn::test
