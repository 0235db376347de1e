// The backward pass's oracle: run_reference_backward against central finite differences of an
// exact double forward (every stdlib definition, every sample kernel, GQA, value_dim != head_dim,
// fully masked rows, buffer gradients, dLSE), differentiate_score's conventions at
// non-differentiable points, determinism, and the gradient request's checks.
#define BOOST_TEST_MODULE grad
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstring>
#include <random>

#include "backends/reference/EvalExpr.h"
#include "backends/reference/Reference.h"
#include "codegen/KernelIR.h"
#include "codegen/Lower.h"
#include "codegen/ScoreGradient.h"
#include "codegen/VerifyKernelIR.h"
#include "frontend/Program.h"
#include "tests/support/NaiveAttention.h"
#include "tests/support/StdlibKernels.h"
#include "tests/support/TestSupport.h"

using namespace attn;
using namespace attn::test;

namespace {

std::shared_ptr<const KernelIR> lower(const std::string& origin, const std::string& source,
                                      const std::string& name) {
  auto p = load_program_text(origin, source);
  BOOST_REQUIRE_MESSAGE(!p->diags.has_errors(), render_diagnostics(p->diags, p->sources));
  DiagnosticEngine diags;
  auto ir = lower_kernel(*p, *p->kernel(name), diags);
  BOOST_REQUIRE_MESSAGE(ir, render_diagnostics(diags, p->sources));
  return ir;
}

struct Shape {
  int64_t B, Hq, Hkv, Lq, Lkv, D, Dv;
};

// Inputs for `ir`: random Q, K, V, dOut (and dLSE when the kernel sets lse); each buffer sized from
// its dimension names, documents cut every 4 positions; every f32 buffer the score reads requested.
std::pair<KernelInputs, GradientRequest> random_problem(const KernelIR& ir, const Shape& s,
                                                        std::mt19937& rng) {
  KernelInputs in;
  in.q = random_tensor(ScalarType::F32, {s.B, s.Hq, s.Lq, s.D}, rng);
  in.k = random_tensor(ScalarType::F32, {s.B, s.Hkv, s.Lkv, s.D}, rng);
  in.v = random_tensor(ScalarType::F32, {s.B, s.Hkv, s.Lkv, s.Dv}, rng);
  const int64_t len = std::max(s.Lq, s.Lkv), docs = (len + 3) / 4;
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (const KernelArg& a : ir.args) {
    if (a.kind == KernelArg::Kind::Scalar) {
      in.scalars[a.name] = a.name == "offset" ? double(s.Lkv - s.Lq) : 1.0;
      continue;
    }
    std::vector<int64_t> shape;
    for (const std::string& d : a.dims)
      shape.push_back(d == "len"                                       ? len
                      : d == "heads"                                   ? s.Hq
                      : d == "docs"                                    ? docs
                      : std::isdigit(static_cast<unsigned char>(d[0])) ? std::stoll(d)
                                                                       : 32);
    HostTensor t(a.elem == ElemType::F32   ? ScalarType::F32
                 : a.elem == ElemType::I32 ? ScalarType::I32
                                           : ScalarType::Bool,
                 shape);
    for (int64_t i = 0; i < t.numel(); ++i)
      t.set(i, a.name == "doc"              ? double(i / 4)
               : a.name == "start"          ? double(i * 4)
               : t.type == ScalarType::Bool ? double(unit(rng) < 0.2)
               : t.type == ScalarType::I32  ? double(int(unit(rng) * 4))
                                            : unit(rng) - 0.5);
    in.buffers[a.name] = t;
  }
  GradientRequest r;
  r.dout = random_tensor(ScalarType::F32, {s.B, s.Hq, s.Lq, s.Dv}, rng);
  if (ir.options.lse) r.dlse = random_tensor(ScalarType::F32, {s.B, s.Hq, s.Lq}, rng);
  for (const BufferGradient& g : differentiate_score(ir).reads)
    if (std::find(r.buffers.begin(), r.buffers.end(), g.buffer) == r.buffers.end())
      r.buffers.push_back(g.buffer);
  return {in, r};
}

// sum(dOut * Out) + sum(dLSE * LSE) in exact double (no f32 rounding anywhere), from Q, K, V and
// f64 copies of the buffers: the function the gradients are of.
class Loss {
 public:
  Loss(const KernelIR& ir, const KernelInputs& in, const GradientRequest& r)
      : ir_(ir), in_(in), r_(r), mask_(ir.mask, ir, false), score_(ir.score, ir, false) {
    for (const auto& [name, t] : in.buffers) {
      HostTensor w(ScalarType::F64, t.shape);
      for (int64_t i = 0; i < t.numel(); ++i) w.set(i, t.get(i));
      buffers[name] = w;
    }
    auto widen = [](const HostTensor& t) {
      std::vector<double> w(size_t(t.numel()));
      for (int64_t i = 0; i < t.numel(); ++i) w[size_t(i)] = t.get(i);
      return w;
    };
    q = widen(in.q), k = widen(in.k), v = widen(in.v);
  }

