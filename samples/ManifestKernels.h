// The samples' way into `attnc compile`'s output: a file's text, and one kernel of a manifest.json
// as a loader request (its source with its header pasted in), for attn::Loader to compile once.
#pragma once

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>

#include "attn/loader.hpp"

namespace samples {

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// Kernel `k` of the manifest in `dir` as a request for the cpu target.
inline attn::KernelRequest request_for(const nlohmann::json& k, const std::string& dir) {
  std::string cpp = k["files"]["cpu"][0], header = k["files"]["cpu"][1];
  std::string source = read_text(dir + "/" + cpp);
  std::string include = "#include \"" + header + "\"\n";
  size_t at = source.find(include);
  if (at != std::string::npos) source.replace(at, include.size(), read_text(dir + "/" + header));
  attn::KernelRequest r;
  r.target = "cpu";
  r.source = std::move(source);
  r.entry = k["cpu_entry"];
  for (const auto& f : k["cpu_flags"]) r.flags.push_back(f);
  return r;
}

}  // namespace samples
