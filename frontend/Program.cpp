// Loading a program: the main file, its imports (stdlib modules built in, relative files from
// disk or the caller's overlays), import cycles, then semantic checks.
#include "frontend/Program.h"

#include <cstdlib>
#include <filesystem>

#include "frontend/Limits.h"
#include "frontend/Parse.h"
#include "frontend/Sema.h"
#include "runtime/InputFile.h"
#include "runtime/PathText.h"

namespace attn {

const std::map<std::string, std::string>& embedded_stdlib();  // stdlib/ (generated)

const std::map<std::string, std::string>& stdlib_modules() { return embedded_stdlib(); }

const Decl* Program::kernel(const std::string& name) const {
  if (!main()) return nullptr;
  for (const auto& d : main()->decls)
    if (d->kind == DeclKind::Kernel && d->name == name) return d.get();
  return nullptr;
}

std::vector<const Decl*> Program::kernels() const {
  std::vector<const Decl*> out;
  if (main())
    for (const auto& d : main()->decls)
      if (d->kind == DeclKind::Kernel) out.push_back(d.get());
  return out;
}

namespace {

namespace fs = std::filesystem;

// The file a path leads to once every symbolic link is followed; empty when it leads nowhere.
std::string resolved_path(const std::string& path) {
  char* real = ::realpath(path.c_str(), nullptr);
  if (!real) return {};
  std::string out = real;
  std::free(real);
  return out;
}

class ModuleLoader {
 public:
  ModuleLoader(Program& p, const LoadOptions& o) : program_(p), options_(o) {}

  // Parses one module and, depth first, everything it imports. `stack` holds the chain of
  // modules being loaded, to name the cycle when an import closes one.
  Module* load(const std::string& key, const std::string& display, std::shared_ptr<const std::string> text) {
    FileId file = program_.sources.add(display, std::move(text));
    ParseResult parsed = parse_module(program_.sources, file, program_.diags);
    Module* m = parsed.module.get();
    m->name = key;
    program_.modules.push_back(std::move(parsed.module));
    loaded_[key] = m;
    stack_.push_back(key);
    for (Import& imp : m->imports) resolve_import(imp, key);
    stack_.pop_back();
    return m;
  }

 private:
  void resolve_import(Import& imp, const std::string& importer) {
    std::string key, display, text;
    if (imp.is_std) {
      key = imp.spelling;
      const auto& std_modules = stdlib_modules();
      auto it = std_modules.find(key);
      if (key.rfind("std.", 0) != 0 || it == std_modules.end()) {
        std::vector<std::string> names;
        for (const auto& [n, _] : std_modules) names.push_back(n);
        Diagnostic& d = program_.diags.error(imp.range, "unknown stdlib module '" + key + "'");
        std::string guess = closest_name(key, names);
        if (!guess.empty()) d.message += "; did you mean '" + guess + "'?";
        return;
      }
      display = "stdlib/" + key.substr(4) + ".attn";
      text = it->second;
    } else {
      fs::path base = importer.rfind("std.", 0) == 0 ? fs::path() : fs::path(importer).parent_path();
      fs::path p = (base / imp.spelling).lexically_normal();
      key = p.string();
      display = key;
      // Only .attn files: anything else is refused unread, so no error can quote its content.
      if (p.extension() != ".attn" && !options_.overlays.count(key)) {
        program_.diags.error(imp.range, "cannot import '" + printable_path(key) + "': not an .attn file");
        return;
      }
      if (!options_.overlays.count(key)) {
        // The rule holds for the file read, not for the name: a link `x.attn -> secret.txt` is
        // refused unread, like `import "secret.txt"`.
        std::string real = resolved_path(key);
        if (!real.empty() && fs::path(real).extension() != ".attn") {
          program_.diags.error(imp.range, "cannot import '" + printable_path(key) + "': it leads to '" +
                                              printable_path(real) + "', not an .attn file");
          return;
        }
      }
      if (std::string why = read(key, text); !why.empty()) {
        program_.diags.error(imp.range, "cannot open imported file '" + printable_path(key) + "'" +
                                            (why.find("not a regular file") != std::string::npos ||
                                                     why.find("larger than") != std::string::npos
                                                 ? ": " + why
                                                 : ""));
        return;
      }
      if (!is_source_text(text)) {
        program_.diags.error(
            imp.range, "cannot import '" + printable_path(key) + "': not an .attn file (binary content)");
        return;
      }
    }
    for (size_t i = 0; i < stack_.size(); ++i) {
      if (stack_[i] == key) {
        std::string chain;
        for (size_t j = i; j < stack_.size(); ++j) chain += stack_[j] + " -> ";
        program_.diags.error(imp.range, "import cycle: " + chain + key);
        return;
      }
    }
    if (auto it = loaded_.find(key); it != loaded_.end()) {
      imp.target = it->second;
      return;
    }
    imp.target = load(key, display, std::make_shared<const std::string>(std::move(text)));
  }

  // Source text is UTF-8 without NUL or other control bytes but tab, CR, LF and form feed.
  static bool is_source_text(const std::string& text) {
    for (size_t i = 0; i < text.size();) {
      unsigned char c = static_cast<unsigned char>(text[i]);
      if (c < 0x80) {
        if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f') return false;
        if (c == 0x7f) return false;
        ++i;
        continue;
      }
      size_t n = c >= 0xf0 && c < 0xf5 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
      if (n == 0 || (c >= 0xf5) || i + n > text.size()) return false;
      for (size_t k = 1; k < n; ++k)
        if ((static_cast<unsigned char>(text[i + k]) & 0xc0) != 0x80) return false;
      i += n;
    }
    return true;
  }

  // The text of an imported file: an overlay, or a regular file of at most kMaxSourceBytes (an
  // import of a device or a FIFO must not hang). Returns "" or why it cannot be read.
  std::string read(const std::string& path, std::string& text) {
    if (auto it = options_.overlays.find(path); it != options_.overlays.end()) {
      text = it->second;
      return {};
    }
    return read_source_file(path, text);
  }

  Program& program_;
  const LoadOptions& options_;
  std::map<std::string, Module*> loaded_;
  std::vector<std::string> stack_;
};

}  // namespace

std::unique_ptr<Program> load_program_text(const std::string& path, std::string text,
                                           const LoadOptions& options) {
  return load_program_text(path, std::make_shared<const std::string>(std::move(text)), options);
}

std::unique_ptr<Program> load_program_text(const std::string& path, std::shared_ptr<const std::string> text,
                                           const LoadOptions& options) {
  auto program = std::make_unique<Program>();
  ModuleLoader loader(*program, options);
  loader.load(std::filesystem::path(path).lexically_normal().string(), path, std::move(text));
  if (options.check) check_program(*program);
  program->diags.sort_by_location();
  return program;
}

std::string read_source_file(const std::string& path, std::string& text) {
  return read_regular_file(path, kMaxSourceBytes, text);
}

std::unique_ptr<Program> load_program(const std::string& path, const LoadOptions& options) {
  std::string text;
  if (auto it = options.overlays.find(path); it != options.overlays.end()) {
    text = it->second;
  } else if (std::string why = read_source_file(path, text); !why.empty()) {
    auto program = std::make_unique<Program>();
    FileId f = program->sources.add(path, "");
    program->diags.error({f, 0, 0}, why);
    return program;
  }
  return load_program_text(path, std::move(text), options);
}

}  // namespace attn
