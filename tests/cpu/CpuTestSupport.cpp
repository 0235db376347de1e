// Lowering, compile cache and the DLPack plumbing for the CPU tests.
#include "tests/cpu/CpuTestSupport.h"

#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstring>
#include <map>

#include "codegen/Lower.h"
#include "frontend/Program.h"
#include "runtime/KernelCallArgs.h"
#include "tests/support/TestSupport.h"

namespace attn::test {

void check_compiles_warning_free(const CpuKernelSource& src, const std::string& what) {
  TempDir dir;
  write_file(dir.path() / src.header_name, src.header);
  write_file(dir.path() / "k.cpp", src.source);
  const std::string in = (dir.path() / "k.cpp").string(), at = dir.path().string();
  for (std::string cxx : {"g++", "clang++"}) {
    if (run_command("command -v " + cxx).status != 0) continue;
    const std::string compile = cxx + " -std=c++17 -Wall -Wextra -Werror -fPIC -c -I" + at + " " + in;
    // The parts at -O0, which is fastest and warns of what is unused or undeclared as -O1 does.
    std::vector<std::string> commands = {
        compile + " -O1 -o " + at + "/whole.o", compile + " -O0 -DATTN_PART=1 -o " + at + "/part1.o",
        compile + " -O0 -DATTN_PART=2 -o " + at + "/part2.o",
        cxx + " -shared -pthread -Wl,-z,defs -o " + at + "/k.so " + at + "/part1.o " + at + "/part2.o"};
    for (const std::string& command : commands) {
      CommandResult r = run_command(command);
      BOOST_TEST(r.status == 0, what << ", " << command << ":\n" << r.output.substr(0, 4000));
      if (r.status != 0) break;
    }
  }
}

std::shared_ptr<const KernelIR> lower_text(const std::string& source, const std::string& name) {
  auto p = load_program_text("test.attn", source);
  BOOST_REQUIRE_MESSAGE(!p->diags.has_errors(), render_diagnostics(p->diags, p->sources));
  DiagnosticEngine diags;
  auto ir = lower_kernel(*p, *p->kernel(name), diags);
  BOOST_REQUIRE(ir);
  return ir;
}

const CpuCompiled& compile_cpu(const std::string& source, const std::string& name,
                               std::optional<CpuTarget> target) {
  static std::map<std::string, CpuCompiled> cache;
  CpuTarget t = target ? *target : host_cpu_target();
  std::string key = source + '\0' + name + '\0' + cpu_isa_name(t.isa);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  CpuCompiled c;
  c.ir = lower_text(source, name);
  c.source = generate_cpu_kernel(*c.ir, t);
  c.kernel = compile_cpu_kernel(c.source);
  return cache.emplace(key, std::move(c)).first->second;
}

namespace {

/// A padded copy of a 4-D tensor (rows padded by 3 elements, heads by 2 rows; the last dimension
/// stays contiguous) that `view` points at, with strides with gaps.
struct Padded {
  std::vector<int64_t> strides;
  std::vector<uint8_t> bytes;
  HostTensor* target;

  Padded(HostTensor& h, DLTensor& view) : target(&h) {
    const std::vector<int64_t>& shape = h.shape;
    size_t es = scalar_type_size(h.type);
    strides.resize(4);
    strides[3] = 1;
    strides[2] = shape[3] + 3;
    strides[1] = strides[2] * (shape[2] + 2);
    strides[0] = strides[1] * shape[1];
    bytes.assign(size_t(strides[0] * shape[0]) * es + 64, 0xff);
    copy(false);
    view.data = bytes.data();
    view.strides = strides.data();
  }
  /// Copies the rows of `target` into the padding (or back, for outputs).
  void copy(bool back) {
    const std::vector<int64_t>& shape = target->shape;
    size_t es = scalar_type_size(target->type);
    for (int64_t b = 0; b < shape[0]; ++b)
      for (int64_t hh = 0; hh < shape[1]; ++hh)
        for (int64_t r = 0; r < shape[2]; ++r) {
          uint8_t* padded = bytes.data() + size_t(b * strides[0] + hh * strides[1] + r * strides[2]) * es;
          uint8_t* dense =
              target->bytes.data() + size_t(((b * shape[1] + hh) * shape[2] + r) * shape[3]) * es;
          if (back)
            std::memcpy(dense, padded, size_t(shape[3]) * es);
          else
            std::memcpy(padded, dense, size_t(shape[3]) * es);
        }
  }
};

}  // namespace

CpuRun run_cpu(const CpuCompiled& c, const KernelInputs& in_const, bool with_lse, bool strided, int threads,
               const CpuKeyRanges* ranges, int abi_version) {
  KernelInputs in = in_const;  // padded copies need mutable bytes
  CpuRun r;
  r.outputs = make_outputs(*c.ir, in);
  // The call may claim an LSE the kernel does not set, or leave one out.
  const std::vector<int64_t>& q = in.q.shape;
  r.outputs.lse = with_lse ? HostTensor(ScalarType::F32, {q[0], q[1], q[2]}) : HostTensor();
  KernelCallTensors tensors = call_tensors(*c.ir, in, r.outputs);
  tensors.lse = with_lse ? &r.outputs.lse : nullptr;
  KernelCallArgs call(tensors);
  std::vector<std::unique_ptr<Padded>> padded;
  if (strided)
    for (HostTensor* t : {&in.q, &in.k, &in.v, &r.outputs.out})
      padded.push_back(std::make_unique<Padded>(*t, call.view(*t)));
  attn_kernel_args& args = call.args();
  args.abi_version = abi_version;
  args.num_threads = threads;
  if (ranges) set_key_ranges(args, *ranges);
  r.status = c.kernel->run(args);
  r.error = call.error();
  if (strided) padded.back()->copy(true);
  return r;
}

double reference_loss(const KernelIR& ir, const KernelInputs& in, const GradientRequest& r) {
  const KernelOutputs o = run_reference(ir, in, 2);
  double l = 0;
  for (int64_t i = 0; i < o.out.numel(); ++i) l += o.out.get(i) * r.dout.get(i);
  for (int64_t i = 0; i < o.lse.numel() && !r.dlse.shape.empty(); ++i) l += o.lse.get(i) * r.dlse.get(i);
  return l;
}

double max_abs_diff(const HostTensor& a, const HostTensor& b) {
  BOOST_REQUIRE(a.shape == b.shape);
  double worst = 0;
  for (int64_t i = 0; i < a.numel(); ++i) {
    double x = a.get(i), y = b.get(i);
    if (std::isnan(x) || std::isnan(y)) return INFINITY;
    if (std::isinf(x) || std::isinf(y)) {
      if (x != y) return INFINITY;
      continue;
    }
    worst = std::max(worst, std::fabs(x - y));
  }
  return worst;
}

}  // namespace attn::test
