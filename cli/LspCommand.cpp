// `attnc lsp`: the language server on stdio (lsp/).
#include "cli/Commands.h"
#include "lsp/Server.h"

namespace attn::cli {

int run_lsp(const LspOptions&) { return lsp::serve_stdio(); }

}  // namespace attn::cli
