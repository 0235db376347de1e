// .npy reader and writer.
#include "runtime/Npy.h"

#include <unistd.h>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

namespace attn {

namespace {

struct DescrInfo {
  const char* descr;
  ScalarType type;
};

constexpr DescrInfo kDescrs[] = {
    {"<f4", ScalarType::F32}, {"<f2", ScalarType::F16},  {"<f8", ScalarType::F64}, {"<i4", ScalarType::I32},
    {"<i8", ScalarType::I64}, {"|b1", ScalarType::Bool}, {"|u1", ScalarType::U8},
};

// A .npy descr as NumPy names it ("<c8": complex64), for messages.
std::string npy_type_name(const std::string& descr) {
  static const std::pair<char, const char*> kKinds[] = {{'f', "float"},   {'i', "int"},  {'u', "uint"},
                                                        {'c', "complex"}, {'b', "bool"}, {'M', "datetime"}};
  if (descr.size() < 3 || descr.find_first_not_of("0123456789", 2) != std::string::npos)
    return "'" + descr + "'";
  for (auto [kind, name] : kKinds)
    if (descr[1] == kind)
      return std::string(descr[0] == '>' ? "big-endian " : "") + name +
             (kind == 'b' ? "" : std::to_string(8 * std::stoi(descr.substr(2))));
  return "'" + descr + "'";
}

[[noreturn]] void fail(const std::string& path, const std::string& why) { throw NpyError(path + ": " + why); }

// Finds `'key':` in the header dict and returns the text after it.
std::string header_value(const std::string& header, const std::string& key, const std::string& path) {
  size_t p = header.find("'" + key + "'");
  if (p == std::string::npos) fail(path, "not a valid .npy file (header has no '" + key + "')");
  p = header.find(':', p);
  if (p == std::string::npos) fail(path, "not a valid .npy file (malformed header)");
  return header.substr(p + 1);
}

}  // namespace

HostTensor read_npy(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, std::string("cannot open: ") + std::strerror(errno));
  return read_npy_stream(in, path);
}

HostTensor read_npy_stream(std::istream& in, const std::string& path) {
  char magic[8];
  if (!in.read(magic, 8) || std::memcmp(magic, "\x93NUMPY", 6) != 0)
    fail(path, "not a .npy file (bad magic)");
  int major = static_cast<unsigned char>(magic[6]);
  uint32_t header_len = 0;
  if (major == 1) {
    unsigned char b[2];
    if (!in.read(reinterpret_cast<char*>(b), 2)) fail(path, "truncated header");
    header_len = b[0] | (b[1] << 8);
  } else if (major == 2 || major == 3) {
    unsigned char b[4];
    if (!in.read(reinterpret_cast<char*>(b), 4)) fail(path, "truncated header");
    header_len = b[0] | (b[1] << 8) | (b[2] << 16) | (static_cast<uint32_t>(b[3]) << 24);
  } else {
    fail(path, "unsupported .npy version " + std::to_string(major));
  }
  if (header_len > (1u << 20)) fail(path, "header too large");
  std::string header(header_len, '\0');
  if (!in.read(header.data(), header_len)) fail(path, "truncated header");

  std::string descr_v = header_value(header, "descr", path);
  size_t q1 = descr_v.find('\''), q2 = descr_v.find('\'', q1 + 1);
  if (q1 == std::string::npos || q2 == std::string::npos) fail(path, "malformed descr");
  std::string descr = descr_v.substr(q1 + 1, q2 - q1 - 1);
  if (descr == "<b1" || descr == "=b1") descr = "|b1";
  const DescrInfo* info = nullptr;
  for (const DescrInfo& d : kDescrs)
    if (descr == d.descr) info = &d;
  if (!info)
    fail(path, "unsupported dtype " + npy_type_name(descr) +
                   " (supported: f32, f16, f64, i32, i64, bool, u8; little-endian)");

  std::string fortran = header_value(header, "fortran_order", path);
  if (fortran.find("True") < fortran.find(',')) fail(path, "Fortran-order arrays are not supported");

  std::string shape_v = header_value(header, "shape", path);
  size_t lp = shape_v.find('('), rp = shape_v.find(')');
  if (lp == std::string::npos || rp == std::string::npos) fail(path, "malformed shape");
  std::vector<int64_t> shape;
  std::stringstream ss(shape_v.substr(lp + 1, rp - lp - 1));
  std::string tok;
  while (std::getline(ss, tok, ',')) {
    size_t a = tok.find_first_not_of(" \t");
    if (a == std::string::npos) continue;
    try {
      long long v = std::stoll(tok.substr(a));
      if (v < 0) fail(path, "negative dimension in shape");
      shape.push_back(v);
    } catch (const std::logic_error&) {
      fail(path, "malformed shape '" + shape_v.substr(lp, rp - lp + 1) + "'");
    }
  }
  // The size comes from the header: check it (and that the file holds that much) before
  // allocating anything.
  int64_t numel = 0;
  try {
    numel = checked_numel(shape, scalar_type_size(info->type));
  } catch (const std::length_error& e) {
    fail(path, e.what());
  }
  const int64_t expected = numel * static_cast<int64_t>(scalar_type_size(info->type));
  const std::streamoff data_at = in.tellg();
  in.seekg(0, std::ios::end);
  const std::streamoff file_end = in.tellg();
  in.seekg(data_at);
  if (data_at < 0 || file_end < data_at || file_end - data_at < expected) {
    HostTensor header_only;
    header_only.shape = shape;
    fail(path, "truncated data: expected " + std::to_string(expected) + " bytes for shape " +
                   header_only.shape_string());
  }
  HostTensor t(info->type, shape);
  if (!in.read(reinterpret_cast<char*>(t.bytes.data()), static_cast<std::streamsize>(t.bytes.size())))
    fail(path, "truncated data: expected " + std::to_string(t.bytes.size()) + " bytes for shape " +
                   t.shape_string());
  return t;
}

void write_npy(const std::string& path, const HostTensor& t) {
  const char* descr = nullptr;
  for (const DescrInfo& d : kDescrs)
    if (d.type == t.type) descr = d.descr;
  if (!descr) throw NpyError(path + ": cannot write " + scalar_type_name(t.type) + " as .npy");
  std::string shape = "(";
  for (size_t i = 0; i < t.shape.size(); ++i)
    shape += std::to_string(t.shape[i]) + (t.shape.size() == 1 || i + 1 < t.shape.size() ? "," : "");
  shape += ")";
  std::string header =
      std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
  size_t total = 10 + header.size() + 1;
  header += std::string((64 - total % 64) % 64, ' ') + "\n";
  std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary);
    if (!out) throw NpyError(path + ": cannot write: " + std::strerror(errno));
    out.write("\x93NUMPY\x01\x00", 8);
    unsigned char len[2] = {static_cast<unsigned char>(header.size() & 0xff),
                            static_cast<unsigned char>(header.size() >> 8)};
    out.write(reinterpret_cast<const char*>(len), 2);
    out.write(header.data(), static_cast<std::streamsize>(header.size()));
    out.write(reinterpret_cast<const char*>(t.bytes.data()), static_cast<std::streamsize>(t.bytes.size()));
    if (!out) {
      std::remove(tmp.c_str());
      throw NpyError(path + ": write failed");
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw NpyError(path + ": cannot rename into place: " + std::strerror(errno));
  }
}

}  // namespace attn
