// Caches kept out of the home directory by the tests that run SPIR-V on lavapipe (and by the attnc
// commands they start): global fixtures, one per test binary.
#pragma once

#include <cstdlib>

#include "tests/support/TestSupport.h"

namespace attn::test {

/// Mesa's shader cache off, and XDG_CACHE_HOME a temporary directory.
struct MesaCache {
  TempDir dir;
  MesaCache() {
    setenv("MESA_SHADER_CACHE_DISABLE", "true", 1);
    setenv("XDG_CACHE_HOME", dir.path().c_str(), 1);
  }
};

/// MesaCache, and attnc's kernel cache in the same temporary directory (ATTNC_CACHE_DIR unset).
struct PrivateCaches : MesaCache {
  PrivateCaches() { unsetenv("ATTNC_CACHE_DIR"); }
};

}  // namespace attn::test