  double operator()() const {
    const int64_t B = in_.q.shape[0], Hq = in_.q.shape[1], Lq = in_.q.shape[2], D = in_.q.shape[3];
    const int64_t Hkv = in_.k.shape[1], Lkv = in_.k.shape[2], Dv = in_.v.shape[3];
    const double scale = ir_.options.scale ? *ir_.options.scale : 1.0 / std::sqrt(double(D));
    ArgValues args;
    for (const KernelArg& a : ir_.args) {
      args.buffers.push_back(a.kind == KernelArg::Kind::Buffer ? &buffers.at(a.name) : nullptr);
      args.scalars.push_back(a.kind == KernelArg::Kind::Scalar ? in_.scalars.at(a.name) : 0.0);
    }
    double loss = 0;
    for (int64_t b = 0; b < B; ++b)
      for (int64_t h = 0; h < Hq; ++h)
        for (int64_t i = 0; i < Lq; ++i) {
          const int64_t row = (b * Hq + h) * Lq + i, hk = h / (Hq / Hkv);
          std::vector<double> s(size_t(Lkv), -INFINITY);
          double m = -INFINITY;
          EvalPoint p{{int32_t(b), int32_t(h), int32_t(i), 0, int32_t(Lq), int32_t(Lkv)}, 0};
          for (int64_t j = 0; j < Lkv; ++j) {
            p.idx[3] = int32_t(j);
            if (mask_.eval(p, args) == 0) continue;
            double dot = 0;
            for (int64_t d = 0; d < D; ++d)
              dot += q[size_t(row * D + d)] * k[size_t(((b * Hkv + hk) * Lkv + j) * D + d)];
            p.score = scale * dot;
            s[size_t(j)] = score_.eval(p, args);
            m = std::max(m, s[size_t(j)]);
          }
          if (m == -INFINITY) continue;
          double sum = 0;
          std::vector<double> o(size_t(Dv), 0.0);
          for (int64_t j = 0; j < Lkv; ++j) {
            const double w = std::exp(s[size_t(j)] - m);
            sum += w;
            for (int64_t d = 0; d < Dv; ++d)
              o[size_t(d)] += w * v[size_t(((b * Hkv + hk) * Lkv + j) * Dv + d)];
          }
          for (int64_t d = 0; d < Dv; ++d) loss += r_.dout.get(row * Dv + d) * o[size_t(d)] / sum;
          if (!r_.dlse.shape.empty()) loss += r_.dlse.get(row) * (m + std::log(sum));
        }
    return loss;
  }

  std::vector<double> q, k, v;
  std::map<std::string, HostTensor> buffers;

