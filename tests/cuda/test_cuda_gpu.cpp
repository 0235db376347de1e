// CUDA backend tests on a GPU (label gpu): every test kernel against the reference on random
// inputs with odd lengths, GQA and every dtype the kernel allows; the backward against the
// reference backward (odd lengths, GQA, Dv != D, f16/bf16, fully masked rows, rows at +Inf and
// -inf, buffer gradients, dLSE, a documents mask on the run-time tile plan) and run twice for
// bit-identical results; ragged batches (cu_seqlens) and paged caches against the reference's. Skips cleanly
// without a GPU.
#define BOOST_TEST_MODULE cuda_gpu
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <tuple>

#include "backends/cuda/CudaBackward.h"
#include "backends/cuda/CudaRun.h"
#include "backends/reference/Reference.h"
#include "codegen/KernelIR.h"
#include "codegen/Lower.h"
#include "runtime/CudaDriver.h"
#include "tests/cuda/CudaTestKernels.h"
#include "tests/support/CheckedLowering.h"

using namespace attn;

namespace {

HostTensor random_tensor(ScalarType t, std::vector<int64_t> shape, std::mt19937& rng) {
  HostTensor x(t, std::move(shape));
  std::normal_distribution<double> n(0.0, 1.0);
  for (int64_t i = 0; i < x.numel(); ++i) x.set(i, n(rng));
  return x;
}

/// Inputs for `ir` with the given lengths; documents of random lengths for i32 buffers, per-head
/// slopes for f32 buffers, random flags for bool buffers.
KernelInputs make_inputs(const KernelIR& ir, int64_t lq, int64_t lkv, std::mt19937& rng) {
  const int64_t B = 2, Hq = 4, Hkv = 2;
  const int64_t D = ir.options.head_dim ? ir.options.head_dim : 128;
  const int64_t Dv = ir.options.value_dim ? ir.options.value_dim : D;
  const ScalarType t = io_scalar_type(ir.options.dtype);
  KernelInputs in;
  in.q = random_tensor(t, {B, Hq, lq, D}, rng);
  in.k = random_tensor(t, {B, Hkv, lkv, D}, rng);
  in.v = random_tensor(t, {B, Hkv, lkv, Dv}, rng);
  if (is_fp8(ir.options.dtype)) {  // descale factors: one for Q, one per (batch entry, kv head) for K and V
    in.q_descale = HostTensor(ScalarType::F32, {1});
    in.q_descale.set(0, 0.75);
    for (HostTensor* f : {&in.k_descale, &in.v_descale}) {
      *f = HostTensor(ScalarType::F32, {B, Hkv});
      for (int64_t i = 0; i < f->numel(); ++i) f->set(i, 0.5 + 0.25 * static_cast<double>(i));
    }
  }
  const int64_t len = std::max(lq, lkv);
  for (const KernelArg& a : ir.args) {
    if (a.kind == KernelArg::Kind::Scalar) {
      in.scalars[a.name] = 16;
      continue;
    }
    std::vector<int64_t> shape;
    for (size_t d = 0; d < a.dims.size(); ++d) shape.push_back(a.dims[d] == "heads" ? Hq : len);
    if (a.elem == ElemType::I32) {
      // Sorted document ids (contiguous documents); `start`-like buffers get document starts.
      HostTensor x(ScalarType::I32, shape);
      int64_t doc = 0;
      for (int64_t i = 0; i < x.numel(); ++i) {
        if (i > 0 && rng() % 97 == 0) ++doc;
        x.set(i, static_cast<double>(a.name == "start" ? 0 : doc));
      }
      in.buffers[a.name] = x;
    } else if (a.elem == ElemType::F32) {
      HostTensor x(ScalarType::F32, shape);
      for (int64_t i = 0; i < x.numel(); ++i) x.set(i, -0.05 * static_cast<double>(i + 1));
      in.buffers[a.name] = x;
    } else {
      HostTensor x(ScalarType::Bool, shape);
      for (int64_t i = 0; i < x.numel(); ++i) x.set(i, rng() % 50 == 0 ? 1 : 0);
      in.buffers[a.name] = x;
    }
  }
  return in;
}

double tolerance(DType d) { return d == DType::F32 ? 2e-3 : d == DType::F16 ? 1e-2 : 3e-2; }

/// max |got - want| over the per-row results the kernel writes, the LSE and the row maxima
/// (return_max); equal infinities count 0.
double row_results_error(const KernelIR& ir, const KernelOutputs& got, const KernelOutputs& want) {
  double worst = 0;
  for (auto [wanted, g, w] : {std::tuple{ir.options.lse, &got.lse, &want.lse},
                              std::tuple{ir.options.return_max, &got.max, &want.max}})
    for (int64_t i = 0; wanted && i < w->numel(); ++i) {
      const double a = g->get(i), b = w->get(i);
      worst = std::max(worst, (std::isinf(a) && std::isinf(b) && a == b) ? 0.0 : std::abs(a - b));
    }
  return worst;
}

/// Every test kernel against the reference at odd lengths; `options` picks the kernel family.
/// Kernels `only_if` rejects are left out.
void check_every_kernel(const CudaRunOptions& options, bool (*only_if)(const KernelIR&)) {
  std::vector<std::string> errors;
  std::mt19937 rng(1234);
  for (const test::TestKernel& k : test::cuda_test_kernels(errors, {"bf16", "f16", "f32"})) {
    if (!only_if(*k.ir)) continue;
    // The last two have few query tiles over many keys: split-KV (several CTAs per query tile,
    // merged by the last one) on any GPU with more SMs than their 8 or 16 CTAs.
    for (auto [lq, lkv] :
         {std::pair<int64_t, int64_t>{1, 1}, {77, 77}, {200, 333}, {513, 129}, {1, 3001}, {70, 2600}}) {
      KernelInputs in = make_inputs(*k.ir, lq, lkv, rng);
      KernelOutputs ref;
      try {
        ref = run_reference(*k.ir, in);
      } catch (const std::exception& e) {
        // The reference rejects these inputs (e.g. an index out of range): so must the GPU.
        BOOST_CHECK_THROW(run_cuda(*k.ir, in, options), std::exception);
        continue;
      }
      CudaRunResult got;
      try {
        got = run_cuda(*k.ir, in, options);
      } catch (const std::exception& e) {
        BOOST_ERROR(k.label << " Lq=" << lq << " Lkv=" << lkv << ": " << e.what());
        continue;
      }
      double worst = 0;
      for (int64_t i = 0; i < ref.out.numel(); ++i) {
        const double a = got.outputs.out.get(i), b = ref.out.get(i);
        worst = std::max(worst, std::isnan(a) ? INFINITY : std::abs(a - b));
      }
      BOOST_TEST(worst <= tolerance(k.ir->options.dtype), k.label << " (" << describe(got.tiles)
                                                                  << ") Lq=" << lq << " Lkv=" << lkv
                                                                  << ": max |err| " << worst);
      const double rows_worst = row_results_error(*k.ir, got.outputs, ref);
      BOOST_TEST(rows_worst <= 1e-2, k.label << " LSE and row maxima: max |err| " << rows_worst);
    }
  }
}

/// An FP8 kernel's K and V descale factors of a ragged batch or paged cache: one per (sequence, kv
/// head).
void per_sequence_descales(KernelInputs& in, int64_t sequences) {
  for (HostTensor* f : {&in.k_descale, &in.v_descale}) {
    if (f->shape.empty()) continue;
    *f = HostTensor(ScalarType::F32, {sequences, f->shape[1]});
    for (int64_t i = 0; i < f->numel(); ++i) f->set(i, 0.5 + 0.125 * static_cast<double>(i % 7));
  }
}

/// A ragged batch for `ir` (runtime/CudaRagged.h: one launch per sequence on views of the packed
/// tensors): sequences with no queries, no keys, one of each, more queries than keys and the
/// reverse, and a long one that splits its keys; buffers as make_inputs' over the longest.
KernelInputs make_ragged_inputs(const KernelIR& ir, std::mt19937& rng) {
  const std::vector<int64_t> q_lens = {1, 0, 77, 200, 3, 1}, k_lens = {1, 5, 133, 64, 0, 3001};
  KernelInputs in = make_inputs(ir, 3001, 3001, rng);
  HostTensor cu_q(ScalarType::I32, {int64_t(q_lens.size()) + 1}), cu_k = cu_q;
  int64_t tq = 0, tk = 0;
  for (size_t s = 0; s < q_lens.size(); ++s) {
    cu_q.set(int64_t(s), double(tq)), cu_k.set(int64_t(s), double(tk));
    tq += q_lens[s], tk += k_lens[s];
  }
  cu_q.set(int64_t(q_lens.size()), double(tq)), cu_k.set(int64_t(q_lens.size()), double(tk));
  in.q = random_tensor(in.q.type, {tq, in.q.shape[1], in.q.shape[3]}, rng);
  in.k = random_tensor(in.k.type, {tk, in.k.shape[1], in.k.shape[3]}, rng);
  in.v = random_tensor(in.v.type, {tk, in.v.shape[1], in.v.shape[3]}, rng);
  in.cu_seqlens_q = cu_q, in.cu_seqlens_k = cu_k;
  per_sequence_descales(in, int64_t(q_lens.size()));
  return in;
}

/// A paged KV cache for `ir`: 4 sequences in shuffled pages of `page` keys (a page shared by two
/// sequences: a common prefix), their queries their last 1, 3, 40 and 16 tokens.
KernelInputs make_paged_inputs(const KernelIR& ir, std::mt19937& rng, int64_t page) {
  const std::vector<int64_t> q_lens = {1, 3, 40, 16}, k_lens = {70, 3, 300, 16};
  const int64_t max_pages = (300 + page - 1) / page, pages = 2 * max_pages + 2;
  KernelInputs in = make_inputs(ir, 300, 300, rng);
  const int64_t hq = in.q.shape[1], hkv = in.k.shape[1], d = in.q.shape[3], dv = in.v.shape[3];
  int64_t tq = 0;
  for (int64_t n : q_lens) tq += n;
  in.q = random_tensor(in.q.type, {tq, hq, d}, rng);
  in.k = random_tensor(in.k.type, {pages, page, hkv, d}, rng);
  in.v = random_tensor(in.v.type, {pages, page, hkv, dv}, rng);
  std::vector<int64_t> order(pages);
  for (int64_t i = 0; i < pages; ++i) order[size_t(i)] = i;
  std::shuffle(order.begin(), order.end(), rng);
  HostTensor table(ScalarType::I32, {int64_t(q_lens.size()), max_pages}),
      lens(ScalarType::I32, {int64_t(q_lens.size())});
  HostTensor cu(ScalarType::I32, {int64_t(q_lens.size()) + 1});
  int64_t next = 0, row = 0;
  for (size_t s = 0; s < q_lens.size(); ++s) {
    cu.set(int64_t(s), double(row)), row += q_lens[s];
    lens.set(int64_t(s), double(k_lens[s]));
    for (int64_t j = 0; j < max_pages; ++j) table.set(int64_t(s) * max_pages + j, 0.0);
    for (int64_t j = 0; j < (k_lens[s] + page - 1) / page; ++j)
      table.set(int64_t(s) * max_pages + j, double(s == 3 && j == 0 ? order[0] : order[size_t(next++)]));
  }
  cu.set(int64_t(q_lens.size()), double(row));
  in.cu_seqlens_q = cu, in.page_table = table, in.kv_lens = lens;
  per_sequence_descales(in, int64_t(q_lens.size()));
  return in;
}

}  // namespace

