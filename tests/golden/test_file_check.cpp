// file_check, the CHECK-line matcher of the golden tests: each directive kind passing and failing.
#include <boost/test/unit_test.hpp>

#include "tests/support/FileCheck.h"

using attn::test::file_check;

namespace {

const std::string kText =
    "int f(int a) {\n"
    "  int _12 = a * 2;\n"
    "  return _12 + 1;\n"
    "}\n";

bool holds(const std::string& checks) { return file_check(kText, checks, "CHECK").empty(); }

}  // namespace

BOOST_AUTO_TEST_CASE(file_check_in_order) {
  BOOST_TEST(holds("// CHECK: int f(\n// CHECK: return"));
  BOOST_TEST(!holds("// CHECK: return\n// CHECK: int f("));
  BOOST_TEST(!holds("// CHECK: float"));
}

BOOST_AUTO_TEST_CASE(file_check_next_same_not) {
  BOOST_TEST(holds("// CHECK: int f(\n// CHECK-NEXT: a * 2\n// CHECK-SAME: ;"));
  BOOST_TEST(!holds("// CHECK: int f(\n// CHECK-NEXT: return"));
  BOOST_TEST(!holds("// CHECK: a * 2\n// CHECK-SAME: int"));
  BOOST_TEST(holds("// CHECK: int f(\n// CHECK-NOT: return\n// CHECK: a * 2"));
  BOOST_TEST(!holds("// CHECK: int f(\n// CHECK-NOT: a *\n// CHECK: return"));
  BOOST_TEST(!holds("// CHECK: a * 2\n// CHECK-NOT: }"));  // a trailing NOT runs to the end
}

BOOST_AUTO_TEST_CASE(file_check_regex_and_messages) {
  BOOST_TEST(holds("// CHECK: int _{{[0-9]+}} = a * 2;"));
  BOOST_TEST(!holds("// CHECK: int _{{[a-z]+}} = a"));
  BOOST_TEST(holds("// CHECK: (int a)"));         // literal text: parentheses are not a group
  BOOST_TEST(holds("// CHECK: int   _12 =\ta"));  // a run of blanks matches any run
  BOOST_TEST(!holds("// CHECK: int_12"));
  const std::string why = file_check(kText, "x\n// CHECK: int f(\n// CHECK-NOT: _12\n// CHECK: }", "CHECK");
  BOOST_TEST(
      why.find("line 3 of the checks, CHECK-NOT: _12: matches line 2 of the text") != std::string::npos, why);
  // A prefix without directives fails: a misspelt one must not pass.
  BOOST_TEST(file_check(kText, "// CHECK-other: int", "CHECK") == "the checks hold no directive for CHECK");
  BOOST_TEST(holds("// XCHECK: float\n// CHECK: int"));  // only the whole prefix counts
}
