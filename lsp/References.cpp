// Feature: find references (the document, its imports, every other open document) and the
// highlights of one symbol in the document.
#include <algorithm>
#include <set>

#include "lsp/Features.h"

namespace attn::lsp {

std::vector<Location> references(const Analysis& a, uint32_t offset, bool include_declaration,
                                 const Analyses& others) {
  const Occurrence* o = a.occurrence_at(offset);
  if (!o) return {};
  std::string id = a.symbol_id(*o);
  std::string_view name = a.name_of(*o);
  std::vector<Location> out;
  std::set<std::tuple<std::string, int, int>> seen;
  auto scan = [&](const Analysis& x) {
    for (const Occurrence& occ : x.occurrences) {
      if (occ.declaration && !include_declaration) continue;
      if (occ.kind != o->kind || x.name_of(occ) != name) continue;
      // Within the document a comparison of targets; across documents the keys.
      if (&x == &a ? !a.same_symbol(occ, *o) : x.symbol_id(occ) != id) continue;
      Location l = x.location_of(occ.range);
      if (seen.insert({l.uri, l.range.start.line, l.range.start.character}).second) out.push_back(l);
    }
  };
  scan(a);
  for (const auto& other : others)
    if (other && other.get() != &a) scan(*other);
  std::stable_sort(out.begin(), out.end(), [&](const Location& x, const Location& y) {
    if ((x.uri == a.uri) != (y.uri == a.uri)) return x.uri == a.uri;
    if (x.uri != y.uri) return x.uri < y.uri;
    return std::make_pair(x.range.start.line, x.range.start.character) <
           std::make_pair(y.range.start.line, y.range.start.character);
  });
  return out;
}

std::vector<Highlight> document_highlights(const Analysis& a, uint32_t offset) {
  const Occurrence* o = a.occurrence_at(offset);
  if (!o) return {};
  std::vector<Highlight> out;
  std::string_view name = a.name_of(*o);
  for (const Occurrence& occ : a.occurrences)
    if (occ.range.file == a.main_file && a.name_of(occ) == name && a.same_symbol(occ, *o))
      out.push_back({a.range_of(occ.range), occ.declaration});
  return out;
}

}  // namespace attn::lsp
