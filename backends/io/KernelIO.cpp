// Kernel I/O: the input checks and the ABI order every runner shares.
#include "backends/io/KernelIO.h"

#include <cctype>

#include "backends/io/RaggedBatch.h"
#include "backends/io/ScalarArgs.h"
#include "codegen/KernelIR.h"
#include "codegen/ScoreGradient.h"

namespace attn {

KernelLimitError::KernelLimitError(const KernelIR& ir, const std::string& message)
    : std::invalid_argument(message) {
  diagnostic_.range = ir.range;
  diagnostic_.message = message;
}

ScalarType io_scalar_type(DType d) {
  switch (d) {
    case DType::F32: return ScalarType::F32;
    case DType::F16: return ScalarType::F16;
    case DType::BF16: return ScalarType::BF16;
    case DType::F8E4M3: return ScalarType::F8E4M3;
    case DType::F8E5M2: return ScalarType::F8E5M2;
  }
  return ScalarType::F32;
}

ScalarType out_scalar_type(DType d) { return is_fp8(d) ? ScalarType::BF16 : io_scalar_type(d); }

namespace {

ScalarType elem_scalar(ElemType e) {
  switch (e) {
    case ElemType::I32: return ScalarType::I32;
    case ElemType::F32: return ScalarType::F32;
    case ElemType::Bool: return ScalarType::Bool;
  }
  return ScalarType::F32;
}

/// Checks descale factor `t` (`name`) of a call with `entries` batch entries (or sequences) and
/// `kv_heads` key/value heads: absent, or f32 [1] or [entries, kv_heads], and only for FP8 kernels.
void validate_descale(const KernelIR& ir, const HostTensor& t, const char* name, int64_t entries,
                      int64_t kv_heads) {
  if (t.shape.empty()) return;
  if (!is_fp8(ir.options.dtype))
    throw InputError(std::string(name) + " is given, but descale factors are for fp8 kernels (dtype e4m3 " +
                     "or e5m2) and kernel '" + ir.name + "' has dtype " + dtype_name(ir.options.dtype));
  const std::vector<int64_t> per_head{entries, kv_heads};
  if (t.type != ScalarType::F32 || (t.shape != std::vector<int64_t>{1} && t.shape != per_head))
    throw InputError(std::string(name) + " must be f32 [1] (the whole tensor) or " +
                     HostTensor(ScalarType::F32, per_head).shape_string() +
                     " (per batch entry and key/value head), got " + scalar_type_name(t.type) + " " +
                     t.shape_string());
}

}  // namespace

void validate_inputs(const KernelIR& ir, const KernelInputs& in) {
  ScalarType want = io_scalar_type(ir.options.dtype);
  // Dense [B, H, L, D]; a ragged batch's packed [T, H, D]; a paged cache's K and V
  // [pages, page_size, H, D]. The head dimension D is the last in every layout.
  const bool ragged = in.ragged(), paged = in.paged();
  const size_t qkv_rank[] = {ragged ? 3u : 4u, paged ? 4u : ragged ? 3u : 4u};
  const std::pair<const char*, const HostTensor*> qkv[] = {{"q", &in.q}, {"k", &in.k}, {"v", &in.v}};
  for (auto [name, t] : qkv) {
    const size_t rank = qkv_rank[t == &in.q ? 0 : 1];
    if (t->shape.size() != rank)
      throw InputError(std::string(name) +
                       (rank == 4
                            ? (paged ? " of a paged cache must have 4 dimensions [pages, page_size, H, D]"
                                     : " must have 4 dimensions [B, H, L, D]")
                            : " of a ragged batch must have 3 dimensions [T, H, D]") +
                       ", got shape " + t->shape_string());
    if (t->type != want)
      throw InputError(std::string(name) + " must be " + scalar_type_name(want) + " (kernel '" + ir.name +
                       "' has dtype " + dtype_name(ir.options.dtype) + "), got " + scalar_type_name(t->type));
  }
  const auto &q = in.q.shape, &k = in.k.shape, &v = in.v.shape;
  const size_t heads = paged ? 2 : 1;  // K and V's head dimension
  // The batch entries, or a ragged batch's sequences: what a descale factor has one row per.
  int64_t entries = q[0];
  if (ragged)
    entries = int64_t(ragged_sequences(in).size());  // the boundaries' (and the page table's) own checks
  else if (q[0] != k[0] || k[0] != v[0])
    throw InputError("batch sizes differ: q " + in.q.shape_string() + ", k " + in.k.shape_string() + ", v " +
                     in.v.shape_string());
  if (k[heads] != v[heads])
    throw InputError("k and v must have the same number of heads: k " + in.k.shape_string() + ", v " +
                     in.v.shape_string());
  if (k[heads] == 0 || q[1] % k[heads] != 0)
    throw InputError("the query heads (" + std::to_string(q[1]) +
                     ") must be a multiple of the key/value heads (" + std::to_string(k[heads]) + ")");
  const bool same_rows = paged ? k[0] == v[0] && k[1] == v[1] : k[ragged ? 0 : 2] == v[ragged ? 0 : 2];
  if (!same_rows)
    throw InputError(
        std::string(paged ? "k and v must have the same pages" : "k and v must have the same length") +
        ": k " + in.k.shape_string() + ", v " + in.v.shape_string());
  for (auto [name, t] :
       {std::pair{"q_descale", &in.q_descale}, {"k_descale", &in.k_descale}, {"v_descale", &in.v_descale}})
    validate_descale(ir, *t, name, entries, k[heads]);
  const size_t dim = q.size() - 1;
  if (q[dim] != k.back())
    throw InputError("q and k must have the same head dimension: q " + in.q.shape_string() + ", k " +
                     in.k.shape_string());
  if (q[dim] == 0) throw InputError("the head dimension must not be 0");
  if (ir.options.head_dim && q[dim] != ir.options.head_dim)
    throw InputError("kernel '" + ir.name + "' has head_dim " + std::to_string(ir.options.head_dim) +
                     " but q has " + std::to_string(q[dim]));
  if (ir.options.value_dim && v.back() != ir.options.value_dim)
    throw InputError("kernel '" + ir.name + "' has value_dim " + std::to_string(ir.options.value_dim) +
                     " but v has " + std::to_string(v.back()));
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
  for (const auto& [name, value] : in.scalars) {
    const KernelArg* a = ir.arg(name);
    if (!a || a->kind != KernelArg::Kind::Scalar)
      throw InputError("kernel '" + ir.name + "' has no scalar argument '" + name + "'");
    // Every target the same: no saturating, wrapping or rounding of a value an int cannot hold.
    if (a->elem == ElemType::I32) check_int_scalar(name, value);
  }
}

void validate_gradient_request(const KernelIR& ir, const KernelInputs& in, const GradientRequest& r) {
  require_backward_dtype(ir);
  if (in.paged())
    throw InputError(
        "the backward takes a dense or ragged batch; a paged KV cache (page_table, kv_lens) serves "
        "inference and has none");
  // Like Out and the LSE: [B, Hq, Lq, Dv] and [B, Hq, Lq], or a ragged batch's [Tq, Hq, Dv], [Tq, Hq].
  std::vector<int64_t> lse_shape(in.q.shape.begin(), in.q.shape.end() - 1), out_shape = lse_shape;
  out_shape.push_back(in.v.shape.back());
  const ScalarType io = io_scalar_type(ir.options.dtype);
  if (r.dout.shape != out_shape || r.dout.type != io)
    throw InputError("dout must be " + std::string(scalar_type_name(io)) + " " +
                     HostTensor(io, out_shape).shape_string() + " like the output, got " +
                     scalar_type_name(r.dout.type) + " " + r.dout.shape_string());
  if (!r.dlse.shape.empty()) {
    if (!ir.options.lse)
      throw InputError("dlse is given but kernel '" + ir.name + "' has no LSE output (set lse = true)");
    if (r.dlse.shape != lse_shape || r.dlse.type != ScalarType::F32)
      throw InputError("dlse must be f32 " + HostTensor(ScalarType::F32, lse_shape).shape_string() +
                       " like the LSE, got " + scalar_type_name(r.dlse.type) + " " + r.dlse.shape_string());
  }
  const ScoreGradient g = differentiate_score(ir), sink = differentiate_sink(ir);
  for (size_t i = 0; i < r.buffers.size(); ++i) {
    const std::string& name = r.buffers[i];
    for (size_t j = 0; j < i; ++j)
      if (r.buffers[j] == name) throw InputError("the gradient of '" + name + "' is asked for twice");
    const KernelArg* a = ir.arg(name);
    if (!a || a->kind != KernelArg::Kind::Buffer)
      throw InputError("kernel '" + ir.name + "' has no tensor argument '" + name + "' to differentiate");
    if (a->elem != ElemType::F32)
      throw InputError("cannot differentiate '" + name + "': it is a tensor of " + elem_type_name(a->elem) +
                       "; only f32 tensor arguments have gradients");
    std::vector<std::string> per_term = g.reduced_reads;
    per_term.insert(per_term.end(), sink.reduced_reads.begin(), sink.reduced_reads.end());
    for (const std::string& reduced : per_term)
      if (reduced == name)
        throw InputError("cannot differentiate '" + name + "': kernel '" + ir.name +
                         "' reads it per term of a bounded reduction, whose buffer gradients are not "
                         "supported yet");
    bool read = false;
    for (const BufferGradient& s : g.reads) read = read || s.buffer == name;
    for (const BufferGradient& s : sink.reads) read = read || s.buffer == name;
    if (!read)
      throw InputError("cannot differentiate '" + name + "': kernel '" + ir.name +
                       "' does not read it in its score or sink (masks are not differentiated)");
  }
}

KernelGradients make_gradients(const KernelIR& ir, const KernelInputs& in, const GradientRequest& r) {
  const ScalarType io = io_scalar_type(ir.options.dtype);
  KernelGradients g;
  g.dq = HostTensor(io, in.q.shape);
  g.dk = HostTensor(io, in.k.shape);
  g.dv = HostTensor(io, in.v.shape);
  for (const std::string& name : r.buffers)
    g.buffers[name] = HostTensor(ScalarType::F32, in.buffers.at(name).shape);
  return g;
}

double descale_factor(const HostTensor& t, int64_t b, int64_t hk, int64_t Hkv) {
  return t.shape.empty() ? 1.0 : t.numel() == 1 ? t.get(0) : t.get(b * Hkv + hk);
}

void require_no_fp8(const KernelIR& ir, const std::string& target) {
  if (is_fp8(ir.options.dtype))
    throw KernelLimitError(ir, "the " + target + " target's shaders take no fp8 kernel (dtype " +
                                   dtype_name(ir.options.dtype) +
                                   "): it runs converted on load (attnc run, kernels loaded through attnc)");
}

void require_backward_dtype(const KernelIR& ir) {
  if (is_fp8(ir.options.dtype))
    throw KernelLimitError(ir, "kernel '" + ir.name + "' is fp8 (dtype " + dtype_name(ir.options.dtype) +
                                   "), which has no backward pass: compile a bf16 copy of it (dtype = bf16) "
                                   "for training");
}

KernelOutputs make_outputs(const KernelIR& ir, const KernelInputs& in) {
  KernelOutputs out;
  if (in.ragged()) {  // out [Tq, Hq, Dv], lse and max [Tq, Hq]
    if (in.q.shape.size() != 3 || in.v.shape.size() != (in.paged() ? 4u : 3u))
      throw InputError(
          "a ragged batch's q must be 3-D [T, H, D], and v [T, H, Dv] or a paged cache's "
          "[pages, page_size, H, Dv]");
    const int64_t Tq = in.q.shape[0], Hq = in.q.shape[1], Dv = in.v.shape.back();
    out.out = HostTensor(out_scalar_type(ir.options.dtype), {Tq, Hq, Dv});
    if (ir.options.lse) out.lse = HostTensor(ScalarType::F32, {Tq, Hq});
    if (ir.options.return_max) out.max = HostTensor(ScalarType::F32, {Tq, Hq});
    return out;
  }
  if (in.q.shape.size() != 4 || in.k.shape.size() != 4 || in.v.shape.size() != 4)
    throw InputError("q, k and v must be 4-D [B, H, L, D]");
  const int64_t B = in.q.shape[0], Hq = in.q.shape[1], Lq = in.q.shape[2], Dv = in.v.shape[3];
  out.out = HostTensor(out_scalar_type(ir.options.dtype), {B, Hq, Lq, Dv});
  if (ir.options.lse) out.lse = HostTensor(ScalarType::F32, {B, Hq, Lq});
  if (ir.options.return_max) out.max = HostTensor(ScalarType::F32, {B, Hq, Lq});
  return out;
}

KernelCallTensors call_tensors(const KernelIR& ir, const KernelInputs& in, KernelOutputs& out) {
  KernelCallTensors t;
  t.q = &in.q, t.k = &in.k, t.v = &in.v, t.out = &out.out;
  t.lse = ir.options.lse ? &out.lse : nullptr;
  t.max = ir.options.return_max ? &out.max : nullptr;
  if (in.ragged()) {
    auto given = [](const HostTensor& x) { return x.shape.empty() ? nullptr : &x; };
    t.cu_seqlens_q = given(in.cu_seqlens_q), t.cu_seqlens_k = given(in.cu_seqlens_k);
    t.page_table = given(in.page_table), t.kv_lens = given(in.kv_lens);
  }
  auto given = [](const HostTensor& x) { return x.shape.empty() ? nullptr : &x; };
  t.q_descale = given(in.q_descale), t.k_descale = given(in.k_descale), t.v_descale = given(in.v_descale);
  for (const KernelArg& a : ir.args) {
    if (a.kind == KernelArg::Kind::Buffer) {
      auto it = in.buffers.find(a.name);
      if (it == in.buffers.end()) throw InputError("missing buffer argument '" + a.name + "'");
      t.buffers.push_back(&it->second);
    } else {
      auto it = in.scalars.find(a.name);
      if (it == in.scalars.end()) throw InputError("missing scalar argument '" + a.name + "'");
      t.scalars.push_back(it->second);
    }
  }
  return t;
}

}  // namespace attn
