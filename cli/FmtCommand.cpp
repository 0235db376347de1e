// `attnc fmt FILE... [-i] [--check]`: the canonical formatter.
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/Commands.h"
#include "cli/OutputFile.h"
#include "frontend/Format.h"
#include "frontend/Program.h"

namespace attn::cli {

int run_fmt(const FmtOptions& o) {
  int status = 0;
  for (const std::string& path : o.files) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      std::cerr << "attnc: error: cannot open '" << path << "'\n";
      status = 1;
      continue;
    }
    std::stringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
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
      try {
        replace_file_contents(path, *formatted);
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
