// JSON conversion of the LSP protocol types.
#include "lsp/Protocol.h"

namespace attn::lsp {

void to_json(json& j, const Position& p) { j = {{"line", p.line}, {"character", p.character}}; }

void from_json(const json& j, Position& p) {
  p.line = j.at("line").get<int>();
  p.character = j.at("character").get<int>();
}

void to_json(json& j, const Range& r) { j = {{"start", r.start}, {"end", r.end}}; }

void from_json(const json& j, Range& r) {
  r.start = j.at("start").get<Position>();
  r.end = j.at("end").get<Position>();
}

void to_json(json& j, const Location& l) { j = {{"uri", l.uri}, {"range", l.range}}; }

void to_json(json& j, const TextEdit& e) { j = {{"range", e.range}, {"newText", e.newText}}; }

void to_json(json& j, const WorkspaceEdit& e) {
  json changes = json::object();
  for (const auto& [uri, edits] : e.changes) changes[uri] = edits;
  j = {{"changes", changes}};
}

void to_json(json& j, const LspDiagnostic& d) {
  j = {{"range", d.range}, {"severity", d.severity}, {"source", "attnc"}, {"message", d.message}};
  if (!d.related.empty()) {
    json rel = json::array();
    for (const RelatedInformation& r : d.related)
      rel.push_back({{"location", r.location}, {"message", r.message}});
    j["relatedInformation"] = rel;
  }
}

void to_json(json& j, const CodeAction& a) {
  j = {{"title", a.title}, {"kind", a.kind}, {"edit", a.edit}};
  if (!a.diagnostics.empty()) j["diagnostics"] = a.diagnostics;
  if (a.preferred) j["isPreferred"] = true;
}

void to_json(json& j, const Hover& h) {
  j = {{"contents", {{"kind", "markdown"}, {"value", h.markdown}}}};
  if (h.range) j["range"] = *h.range;
}

void to_json(json& j, const CompletionItem& c) {
  j = {{"label", c.label}, {"kind", static_cast<int>(c.kind)}};
  if (!c.detail.empty()) j["detail"] = c.detail;
  if (!c.documentation.empty()) j["documentation"] = {{"kind", "markdown"}, {"value", c.documentation}};
  if (!c.insertText.empty()) j["insertText"] = c.insertText;
  if (!c.additionalTextEdits.empty()) j["additionalTextEdits"] = c.additionalTextEdits;
}

void to_json(json& j, const SignatureHelp& s) {
  json sigs = json::array();
  for (const SignatureInformation& si : s.signatures) {
    json params = json::array();
    for (const ParameterInformation& p : si.parameters) params.push_back({{"label", p.label}});
    json one = {{"label", si.label}, {"parameters", params}};
    if (!si.documentation.empty()) one["documentation"] = {{"kind", "markdown"}, {"value", si.documentation}};
    sigs.push_back(one);
  }
  j = {{"signatures", sigs}, {"activeSignature", s.activeSignature}, {"activeParameter", s.activeParameter}};
}

void to_json(json& j, const DocumentSymbol& s) {
  j = {{"name", s.name},
       {"kind", static_cast<int>(s.kind)},
       {"range", s.range},
       {"selectionRange", s.selectionRange}};
  if (!s.detail.empty()) j["detail"] = s.detail;
  if (!s.children.empty()) j["children"] = s.children;
}

std::string dump_message(const json& message) {
  return message.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace attn::lsp
