// Feature: go to definition, across imports and into the stdlib.
#include "lsp/Features.h"

namespace attn::lsp {

std::vector<Location> definition(const Analysis& a, uint32_t offset) {
  const Occurrence* o = a.occurrence_at(offset);
  if (!o) return {};
  switch (o->kind) {
    case OccurrenceKind::Decl:
    case OccurrenceKind::Param:
    case OccurrenceKind::Local:
    case OccurrenceKind::Module: return {a.location_of(o->target())};
    default: return {};  // index variables, score, builtins and options are built in
  }
}

}  // namespace attn::lsp
