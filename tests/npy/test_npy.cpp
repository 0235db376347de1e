// .npy files whose header promises more than can exist: overflowing dimension products, huge or
// negative dimensions, truncated data. Each is a clear NpyError, never a short read or a crash. Types
// attnc does not use are named as NumPy and PyTorch name them. FP8, which NumPy lacks (`attnc run`
// rounds f32 files to it), converts as PyTorch's casts do.
#define BOOST_TEST_MODULE npy
#include <boost/test/unit_test.hpp>
#include <cmath>

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
             "element type int8 is not one attnc uses (f32, f16, bf16, f64, i32, i64, bool, u8, e4m3, e5m2)");
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

BOOST_AUTO_TEST_CASE(fp8_values_round_trip_and_round_as_pytorch_casts_do) {
  // Every byte but NaN converts back to itself (-0 included); E4M3's NaN is S.1111.111.
  for (int b = 0; b < 256; ++b) {
    const uint8_t byte = uint8_t(b);
    const double e4 = e4m3_to_f64(byte), e5 = e5m2_to_f64(byte);
    BOOST_TEST(std::isnan(e4) == ((b & 0x7f) == 0x7f), b);
    if (!std::isnan(e4)) BOOST_TEST(f64_to_e4m3(e4) == byte, b);
    if (!std::isnan(e5)) BOOST_TEST(f64_to_e5m2(e5) == byte, b);
  }
  BOOST_TEST(e4m3_to_f64(0x7e) == 448.0);
  BOOST_TEST(e4m3_to_f64(0x01) == std::ldexp(1.0, -9));  // the smallest subnormal
  BOOST_TEST(e5m2_to_f64(0x7c) == INFINITY);
  BOOST_TEST(e5m2_to_f64(0x7b) == 57344.0);
  // Ties to even; past the largest value E4M3 saturates (infinity too) and E5M2 overflows, as
  // torch's .to(float8_e4m3fn) and .to(float8_e5m2) give.
  BOOST_TEST(f64_to_e4m3(464.0) == 0x7e);
  BOOST_TEST(f64_to_e4m3(1e9) == 0x7e);
  BOOST_TEST(f64_to_e4m3(-INFINITY) == 0xfe);
  BOOST_TEST(f64_to_e4m3(1.0 + 1.0 / 16) == 0x38);  // halfway between 1 and 1.125: 1
  BOOST_TEST(f64_to_e4m3(1.0 + 3.0 / 16) == 0x3a);  // halfway between 1.125 and 1.25: 1.25
  BOOST_TEST(f64_to_e5m2(61440.0) == 0x7c);
  BOOST_TEST(f64_to_e5m2(61439.0) == 0x7b);
  BOOST_TEST(std::isnan(e4m3_to_f64(f64_to_e4m3(NAN))));
  BOOST_TEST(std::isnan(e5m2_to_f64(f64_to_e5m2(NAN))));
  BOOST_TEST(f64_to_e4m3(std::ldexp(1.0, -11)) == 0x00);  // a quarter of the smallest subnormal: 0
}
