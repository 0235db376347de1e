// Prints the two wgmma wrappers: inline PTX with one "+f" operand per accumulator register.
#include "backends/cuda/CudaWgmma.h"

#include <sstream>
#include <stdexcept>

namespace attn {

namespace {

/// "{%first, ..., %(first + count - 1)}", eight operands a line.
std::string operand_list(int first, int count) {
  std::string s = "{";
  for (int i = 0; i < count; ++i) {
    if (i) s += i % 8 ? ", " : ",\\n\"\n      \"";
    s += "%" + std::to_string(first + i);
  }
  return s + "}";
}

/// The accumulator operands of an n-column tile: d[j][e] for j < n / 8, e < 4.
std::string accumulator_outputs(int n) {
  std::string s;
  for (int j = 0; j < n / 8; ++j) {
    s += j % 2 ? " " : "\n        ";
    for (int e = 0; e < 4; ++e)
      s += "\"+f\"(d[" + std::to_string(j) + "][" + std::to_string(e) + "])" +
           (j + 1 < n / 8 || e < 3 ? "," : "");
  }
  return s;
}

void check_n(const char* what, int n) {
  if (n <= 0 || n > 256 || n % 8)
    throw std::invalid_argument(std::string("wgmma: ") + what + " must be a multiple of 8 up to 256 (got " +
                                std::to_string(n) + ")");
}

}  // namespace

std::string print_wgmma_instructions(DType dtype, int block_n, int value_dim) {
  if (dtype != DType::BF16 && dtype != DType::F16)
    throw std::invalid_argument("wgmma: the Hopper kernel takes bf16 or f16 inputs");
  check_n("the key tile", block_n);
  check_n("the value dimension", value_dim);
  const std::string types = dtype == DType::BF16 ? ".f32.bf16.bf16" : ".f32.f16.f16";
  const int qk_regs = block_n / 2, pv_regs = value_dim / 2;  // f32 accumulators per thread
  std::ostringstream s;
  s << "// ---- The wgmma instructions of this kernel's tile shape --------------------------------\n"
    << "namespace attn_dev {\n\n"
    << "/// S += Q K^T over 16 head dims: wgmma m64n" << block_n
    << "k16, Q (descriptor a) and K (b) in shared\n"
    << "/// memory, both K-major. d holds the warp's 16 rows x " << block_n << " keys as " << block_n / 8
    << " blocks of 4.\n"
    << "__device__ __forceinline__ void wgmma_qk(float (&d)[" << block_n / 8
    << "][4], unsigned long long a, unsigned long long b) {\n"
    << "  asm volatile(\n"
    << "      \"{\\n.reg .pred p;\\nsetp.ne.b32 p, %" << qk_regs + 2 << ", 0;\\n\"\n"
    << "      \"wgmma.mma_async.sync.aligned.m64n" << block_n << "k16" << types << "\\n\"\n"
    << "      \"" << operand_list(0, qk_regs) << ",\\n\"\n"
    << "      \"%" << qk_regs << ", %" << qk_regs + 1 << ", p, 1, 1, 0, 0;\\n}\\n\"\n"
    << "      :" << accumulator_outputs(block_n) << "\n"
    << "      : \"l\"(a), \"l\"(b), \"r\"(1));\n"
    << "}\n\n"
    << "/// O += P V over 16 keys: wgmma m64n" << value_dim << "k16, P (a, the A fragment) in registers, V\n"
    << "/// (descriptor b) in shared memory read transposed (MN-major). d holds the warp's 16 rows x "
    << value_dim << " columns.\n"
    << "__device__ __forceinline__ void wgmma_pv(float (&d)[" << value_dim / 8
    << "][4], const unsigned (&a)[4], unsigned long long b) {\n"
    << "  asm volatile(\n"
    << "      \"{\\n.reg .pred p;\\nsetp.ne.b32 p, %" << pv_regs + 5 << ", 0;\\n\"\n"
    << "      \"wgmma.mma_async.sync.aligned.m64n" << value_dim << "k16" << types << "\\n\"\n"
    << "      \"" << operand_list(0, pv_regs) << ",\\n\"\n"
    << "      \"" << operand_list(pv_regs, 4) << ", %" << pv_regs + 4 << ", p, 1, 1, 1;\\n}\\n\"\n"
    << "      :" << accumulator_outputs(value_dim) << "\n"
    << "      : \"r\"(a[0]), \"r\"(a[1]), \"r\"(a[2]), \"r\"(a[3]), \"l\"(b), \"r\"(1));\n"
    << "}\n\n"
    << "}  // namespace attn_dev\n";
  return s.str();
}

}  // namespace attn
