// attn::SourceError's key function, so that its type is one type across the library boundary.
#include "attn/compile.hpp"

namespace attn {

SourceError::SourceError(const std::string& diagnostics) : std::runtime_error(diagnostics) {}
SourceError::~SourceError() = default;

}  // namespace attn
