// The language server: JSON-RPC dispatch over one registration table, the lifecycle
// (initialize, shutdown, exit), cancellation, and the open documents.
#pragma once

#include <chrono>
#include <deque>
#include <functional>
#include <set>
#include <string>

#include "lsp/Documents.h"
#include "lsp/Protocol.h"

namespace attn::lsp {

/// How long the server waits without a message before it calls Server::idle().
constexpr std::chrono::milliseconds kIdleAfter{300};

/// The server state: lifecycle flags, open documents, pending cancellations.
class Server {
 public:
  /// `send` writes one message to the client (the only way anything reaches it).
  using Send = std::function<void(const json&)>;
  explicit Server(Send send);

  /// Handles one message. `later` holds messages received after it and not yet handled: a
  /// request cancelled there is answered RequestCancelled, and diagnostics are not published for
  /// a document that a queued change will edit again.
  void handle(const json& message, const std::deque<json>& later = {});
  /// Answers a message that was not valid JSON (or broken framing) with a parse error, for the
  /// request `id` when it could be recovered from the bytes.
  void reject_unparsable(const std::string& what, const json& id = nullptr);

  /// Called when no message has come for kIdleAfter: gives the memory that edits freed
  /// back to the system then, not between the edits of a burst of typing.
  void idle();

  bool exited() const { return exited_; }
  /// The process exit code after `exit`: 0 when shutdown came first.
  int exit_code() const { return shutdown_ ? 0 : 1; }

  /// A handler of a request: params in, result out (throws ProtocolError on failure).
  using Request = json (Server::*)(const json& params);
  /// A handler of a notification.
  using Notification = void (Server::*)(const json& params, const std::deque<json>& later);

  // The handlers, registered by method name in Server.cpp's tables.
  json initialize(const json& params);
  json shutdown(const json& params);
  json hover(const json& params);
  json completion(const json& params);
  json signature_help(const json& params);
  json definition(const json& params);
  json references(const json& params);
  json document_highlight(const json& params);
  json prepare_rename(const json& params);
  json rename(const json& params);
  json document_symbol(const json& params);
  json formatting(const json& params);
  json semantic_tokens(const json& params);
  json code_action(const json& params);

  void initialized(const json& params, const std::deque<json>& later);
  void exit(const json& params, const std::deque<json>& later);
  void cancel(const json& params, const std::deque<json>& later);
  void did_open(const json& params, const std::deque<json>& later);
  void did_change(const json& params, const std::deque<json>& later);
  void did_close(const json& params, const std::deque<json>& later);
  void did_save(const json& params, const std::deque<json>& later);

 private:
  void reply(const json& id, json result);
  void reply_error(const json& id, int code, const std::string& message);
  void publish_diagnostics(const std::string& uri);
  /// Reports a notification that could not be applied: on stderr and as window/showMessage.
  void notification_failed(const std::string& method, const std::string& message);
  /// Open documents (but `except`) whose last analysis read the file at `path` (they import it).
  std::vector<std::string> open_importers(const std::string& path, const std::string& except);

  std::shared_ptr<const Analysis> document(const json& params);
  uint32_t offset(const Analysis& a, const json& params);
  std::vector<std::shared_ptr<const Analysis>> open_analyses();

  bool free_memory_pending_ = false;  ///< an edit freed an analysis: trim when idle
  Send send_;
  DocumentStore docs_;
  std::set<std::string> cancelled_;
  bool initialized_ = false, shutdown_ = false, exited_ = false;
};

/// Runs the server on stdin/stdout until `exit` or the end of input; returns the exit code.
/// Only protocol goes to stdout: anything else written there is sent to stderr.
int serve_stdio();

}  // namespace attn::lsp
