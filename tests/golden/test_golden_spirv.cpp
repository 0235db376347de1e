// Golden SPIR-V: the disassembly of every kernel of tests/golden/spirv/*.attn (Vulkan 1.1,
// subgroups of 8, head dims 64). test_spirv validates and runs every module.
#include <boost/test/unit_test.hpp>

#include "backends/spirv/SpirvKernel.h"
#include "tests/golden/GoldenKernels.h"
#include "tests/support/Golden.h"

using namespace attn;
using namespace attn::test;

BOOST_AUTO_TEST_CASE(spirv_disassembly) {
  for (const auto& ir : golden_kernels("spirv")) {
    spirv::SpirvConfig c = spirv::choose_config(*ir, spirv::SpirvTarget{1, 8, false, 32768}, 64, 64);
    check_golden(golden_dir("spirv") / (ir->name + ".spvasm"),
                 spirv::disassemble_spirv(spirv::compile_spirv(*ir, c).words, c.spirv_version));
  }
}