namespace {

/// Every test kernel (bf16 and f32) on the packed inputs `make` draws (`what`: "ragged", "paged")
/// against the reference: Out and the LSE.
void check_packed_layout(const char* what, KernelInputs (*make)(const KernelIR&, std::mt19937&),
                         unsigned seed) {
  std::vector<std::string> errors;
  std::mt19937 rng(seed);
  for (const test::TestKernel& k : test::cuda_test_kernels(errors, {"bf16", "f32"})) {
    KernelInputs in = make(*k.ir, rng);
    KernelOutputs ref;
    try {
      ref = run_reference(*k.ir, in);
    } catch (const std::exception&) {
      BOOST_CHECK_THROW(run_cuda(*k.ir, in, {}), std::exception);  // what the reference rejects
      continue;
    }
    CudaRunResult got;
    try {
      got = run_cuda(*k.ir, in, {});
    } catch (const std::exception& e) {
      BOOST_ERROR(k.label << " " << what << ": " << e.what());
      continue;
    }
    BOOST_REQUIRE(got.outputs.out.shape == ref.out.shape);
    double worst = 0;
    for (int64_t i = 0; i < ref.out.numel(); ++i) {
      const double a = got.outputs.out.get(i), b = ref.out.get(i);
      worst = std::max(worst, std::isnan(a) ? INFINITY : std::abs(a - b));
    }
    const double rows_worst = row_results_error(*k.ir, got.outputs, ref);
    BOOST_TEST(worst <= tolerance(k.ir->options.dtype), k.label << " " << what << ": max |err| " << worst);
    BOOST_TEST(rows_worst <= 1e-2,
               k.label << " " << what << ": LSE and row maxima: max |err| " << rows_worst);
    // The same call planned once and replayed from a CUDA graph (no allocation, copy or wait in
    // the planned launches, or the capture fails): the same bytes.
    CudaRunOptions from_graph;
    from_graph.graph = true;
    try {
      const CudaRunResult replayed = run_cuda(*k.ir, in, from_graph);
      BOOST_TEST((replayed.outputs.out.bytes == got.outputs.out.bytes),
                 k.label << " " << what << ": the CUDA graph's replay differs from the direct call");
    } catch (const std::exception& e) {
      BOOST_ERROR(k.label << " " << what << " from a CUDA graph: " << e.what());
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(ragged_batches_match_the_reference) {
  std::string why;
  if (!cuda_driver_available(&why)) {
    BOOST_TEST_MESSAGE("skipped: " << why);
    return;
  }
  check_packed_layout("ragged", make_ragged_inputs, 77);
}

BOOST_AUTO_TEST_CASE(paged_caches_match_the_reference) {
  std::string why;
  if (!cuda_driver_available(&why)) {
    BOOST_TEST_MESSAGE("skipped: " << why);
    return;
  }
  // Pages of 16 keys (a key tile across pages: a lookup per row) and of 128 (one per tile).
  check_packed_layout(
      "paged (pages of 16)",
      [](const KernelIR& ir, std::mt19937& rng) { return make_paged_inputs(ir, rng, 16); }, 78);
  check_packed_layout(
      "paged (pages of 128)",
      [](const KernelIR& ir, std::mt19937& rng) { return make_paged_inputs(ir, rng, 128); }, 79);
}

BOOST_AUTO_TEST_CASE(every_kernel_matches_the_reference) {
  std::string why;
  if (!cuda_driver_available(&why)) {
    BOOST_TEST_MESSAGE("skipped: " << why);
    return;
  }
  check_every_kernel({}, [](const KernelIR&) { return true; });
}

BOOST_AUTO_TEST_CASE(hopper_warpgroup_kernels_match_the_reference) {
  std::string why;
  if (!cuda_driver_available(&why)) {
    BOOST_TEST_MESSAGE("skipped: " << why);
    return;
  }
  if (CudaDevice::open(0)->sm() != 90) {
    BOOST_TEST_MESSAGE("skipped: the warpgroup kernel needs sm_90a");
    return;
  }
  CudaRunOptions o;
  o.prefer_wgmma = true;
  check_every_kernel(o, [](const KernelIR& ir) { return ir.options.dtype != DType::F32; });
}

BOOST_AUTO_TEST_CASE(out_of_range_index_is_reported) {
  std::string why;
  if (!cuda_driver_available(&why)) {
    BOOST_TEST_MESSAGE("skipped: " << why);
    return;
  }
  std::vector<std::string> errors;
  std::mt19937 rng(7);
  for (const test::TestKernel& k : test::cuda_test_kernels(errors)) {
    if (kernel_name(*k.ir) != "documents_bf16_128") continue;
    KernelInputs in = make_inputs(*k.ir, 100, 100, rng);
    in.buffers["doc"] = HostTensor(ScalarType::I32, {50});  // shorter than the sequence
    BOOST_CHECK_EXCEPTION(run_cuda(*k.ir, in), CudaError, [](const CudaError& e) {
      return std::string(e.what()).find("buffer 'doc' index") != std::string::npos;
    });
  }
}

namespace {

const char* kBackwardProgram = R"attn(
import std.masks;
score alibi(slopes: tensor<f32>[heads]) = score + slopes[h] * (kv - q);

kernel causal_bf16_64 { mask = causal; dtype = bf16; head_dim = 64; lse = true; }
kernel full_f16_128 { dtype = f16; head_dim = 128; }
kernel alibi_bf16_128(slopes: tensor<f32>[heads]) { mask = causal; score = alibi(slopes); dtype = bf16; head_dim = 128; }
kernel softcap_f16_64 { mask = q - kv < 100; score = 20.0 * tanh(score / 20.0); dtype = f16; head_dim = 64; }
kernel value_dim_bf16 { mask = causal; dtype = bf16; head_dim = 128; value_dim = 64; }
kernel first_rows_bf16 { mask = q >= 5 && kv <= q; dtype = bf16; head_dim = 64; lse = true; }
kernel rel_bias_bf16(table: tensor<f32>[heads, rel]) {
  mask = q - kv < 40 && kv - q < 40;
  score = score + table[h, q - kv + 90] * 0.5 + table[h, kv - q + 90] * 0.25;
  dtype = bf16; head_dim = 64;
}
kernel documents_bf16(doc: tensor<i32>[len]) { mask = causal && doc[q] == doc[kv]; dtype = bf16; head_dim = 128; }
kernel inf_rows_bf16 {
  mask = q >= 5 && kv <= q;
  score = q % 5 == 4 ? -inf : (q % 3 == 0 && kv % 4 == 1 ? inf : 20.0 * tanh(score / 20.0));
  dtype = bf16; head_dim = 64; lse = true;
}
kernel sinks_bf16_64(sinks: tensor<f32>[heads]) {
  mask = q >= 5 && kv <= q && q - kv < 64; sink = sinks[h]; dtype = bf16; head_dim = 64; lse = true;
}
kernel sink_rows_f16_128(bias: tensor<f32>[heads, len], slopes: tensor<f32>[heads]) {
  mask = causal; score = alibi(slopes); sink = bias[h, q] + slopes[h]; dtype = f16; head_dim = 128;
}
)attn";

std::shared_ptr<const KernelIR> lower_backward_kernel(const std::string& name) {
  return test::lower_checked(*test::load_checked_text("backward.attn", kBackwardProgram), name);
}

/// Largest |a - b| over two tensors, relative to the larger of 1 and b's largest magnitude.
double relative_error(const HostTensor& a, const HostTensor& b) {
  double worst = 0, scale = 1;
  for (int64_t i = 0; i < b.numel(); ++i) scale = std::max(scale, std::abs(b.get(i)));
  for (int64_t i = 0; i < b.numel(); ++i) {
    const double x = a.get(i), y = b.get(i);
    worst = std::max(worst, std::isnan(x) || std::isnan(y) ? INFINITY : std::abs(x - y));
  }
  return worst / scale;
}

/// A random dOut (rows `rows`, `dv` columns) and, for a kernel with an LSE, dLSE, for the backward of
/// `ir` on `in`; every f32 buffer's gradient asked for, its values slopes and biases of both signs,
/// small enough for f32 scores (a `table` buffer made [Hq, 200] first).
GradientRequest gradient_request(const KernelIR& ir, KernelInputs& in, std::vector<int64_t> rows, int64_t dv,
                                 std::mt19937& rng) {
  GradientRequest request;
  std::vector<int64_t> out = rows;
  out.push_back(dv);
  request.dout = random_tensor(io_scalar_type(ir.options.dtype), out, rng);
  if (ir.options.lse) request.dlse = random_tensor(ScalarType::F32, rows, rng);
  if (in.buffers.count("table")) in.buffers["table"] = HostTensor(ScalarType::F32, {in.q.shape[1], 200});
  for (const KernelArg& a : ir.args)
    if (a.kind == KernelArg::Kind::Buffer && a.elem == ElemType::F32) {
      request.buffers.push_back(a.name);
      HostTensor& t = in.buffers.at(a.name);
      for (int64_t i = 0; i < t.numel(); ++i)
        t.set(i, 0.01 * static_cast<double>(static_cast<int>(rng() % 200) - 100));
    }
  return request;
}

/// Gradients `got` against the reference's within `tol`, and `again` (a second run) the same bits.
void check_gradients(const std::string& label, const GradientRequest& request, const KernelGradients& got,
                     const KernelGradients& again, const KernelGradients& ref, double tol) {
  BOOST_TEST(relative_error(got.dq, ref.dq) <= tol, label << " dQ");
  BOOST_TEST(relative_error(got.dk, ref.dk) <= tol, label << " dK");
  BOOST_TEST(relative_error(got.dv, ref.dv) <= tol, label << " dV");
  for (const std::string& b : request.buffers)
    BOOST_TEST(relative_error(got.buffers.at(b), ref.buffers.at(b)) <= tol, label << " d" << b);
  BOOST_TEST((got.dq.bytes == again.dq.bytes), label << " dQ differs between runs");
  BOOST_TEST((got.dk.bytes == again.dk.bytes), label << " dK differs between runs");
  BOOST_TEST((got.dv.bytes == again.dv.bytes), label << " dV differs between runs");
  for (const std::string& b : request.buffers)
    BOOST_TEST((got.buffers.at(b).bytes == again.buffers.at(b).bytes),
               label << " d" << b << " differs between runs");
}

/// The CUDA backward of `in` run twice into `got` and checked against `ref` (check_gradients: the two
/// runs must give the same bits); false, with the error reported under `label`, when it throws.
bool backward_twice_matches(const std::string& label, const KernelIR& ir, const KernelInputs& in,
                            const GradientRequest& request, const KernelGradients& ref,
                            CudaBackwardResult& got) {
  CudaBackwardResult again;
  try {
    got = run_cuda_backward(ir, in, request);
    again = run_cuda_backward(ir, in, request);
  } catch (const std::exception& e) {
    BOOST_ERROR(label << ": " << e.what());
    return false;
  }
  check_gradients(label, request, got.gradients, again.gradients, ref, tolerance(ir.options.dtype));
  return true;
}

}  // namespace

BOOST_AUTO_TEST_CASE(backward_matches_the_reference_backward) {
  std::string why;
  if (!cuda_driver_available(&why)) {
    BOOST_TEST_MESSAGE("skipped: " << why);
    return;
  }
  std::mt19937 rng(4321);
  for (const char* name : {"causal_bf16_64", "full_f16_128", "alibi_bf16_128", "softcap_f16_64",
                           "value_dim_bf16", "first_rows_bf16", "rel_bias_bf16", "documents_bf16",
                           "inf_rows_bf16", "sinks_bf16_64", "sink_rows_f16_128"}) {
    auto ir = lower_backward_kernel(name);
    for (auto [lq, lkv] : {std::pair<int64_t, int64_t>{1, 1}, {77, 77}, {200, 333}, {130, 64}, {300, 129}}) {
      KernelInputs in = make_inputs(*ir, lq, lkv, rng);
      const GradientRequest request =
          gradient_request(*ir, in, {in.q.shape[0], in.q.shape[1], in.q.shape[2]}, in.v.shape[3], rng);
      const std::string label =
          std::string(name) + " Lq=" + std::to_string(lq) + " Lkv=" + std::to_string(lkv);
      KernelGradients ref;
      try {
        ref = run_reference_backward(*ir, in, request, 0);
      } catch (const std::exception& e) {
        // The reference rejects these inputs (an index out of range): so must the GPU.
        BOOST_CHECK_THROW(run_cuda_backward(*ir, in, request), std::exception);
        continue;
      }
      CudaBackwardResult got;
      if (!backward_twice_matches(label, *ir, in, request, ref, got)) continue;
      // Fully masked rows (first_rows_bf16, inf_rows_bf16: queries 0-4), rows whose scores are all
      // -inf and rows with a score at +Inf (inf_rows_bf16) have an infinite LSE and get dQ exactly 0.
      int infinite_rows = 0;
      for (int64_t r = 0; r < got.outputs.lse.numel(); ++r) {
        if (!std::isinf(got.outputs.lse.get(r))) continue;
        ++infinite_rows;
        for (int64_t c = 0; c < in.q.shape[3]; ++c)
          BOOST_TEST(got.gradients.dq.get(r * in.q.shape[3] + c) == 0.0,
                     label << " dQ of row " << r % lq << " (LSE " << got.outputs.lse.get(r) << ")");
      }
      if (std::string(name) == "first_rows_bf16" || std::string(name) == "inf_rows_bf16")
        BOOST_TEST(infinite_rows > 0, label);
    }
  }
}

// A ragged batch's backward (runtime/CudaBackwardLaunch.cpp: a dense batch of one per sequence on
// views of the packed tensors, the mask's b the sequence): sequences with no queries (zero dK, dV
// rows), no keys (zero dQ rows) and one row, buffer gradients summed over the sequences in order.
BOOST_AUTO_TEST_CASE(ragged_backward_matches_the_reference_backward) {
  std::string why;
  if (!cuda_driver_available(&why)) {
    BOOST_TEST_MESSAGE("skipped: " << why);
    return;
  }
  std::mt19937 rng(8642);
  for (const char* name : {"causal_bf16_64", "alibi_bf16_128", "rel_bias_bf16", "inf_rows_bf16",
                           "sinks_bf16_64", "sink_rows_f16_128"}) {
    auto ir = lower_backward_kernel(name);
    KernelInputs in = make_ragged_inputs(*ir, rng);
    const GradientRequest request =
        gradient_request(*ir, in, {in.q.shape[0], in.q.shape[1]}, in.v.shape[2], rng);
    KernelGradients ref;
    try {
      ref = run_reference_backward(*ir, in, request, 0);
    } catch (const std::exception& e) {
      BOOST_ERROR(name << ": the reference refused the ragged batch: " << e.what());
      continue;
    }
    CudaBackwardResult got;
    backward_twice_matches(std::string(name) + " ragged", *ir, in, request, ref, got);
  }
}
