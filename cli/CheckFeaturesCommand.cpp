// `attnc check --all-features FILE...`: runs every editor feature at every token.
#include <iostream>

#include "cli/Commands.h"
#include "lsp/CheckFeatures.h"

namespace attn::cli {

int run_check_features(const CheckFeaturesOptions& o) {
  size_t failures = 0;
  for (const std::string& file : o.files) failures += lsp::check_all_features(file, std::cout).failures;
  return failures ? 1 : 0;
}

}  // namespace attn::cli