 private:
  const KernelIR& ir_;
  const KernelInputs& in_;
  const GradientRequest& r_;
  CompiledExpr mask_, score_;
};

// The largest difference between `got` and the central difference of `loss` in each element of
// `x`, relative to 1 + the gradient's largest magnitude.
template <class Get, class Set>
double fd_error(Loss& loss, int64_t n, const Get& get, const Set& set, const HostTensor& got) {
  const double step = 1e-4;
  double worst = 0, norm = 1;
  for (int64_t e = 0; e < n; ++e) {
    const double x = get(e);
    set(e, x + step);
    const double up = loss();
    set(e, x - step);
    const double down = loss();
    set(e, x);
    const double fd = (up - down) / (2 * step), g = got.get(e);
    BOOST_REQUIRE_MESSAGE(std::isfinite(g), "gradient element " << e << " is " << g);
    worst = std::max(worst, std::fabs(fd - g));
    norm = std::max(norm, 1 + std::fabs(fd));
  }
  return worst / norm;
}

// The reference backward of kernel `ir` (computed at f32 I/O) against finite differences.
void check_gradients(const KernelIR& kernel, const Shape& s, std::mt19937& rng, const std::string& where) {
  auto ir = with_dtype(kernel, DType::F32);
  auto [in, r] = random_problem(*ir, s, rng);
  KernelGradients g = run_reference_backward(*ir, in, r, 2);
  Loss loss(*ir, in, r);
  const double tol = 2e-5;
  auto check = [&](const char* name, std::vector<double>& x, const HostTensor& got) {
    const double e = fd_error(
        loss, int64_t(x.size()), [&](int64_t i) { return x[size_t(i)]; },
        [&](int64_t i, double v) { x[size_t(i)] = v; }, got);
    BOOST_TEST(e <= tol, where << ": d" << name << " differs from finite differences by " << e);
  };
  check("q", loss.q, g.dq);
  check("k", loss.k, g.dk);
  check("v", loss.v, g.dv);
  for (const std::string& name : r.buffers) {
    HostTensor& t = loss.buffers.at(name);
    const double e = fd_error(
        loss, t.numel(), [&](int64_t i) { return t.get(i); }, [&](int64_t i, double v) { t.set(i, v); },
        g.buffers.at(name));
    BOOST_TEST(e <= tol, where << ": d" << name << " differs from finite differences by " << e);
  }
}

// Every kernel of each program on two small shapes (GQA, value_dim != head_dim when the kernel
// allows); every derivative must be IR that verify_kernel_ir accepts, so backends can print it.
void check_programs(const std::vector<std::pair<std::string, std::string>>& programs, std::mt19937& rng) {
  for (const auto& [origin, text] : programs) {
    auto program = load_program_text(origin, text);
    BOOST_REQUIRE_MESSAGE(!program->diags.has_errors(), render_diagnostics(program->diags, program->sources));
    for (const Decl* decl : program->kernels()) {
      auto ir = lower(origin, text, decl->name);
      const KernelOptions& o = ir->options;
      const bool decode = decl->name.find("decode") != std::string::npos;
      const int64_t D = o.head_dim ? o.head_dim : 3, Dv = o.value_dim ? o.value_dim : o.head_dim ? D : 2;
      check_gradients(*ir, Shape{1, 2, 1, decode ? 1 : 6, 7, D, Dv}, rng, origin + ":" + decl->name);
      check_gradients(*ir, Shape{2, 3, 3, decode ? 1 : 5, 4, D, D}, rng, origin + ":" + decl->name);
      ScoreGradient g = differentiate_score(*ir);
      KernelIR copy = *ir;
      copy.score = g.dscore;
      BOOST_CHECK_NO_THROW(verify_kernel_ir(copy));
      for (const BufferGradient& b : g.reads) {
        copy.score = b.partial;
        BOOST_CHECK_NO_THROW(verify_kernel_ir(copy));
      }
    }
  }
}

// d score'/d score of `score` (an expression of the language) at `s` and (q, kv).
double dscore_at(const std::string& score, double s, int q = 0, int kv = 0) {
  auto ir = lower("test.attn", "kernel k { score = " + score + "; }", "k");
  return CompiledExpr(differentiate_score(*ir).dscore, *ir).eval(EvalPoint{{0, 0, q, kv}, s}, ArgValues{});
}

bool same_bits(const HostTensor& a, const HostTensor& b) {
  return a.shape == b.shape && a.type == b.type && a.bytes == b.bytes;
}

}  // namespace

