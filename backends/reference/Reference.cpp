// The reference: for every (b, h, q) row, every key's score and mask, then a plain softmax.
#include "backends/reference/Reference.h"

#include <cmath>
#include <exception>
#include <mutex>
#include <thread>

#include "backends/reference/EvalExpr.h"
#include "codegen/KernelIR.h"

namespace attn {

namespace {

ScalarType dtype_scalar(DType d) {
  switch (d) {
    case DType::F32: return ScalarType::F32;
    case DType::F16: return ScalarType::F16;
    case DType::BF16: return ScalarType::BF16;
  }
  return ScalarType::F32;
}

ScalarType elem_scalar(ElemType e) {
  switch (e) {
    case ElemType::I32: return ScalarType::I32;
    case ElemType::F32: return ScalarType::F32;
    case ElemType::Bool: return ScalarType::Bool;
  }
  return ScalarType::F32;
}

}  // namespace

void validate_inputs(const KernelIR& ir, const KernelInputs& in) {
  ScalarType want = dtype_scalar(ir.options.dtype);
  const std::pair<const char*, const HostTensor*> qkv[] = {{"q", &in.q}, {"k", &in.k}, {"v", &in.v}};
  for (auto [name, t] : qkv) {
    if (t->shape.size() != 4)
      throw InputError(std::string(name) + " must have 4 dimensions [B, H, L, D], got shape " +
                       t->shape_string());
    if (t->type != want)
      throw InputError(std::string(name) + " must be " + scalar_type_name(want) + " (kernel '" + ir.name +
                       "' has dtype " + dtype_name(ir.options.dtype) + "), got " + scalar_type_name(t->type));
  }
  const auto &q = in.q.shape, &k = in.k.shape, &v = in.v.shape;
  if (q[0] != k[0] || k[0] != v[0])
    throw InputError("batch sizes differ: q " + in.q.shape_string() + ", k " + in.k.shape_string() + ", v " +
                     in.v.shape_string());
  if (k[1] != v[1])
    throw InputError("k and v must have the same number of heads: k " + in.k.shape_string() + ", v " +
                     in.v.shape_string());
  if (k[1] == 0 || q[1] % k[1] != 0)
    throw InputError("the query heads (" + std::to_string(q[1]) +
                     ") must be a multiple of the key/value heads (" + std::to_string(k[1]) + ")");
  if (k[2] != v[2])
    throw InputError("k and v must have the same length: k " + in.k.shape_string() + ", v " +
                     in.v.shape_string());
  if (q[3] != k[3])
    throw InputError("q and k must have the same head dimension: q " + in.q.shape_string() + ", k " +
                     in.k.shape_string());
  if (q[3] == 0) throw InputError("the head dimension must not be 0");
  if (ir.options.head_dim && q[3] != ir.options.head_dim)
    throw InputError("kernel '" + ir.name + "' has head_dim " + std::to_string(ir.options.head_dim) +
                     " but q has " + std::to_string(q[3]));
  if (ir.options.value_dim && v[3] != ir.options.value_dim)
    throw InputError("kernel '" + ir.name + "' has value_dim " + std::to_string(ir.options.value_dim) +
                     " but v has " + std::to_string(v[3]));
  for (const KernelArg& a : ir.args) {
    if (a.kind == KernelArg::Kind::Buffer) {
      auto it = in.buffers.find(a.name);
      if (it == in.buffers.end())
        throw InputError("missing tensor argument '" + a.name + "' (--arg " + a.name + "=FILE.npy)");
      const HostTensor& t = it->second;
      // A bool buffer is bytes: NumPy's bool or uint8, any non-zero byte true (docs/language.md).
      const bool bool_bytes = a.elem == ElemType::Bool && t.type == ScalarType::U8;
      if (t.type != elem_scalar(a.elem) && !bool_bytes)
        throw InputError("argument '" + a.name + "' must be " + elem_type_name(a.elem) + ", got " +
                         scalar_type_name(t.type));
      if (t.shape.size() != a.dims.size())
        throw InputError("argument '" + a.name + "' must have " + std::to_string(a.dims.size()) +
                         " dimension(s), got shape " + t.shape_string());
      for (size_t d = 0; d < a.dims.size(); ++d) {
        const std::string& dim = a.dims[d];
        if (!dim.empty() && std::isdigit(static_cast<unsigned char>(dim[0])) && std::stoll(dim) != t.shape[d])
          throw InputError("argument '" + a.name + "' dimension " + std::to_string(d) + " must be " + dim +
                           ", got " + std::to_string(t.shape[d]));
      }
    } else if (!in.scalars.count(a.name)) {
      throw InputError("missing scalar argument '" + a.name + "' (--arg " + a.name + "=VALUE)");
    }
  }
  for (const auto& [name, _] : in.buffers)
    if (!ir.arg(name) || ir.arg(name)->kind != KernelArg::Kind::Buffer)
      throw InputError("kernel '" + ir.name + "' has no tensor argument '" + name + "'");
  for (const auto& [name, _] : in.scalars)
    if (!ir.arg(name) || ir.arg(name)->kind != KernelArg::Kind::Scalar)
      throw InputError("kernel '" + ir.name + "' has no scalar argument '" + name + "'");
}

KernelOutputs run_reference(const KernelIR& ir, const KernelInputs& in, int threads) {
  validate_inputs(ir, in);
  const int64_t B = in.q.shape[0], Hq = in.q.shape[1], Lq = in.q.shape[2], D = in.q.shape[3];
  const int64_t Hkv = in.k.shape[1], Lkv = in.k.shape[2], Dv = in.v.shape[3];
  const int64_t group = Hq / Hkv;
  const double scale = ir.options.scale ? *ir.options.scale : 1.0 / std::sqrt(static_cast<double>(D));

  CompiledExpr mask(ir.mask, ir), score(ir.score, ir);
  ArgValues args;
  for (const KernelArg& a : ir.args) {
    args.buffers.push_back(a.kind == KernelArg::Kind::Buffer ? &in.buffers.at(a.name) : nullptr);
    args.scalars.push_back(a.kind == KernelArg::Kind::Scalar ? in.scalars.at(a.name) : 0.0);
  }

  KernelOutputs result;
  result.out = HostTensor(in.q.type, {B, Hq, Lq, Dv});
  result.lse = HostTensor(ScalarType::F32, {B, Hq, Lq});

  // Widen inputs once: the reference is about clarity, not memory.
  auto widen = [](const HostTensor& t) {
    std::vector<double> w(static_cast<size_t>(t.numel()));
    for (int64_t i = 0; i < t.numel(); ++i) w[static_cast<size_t>(i)] = t.get(i);
    return w;
  };
  const std::vector<double> Q = widen(in.q), K = widen(in.k), V = widen(in.v);

  // Scores are f32 on every target: a value beyond f32's range is +-Inf there, and here.
  auto f32_range = [](double x) {
    return std::isinf(static_cast<float>(x)) ? std::copysign(INFINITY, x) : x;
  };

  // One row under the non-finite rule (docs/language.md, "Non-finite values"): masked keys are never
  // scored; a NaN score of an allowed key makes the row NaN; a +Inf score takes the whole weight,
  // shared equally by the keys that have one; -Inf scores weigh nothing.
  auto row = [&](int64_t b, int64_t h, int64_t qi, std::vector<double>& s, std::vector<char>& allowed) {
    const int64_t hk = h / group;
    const double* qrow = &Q[static_cast<size_t>(((b * Hq + h) * Lq + qi) * D)];
    EvalPoint p;
    p.idx[0] = static_cast<int32_t>(b);
    p.idx[1] = static_cast<int32_t>(h);
    p.idx[2] = static_cast<int32_t>(qi);
    double m = -INFINITY;
    bool nan = false;
    for (int64_t j = 0; j < Lkv; ++j) {
      p.idx[3] = static_cast<int32_t>(j);
      allowed[j] = mask.eval(p, args) != 0;
      if (!allowed[j]) continue;
      const double* krow = &K[static_cast<size_t>(((b * Hkv + hk) * Lkv + j) * D)];
      double dot = 0;
      for (int64_t d = 0; d < D; ++d) dot += qrow[d] * krow[d];
      p.score = f32_range(scale * dot);
      s[j] = f32_range(score.eval(p, args));
      if (std::isnan(s[j])) nan = true;
      if (std::isnan(s[j]) || s[j] == -INFINITY) allowed[j] = 0;
      if (allowed[j]) m = std::max(m, s[j]);
    }
    std::vector<double> acc(static_cast<size_t>(Dv), 0.0);
    double sum = 0;
    if (!nan && m != -INFINITY) {
      for (int64_t j = 0; j < Lkv; ++j) {
        if (!allowed[j]) continue;
        double w = m == INFINITY ? (s[j] == INFINITY ? 1.0 : 0.0) : std::exp(s[j] - m);
        if (w == 0) continue;
        sum += w;
        const double* vrow = &V[static_cast<size_t>(((b * Hkv + hk) * Lkv + j) * Dv)];
        for (int64_t d = 0; d < Dv; ++d) acc[d] += w * vrow[d];
      }
    }
    int64_t o = ((b * Hq + h) * Lq + qi);
    // A fully masked row: Out 0 and LSE -inf, never NaN. A NaN score: Out NaN and LSE NaN.
    const double row_nan = nan ? NAN : 0.0;
    for (int64_t d = 0; d < Dv; ++d) result.out.set(o * Dv + d, nan ? row_nan : sum > 0 ? acc[d] / sum : 0.0);
    result.lse.set(o, nan ? row_nan : sum > 0 ? m + std::log(sum) : -INFINITY);
  };

  const int64_t rows = B * Hq * Lq;
  int n = threads > 0 ? threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  n = static_cast<int>(std::min<int64_t>(n, std::max<int64_t>(1, rows / 64)));
  std::exception_ptr error;
  std::mutex error_mutex;
  auto work = [&](int t) {
    std::vector<double> s(static_cast<size_t>(Lkv));
    std::vector<char> allowed(static_cast<size_t>(Lkv));
    try {
      for (int64_t r = t; r < rows; r += n) {
        {
          std::lock_guard<std::mutex> lock(error_mutex);
          if (error) return;
        }
        row(r / (Hq * Lq), (r / Lq) % Hq, r % Lq, s, allowed);
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mutex);
      if (!error) error = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < n; ++t) pool.emplace_back(work, t);
  work(0);
  for (auto& th : pool) th.join();
  if (error) std::rethrow_exception(error);
  if (!ir.options.lse) result.lse = HostTensor();
  return result;
}

}  // namespace attn
