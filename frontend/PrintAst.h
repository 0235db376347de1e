// The AST as indented text with source locations (`attnc dump --stage=ast`, golden tests).
#pragma once

#include <string>

#include "frontend/Ast.h"

namespace attn {

std::string print_ast(const Module& m, const SourceManager& sm);

}  // namespace attn
