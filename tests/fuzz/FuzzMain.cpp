// libFuzzer entry point (built with -DATTNC_FUZZ=ON and clang): fuzz_frontend corpus-dir.
#include "tests/fuzz/FuzzTarget.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  attn::test::fuzz_frontend_one(data, size);
  return 0;
}
