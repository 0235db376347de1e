// libFuzzer entry point (built with -DATTNC_FUZZ=ON and clang): fuzz_npy corpus-dir.
#include "tests/fuzz/FuzzTarget.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  attn::test::fuzz_npy_one(data, size);
  return 0;
}
