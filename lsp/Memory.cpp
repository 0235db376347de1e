// malloc_trim where glibc has it (lsp/Memory.h).
#include "lsp/Memory.h"

#include <cstdlib>  // defines __GLIBC__ where it applies

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace attn::lsp {

void return_freed_memory() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

}  // namespace attn::lsp
