// .npy headers read as the format specifies them: a Python literal dict with exactly 'descr',
// 'fortran_order' and 'shape'. What NumPy refuses (or would read differently) is a clear NpyError,
// never a guess: `'fortran_order': 1`, a shape of `(1,2,1e3,8)`, `0x10`, `16abc`, `8.5`, a
// duplicated key. Fortran-order data is refused rather than read as C order.
#include <boost/test/unit_test.hpp>

#include "runtime/Npy.h"
#include "runtime/NpyHeader.h"
#include "tests/support/TestSupport.h"

using namespace attn;

namespace {

// A version 1.0 file with this header dict (padded as NumPy pads it) and `data_bytes` of data.
std::string npy_with_header(const std::string& dict, size_t data_bytes) {
  std::string header = dict;
  header += std::string((64 - (10 + header.size() + 1) % 64) % 64, ' ') + "\n";
  std::string s = std::string("\x93NUMPY\x01\x00", 8);
  s += static_cast<char>(header.size() & 0xff);
  s += static_cast<char>(header.size() >> 8);
  return s + header + std::string(data_bytes, '\0');
}

// The error of read_npy on a file with header `dict` (and enough data for a few values), or "".
std::string header_error(const std::string& dict) {
  test::TempDir dir;
  std::string path = (dir.path() / "h.npy").string();
  test::write_file(path, npy_with_header(dict, 1 << 12));
  try {
    (void)read_npy(path);
  } catch (const NpyError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(npy_header)

BOOST_AUTO_TEST_CASE(headers_numpy_writes_read) {
  for (const char* dict : {"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }",
                           "{'descr': '<f4', 'fortran_order': False, 'shape': (6,), }",
                           "{'descr': '<f4', 'fortran_order': False, 'shape': (), }",
                           "{'shape': (2,3,), 'descr': \"<f4\", 'fortran_order': False}",
                           "{ 'descr' : '<f4' , 'fortran_order' : False , 'shape' : ( 2 , 3 ) }"})
    BOOST_TEST(header_error(dict) == "", dict);
  const NpyHeader h =
      parse_npy_header("{'descr': '<i4', 'fortran_order': False, 'shape': (0, 17, 1), }", "x");
  BOOST_TEST(h.descr == "<i4");
  BOOST_TEST((h.shape == std::vector<int64_t>{0, 17, 1}));
}

BOOST_AUTO_TEST_CASE(what_numpy_refuses_is_refused) {
  const std::pair<const char*, const char*> cases[] = {
      {"{'descr': '<f4', 'fortran_order': 1, 'shape': (2,), }",
       "'fortran_order' must be True or False, not '1'"},
      {"{'descr': '<f4', 'fortran_order': Falsey, 'shape': (2,), }", "must be True or False"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,2,1e3,8), }", "not '1e3'"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (0x10,), }", "not '0x10'"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (16abc,), }", "not '16abc'"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (8.5,), }", "not '8.5'"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (-2,), }", "not '-2'"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (010,), }", "not '010'"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2), }", "'shape' must be a tuple: write (2,)"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': [2], }", "'shape' must be a tuple"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }", "too large"},
      {"{'descr': '<i8', 'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", "duplicated key 'descr'"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'extra': 1}", "unknown key 'extra'"},
      {"{'descr': '<f4', 'fortran_order': False}", "the header has no 'shape'"},
      {"{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }", "structured dtypes"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), } junk", "unexpected text after"},
      {"{'descr': '<f4' 'fortran_order': False, 'shape': (2,), }", "expected ',' or '}'"},
      {"{'descr': '<f4, 'fortran_order': False, 'shape': (2,), }",
       "not a valid .npy header: expected ',' or '}'"},
      {"'descr': '<f4', 'fortran_order': False, 'shape': (2,)", "must be a dict"},
      {"{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }",
       "Fortran-order (column-major) arrays are not supported"},
  };
  for (auto [dict, want] : cases) {
    const std::string got = header_error(dict);
    BOOST_TEST(got.find(want) != std::string::npos, dict << " -> " << got);
    BOOST_TEST(got.find("h.npy: ") != std::string::npos, got);
  }
}

BOOST_AUTO_TEST_SUITE_END()
