// Language server features at marked positions (`^`, `[[range]]`), without JSON-RPC.
#define BOOST_TEST_MODULE lsp
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <chrono>

#include "lsp/CursorContext.h"
#include "lsp/Documents.h"
#include "lsp/Features.h"
#include "lsp/Uri.h"
#include "tests/lsp/MarkedSource.h"
#include "tests/support/TestSupport.h"

using namespace attn;
using namespace attn::lsp;
using attn::test::parse_marked;

namespace attn::lsp {
std::ostream& operator<<(std::ostream& os, const Range& r) {
  return os << r.start.line << ":" << r.start.character << "-" << r.end.line << ":" << r.end.character;
}
}  // namespace attn::lsp

namespace {

struct Doc {
  attn::test::MarkedSource src;
  std::shared_ptr<const Analysis> a;
  explicit Doc(const std::string& marked, const std::string& path = "/tmp/attnc-lsp-test/main.attn",
               std::map<std::string, std::string> overlays = {})
      : src(parse_marked(marked)), a(analyze(path_to_uri(path), path, src.text, overlays)) {}
  uint32_t at(size_t i = 0) const { return src.points.at(i); }
};

std::vector<std::string> labels(const std::vector<CompletionItem>& items) {
  std::vector<std::string> out;
  for (const auto& i : items) out.push_back(i.label);
  return out;
}

bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

const char* kLibrary = R"(import std.masks;

/// Keys within `window` positions behind the query.
mask sliding(window: int) = causal && q - kv < window;

score softcap(cap: float) = cap * tanh(score / cap);
)";

}  // namespace

BOOST_AUTO_TEST_SUITE(positions)

BOOST_AUTO_TEST_CASE(utf16_columns_with_non_ascii) {
  std::string text = "// é𝄞x\nmask m = q >= kv;\n";
  LineTable lines(text);
  uint32_t x = static_cast<uint32_t>(text.find('x'));
  BOOST_TEST(lines.position(x).character == 6);  // "// " 3 + é 1 + 𝄞 2
  BOOST_TEST(lines.offset({0, 6}) == x);
  BOOST_TEST(lines.offset({0, 5}) == x);  // inside the surrogate pair: the code point's end
  BOOST_TEST(lines.offset({1, 4}) == text.find(" m ="));
  BOOST_TEST(lines.offset({0, 100}) == text.find('\n'));  // past the line: its end
  BOOST_TEST(lines.offset({9, 0}) == text.size());
}

BOOST_AUTO_TEST_CASE(invalid_utf8_counts_one_unit_per_byte) {
  std::string text =
      "a\xff\xfe"
      "b";
  LineTable lines(text);
  BOOST_TEST(lines.position(3).character == 3);
  BOOST_TEST(lines.offset({0, 3}) == 3u);
}

BOOST_AUTO_TEST_CASE(walker_agrees_with_the_line_table) {
  std::string text = "// é𝄞x\n\nmask m = q >= kv; /* 𝄞 */\n\xff end";
  LineTable lines(text);
  PositionWalker walker(text);
  for (uint32_t off = 0; off <= text.size(); ++off)
    BOOST_TEST((walker.advance(off) == lines.position(off)), off);
}

