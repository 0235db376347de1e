// JSON-RPC dispatch: the registration table, lifecycle, errors, and the handlers that turn
// protocol parameters into calls of the feature functions (lsp/Features.h).
#include "lsp/Server.h"

#include <filesystem>
#include <iostream>
#include <map>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "attnc/Version.h"
#include "lsp/Features.h"
#include "lsp/Uri.h"

namespace attn::lsp {

namespace {

// Returns the free memory of the heap to the system (glibc keeps it otherwise), so that closing a
// large document lowers the server's resident size.
void release_free_memory() {
#if defined(__GLIBC__)
  ::malloc_trim(0);
#endif
}

// Whether `j` holds at least kManyValues values (counted only until then): a result whose JSON
// took megabytes, such as the outline or the semantic tokens of a large document.
constexpr size_t kManyValues = 20000;
bool holds_many_values(const json& j) {
  size_t seen = 0;
  std::vector<const json*> pending{&j};
  while (!pending.empty() && seen < kManyValues) {
    const json* x = pending.back();
    pending.pop_back();
    ++seen;
    if (x->is_structured())
      for (const json& child : *x) pending.push_back(&child);
  }
  return seen >= kManyValues;
}

// Methods a client may send, and the handler of each.
const std::map<std::string, Server::Request>& request_table() {
  static const std::map<std::string, Server::Request> table = {
      {"initialize", &Server::initialize},
      {"shutdown", &Server::shutdown},
      {"textDocument/hover", &Server::hover},
      {"textDocument/completion", &Server::completion},
      {"textDocument/signatureHelp", &Server::signature_help},
      {"textDocument/definition", &Server::definition},
      {"textDocument/references", &Server::references},
      {"textDocument/documentHighlight", &Server::document_highlight},
      {"textDocument/prepareRename", &Server::prepare_rename},
      {"textDocument/rename", &Server::rename},
      {"textDocument/documentSymbol", &Server::document_symbol},
      {"textDocument/formatting", &Server::formatting},
      {"textDocument/semanticTokens/full", &Server::semantic_tokens},
      {"textDocument/codeAction", &Server::code_action},
  };
  return table;
}

const std::map<std::string, Server::Notification>& notification_table() {
  static const std::map<std::string, Server::Notification> table = {
      {"initialized", &Server::initialized},
      {"exit", &Server::exit},
      {"$/cancelRequest", &Server::cancel},
      {"textDocument/didOpen", &Server::did_open},
      {"textDocument/didChange", &Server::did_change},
      {"textDocument/didClose", &Server::did_close},
      {"textDocument/didSave", &Server::did_save},
  };
  return table;
}

bool is_method(const json& m, const char* method) {
  return m.is_object() && m.contains("method") && m["method"].is_string() && m["method"] == method;
}

const json& field(const json& j, const char* key) {
  if (!j.is_object() || !j.contains(key))
    throw ProtocolError{InvalidParams, std::string("missing '") + key + "'"};
  return j.at(key);
}

std::string string_field(const json& j, const char* key) {
  const json& v = field(j, key);
  if (!v.is_string()) throw ProtocolError{InvalidParams, std::string("'") + key + "' must be a string"};
  return v.get<std::string>();
}

}  // namespace

Server::Server(Send send) : send_(std::move(send)) {}

void Server::reply(const json& id, json result) {
  // Moved, not copied: an outline or the semantic tokens of a large document are many megabytes.
  json message = json::object();
  message["jsonrpc"] = "2.0";
  message["id"] = id;
  message["result"] = std::move(result);
  send_(message);
}

void Server::reply_error(const json& id, int code, const std::string& message) {
  send_({{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}});
}

void Server::reject_unparsable(const std::string& what, const json& id) {
  reply_error(id, ParseError, "invalid JSON: " + what);
}

void Server::notification_failed(const std::string& method, const std::string& message) {
  // A notification has no reply: the editor shows this instead (a refused didChange, say).
  std::cerr << "attnc lsp: " << method << ": " << message << "\n";
  send_({{"jsonrpc", "2.0"},
         {"method", "window/showMessage"},
         {"params", {{"type", 1}, {"message", "attnc lsp: " + method + ": " + message}}}});
}

void Server::handle(const json& message, const std::deque<json>& later) {
  if (!message.is_object()) return reply_error(nullptr, InvalidRequest, "a message must be a JSON object");
  bool has_id = message.contains("id");
  json id = has_id ? message["id"] : json(nullptr);
  if (has_id && !id.is_number_integer() && !id.is_string())
    return reply_error(nullptr, InvalidRequest, "invalid id");
  if (!message.contains("method")) {
    if (!has_id) reply_error(nullptr, InvalidRequest, "a message needs a method or an id");
    return;  // a response to a request of ours: we send none, so there is nothing to match
  }
  if (!message["method"].is_string()) return reply_error(id, InvalidRequest, "method must be a string");
  std::string method = message["method"].get<std::string>();
  json params = message.contains("params") ? message["params"] : json::object();
  try {
    if (!has_id) {
      if (!initialized_ && method != "exit") return;  // notifications before initialize are dropped
      auto it = notification_table().find(method);
      if (it != notification_table().end()) (this->*(it->second))(params, later);
      return;
    }
    if (exited_) return;
    if (!initialized_ && method != "initialize")
      return reply_error(id, ServerNotInitialized, "the server is not initialized");
    if (shutdown_) return reply_error(id, InvalidRequest, "the server is shutting down");
    std::string key = id.dump();
    bool cancelled = cancelled_.erase(key) > 0;
    for (const json& m : later)
      if (is_method(m, "$/cancelRequest") && m.contains("params") && m["params"].is_object() &&
          m["params"].contains("id") && m["params"]["id"].dump() == key)
        cancelled = true;
    if (cancelled) return reply_error(id, RequestCancelled, "request cancelled");
    auto it = request_table().find(method);
    if (it == request_table().end()) return reply_error(id, MethodNotFound, "unknown method: " + method);
    json result = (this->*(it->second))(params);
    bool large = holds_many_values(result);
    reply(id, std::move(result));
    // A large answer's JSON was spread over pages that the analysis now shares: without a trim,
    // the server stays at the peak of its largest answer (3 times the analysis, for an outline).
    if (large) release_free_memory();
  } catch (const ProtocolError& e) {
    if (has_id)
      reply_error(id, e.code, e.message);
    else
      notification_failed(method, e.message);
  } catch (const json::exception& e) {
    if (has_id)
      reply_error(id, InvalidParams, e.what());
    else
      notification_failed(method, e.what());
  } catch (const std::exception& e) {
    if (has_id)
      reply_error(id, InternalError, e.what());
    else
      notification_failed(method, e.what());
  }
}

// ---- lifecycle ---------------------------------------------------------------------------------

json Server::initialize(const json& params) {
  if (initialized_) throw ProtocolError{InvalidRequest, "initialize was already received"};
  if (params.is_object() && params.contains("initializationOptions") &&
      params["initializationOptions"].is_object()) {
    const json& max = params["initializationOptions"].value("maxDocumentBytes", json());
    if (!max.is_null()) {
      if (!max.is_number_unsigned() || max.get<uint64_t>() == 0)
        throw ProtocolError{InvalidParams,
                            "initializationOptions.maxDocumentBytes must be a positive integer"};
      docs_.set_max_bytes(static_cast<size_t>(std::min<uint64_t>(max.get<uint64_t>(), SIZE_MAX)));
    }
  }
  initialized_ = true;
  json legend = {{"tokenTypes", semantic_token_types()}, {"tokenModifiers", semantic_token_modifiers()}};
  json caps = {
      {"textDocumentSync", {{"openClose", true}, {"change", 2}, {"save", {{"includeText", false}}}}},
      {"hoverProvider", true},
      {"completionProvider", {{"triggerCharacters", {".", "(", ",", " "}}, {"resolveProvider", false}}},
      {"signatureHelpProvider", {{"triggerCharacters", {"(", ","}}}},
      {"definitionProvider", true},
      {"referencesProvider", true},
      {"documentHighlightProvider", true},
      {"renameProvider", {{"prepareProvider", true}}},
      {"documentSymbolProvider", true},
      {"documentFormattingProvider", true},
      {"codeActionProvider", {{"codeActionKinds", {"quickfix"}}}},
      {"semanticTokensProvider", {{"legend", legend}, {"full", true}}},
  };
  return {{"capabilities", caps}, {"serverInfo", {{"name", "attnc"}, {"version", ATTNC_VERSION}}}};
}

json Server::shutdown(const json&) {
  shutdown_ = true;
  return nullptr;
}

void Server::initialized(const json&, const std::deque<json>&) {}

void Server::exit(const json&, const std::deque<json>&) { exited_ = true; }

void Server::cancel(const json& params, const std::deque<json>&) {
  // Requests run in order: a cancel for one not yet handled is remembered until it comes.
  if (params.is_object() && params.contains("id")) cancelled_.insert(params["id"].dump());
  if (cancelled_.size() > 1000) cancelled_.clear();
}

// ---- documents ---------------------------------------------------------------------------------

void Server::publish_diagnostics(const std::string& uri) {
  const Document* d = docs_.find(uri);
  if (!d) return;
  auto a = docs_.analysis(uri);
  json params = {{"uri", uri}, {"version", d->version}, {"diagnostics", diagnostics(*a)}};
  send_({{"jsonrpc", "2.0"}, {"method", "textDocument/publishDiagnostics"}, {"params", params}});
}

void Server::did_open(const json& params, const std::deque<json>& later) {
  const json& doc = field(params, "textDocument");
  std::string uri = string_field(doc, "uri");
  std::string text = string_field(doc, "text");
  int version = doc.contains("version") && doc["version"].is_number_integer() ? doc["version"].get<int>() : 0;
  std::vector<std::string> importers = open_importers(uri_to_path(uri), uri);
  docs_.open(uri, std::move(text), version);
  publish_diagnostics(uri);
  for (const std::string& other : importers) publish_diagnostics(other);
  // Parsing's temporaries (the parse tree, the tokens) are gone: give their pages back.
  release_free_memory();
}

void Server::did_change(const json& params, const std::deque<json>& later) {
  const json& doc = field(params, "textDocument");
  std::string uri = string_field(doc, "uri");
  int version = doc.contains("version") && doc["version"].is_number_integer() ? doc["version"].get<int>() : 0;
  const Document* before = docs_.find(uri);
  std::vector<std::string> importers =
      before ? open_importers(before->path, uri) : std::vector<std::string>{};
  docs_.change(uri, field(params, "contentChanges"), version);
  // A burst of typing: only the last queued change of this document publishes.
  for (const json& m : later)
    if (is_method(m, "textDocument/didChange") && m.contains("params") && m["params"].is_object() &&
        m["params"].contains("textDocument") && m["params"]["textDocument"].is_object() &&
        m["params"]["textDocument"].value("uri", json()) == uri)
      return;
  publish_diagnostics(uri);
  for (const std::string& other : importers) publish_diagnostics(other);
  // The old analysis and the parse's temporaries are gone, the new analysis lies among their
  // pages: without a trim, every edit of a large document leaves the server at its parse's peak.
  // Trimming at each edit would make the next parse fault its pages in again (15% slower), so
  // it waits for a pause in the typing.
  free_memory_pending_ = true;
}

void Server::idle() {
  if (!free_memory_pending_) return;
  free_memory_pending_ = false;
  release_free_memory();
}

std::vector<std::string> Server::open_importers(const std::string& changed_path, const std::string& except) {
  std::vector<std::string> out;
  std::string path = std::filesystem::path(changed_path).lexically_normal().string();
  for (const auto& [other, doc] : docs_.all()) {
    if (other == except || !doc.analysis) continue;
    const Program& p = *doc.analysis->program;
    for (size_t f = 0; f < p.sources.size(); ++f)
      if (f != doc.analysis->main_file && p.sources.path(static_cast<FileId>(f)) == path) {
        out.push_back(other);
        break;
      }
  }
  return out;
}

void Server::did_close(const json& params, const std::deque<json>&) {
  std::string uri = string_field(field(params, "textDocument"), "uri");
  docs_.close(uri);
  // The analysis's many small blocks go back to the allocator, not to the system, unless asked.
  release_free_memory();
  send_({{"jsonrpc", "2.0"},
         {"method", "textDocument/publishDiagnostics"},
         {"params", {{"uri", uri}, {"diagnostics", json::array()}}}});
}

void Server::did_save(const json& params, const std::deque<json>&) {
  std::string uri = string_field(field(params, "textDocument"), "uri");
  // Imported files may have changed on disk: recheck every open document.
  for (const auto& [u, d] : docs_.all()) docs_.change(u, json::array(), d.version);
  if (docs_.find(uri)) publish_diagnostics(uri);
}

// ---- features ----------------------------------------------------------------------------------

std::shared_ptr<const Analysis> Server::document(const json& params) {
  return docs_.analysis(string_field(field(params, "textDocument"), "uri"));
}

uint32_t Server::offset(const Analysis& a, const json& params) {
  return a.offset_of(field(params, "position").get<Position>());
}

std::vector<std::shared_ptr<const Analysis>> Server::open_analyses() {
  std::vector<std::shared_ptr<const Analysis>> out;
  for (const auto& [uri, _] : docs_.all()) out.push_back(docs_.analysis(uri));
  return out;
}

json Server::hover(const json& params) {
  auto a = document(params);
  auto h = lsp::hover(*a, offset(*a, params));
  return h ? json(*h) : json(nullptr);
}

json Server::completion(const json& params) {
  auto a = document(params);
  bool incomplete = false;
  std::vector<CompletionItem> items = lsp::completion(*a, offset(*a, params), &incomplete);
  return {{"isIncomplete", incomplete}, {"items", std::move(items)}};
}

json Server::signature_help(const json& params) {
  auto a = document(params);
  auto s = lsp::signature_help(*a, offset(*a, params));
  return s ? json(*s) : json(nullptr);
}

json Server::definition(const json& params) {
  auto a = document(params);
  return lsp::definition(*a, offset(*a, params));
}

json Server::references(const json& params) {
  auto a = document(params);
  bool decl = params.value("context", json::object()).value("includeDeclaration", true);
  return lsp::references(*a, offset(*a, params), decl, open_analyses());
}

json Server::document_highlight(const json& params) {
  auto a = document(params);
  json out = json::array();
  for (const Highlight& h : lsp::document_highlights(*a, offset(*a, params)))
    out.push_back({{"range", h.range}, {"kind", h.write ? 3 : 2}});
  return out;
}

json Server::prepare_rename(const json& params) {
  auto a = document(params);
  auto t = lsp::prepare_rename(*a, offset(*a, params));
  if (!t) return nullptr;
  return {{"range", t->range}, {"placeholder", t->placeholder}};
}

json Server::rename(const json& params) {
  auto a = document(params);
  return lsp::rename(*a, offset(*a, params), string_field(params, "newName"), open_analyses());
}

json Server::document_symbol(const json& params) { return lsp::document_symbols(*document(params)); }

json Server::formatting(const json& params) { return lsp::formatting(*document(params)); }

json Server::semantic_tokens(const json& params) {
  return {{"data", lsp::semantic_tokens(*document(params))}};
}

json Server::code_action(const json& params) {
  auto a = document(params);
  return lsp::code_actions(*a, field(params, "range").get<Range>());
}

}  // namespace attn::lsp
