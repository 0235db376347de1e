// Feature: document formatting with the `attnc fmt` engine, as one edit of the whole text.
#include "frontend/Format.h"
#include "lsp/Features.h"

namespace attn::lsp {

std::vector<TextEdit> formatting(const Analysis& a) {
  DiagnosticEngine diags;
  std::optional<std::string> formatted = format_source(a.program->sources, a.main_file, diags);
  if (!formatted || *formatted == a.text()) return {};
  LineTable lines(a.text());
  return {TextEdit{lines.range(0, static_cast<uint32_t>(a.text().size())), *formatted}};
}

}  // namespace attn::lsp