BOOST_AUTO_TEST_CASE(incremental_changes_use_utf16_ranges) {
  std::string text = "// 𝄞 é\nmask m = q >= kv;\n";
  nlohmann::json change = {
      {"range", {{"start", {{"line", 0}, {"character", 6}}}, {"end", {{"line", 0}, {"character", 7}}}}},
      {"text", "e"}};
  apply_content_change(text, change);
  BOOST_TEST(text == "// 𝄞 e\nmask m = q >= kv;\n");
  apply_content_change(
      text,
      {{"range", {{"start", {{"line", 1}, {"character", 5}}}, {"end", {{"line", 1}, {"character", 6}}}}},
       {"text", "causal2"}});
  BOOST_TEST(text == "// 𝄞 e\nmask causal2 = q >= kv;\n");
  apply_content_change(text, {{"text", "whole"}});
  BOOST_TEST(text == "whole");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(features)

BOOST_AUTO_TEST_CASE(hover_shows_signature_and_doc) {
  Doc d(std::string(kLibrary) +
        "kernel k { mask = slid^ing(4); score = softcap(3.0) |> ta^nh; dty^pe = bf16; }\n");
  auto h = hover(*d.a, d.at(0));
  BOOST_REQUIRE(h);
  BOOST_TEST(h->markdown.find("mask sliding(window: int)") != std::string::npos);
  BOOST_TEST(h->markdown.find("Keys within `window` positions") != std::string::npos);
  auto b = hover(*d.a, d.at(1));
  BOOST_REQUIRE(b);
  BOOST_TEST(b->markdown.find("tanh(x) -> float") != std::string::npos);
  auto o = hover(*d.a, d.at(2));
  BOOST_REQUIRE(o);
  BOOST_TEST(o->markdown.find("(kernel option) dtype") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(hover_on_stdlib_parameter_and_index) {
  Doc d("import std.masks;\nmask m(w: int) = caus^al && q^ - kv < w^;\n");
  auto s = hover(*d.a, d.at(0));
  BOOST_REQUIRE(s);
  BOOST_TEST(s->markdown.find("mask causal") != std::string::npos);
  BOOST_TEST(s->markdown.find("stdlib/masks.attn") != std::string::npos);
  BOOST_TEST(hover(*d.a, d.at(1))->markdown.find("the query position") != std::string::npos);
  BOOST_TEST(hover(*d.a, d.at(2))->markdown.find("(parameter) w: int") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(definition_in_file_and_stdlib) {
  Doc d("import std.masks;\nmask [[near]](w: int) = q - kv < w;\nmask m = ne^ar(3) && caus^al;\n");
  auto here = definition(*d.a, d.at(0));
  BOOST_REQUIRE_EQUAL(here.size(), 1u);
  BOOST_TEST(here[0].range == d.src.range(0));
  BOOST_TEST(here[0].uri == d.a->uri);
  auto std_def = definition(*d.a, d.at(1));
  BOOST_REQUIRE_EQUAL(std_def.size(), 1u);
  std::string file = uri_to_path(std_def[0].uri);
  BOOST_TEST(attn::test::read_file(file) == stdlib_modules().at("std.masks"));
  // The 0-based line of `mask causal` in the stdlib module, wherever it is.
  const std::string& masks = stdlib_modules().at("std.masks");
  int causal_line =
      static_cast<int>(std::count(masks.begin(), masks.begin() + masks.find("mask causal"), '\n'));
  BOOST_TEST(std_def[0].range.start.line == causal_line);
}

BOOST_AUTO_TEST_CASE(definition_across_a_relative_import) {
  attn::test::TempDir dir;
  attn::test::write_file(dir.path() / "lib.attn", kLibrary);
  std::string main = (dir.path() / "main.attn").string();
  Doc d("import \"lib.attn\";\nkernel k { mask = slid^ing(8); }\n", main);
  auto def = definition(*d.a, d.at(0));
  BOOST_REQUIRE_EQUAL(def.size(), 1u);
  BOOST_TEST(def[0].uri == path_to_uri((dir.path() / "lib.attn").string()));
  BOOST_TEST(def[0].range.start.line == 3);
  BOOST_TEST(def[0].range.start.character == 5);
}

BOOST_AUTO_TEST_CASE(references_and_rename_cover_named_arguments) {
  Doc d("mask near([[w]]: int) = q - kv < [[w]];\nmask m = near([[w^]] = 3);\n");
  auto refs = references(*d.a, d.at(0), true, {});
  BOOST_REQUIRE_EQUAL(refs.size(), 3u);
  for (size_t i = 0; i < 3; ++i) BOOST_TEST(refs[i].range == d.src.range(i));
  auto highlights = document_highlights(*d.a, d.at(0));
  BOOST_REQUIRE_EQUAL(highlights.size(), 3u);
  BOOST_TEST(highlights[0].write);
  BOOST_TEST(!highlights[1].write);
  auto prep = prepare_rename(*d.a, d.at(0));
  BOOST_REQUIRE(prep);
  BOOST_TEST(prep->placeholder == "w");
  WorkspaceEdit e = rename(*d.a, d.at(0), "width", {});
  BOOST_TEST(e.changes.at(d.a->uri).size() == 3u);
  BOOST_CHECK_THROW(rename(*d.a, d.at(0), "kv", {}), ProtocolError);
}

BOOST_AUTO_TEST_CASE(stdlib_and_builtins_cannot_be_renamed) {
  Doc d("import std.masks;\nmask m = caus^al && ab^s(q - kv) < 3;\n");
  BOOST_TEST(!prepare_rename(*d.a, d.at(0)));
  BOOST_TEST(!prepare_rename(*d.a, d.at(1)));
}

BOOST_AUTO_TEST_CASE(rename_of_a_let_binding) {
  Doc d("mask m = let [[a^]] = q - kv; [[a]] > 0 && [[a]] < 9;\n");
  WorkspaceEdit e = rename(*d.a, d.at(0), "dist", {});
  BOOST_TEST(e.changes.at(d.a->uri).size() == 3u);
}

BOOST_AUTO_TEST_CASE(completion_after_import_std) {
  Doc d("import std.^");
  auto items = labels(completion(*d.a, d.at(0)));
  BOOST_TEST(has(items, "masks"));
}

BOOST_AUTO_TEST_CASE(completion_of_kernel_keys_and_dtype) {
  Doc d("kernel k {\n  ^\n  dtype = ^\n}\n");
  auto keys = labels(completion(*d.a, d.at(0)));
  BOOST_TEST(has(keys, "mask"));
  BOOST_TEST(has(keys, "head_dim"));
  BOOST_TEST(!has(keys, "q"));
  auto dtypes = labels(completion(*d.a, d.at(1)));
  BOOST_TEST(has(dtypes, "bf16"));
}

BOOST_AUTO_TEST_CASE(completion_scopes) {
  Doc d(std::string(kLibrary) +
        "score s(t: float) = let big = t * 2; ^\nmask n(lim: int) = ^\nkernel k { mask = sliding(^); score = "
        "^ }\n");
  auto in_score = labels(completion(*d.a, d.at(0)));
  for (const char* n : {"score", "t", "big", "q", "kv", "causal", "sliding", "softcap", "tanh", "let"})
    BOOST_TEST(has(in_score, n), n);
  auto in_mask = labels(completion(*d.a, d.at(1)));
  BOOST_TEST(has(in_mask, "lim"));
  BOOST_TEST(!has(in_mask, "score"));
  BOOST_TEST(!has(in_mask, "big"));
  auto in_call = labels(completion(*d.a, d.at(2)));
  BOOST_TEST(has(in_call, "window ="));
  BOOST_TEST(has(in_call, "q ="));
  BOOST_TEST(has(labels(completion(*d.a, d.at(3))), "score"));
}

BOOST_AUTO_TEST_CASE(completion_offers_stdlib_names_with_their_import) {
  Doc d("mask local(w: int) = q - kv < w;\nmask m = local(4) && ca^\n");
  auto items = completion(*d.a, d.at(0));
  auto it =
      std::find_if(items.begin(), items.end(), [](const CompletionItem& i) { return i.label == "causal"; });
  BOOST_REQUIRE(it != items.end());
  BOOST_REQUIRE_EQUAL(it->additionalTextEdits.size(), 1u);
  BOOST_TEST(it->additionalTextEdits[0].newText == "import std.masks;\n");
  BOOST_TEST(it->additionalTextEdits[0].range.start.line == 0);
  Doc imported("import std.masks;\nmask m = ca^\n");
  auto again = completion(*imported.a, imported.at(0));
  auto c =
      std::find_if(again.begin(), again.end(), [](const CompletionItem& i) { return i.label == "causal"; });
  BOOST_REQUIRE(c != again.end());
  BOOST_TEST(c->additionalTextEdits.empty());
}

BOOST_AUTO_TEST_CASE(completion_in_half_typed_code) {
  Doc d("import std.masks;\nmask sliding(window: int) = causal && q - kv < win^\n");
  auto items = labels(completion(*d.a, d.at(0)));
  BOOST_TEST(has(items, "window"));
  BOOST_TEST(has(items, "causal"));
  Doc top("mask m = q >= kv;\n^");
  BOOST_TEST(has(labels(completion(*top.a, top.at(0))), "kernel"));
  Doc comment("// a comment ^\nmask m = q >= kv;\n");
  BOOST_TEST(completion(*comment.a, comment.at(0)).empty());
}

BOOST_AUTO_TEST_CASE(signature_help_tracks_the_argument) {
  Doc d(
      "fn f(a: int, b: float) -> float = a + b;\nmask m = f(1, ^) > 0.0 && clamp(q, ^;\nmask n = f(b = ^) > "
      "0.0;\n");
  auto s = signature_help(*d.a, d.at(0));
  BOOST_REQUIRE(s);
  BOOST_TEST(s->signatures[0].label == "fn f(a: int, b: float) -> float");
  BOOST_TEST(s->activeParameter == 1);
  auto b = signature_help(*d.a, d.at(1));
  BOOST_REQUIRE(b);
  BOOST_TEST(b->signatures[0].parameters.size() == 3u);
  BOOST_TEST(b->activeParameter == 1);
  auto named = signature_help(*d.a, d.at(2));
  BOOST_REQUIRE(named);
  BOOST_TEST(named->activeParameter == 1);
}

BOOST_AUTO_TEST_CASE(diagnostics_with_notes_and_quick_fixes) {
  Doc d("mask near(w: int) = q - kv < w;\nmask near = q >= kv;\nmask m = [[naer]](2);\n");
  auto diags = diagnostics(*d.a);
  BOOST_REQUIRE_EQUAL(diags.size(), 2u);
  BOOST_TEST(diags[0].message == "redefinition of 'near'");
  BOOST_REQUIRE_EQUAL(diags[0].related.size(), 1u);
  BOOST_TEST(diags[0].related[0].location.range.start.line == 0);
  auto actions = code_actions(*d.a, d.src.range(0));
  BOOST_REQUIRE_EQUAL(actions.size(), 1u);
  BOOST_TEST(actions[0].edit.changes.at(d.a->uri)[0].newText == "near");
  BOOST_TEST(actions[0].edit.changes.at(d.a->uri)[0].range == d.src.range(0));
}

BOOST_AUTO_TEST_CASE(quick_fix_adds_a_missing_stdlib_import) {
  Doc d("import \"lib.attn\";\nkernel k { mask = [[causal]]; }\n", "/tmp/attnc-lsp-test/main.attn",
        {{"/tmp/attnc-lsp-test/lib.attn", kLibrary}});
  auto actions = code_actions(*d.a, d.src.range(0));
  BOOST_REQUIRE_EQUAL(actions.size(), 1u);
  BOOST_TEST(actions[0].title == "Add 'import std.masks;'");
  const auto& edit = actions[0].edit.changes.at(d.a->uri)[0];
  BOOST_TEST(edit.newText == "\nimport std.masks;");
  BOOST_TEST(edit.range.start.line == 0);
  BOOST_TEST(edit.range.start.character == 18);
  BOOST_TEST(edit.range.end.character == 18);
}

BOOST_AUTO_TEST_CASE(document_symbols_formatting_tokens) {
  Doc d("import std.masks;\nmask   m(w:int)=q-kv<w;\nkernel k { mask = m(3); }\n");
  auto syms = document_symbols(*d.a);
  BOOST_REQUIRE_EQUAL(syms.size(), 3u);
  BOOST_TEST(syms[1].name == "m");
  BOOST_TEST(syms[1].children.size() == 1u);
  BOOST_TEST(syms[2].children[0].name == "mask");
  auto edits = formatting(*d.a);
  BOOST_REQUIRE_EQUAL(edits.size(), 1u);
  BOOST_TEST(edits[0].newText.find("mask m(w: int) = q - kv < w;") != std::string::npos);
  auto data = semantic_tokens(*d.a);
  BOOST_TEST(data.size() % 5 == 0u);
  BOOST_TEST(data.size() > 40u);
  BOOST_TEST(semantic_token_types()[data[3]] == "keyword");  // `import`
}

BOOST_AUTO_TEST_CASE(imported_file_deleted_while_open) {
  attn::test::TempDir dir;
  attn::test::write_file(dir.path() / "lib.attn", kLibrary);
  std::string main = (dir.path() / "main.attn").string();
  std::string text = "import \"lib.attn\";\nkernel k { mask = sliding(8); }\n";
  BOOST_TEST(diagnostics(*analyze(path_to_uri(main), main, text, {})).empty());
  std::filesystem::remove(dir.path() / "lib.attn");
  auto diags = diagnostics(*analyze(path_to_uri(main), main, text, {}));
  BOOST_REQUIRE(!diags.empty());
  BOOST_TEST(diags[0].message.find("cannot open imported file") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(huge_and_invalid_documents) {
  std::string big = "import std.masks;\n";
  for (int i = 0; i < 10000; ++i)
    big += "mask m" + std::to_string(i) + "(w: int) = causal && q - kv < w + " + std::to_string(i) + ";\n";
  auto t0 = std::chrono::steady_clock::now();
  auto a = analyze("file:///tmp/big.attn", "/tmp/big.attn", big, {});
  BOOST_TEST(diagnostics(*a).empty());
  BOOST_TEST(semantic_tokens(*a).size() > 10000u);
  BOOST_TEST(!completion(*a, static_cast<uint32_t>(big.size() - 3)).empty());
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  BOOST_TEST(s < 20.0);
  // One very long line: semantic tokens stay linear.
  std::string wide = "mask m = q >= kv";
  for (int i = 0; i < 20000; ++i) wide += " && q >= kv";
  wide += ";\n";
  auto w = analyze("file:///tmp/wide.attn", "/tmp/wide.attn", wide, {});
  BOOST_TEST(semantic_tokens(*w).size() >=
             5 * 40000u);  // the operators at least (the frontend refuses the statement)
  s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  BOOST_TEST(s < 30.0);
  auto bad = analyze("file:///tmp/bad.attn", "/tmp/bad.attn", "mask m = q \xff\xfe >= kv;\n// \xc3\n", {});
  BOOST_TEST(!diagnostics(*bad).empty());
  BOOST_TEST(nlohmann::json(diagnostics(*bad)).dump().size() > 0u);
  for (uint32_t off = 0; off < bad->text().size(); ++off) {
    hover(*bad, off);
    completion(*bad, off);
    semantic_tokens(*bad);
  }
}

BOOST_AUTO_TEST_CASE(cursor_context_in_kernel_values) {
  CursorContext c = cursor_context("kernel k { mask = a; score = f(", 31);
  BOOST_TEST(c.where == CursorContext::Expression);
  BOOST_TEST(c.kernel_key == "score");
  BOOST_TEST(c.score_in_scope);
  BOOST_TEST(c.in_call);
  BOOST_TEST(c.callee == "f");
}

BOOST_AUTO_TEST_CASE(diagnostics_are_capped_per_document) {
  // 1,500 duplicate names: 1,500 errors, published as the first 1,000 and one more that counts the rest.
  std::string text = "mask m = q >= kv;\n";
  for (int i = 0; i < 1500; ++i) text += "mask m = q >= kv;\n";
  Doc d(text);
  BOOST_REQUIRE(d.a->program->diags.all().size() == 1500u);
  auto diags = diagnostics(*d.a);
  BOOST_REQUIRE(diags.size() == kMaxDiagnosticsPerDocument + 1);
  BOOST_TEST(diags.back().message == "and 500 more diagnostics not shown (the first 1000 are)");
  BOOST_TEST(diags.back().range.start.line == 1001);
}

BOOST_AUTO_TEST_CASE(completion_answers_are_bounded_and_filtered_by_the_prefix) {
  std::string text;
  for (int i = 0; i < 300; ++i) text += "mask a" + std::to_string(i) + " = q >= kv;\n";
  Doc d(text + "mask z = ^ && a29^;\n");
  bool incomplete = false;
  auto all = completion(*d.a, d.at(0), &incomplete);
  BOOST_TEST(all.size() == kMaxCompletionItems);
  BOOST_TEST(incomplete);
  auto some = labels(completion(*d.a, d.at(1), &incomplete));
  BOOST_TEST(!incomplete);
  BOOST_TEST(some.size() == 11u);  // a29, a290 .. a299
  BOOST_TEST(has(some, "a29"));
  BOOST_TEST(has(some, "a299"));
}

BOOST_AUTO_TEST_SUITE_END()
