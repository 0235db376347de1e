// Feature: rename a definition, parameter or let binding everywhere it is used.
#include <cctype>

#include "frontend/Sema.h"
#include "lsp/Features.h"
#include "lsp/Tokens.h"

namespace attn::lsp {

namespace {

const Occurrence* renamable(const Analysis& a, uint32_t offset) {
  const Occurrence* o = a.occurrence_at(offset);
  if (!o) return nullptr;
  if (o->kind != OccurrenceKind::Decl && o->kind != OccurrenceKind::Param && o->kind != OccurrenceKind::Local)
    return nullptr;
  const Module* home = a.module_of(o->target().file);
  if (home && home->name.rfind("std.", 0) == 0) return nullptr;  // the stdlib is read-only
  return o;
}

bool valid_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

}  // namespace

std::optional<RenameTarget> prepare_rename(const Analysis& a, uint32_t offset) {
  const Occurrence* o = renamable(a, offset);
  if (!o) return std::nullopt;
  return RenameTarget{a.range_of(o->range), std::string(a.name_of(*o))};
}

WorkspaceEdit rename(const Analysis& a, uint32_t offset, const std::string& new_name,
                     const Analyses& others) {
  const Occurrence* o = renamable(a, offset);
  if (!o) throw ProtocolError{RequestFailed, "nothing to rename here"};
  if (!valid_identifier(new_name) || is_keyword(new_name) || is_index_name(new_name) || new_name == "score")
    throw ProtocolError{RequestFailed, "'" + new_name + "' is not a valid name"};
  WorkspaceEdit edit;
  for (const Location& l : references(a, offset, true, others)) {
    if (l.uri.rfind("file://", 0) != 0 && l.uri != a.uri) continue;
    edit.changes[l.uri].push_back({l.range, new_name});
  }
  return edit;
}

}  // namespace attn::lsp
