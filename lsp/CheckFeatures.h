// `attnc check --all-features`: every editor feature at every token of a file, without an editor.
#pragma once

#include <ostream>
#include <string>

namespace attn::lsp {

/// Result of a run over one file.
struct FeatureCheck {
  size_t tokens = 0;
  size_t calls = 0;
  size_t failures = 0;  ///< internal failures: exceptions and invalid results
};

/// Runs every feature on `path` (all positions of every token), printing failures and a summary
/// to `out`.
FeatureCheck check_all_features(const std::string& path, std::ostream& out);

}  // namespace attn::lsp
