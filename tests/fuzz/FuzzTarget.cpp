// fuzz_frontend_one: everything a user's file can reach before code generation.
#include "tests/fuzz/FuzzTarget.h"

#include <string>

#include "codegen/Lower.h"
#include "frontend/Format.h"
#include "frontend/Program.h"

namespace attn::test {

void fuzz_frontend_one(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  LoadOptions options;
  // Imports resolve only to an in-memory file, never to the disk.
  options.overlays["fuzz/lib.attn"] = "mask near = q - kv < 4;\nscore twice = score * 2.0;\n";
  auto p = load_program_text("fuzz/main.attn", text, options);
  (void)render_diagnostics(p->diags, p->sources);
  (void)diagnostics_to_json(p->diags, p->sources);
  SourceManager sm;
  DiagnosticEngine diags;
  (void)format_source(sm, sm.add("fuzz.attn", text), diags);
  if (p->diags.has_errors()) return;
  for (const Decl* k : p->kernels()) {
    DiagnosticEngine lower_diags;
    if (auto ir = lower_kernel(*p, *k, lower_diags)) {
      (void)print_ir(*ir);
      (void)kernel_hash(*ir);
    }
  }
}

}  // namespace attn::test
