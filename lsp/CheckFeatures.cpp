// Runs every feature at every token of a file and checks that each result is well formed.
#include "lsp/CheckFeatures.h"

#include <chrono>
#include <filesystem>
#include <functional>
#include <set>

#include "frontend/Program.h"
#include "lsp/Features.h"
#include "lsp/Tokens.h"
#include "lsp/Uri.h"

namespace attn::lsp {

namespace {

class Checker {
 public:
  Checker(const Analysis& a, std::ostream& out) : a_(a), out_(out), lines_(a.text()) {}

  // Runs `f` at `offset`; an exception or an invalid result is a failure.
  void call(const char* feature, uint32_t offset, const std::function<json()>& f) {
    ++result.calls;
    try {
      json j = f();
      dump_message(j);  // must serialize
      check_ranges(j);
      if (!problem_.empty()) fail(feature, offset, problem_);
    } catch (const ProtocolError& e) {
      // Refusals (rename of a builtin, ...) are answers, not failures.
      if (e.code == InternalError) fail(feature, offset, e.message);
    } catch (const std::exception& e) {
      fail(feature, offset, e.what());
    }
    problem_.clear();
  }

  FeatureCheck result;

 private:
  void fail(const char* feature, uint32_t offset, const std::string& what) {
    ++result.failures;
    Position p = lines_.position(offset);
    out_ << a_.path << ":" << p.line + 1 << ":" << p.character + 1 << ": " << feature << " failed: " << what
         << "\n";
  }

  // Every range in the main document must lie inside it and be ordered.
  void check_ranges(const json& j) {
    if (j.is_array()) {
      for (const json& x : j) check_ranges(x);
      return;
    }
    if (!j.is_object()) return;
    if (j.contains("uri") && j["uri"] == a_.uri && j.contains("range")) check_range(j["range"]);
    for (const auto& [key, value] : j.items())
      if (key == "changes") {
        if (value.contains(a_.uri)) check_ranges(value[a_.uri]);
      } else if (key != "range") {
        check_ranges(value);
      } else if (!j.contains("uri"))
        check_range(value);
  }

  void check_range(const json& r) {
    Range range = r.get<Range>();
    auto inside = [&](Position p) {
      return p.line >= 0 && static_cast<size_t>(p.line) < lines_.line_count() && p.character >= 0 &&
             lines_.position(lines_.offset(p)) == p;
    };
    if (!inside(range.start) || !inside(range.end))
      problem_ = "range outside the document: " + r.dump();
    else if (lines_.offset(range.end) < lines_.offset(range.start))
      problem_ = "reversed range: " + r.dump();
  }

  const Analysis& a_;
  std::ostream& out_;
  LineTable lines_;
  std::string problem_;
};

}  // namespace

FeatureCheck check_all_features(const std::string& path, std::ostream& out) {
  auto started = std::chrono::steady_clock::now();
  std::string text;
  if (std::string why = read_source_file(path, text); !why.empty()) {
    out << "attnc: error: " << why << "\n";
    return {0, 0, 1};
  }
  std::string uri = path_to_uri(path);
  auto a = analyze(uri, std::filesystem::absolute(path).lexically_normal().string(), text, {});
  Analyses all{a};
  Checker c(*a, out);
  LineTable lines(text);
  c.call("diagnostics", 0, [&] { return json(diagnostics(*a)); });
  c.call("documentSymbol", 0, [&] { return json(document_symbols(*a)); });
  c.call("formatting", 0, [&] { return json(formatting(*a)); });
  c.call("semanticTokens", 0, [&] {
    std::vector<uint32_t> data = semantic_tokens(*a);
    if (data.size() % 5) throw std::runtime_error("token data is not a multiple of 5");
    return json(data);
  });
  size_t diags = a->program->diags.all().size();
  std::vector<Token> tokens = scan_tokens(text);
  std::set<std::string> symbols_done;
  for (const Token& t : tokens) {
    if (t.kind == TokenKind::Comment && t.end - t.begin > 256) continue;  // long comments: ends only
    ++c.result.tokens;
    for (uint32_t off : {t.begin, (t.begin + t.end) / 2, t.end}) {
      Position p = lines.position(off);
      c.call("position", off, [&] {
        uint32_t back = lines.offset(p);
        if (lines.position(back) != p) throw std::runtime_error("position does not round-trip");
        return json(nullptr);
      });
      c.call("hover", off, [&] {
        auto h = hover(*a, off);
        return h ? json(*h) : json(nullptr);
      });
      c.call("completion", off, [&] { return json(completion(*a, off)); });
      c.call("signatureHelp", off, [&] {
        auto s = signature_help(*a, off);
        return s ? json(*s) : json(nullptr);
      });
      c.call("definition", off, [&] { return json(definition(*a, off)); });
      c.call("codeAction", off, [&] { return json(code_actions(*a, Range{p, p})); });
      c.call("prepareRename", off, [&] {
        auto r = prepare_rename(*a, off);
        return r ? json{{"range", r->range}, {"placeholder", r->placeholder}} : json(nullptr);
      });
      // The answers of these depend only on the symbol under the cursor, and hold every use of
      // it: asked at each of them, a name used in every line (`kv`) makes the run quadratic. Once
      // per symbol covers the same answers in linear time.
      const Occurrence* o = a->occurrence_at(off);
      if (o && !symbols_done.insert(a->symbol_id(*o)).second) continue;
      c.call("references", off, [&] { return json(references(*a, off, true, all)); });
      c.call("documentHighlight", off, [&] {
        json out = json::array();
        for (const Highlight& h : document_highlights(*a, off)) out.push_back({{"range", h.range}});
        return out;
      });
      c.call("rename", off, [&] { return json(rename(*a, off, "renamed_symbol", all)); });
    }
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  out << path << ": " << tokens.size() << " tokens, " << diags << " diagnostics, " << c.result.calls
      << " feature calls, " << c.result.failures << " failures (" << static_cast<int>(seconds * 1000)
      << " ms)\n";
  return c.result;
}

}  // namespace attn::lsp
