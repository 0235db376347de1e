// What the text before the cursor says about the place being edited: which item, which call,
// which argument, which kernel key. Works from tokens only, so half-typed code is fine.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace attn::lsp {

/// The editing context at a cursor position.
struct CursorContext {
  enum Where {
    TopLevel,    ///< between items: a keyword starts the next one
    Expression,  ///< inside a definition body or a kernel value
    ImportStd,   ///< after `import std.`
    Import,      ///< after `import`
    KernelKey,   ///< at the start of a `key = value;` line of a kernel
    DtypeValue,  ///< after `dtype =`
    TypeName,    ///< after `:` in a parameter list or `->`
    Name,        ///< a name being declared (nothing to complete)
    Comment,     ///< inside a comment or a string
  } where = TopLevel;

  std::string prefix;  ///< the identifier characters before the cursor
  uint32_t prefix_begin = 0;
  std::string item_keyword;  ///< mask, score, fn, kernel, import, or empty
  std::string item_name;
  std::string kernel_key;  ///< inside a kernel: the key whose value is being written
  bool score_in_scope = false;
  std::vector<std::string> params;  ///< parameter names of the enclosing item
  std::vector<std::string> locals;  ///< let bindings before the cursor

  bool in_call = false;
  std::string callee;  ///< the called name
  uint32_t callee_begin = 0;
  int arg_index = 0;     ///< 0-based argument position
  std::string arg_name;  ///< `name = ...` when the current argument is named
  bool at_arg_start = false;
};

/// The context of byte offset `offset` in `text`.
CursorContext cursor_context(std::string_view text, uint32_t offset);

}  // namespace attn::lsp
