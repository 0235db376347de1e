// URI conversion and the on-disk copies of stdlib modules for go-to-definition.
#include "lsp/Uri.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>

#include "frontend/Program.h"
#include "runtime/InputFile.h"
#include "runtime/OutputFile.h"

namespace attn::lsp {

namespace fs = std::filesystem;

std::string uri_to_path(const std::string& uri) {
  if (uri.rfind("file://", 0) != 0) return uri;
  std::string rest = uri.substr(7);
  // file://host/path: drop an authority other than localhost.
  size_t slash = rest.find('/');
  if (slash == std::string::npos) return rest;
  rest = rest.substr(slash);
  std::string out;
  for (size_t i = 0; i < rest.size(); ++i) {
    auto hex = [](char c) {
      return c >= '0' && c <= '9'   ? c - '0'
             : c >= 'a' && c <= 'f' ? c - 'a' + 10
             : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                    : -1;
    };
    if (rest[i] == '%' && i + 2 < rest.size() && hex(rest[i + 1]) >= 0 && hex(rest[i + 2]) >= 0) {
      out += static_cast<char>(hex(rest[i + 1]) * 16 + hex(rest[i + 2]));
      i += 2;
    } else {
      out += rest[i];
    }
  }
  return out;
}

std::string path_to_uri(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::absolute(path, ec);
  std::string s = (ec ? fs::path(path) : p).lexically_normal().string();
  std::string out = "file://";
  for (unsigned char c : s) {
    bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 std::string_view("/-_.~+@").find(static_cast<char>(c)) != std::string_view::npos;
    if (plain) {
      out += static_cast<char>(c);
    } else {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", c);
      out += buf;
    }
  }
  return out;
}

namespace {

// Whether the regular file `p` holds `text` (a FIFO or device there is not waited on).
bool file_holds(const fs::path& p, const std::string& text) {
  std::string held;
  return read_regular_file(p.string(), text.size() + 1, held).empty() && held == text;
}

fs::path cache_root() {
  if (const char* c = std::getenv("ATTNC_CACHE_DIR"); c && *c) return fs::path(c);
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return fs::path(x) / "attnc";
  if (const char* h = std::getenv("HOME"); h && *h) return fs::path(h) / ".cache" / "attnc";
  return fs::temp_directory_path() / "attnc";
}

}  // namespace

std::string stdlib_file(const std::string& name) {
  static std::mutex mutex;
  static std::map<std::string, std::string> found;
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = found.find(name); it != found.end()) return it->second;
  const auto& modules = stdlib_modules();
  auto it = modules.find(name);
  if (it == modules.end() || name.rfind("std.", 0) != 0) return "";
  std::string file = name.substr(4) + ".attn";
#ifdef ATTNC_SOURCE_DIR
  fs::path tree = fs::path(ATTNC_SOURCE_DIR) / "stdlib" / file;
  if (file_holds(tree, it->second)) return found[name] = tree.string();
#endif
  std::error_code ec;
  fs::path dir = cache_root() / "stdlib";
  fs::create_directories(dir, ec);
  fs::path target = dir / file;
  if (!file_holds(target, it->second)) {
    // As every output: a fresh private temporary renamed over it, so a concurrent reader never
    // sees half a file and no name planted in a shared cache folder is written through.
    try {
      write_output_file(target.string(), it->second);
    } catch (const OutputFileError&) {
      return "";
    }
  }
  return found[name] = target.string();
}

}  // namespace attn::lsp
