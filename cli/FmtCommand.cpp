// `attnc fmt FILE... [-i] [--check]`: the canonical formatter.
#include <iostream>

#include "cli/Commands.h"
#include "frontend/Format.h"
#include "frontend/Program.h"
#include "runtime/OutputFile.h"

namespace attn::cli {

int run_fmt(const FmtOptions& o) {
  int status = 0;
  for (const std::string& path : o.files) {
    // A directory, FIFO or device is an error, never a silent success or a wait.
    std::string text;
    if (std::string why = read_source_file(path, text); !why.empty()) {
      std::cerr << "attnc: error: " << why << "\n";
      status = 1;
      continue;
    }
    SourceManager sm;
    DiagnosticEngine diags;
    FileId file = sm.add(path, text);
    std::optional<std::string> formatted = format_source(sm, file, diags);
    if (!formatted) {
      std::cerr << render_diagnostics(diags, sm);
      status = 1;
      continue;
    }
    if (o.check) {
      if (*formatted != text) {
        std::cerr << path << ": not formatted\n";
        status = 1;
      }
    } else if (o.in_place) {
      if (*formatted == text) continue;
      // In place once the whole text is formatted: hard links, owner and mode stay.
      try {
        overwrite_file(path, *formatted);
      } catch (const std::exception& e) {
        std::cerr << "attnc: error: " << e.what() << "\n";
        status = 1;
      }
    } else {
      std::cout << *formatted;
    }
  }
  return status;
}

}  // namespace attn::cli
