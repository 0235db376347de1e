// .npy files whose header promises more than can exist: overflowing dimension products, huge or
// negative dimensions, truncated data. Each is a clear NpyError, never a short read or a crash. Types
// attnc does not use are named as NumPy and PyTorch name them.
#define BOOST_TEST_MODULE npy
#include <boost/test/unit_test.hpp>

#include "runtime/KernelCallArgs.h"
#include "runtime/Npy.h"
#include "tests/support/TestSupport.h"

using namespace attn;

namespace {

std::string npy(const std::string& shape, size_t data_bytes, const std::string& descr = "<f4") {
  std::string header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
  header += std::string((64 - (10 + header.size() + 1) % 64) % 64, ' ') + "\n";
  std::string s = std::string("\x93NUMPY\x01\x00", 8);
  s += static_cast<char>(header.size() & 0xff);
  s += static_cast<char>(header.size() >> 8);
  return s + header + std::string(data_bytes, '\0');
}

// The message of read_npy's error for a file holding `bytes`, or "" when it reads.
std::string npy_error(const std::string& bytes) {
  test::TempDir dir;
  std::string path = (dir.path() / "t.npy").string();
  test::write_file(path, bytes);
  try {
    (void)read_npy(path);
  } catch (const NpyError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_good_file_reads) {
  BOOST_TEST(npy_error(npy("(1, 2, 3, 4)", 96)) == "");
  BOOST_TEST(npy_error(npy("(1, 2, 0, 4)", 0)) == "");
}

BOOST_AUTO_TEST_CASE(unsupported_dtypes_are_named_as_numpy_names_them) {
  BOOST_TEST(npy_error(npy("(2,)", 16, "<c8")).find("unsupported dtype complex64 (supported: f32,") !=
             std::string::npos);
  BOOST_TEST(npy_error(npy("(2,)", 8, ">f4")).find("unsupported dtype big-endian float32") !=
             std::string::npos);
  BOOST_TEST(npy_error(npy("(2,)", 2, "|i1")).find("unsupported dtype int8") != std::string::npos);
  BOOST_TEST(npy_error(npy("(2,)", 2, "|S1")).find("unsupported dtype '|S1'") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(foreign_dlpack_types_are_named_not_numbered) {
  auto message = [](DLDataType t) -> std::string {
    try {
      (void)dl_scalar_type(t);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  };
  BOOST_TEST(message({kDLInt, 8, 1}) ==
             "element type int8 is not one attnc uses (f32, f16, bf16, f64, i32, i64, bool, u8)");
  BOOST_TEST(message({kDLFloat, 32, 4}).rfind("element type float32x4 ", 0) == 0);
  BOOST_TEST(message({kDLInt, 64, 1}) == "");
}

BOOST_AUTO_TEST_CASE(overflowing_dimension_products_are_errors) {
  // 2^61 rows of 16 f32: the byte count wraps to 0 in 64 bits.
  std::string e = npy_error(npy("(1, 2, 2305843009213693952, 16)", 64));
  BOOST_TEST(
      e.find("dimension 2305843009213693952 of shape [1, 2, 2305843009213693952, 16] is larger than") !=
          std::string::npos,
      e);
  // Every dimension in range, the product not.
  e = npy_error(npy("(2147483647, 2147483647, 2147483647, 16)", 64));
  BOOST_TEST(e.find("is too large (more than 1024 GiB)") != std::string::npos, e);
  // A zero dimension does not excuse a huge one (kernels size grids from each).
  e = npy_error(npy("(1, 4611686018427387904, 0, 16)", 0));
  BOOST_TEST(e.find("is larger than") != std::string::npos, e);
}

BOOST_AUTO_TEST_CASE(data_shorter_than_the_header_says_is_an_error_before_allocating) {
  std::string e = npy_error(npy("(65536, 65536, 16)", 64));  // 256 GiB promised, 64 bytes there
  BOOST_TEST(
      e.find("truncated data: expected 274877906944 bytes for shape [65536, 65536, 16]") != std::string::npos,
      e);
}

BOOST_AUTO_TEST_CASE(host_tensors_check_their_shape) {
  BOOST_CHECK_THROW(HostTensor(ScalarType::F32, {1, 2, int64_t{1} << 61, 16}), std::length_error);
  BOOST_CHECK_THROW(HostTensor(ScalarType::F32, {-1, 2}), std::length_error);
  BOOST_TEST(HostTensor(ScalarType::F32, {2, 3}).bytes.size() == 24u);
  BOOST_TEST(checked_numel({4, 0, 5}, 4) == 0);
}
