// `attnc compile FILE -t TARGETS -o DIR`: one writer per target.
#include <iostream>

#include "cli/Commands.h"

namespace attn::cli {

int run_compile(const CompileOptions& o) {
  int status = 0;
  for (const std::string& t : o.targets) {
    if (t == "spirv") status |= compile_spirv_target(o.file, o.out_dir);
    else {
      std::cerr << "attnc: error: unknown target '" << t << "'\n";
      status = 1;
    }
  }
  return status;
}

}  // namespace attn::cli