BOOST_AUTO_TEST_CASE(every_stdlib_definition) {
  std::mt19937 rng(1);
  std::vector<std::pair<std::string, std::string>> programs;
  for (const StdlibKernelProgram& p : stdlib_kernel_programs(StdlibKernelOptions{}))
    programs.emplace_back(p.path, p.text);
  check_programs(programs, rng);
}

BOOST_AUTO_TEST_CASE(every_sample_kernel) {
  std::mt19937 rng(2);
  std::vector<std::pair<std::string, std::string>> programs;
  for (const auto& f : files_under(source_dir() / "samples", ".attn"))
    programs.emplace_back(f.filename().string(), read_file(f));
  check_programs(programs, rng);
}

// Buffers read at two indices, scores through every builtin, dLSE, fully masked rows (the first
// three queries see no key), GQA with value_dim != head_dim.
BOOST_AUTO_TEST_CASE(buffers_builtins_lse_and_masked_rows) {
  const char* src = R"(
kernel two(t: tensor<f32>[n]) { score = score * t[q] + t[kv] * t[q]; lse = true; }
kernel math(w: tensor<f32>[n]) {
  score = sin(score) + cos(w[kv]) * exp(score / 4.0) + log(2.0 + tanh(score)) + sqrt(1.0 + score * score)
        + exp2(w[q] * score) + rsqrt(2.0 + sigmoid(score)) + log2(3.0 + score * w[kv]) + min(score, 0.7) + max(score, w[kv]) + abs(score + 10.0)
        + floor(score * 3.0) + clamp(score, -0.5, w[q] + 1.0) + (score > 0.0 ? score * score : -score);
  lse = true;
}
kernel masked(bias: tensor<f32>[heads, n]) { mask = q >= kv + 3; score = score + bias[h, kv]; lse = true; }
)";
  std::mt19937 rng(3);
  for (const char* name : {"two", "math", "masked"}) {
    auto ir = lower("test.attn", src, name);
    check_gradients(*ir, Shape{1, 2, 2, 7, 6, 4, 4}, rng, name);
    check_gradients(*ir, Shape{2, 4, 2, 8, 9, 3, 5}, rng, name);
  }
  // The fully masked rows add nothing: their dQ is 0.
  auto ir = lower("test.attn", src, "masked");
  auto [in, r] = random_problem(*ir, Shape{1, 2, 1, 6, 6, 4, 4}, rng);
  KernelGradients g = run_reference_backward(*ir, in, r, 2);
  for (int64_t h = 0; h < 2; ++h)
    for (int64_t e = 0; e < 3 * 4; ++e) BOOST_TEST(g.dq.get(h * 6 * 4 + e) == 0.0);
}

