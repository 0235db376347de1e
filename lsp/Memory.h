// Giving freed memory back to the system (glibc keeps freed pages in its arenas otherwise).
#pragma once

namespace attn::lsp {

/// Returns the pages of freed heap memory to the system: after an analysis (its token stream and
/// parse tree, several times the AST, are freed once the AST is built), after a large reply, and
/// when a document closes. A no-op where the C library has no malloc_trim.
void return_freed_memory();

}  // namespace attn::lsp
