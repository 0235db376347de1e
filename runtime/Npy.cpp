// .npy reader and writer.
#include "runtime/Npy.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "runtime/InputFile.h"
#include "runtime/NpyHeader.h"
#include "runtime/OutputFile.h"
#include "runtime/PathText.h"

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

// Where a .npy file's bytes come from: a stream (the fuzz target) or an open regular file.
struct ByteSource {
  virtual ~ByteSource() = default;
  virtual bool read(char* out, size_t n) = 0;  // exactly n bytes, or false
  virtual int64_t remaining() = 0;             // bytes left after the read position, or -1
};

struct StreamSource : ByteSource {
  explicit StreamSource(std::istream& in) : in(in) {}
  bool read(char* out, size_t n) override {
    return static_cast<bool>(in.read(out, static_cast<std::streamsize>(n)));
  }
  int64_t remaining() override {
    const std::streamoff at = in.tellg();
    in.seekg(0, std::ios::end);
    const std::streamoff end = in.tellg();
    in.seekg(at);
    return at < 0 || end < at ? -1 : static_cast<int64_t>(end - at);
  }
  std::istream& in;
};

struct FdSource : ByteSource {
  explicit FdSource(int fd) : fd(fd) {}
  ~FdSource() override { ::close(fd); }
  bool read(char* out, size_t n) override {
    while (n > 0) {
      ssize_t got = ::read(fd, out, n);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) return false;
      out += got;
      n -= static_cast<size_t>(got);
    }
    return true;
  }
  int64_t remaining() override {
    struct stat st {};
    const off_t at = ::lseek(fd, 0, SEEK_CUR);
    return ::fstat(fd, &st) != 0 || at < 0 || st.st_size < at ? -1 : static_cast<int64_t>(st.st_size - at);
  }
  int fd;
};

HostTensor read_npy_from(ByteSource& in, const std::string& path) {
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

  const NpyHeader h = parse_npy_header(header, path);
  std::string descr = h.descr;
  if (descr == "<b1" || descr == "=b1") descr = "|b1";
  const DescrInfo* info = nullptr;
  for (const DescrInfo& d : kDescrs)
    if (descr == d.descr) info = &d;
  if (!info)
    fail(path, "unsupported dtype " + npy_type_name(descr) +
                   " (supported: f32, f16, f64, i32, i64, bool, u8; little-endian)");
  // Reading column-major data as row-major would give wrong values silently.
  if (h.fortran_order)
    fail(path, "Fortran-order (column-major) arrays are not supported: save np.ascontiguousarray(a)");
  const std::vector<int64_t>& shape = h.shape;
  // The size comes from the header: check it (and that the file holds that much) before
  // allocating anything.
  int64_t numel = 0;
  try {
    numel = checked_numel(shape, scalar_type_size(info->type));
  } catch (const std::length_error& e) {
    fail(path, e.what());
  }
  const int64_t expected = numel * static_cast<int64_t>(scalar_type_size(info->type));
  const int64_t left = in.remaining();
  if (left < expected) {
    HostTensor header_only;
    header_only.shape = shape;
    fail(path, "truncated data: expected " + std::to_string(expected) + " bytes for shape " +
                   header_only.shape_string());
  }
  HostTensor t(info->type, shape);
  if (!in.read(reinterpret_cast<char*>(t.bytes.data()), t.bytes.size()))
    fail(path, "truncated data: expected " + std::to_string(t.bytes.size()) + " bytes for shape " +
                   t.shape_string());
  return t;
}

}  // namespace

HostTensor read_npy(const std::string& path) {
  std::string why;
  const int fd = open_regular_file(path, why);
  if (fd < 0) fail(printable_path(path), why);
  FdSource in(fd);
  return read_npy_from(in, printable_path(path));
}

HostTensor read_npy_stream(std::istream& in, const std::string& path) {
  StreamSource source(in);
  return read_npy_from(source, path);
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
  const char len[2] = {static_cast<char>(header.size() & 0xff), static_cast<char>(header.size() >> 8)};
  try {
    write_output_file(path,
                      {std::string_view("\x93NUMPY\x01\x00", 8), std::string_view(len, 2), header,
                       std::string_view(reinterpret_cast<const char*>(t.bytes.data()), t.bytes.size())});
  } catch (const OutputFileError& e) {
    throw NpyError(e.what());
  }
}

}  // namespace attn
