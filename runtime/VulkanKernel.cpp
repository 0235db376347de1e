// print_vulkan_kernel / parse_vulkan_kernel: one `key value...` line per field, then the words.
#include "runtime/VulkanKernel.h"

#include "attn/vulkan.hpp"

#include <cstdio>
#include <iterator>
#include <sstream>
#include <stdexcept>

namespace attn::vk {

namespace {

// Bump when the text changes meaning: it is part of every vulkan kernel's cache key.
constexpr const char* kMagic = "attnc-vulkan-kernel 1";
const char* const kKindNames[] = {"f32", "i32", "bool", "buffer"};

[[noreturn]] void bad(const std::string& what) {
  throw std::invalid_argument("not a vulkan kernel (" + what + ")");
}

// The values of a `key value...` line.
std::istringstream fields_of(const std::string& line, const char* key) {
  std::istringstream fields(line);
  std::string word;
  if (!(fields >> word) || word != key) bad(std::string("expected '") + key + "', got '" + line + "'");
  return fields;
}

// The values of the next line, which must start with `key`.
std::istringstream next_fields(std::istream& in, const char* key) {
  std::string line;
  if (!std::getline(in, line)) bad(std::string("missing '") + key + "'");
  return fields_of(line, key);
}

template <class T>
T value(std::istringstream& fields, const char* key) {
  T v{};
  if (!(fields >> v)) bad(std::string("bad value of '") + key + "'");
  return v;
}

}  // namespace

std::string print_vulkan_kernel(const KernelLayout& k) {
  return print_vulkan_layout(k) + print_spirv_words(k.spirv.data(), k.spirv.size());
}

std::string print_vulkan_layout(const KernelLayout& k) {
  std::ostringstream out;
  out << kMagic << "\nentry " << k.entry << "\ndims " << k.head_dim << " " << k.value_dim << "\nrows "
      << k.rows << "\nf16_io " << k.f16_io << "\nlse " << k.lse << "\n";
  if (k.max) out << "max 1\n";  // only for return_max kernels: older layouts stay as they were
  for (const KernelArgSlot& a : k.args)
    out << "arg " << kKindNames[a.kind] << " " << a.name << " " << a.offset << " " << a.rank << "\n";
  out << "arg_words " << k.arg_words << "\n";
  return out.str();
}

std::string print_spirv_words(const uint32_t* words, size_t count) {
  std::string out = "spirv " + std::to_string(count);
  for (size_t i = 0; i < count; ++i) {
    char word[12];
    std::snprintf(word, sizeof word, "%s%08x", i % 8 ? " " : "\n", words[i]);
    out += word;
  }
  return out + "\n";
}

KernelLayout parse_vulkan_kernel(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  if (!std::getline(in, line) || line != kMagic) bad("no '" + std::string(kMagic) + "' header");
  KernelLayout k;
  auto f = next_fields(in, "entry");
  k.entry = value<std::string>(f, "entry");
  f = next_fields(in, "dims");
  k.head_dim = value<int>(f, "dims");
  k.value_dim = value<int>(f, "dims");
  f = next_fields(in, "rows");
  k.rows = value<int>(f, "rows");
  if (k.rows <= 0) bad("rows must be positive");
  f = next_fields(in, "f16_io");
  k.f16_io = value<int>(f, "f16_io") != 0;
  f = next_fields(in, "lse");
  k.lse = value<int>(f, "lse") != 0;
  bool more = static_cast<bool>(std::getline(in, line));
  if (more && line.rfind("max ", 0) == 0) {  // return_max kernels only
    f = fields_of(line, "max");
    k.max = value<int>(f, "max") != 0;
    more = static_cast<bool>(std::getline(in, line));
  }
  for (; more && line.rfind("arg ", 0) == 0; more = static_cast<bool>(std::getline(in, line))) {
    f = fields_of(line, "arg");
    std::string kind = value<std::string>(f, "arg");
    KernelArgSlot a;
    size_t i = 0;
    while (i < std::size(kKindNames) && kind != kKindNames[i]) ++i;
    if (i == std::size(kKindNames)) bad("unknown argument kind '" + kind + "'");
    a.kind = static_cast<KernelArgSlot::Kind>(i);
    a.name = value<std::string>(f, "arg");
    a.offset = value<int>(f, "arg");
    a.rank = value<int>(f, "arg");
    k.args.push_back(std::move(a));
  }
  f = fields_of(line, "arg_words");
  k.arg_words = value<int>(f, "arg_words");
  for (const KernelArgSlot& a : k.args)
    if (a.offset < 0 || a.rank < 0 || a.offset + (a.kind == KernelArgSlot::Buffer ? a.rank : 1) > k.arg_words)
      bad("argument '" + a.name + "' lies outside the argument words");
  f = next_fields(in, "spirv");
  size_t n = value<size_t>(f, "spirv");
  if (n == 0 || n > text.size() / 8) bad("bad word count");
  k.spirv.resize(n);
  for (uint32_t& w : k.spirv) {
    std::string hex;
    if (!(in >> hex) || hex.size() != 8 || hex.find_first_not_of("0123456789abcdef") != std::string::npos)
      bad("bad SPIR-V word");
    w = static_cast<uint32_t>(std::stoul(hex, nullptr, 16));
  }
  return k;
}

}  // namespace attn::vk

namespace attn {

KernelRequest vulkan_kernel_request(const char* layout, const uint32_t* words, size_t count) {
  KernelRequest r;
  r.target = "vulkan";
  r.source = std::string(layout) + vk::print_spirv_words(words, count);
  r.entry = vk::parse_vulkan_kernel(r.source).entry;
  return r;
}

}  // namespace attn
