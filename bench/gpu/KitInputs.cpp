// The kit's inputs: ATTN_ARGS parsing, dimension extents and in-range index buffers.
#include "bench/gpu/KitInputs.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>

namespace attn::kit {

std::vector<ArgSpec> parse_args(const std::string& src, bool& lse) {
  std::vector<ArgSpec> out;
  const std::string key = "\n#define ATTN_ARGS \"";
  size_t a = src.find(key);
  lse = src.find("\n#define ATTN_LSE 1\n") != std::string::npos;
  if (a == std::string::npos) return out;
  a += key.size();
  std::istringstream words(src.substr(a, src.find('"', a) - a));
  std::string w;
  while (words >> w) {
    ArgSpec s;
    const size_t colon = w.find(':'), bracket = w.find('[');
    s.name = w.substr(0, colon);
    s.elem = w.substr(colon + 1, (bracket == std::string::npos ? w.size() : bracket) - colon - 1);
    if (bracket != std::string::npos) {
      s.buffer = true;
      std::istringstream dims(w.substr(bracket + 1, w.size() - bracket - 2));
      std::string d;
      while (std::getline(dims, d, ',')) s.dims.push_back(d);
    }
    out.push_back(s);
  }
  return out;
}

DimKind dim_kind(const std::string& d) {
  if (d == "heads") return DimKind::Heads;
  if (!d.empty() && std::all_of(d.begin(), d.end(), [](unsigned char c) { return std::isdigit(c); }))
    return DimKind::Literal;
  if (d.find("len") != std::string::npos || d.find("seq") != std::string::npos) return DimKind::Length;
  if (d == "tiles") return DimKind::Tiles;
  return DimKind::Other;
}

int64_t dim_extent(const std::string& d, int64_t heads, int64_t length) {
  switch (dim_kind(d)) {
    case DimKind::Heads: return heads;
    case DimKind::Length: return length;
    case DimKind::Tiles: return (length + 15) / 16;
    case DimKind::Literal: return std::stoll(d);
    case DimKind::Other: return kOtherExtent;
  }
  return 1;
}

namespace {

std::vector<int64_t> shape_of(const ArgSpec& a, int64_t heads, int64_t length) {
  std::vector<int64_t> shape;
  for (const std::string& d : a.dims) shape.push_back(dim_extent(d, heads, length));
  return shape;
}

/// Every i32 value is below this: the smallest literal or other extent of any buffer.
int64_t index_bound(const std::vector<ArgSpec>& args) {
  int64_t bound = kOtherExtent;
  for (const ArgSpec& a : args)
    for (const std::string& d : a.dims)
      if (dim_kind(d) == DimKind::Literal || dim_kind(d) == DimKind::Other)
        bound = std::min(bound, dim_extent(d, 1, 1));
  return std::max<int64_t>(bound, 1);
}

int64_t element_bytes(const std::string& elem) { return elem == "bool" ? 1 : 4; }

}  // namespace

int64_t buffer_bytes(const std::vector<ArgSpec>& args, int64_t heads, int64_t length) {
  int64_t total = 0;
  for (const ArgSpec& a : args) {
    if (!a.buffer) continue;
    double n = static_cast<double>(element_bytes(a.elem));
    for (int64_t e : shape_of(a, heads, length)) n *= static_cast<double>(e);
    total += n > 9e18 ? INT64_MAX / 4 : static_cast<int64_t>(n);
  }
  return total;
}

std::vector<HostTensor> make_buffers(const std::vector<ArgSpec>& args, int64_t heads, int64_t length,
                                     std::mt19937& rng, bool documents_1130) {
  std::vector<HostTensor> out;
  const int64_t bound = index_bound(args);
  for (const ArgSpec& a : args) {
    if (!a.buffer) continue;
    const std::vector<int64_t> shape = shape_of(a, heads, length);
    if (a.elem == "i32") {
      HostTensor x(ScalarType::I32, shape);
      int32_t* v = x.data<int32_t>();
      const bool documents = a.dims.size() == 1 && dim_kind(a.dims[0]) == DimKind::Length;
      int64_t doc = 0;
      for (int64_t i = 0; i < x.numel(); ++i) {
        if (a.name == "start") {
          v[i] = 0;
        } else if (documents) {
          if (documents_1130)
            doc = i / 1130;
          else if (i > 0 && rng() % 97 == 0)
            ++doc;
          v[i] = static_cast<int32_t>(std::min(doc, bound - 1));
        } else {
          v[i] = static_cast<int32_t>(rng() % static_cast<uint64_t>(bound));
        }
      }
      out.push_back(std::move(x));
    } else if (a.elem == "f32") {
      HostTensor x(ScalarType::F32, shape);
      float* v = x.data<float>();
      for (int64_t i = 0; i < x.numel(); ++i)
        v[i] = static_cast<float>(
            std::pow(2.0, -8.0 * static_cast<double>(i % heads + 1) / static_cast<double>(heads)));
      out.push_back(std::move(x));
    } else {
      HostTensor x(ScalarType::Bool, shape);
      for (int64_t i = 0; i < x.numel(); ++i) x.bytes[static_cast<size_t>(i)] = rng() % 50 == 0 ? 1 : 0;
      out.push_back(std::move(x));
    }
  }
  return out;
}

std::vector<HostTensor> make_out_of_range_buffers(const std::vector<ArgSpec>& args) {
  std::vector<HostTensor> out;
  for (const ArgSpec& a : args) {
    if (!a.buffer) continue;
    const ScalarType t = a.elem == "i32"   ? ScalarType::I32
                         : a.elem == "f32" ? ScalarType::F32
                                           : ScalarType::Bool;
    out.emplace_back(t, std::vector<int64_t>(a.dims.size(), 1));  // zeros: in range where read at all
  }
  return out;
}

HostTensor random_tensor(ScalarType t, std::vector<int64_t> shape, std::mt19937& rng) {
  HostTensor x(t, std::move(shape));
  // Box-Muller over a 64-bit LCG seeded from rng: fast enough for 32k-key decode shapes.
  uint64_t s = (static_cast<uint64_t>(rng()) << 32) | rng();
  auto uniform = [&] {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (static_cast<double>(s >> 11) + 0.5) * (1.0 / 9007199254740992.0);
  };
  const int64_t n = x.numel();
  for (int64_t i = 0; i < n; i += 2) {
    const double r = std::sqrt(-2.0 * std::log(uniform())), a = 6.283185307179586 * uniform();
    x.set(i, r * std::cos(a));
    if (i + 1 < n) x.set(i + 1, r * std::sin(a));
  }
  return x;
}

}  // namespace attn::kit
