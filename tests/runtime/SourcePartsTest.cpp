// Sources in parts (kCpuSourcePartsLine): each part compiled on its own with -DATTN_PART=i and the
// objects linked; any other source, or a count out of range, compiled whole.
#include <boost/test/unit_test.hpp>
#include <cstdlib>
#include <optional>
#include <string>

#include "TestKernels.h"

namespace attn::test {

namespace {

// scale_kernel_source(factor) as two parts: part 1 defines the factor, part 2 the entry that
// reads it. A part that is compiled whole (ATTN_PART 0) or twice fails to build.
KernelRequest two_part_request(int factor, const std::string& parts_line) {
  KernelRequest r = scale_kernel_request(1, "two_part_kernel");
  const std::string entry = "extern \"C\" int two_part_kernel(";
  const size_t at = r.source.find(entry);
  BOOST_REQUIRE(at != std::string::npos);
  std::string head = r.source.substr(0, at), body = r.source.substr(at);
  const std::string times = "q[i] * 1.0f";
  const size_t t = body.find(times);
  BOOST_REQUIRE(t != std::string::npos);
  body.replace(t, times.size(), "q[i] * two_part_factor()");
  r.source = "// a source in parts\n" + parts_line + "\n#ifndef ATTN_PART\n#define ATTN_PART 0\n#endif\n" +
             head +
             "#if ATTN_PART == 0\n#error compiled whole\n#endif\n"
             "#if ATTN_PART == 1\nextern \"C\" float two_part_factor(void) { return " +
             std::to_string(factor) +
             ".0f; }\n#endif\n"
             "#if ATTN_PART == 2\nextern \"C\" float two_part_factor(void);\n" +
             body + "#endif\n";
  return r;
}

}  // namespace

// ATTNC_COMPILE_PARTS set for one test, then restored.
struct PartsSetting {
  explicit PartsSetting(const char* value) {
    if (const char* v = std::getenv("ATTNC_COMPILE_PARTS")) saved = v;
    setenv("ATTNC_COMPILE_PARTS", value, 1);
  }
  ~PartsSetting() {
    if (saved)
      setenv("ATTNC_COMPILE_PARTS", saved->c_str(), 1);
    else
      unsetenv("ATTNC_COMPILE_PARTS");
  }
  std::optional<std::string> saved;
};

BOOST_FIXTURE_TEST_SUITE(source_parts, CacheFixture)

BOOST_AUTO_TEST_CASE(a_source_in_two_parts_is_compiled_as_two_and_linked) {
  PartsSetting always("1");  // however busy the machine
  Loader loader(options());
  Kernel k =
      loader.get(two_part_request(3, std::string(kCpuSourcePartsLine) + "2 (pipelines, then entries)"));
  BOOST_TEST(run_scale(k, 2.0f) == 6.0f);
  BOOST_TEST(loader.stats().compiles == 1u);
}

BOOST_AUTO_TEST_CASE(a_failing_part_reports_the_compiler_message) {
  PartsSetting always("1");
  Loader loader(options());
  KernelRequest r = two_part_request(3, std::string(kCpuSourcePartsLine) + "2");
  r.source += "#if ATTN_PART == 1\nstatic int broken = undeclared_identifier_in_part_one;\n#endif\n";
  try {
    loader.get(r);
    BOOST_FAIL("expected a LoadError");
  } catch (const LoadError& e) {
    const std::string m = e.what();
    BOOST_TEST((e.kind() == LoadErrorKind::CompileFailed));
    BOOST_TEST(m.find("compiling kernel 'two_part_kernel' for cpu failed") != std::string::npos, m);
    BOOST_TEST(m.find("undeclared_identifier_in_part_one") != std::string::npos, m);
  }
  BOOST_TEST(cache_stats().entries == 0u);
}

BOOST_AUTO_TEST_CASE(a_count_out_of_range_or_a_late_line_compiles_whole) {
  PartsSetting always("1");
  Loader loader(options());
  for (const std::string count : {"1", "9", "12", "x"}) {
    KernelRequest r = two_part_request(3, std::string(kCpuSourcePartsLine) + count);
    BOOST_CHECK_THROW(loader.get(r), LoadError);  // compiled whole: its #error
  }
  // The line counts within the first 4 KiB only.
  KernelRequest late = two_part_request(3, "// parts below");
  late.source = std::string(4096, '\n') + std::string(kCpuSourcePartsLine) + "2\n" + late.source;
  BOOST_CHECK_THROW(loader.get(late), LoadError);
  // A plain source is compiled whole, as before.
  BOOST_TEST(run_scale(loader.get(scale_kernel_request(5)), 1.0f) == 5.0f);
}

BOOST_AUTO_TEST_CASE(parts_turned_off_compile_whole) {
  PartsSetting never("0");
  Loader loader(options());
  BOOST_CHECK_THROW(loader.get(two_part_request(3, std::string(kCpuSourcePartsLine) + "2")), LoadError);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace attn::test