// Bounded reductions (sum; max and min, whose gradient goes to the term equal to the result) and
// the builtins of the language issue: erf, atan, pow (r1-r3 one reduction each, red all three). `u` is read
// inside a reduction at an index that does not depend on its variable: an ordinary read site, differentiated
// term by term.
BOOST_AUTO_TEST_CASE(reductions_and_new_builtins) {
  const char* src = R"(
kernel red(w: tensor<f32>[n, r], u: tensor<f32>[n]) {
  score = sum(j < r: tanh(score * w[q, j] + u[kv])) + max(j < 3: score * float(j) - float(j * j))
        + min(j < 4: score * u[q] + float(j));
  lse = true;
}
kernel r1(w: tensor<f32>[n, r], u: tensor<f32>[n]) { score = sum(j < r: tanh(score * w[q, j] + u[kv])); }
kernel r2 { score = max(j < 3: score * float(j) - float(j * j)); }
kernel r3(u: tensor<f32>[n]) { score = min(j < 4: score * u[q] + float(j)); }
kernel fns(u: tensor<f32>[n]) {
  score = erf(score) + atan(score * u[kv]) + pow(1.5 + score * score, 0.5) + sum(j < 0: score);
}
)";
  std::mt19937 rng(11);
  for (const char* name : {"red", "r1", "r2", "r3", "fns"}) {
    auto ir = lower("test.attn", src, name);
    check_gradients(*ir, Shape{1, 2, 2, 7, 6, 4, 4}, rng, name);
    check_gradients(*ir, Shape{2, 4, 2, 5, 9, 3, 5}, rng, name);
    ScoreGradient g = differentiate_score(*ir);
    KernelIR copy = *ir;
    copy.score = g.dscore;
    BOOST_CHECK_NO_THROW(verify_kernel_ir(copy));
  }
  // `w` is read one element per term: no read site describes it, and its gradient is refused.
  auto ir = lower("test.attn", src, "red");
  ScoreGradient g = differentiate_score(*ir);
  BOOST_TEST(g.reduced_reads == std::vector<std::string>{"w"});
  auto [in, r] = random_problem(*ir, Shape{1, 1, 1, 3, 3, 2, 2}, rng);
  r.buffers.push_back("w");
  try {
    run_reference_backward(*ir, in, r, 1);
    BOOST_ERROR("accepted the gradient of a buffer read per term of a reduction");
  } catch (const InputError& e) {
    BOOST_TEST(std::string(e.what()).find("per term of a bounded reduction") != std::string::npos, e.what());
  }
}

// PyTorch autograd's conventions at non-differentiable points (docs/language.md, "Backward").
BOOST_AUTO_TEST_CASE(non_differentiable_points) {
  BOOST_TEST(dscore_at("abs(score)", 0.0) == 0.0);
  BOOST_TEST(dscore_at("abs(score)", -2.0) == -1.0);
  BOOST_TEST(dscore_at("max(score, 0.0)", 0.0) == 0.5);  // torch.maximum: ties split evenly
  BOOST_TEST(dscore_at("min(score, 1.0)", 1.0) == 0.5);
  BOOST_TEST(dscore_at("min(score, score)", 3.0) == 1.0);
  BOOST_TEST(dscore_at("clamp(score, -1.0, 1.0)", -1.0) == 1.0);  // torch.clamp: x keeps it at a bound
  BOOST_TEST(dscore_at("clamp(score, -1.0, 1.0)", 1.0) == 1.0);
  BOOST_TEST(dscore_at("clamp(score, -1.0, 1.0)", 1.5) == 0.0);
  for (const char* f : {"floor(score)", "ceil(score)", "round(score)", "float(int(score))"})
    BOOST_TEST(dscore_at(f, 0.5) == 0.0, f);
  BOOST_TEST(dscore_at("q > kv ? 2.0 * score : 3.0 * score", 1.0, 1, 0) == 2.0);
  BOOST_TEST(dscore_at("q > kv ? 2.0 * score : 3.0 * score", 1.0, 0, 0) == 3.0);
  // The simplifier makes this select max(score, 0.0): the min/max rule applies, not the select's.
  BOOST_TEST(dscore_at("score > 0.0 ? score : 0.0", 0.0) == 0.5);
  BOOST_TEST(dscore_at("score > 0.0 ? 2.0 * score : 0.0", 0.0) == 0.0);  // the false branch is taken at 0
  BOOST_TEST(dscore_at("clamp(score, 1.0, -1.0)", 0.0) == 0.0);          // crossed bounds: the low one
}

