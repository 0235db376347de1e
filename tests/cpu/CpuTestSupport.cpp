// Lowering, compile cache and the DLPack plumbing for the CPU tests.
#include "tests/cpu/CpuTestSupport.h"

#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstring>
#include <map>

#include "codegen/Lower.h"
#include "frontend/Program.h"

namespace attn::test {

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

DLDataType dl_type(ScalarType t) {
  switch (t) {
    case ScalarType::F32: return {kDLFloat, 32, 1};
    case ScalarType::F16: return {kDLFloat, 16, 1};
    case ScalarType::BF16: return {kDLBfloat, 16, 1};
    case ScalarType::I32: return {kDLInt, 32, 1};
    case ScalarType::Bool:
    case ScalarType::U8: return {kDLUInt, 8, 1};
    case ScalarType::F64: return {kDLFloat, 64, 1};
    case ScalarType::I64: return {kDLInt, 64, 1};
  }
  return {kDLFloat, 32, 1};
}

/// A DLTensor over a HostTensor, or over a padded copy of it (strides with gaps) when `strided`.
struct View {
  DLTensor t{};
  std::vector<int64_t> shape, strides;
  std::vector<uint8_t> padded;
  HostTensor* target = nullptr;  ///< copied back from `padded` by `unpad`

  View(HostTensor& h, bool strided) {
    shape = h.shape;
    t.device = {kDLCPU, 0};
    t.ndim = int(shape.size());
    t.dtype = dl_type(h.type);
    t.shape = shape.data();
    t.data = h.bytes.data();
    if (!strided || shape.size() != 4) return;
    // Rows padded by 3 elements, heads by 2 rows: the last dimension stays contiguous.
    size_t es = scalar_type_size(h.type);
    strides.resize(4);
    strides[3] = 1;
    strides[2] = shape[3] + 3;
    strides[1] = strides[2] * (shape[2] + 2);
    strides[0] = strides[1] * shape[1];
    padded.assign(size_t(strides[0] * shape[0]) * es + 64, 0xff);
    for (int64_t b = 0; b < shape[0]; ++b)
      for (int64_t hh = 0; hh < shape[1]; ++hh)
        for (int64_t r = 0; r < shape[2]; ++r)
          std::memcpy(padded.data() + size_t(b * strides[0] + hh * strides[1] + r * strides[2]) * es,
                      h.bytes.data() + size_t(((b * shape[1] + hh) * shape[2] + r) * shape[3]) * es,
                      size_t(shape[3]) * es);
    t.data = padded.data();
    t.strides = strides.data();
    target = &h;
  }
  void unpad() {
    if (!target) return;
    size_t es = scalar_type_size(target->type);
    for (int64_t b = 0; b < shape[0]; ++b)
      for (int64_t hh = 0; hh < shape[1]; ++hh)
        for (int64_t r = 0; r < shape[2]; ++r)
          std::memcpy(target->bytes.data() + size_t(((b * shape[1] + hh) * shape[2] + r) * shape[3]) * es,
                      padded.data() + size_t(b * strides[0] + hh * strides[1] + r * strides[2]) * es,
                      size_t(shape[3]) * es);
  }
};

}  // namespace

CpuRun run_cpu(const CpuCompiled& c, const KernelInputs& in_const, bool with_lse, bool strided, int threads,
               const CpuKeyRanges* ranges, int abi_version) {
  KernelInputs in = in_const;  // views need mutable bytes
  CpuRun r;
  int64_t B = in.q.shape[0], Hq = in.q.shape[1], Lq = in.q.shape[2], Dv = in.v.shape[3];
  r.outputs.out = HostTensor(in.q.type, {B, Hq, Lq, Dv});
  if (with_lse) r.outputs.lse = HostTensor(ScalarType::F32, {B, Hq, Lq});
  View q(in.q, strided), k(in.k, strided), v(in.v, strided), out(r.outputs.out, strided);
  std::unique_ptr<View> lse;
  if (with_lse) lse = std::make_unique<View>(r.outputs.lse, false);
  std::vector<std::unique_ptr<View>> buffer_views;
  std::vector<const DLTensor*> buffers;
  std::vector<double> scalars;
  for (const KernelArg& a : c.ir->args) {
    if (a.kind == KernelArg::Kind::Buffer) {
      auto it = in.buffers.find(a.name);
      BOOST_REQUIRE_MESSAGE(it != in.buffers.end(), "missing buffer " << a.name);
      buffer_views.push_back(std::make_unique<View>(it->second, false));
      buffers.push_back(&buffer_views.back()->t);
    } else {
      auto it = in.scalars.find(a.name);
      BOOST_REQUIRE_MESSAGE(it != in.scalars.end(), "missing scalar " << a.name);
      scalars.push_back(it->second);
    }
  }
  char error[1024] = "";
  attn_kernel_args args{};
  args.abi_version = abi_version;
  args.q = &q.t, args.k = &k.t, args.v = &v.t, args.out = &out.t;
  args.lse = lse ? &lse->t : nullptr;
  args.buffers = buffers.data(), args.num_buffers = int(buffers.size());
  args.scalars = scalars.data(), args.num_scalars = int(scalars.size());
  args.num_threads = threads, args.error = error, args.error_size = sizeof error;
  if (ranges) set_key_ranges(args, *ranges);
  r.status = c.kernel->run(args);
  r.error = error;
  out.unpad();
  return r;
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