// Read sites: one per (buffer, index), in first-read order; i32 buffers have none.
BOOST_AUTO_TEST_CASE(read_sites) {
  auto ir = lower("test.attn",
                  "kernel k(t: tensor<f32>[n], u: tensor<i32>[n]) { score = t[kv] * score + t[q] + t[kv] + "
                  "float(u[q]); }",
                  "k");
  ScoreGradient g = differentiate_score(*ir);
  BOOST_REQUIRE(g.reads.size() == 2u);
  BOOST_TEST(g.reads[0].buffer == "t");
  BOOST_TEST(g.reads[1].buffer == "t");
  BOOST_TEST(!Halide::Internal::equal(g.reads[0].index[0], g.reads[1].index[0]));
  BOOST_TEST(print_score_gradient(*ir).find("d/d t[kv]") != std::string::npos, print_score_gradient(*ir));
}

// Two runs are bit-identical, and so are runs on 1 and 4 threads (sums have a fixed order).
BOOST_AUTO_TEST_CASE(deterministic) {
  auto ir = lower("test.attn",
                  "kernel k(bias: tensor<f32>[heads, 81]) { score = score + bias[h, kv - q + 40]; }", "k");
  std::mt19937 rng(5);
  auto [in, r] = random_problem(*ir, Shape{2, 4, 2, 40, 41, 8, 8}, rng);
  KernelGradients a = run_reference_backward(*ir, in, r, 4), b = run_reference_backward(*ir, in, r, 4),
                  c = run_reference_backward(*ir, in, r, 1);
  for (const KernelGradients* x : {&b, &c}) {
    BOOST_TEST(same_bits(a.dq, x->dq));
    BOOST_TEST(same_bits(a.dk, x->dk));
    BOOST_TEST(same_bits(a.dv, x->dv));
    BOOST_TEST(same_bits(a.buffers.at("bias"), x->buffers.at("bias")));
  }
}

// dQ, dK, dV in the kernel's dtype; the buffer gradients in f32.
BOOST_AUTO_TEST_CASE(gradient_dtypes) {
  auto ir =
      lower("test.attn", "kernel k(s: tensor<f32>[heads]) { dtype = bf16; score = score * s[h]; }", "k");
  std::mt19937 rng(6);
  auto [in, r] = random_problem(*with_dtype(*ir, DType::F32), Shape{1, 2, 1, 3, 3, 4, 4}, rng);
  for (HostTensor* t : {&in.q, &in.k, &in.v, &r.dout}) {
    HostTensor c(ScalarType::BF16, t->shape);
    for (int64_t i = 0; i < t->numel(); ++i) c.set(i, t->get(i));
    *t = c;
  }
  KernelGradients g = run_reference_backward(*ir, in, r, 1);
  BOOST_TEST(
      (g.dq.type == ScalarType::BF16 && g.dk.type == ScalarType::BF16 && g.dv.type == ScalarType::BF16));
  BOOST_TEST((g.buffers.at("s").type == ScalarType::F32));
}

BOOST_AUTO_TEST_CASE(request_errors) {
  const char* src = R"(
kernel k(t: tensor<f32>[n], u: tensor<i32>[n], m: tensor<f32>[n]) { mask = m[kv] > 0.0; score = score + t[kv] + float(u[q]); }
kernel l { lse = true; }
)";
  auto ir = lower("test.attn", src, "k");
  std::mt19937 rng(7);
  auto [in, r] = random_problem(*ir, Shape{1, 1, 1, 3, 3, 2, 2}, rng);
  auto fails = [&](GradientRequest bad, const std::string& what, const KernelIR& kernel) {
    try {
      run_reference_backward(kernel, in, bad, 1);
      BOOST_ERROR("accepted a request that should fail with: " << what);
    } catch (const InputError& e) {
      BOOST_TEST(std::string(e.what()).find(what) != std::string::npos, e.what());
    }
  };
  GradientRequest bad = r;
  bad.dout = HostTensor(ScalarType::F32, {1, 1, 3, 3});
  fails(bad, "dout must be f32 [1, 1, 3, 2]", *ir);
  bad.dout = HostTensor(ScalarType::F16, {1, 1, 3, 2});
  fails(bad, "dout must be f32", *ir);
  bad = r;
  bad.dlse = HostTensor(ScalarType::F32, {1, 1, 3});
  fails(bad, "has no LSE output", *ir);
  bad = r;
  bad.buffers = {"u"};
  fails(bad, "only f32 tensor arguments have gradients", *ir);
  bad.buffers = {"m"};
  fails(bad, "does not read it in its score or sink (masks are not differentiated)", *ir);
  bad.buffers = {"nope"};
  fails(bad, "has no tensor argument 'nope'", *ir);
  bad.buffers = {"t", "t"};
  fails(bad, "asked for twice", *ir);
  auto l = lower("test.attn", src, "l");
  KernelInputs plain{in.q, in.k, in.v, {}, {}};
  GradientRequest lr{r.dout, HostTensor(ScalarType::F32, {1, 1, 2}), {}};
  try {
    run_reference_backward(*l, plain, lr, 1);
    BOOST_ERROR("accepted a dlse of the wrong shape");
  } catch (const InputError& e) {
    BOOST_TEST(std::string(e.what()).find("dlse must be f32 [1, 1, 3]") != std::string::npos, e.what());
  }
}

// The forward's non-finite rule, carried to the gradients: a +Inf score freezes its row's weights
// (dQ 0, dV = dOut on the +Inf key), a -Inf score weighs nothing even where ds'/ds is infinite,
// and a NaN row makes its own gradients NaN and no other row's.
BOOST_AUTO_TEST_CASE(non_finite_scores) {
  auto ir = lower("test.attn", "kernel k(big: float) { score = kv == 0 ? score * big : score; }", "k");
  std::mt19937 rng(8);
  auto [in, r] = random_problem(*ir, Shape{1, 1, 1, 6, 5, 3, 2}, rng);
  in.scalars["big"] = INFINITY;
  KernelGradients g = run_reference_backward(*ir, in, r, 2);
  std::vector<double> dv0(2, 0.0);
  int positive = 0;
  for (int64_t i = 0; i < 6; ++i) {
    double dot = 0;
    for (int64_t d = 0; d < 3; ++d) dot += in.q.get(i * 3 + d) * in.k.get(d);
    positive += dot > 0;
    for (int64_t d = 0; d < 3; ++d) {
      BOOST_TEST(std::isfinite(g.dq.get(i * 3 + d)));
      if (dot > 0) BOOST_TEST(g.dq.get(i * 3 + d) == 0.0);
    }
    if (dot > 0)
      for (int64_t d = 0; d < 2; ++d) dv0[size_t(d)] += r.dout.get(i * 2 + d);
  }
  BOOST_TEST((positive > 0 && positive < 6), "rows with a +Inf score: " << positive << " of 6");
  for (int64_t d = 0; d < 2; ++d) BOOST_TEST(std::fabs(g.dv.get(d) - dv0[size_t(d)]) < 1e-6);
  for (const HostTensor* t : {&g.dk, &g.dv})
    for (int64_t e = 0; e < t->numel(); ++e) BOOST_TEST(std::isfinite(t->get(e)));

  in.scalars["big"] = 1.0;
  in.q.set(2 * 3 + 1, NAN);  // row 2
  g = run_reference_backward(*ir, in, r, 2);
  for (int64_t i = 0; i < 6; ++i)
    for (int64_t d = 0; d < 3; ++d) BOOST_TEST(std::isnan(g.dq.get(i * 3 + d)) == (i == 2));
  BOOST_TEST(std::isnan(g.dk.get(0)));
}
