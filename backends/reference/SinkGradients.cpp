// add_sink_gradients: the gradients that flow through a kernel's sink into the f32 tensors it
// reads, from the forward's Out and LSE, in double, row by row in order.
#include <algorithm>
#include <cmath>

#include "backends/reference/EvalExpr.h"
#include "backends/reference/Reference.h"
#include "codegen/ScoreGradient.h"

namespace attn {

void add_sink_gradients(const KernelIR& ir, const KernelInputs& in, const HostTensor& out,
                        const HostTensor& lse, const GradientRequest& request, KernelGradients& grads,
                        int64_t b0) {
  if (!ir.sink.defined()) return;
  struct Site {
    std::string buffer;
    std::vector<CompiledExpr> index;
    CompiledExpr partial;
  };
  std::vector<Site> sites;
  for (const BufferGradient& g : differentiate_sink(ir).reads) {
    if (!grads.buffers.count(g.buffer)) continue;
    Site s{g.buffer, {}, CompiledExpr(g.partial, ir)};
    for (const Halide::Expr& i : g.index) s.index.emplace_back(i, ir);
    sites.push_back(std::move(s));
  }
  if (sites.empty()) return;
  ArgValues args;
  for (const KernelArg& a : ir.args) {
    args.buffers.push_back(a.kind == KernelArg::Kind::Buffer ? &in.buffers.at(a.name) : nullptr);
    args.scalars.push_back(a.kind == KernelArg::Kind::Scalar ? in.scalars.at(a.name) : 0.0);
  }
  CompiledExpr sink(ir.sink, ir);
  const int64_t Hq = in.q.shape[1], Lq = in.q.shape[2], Dv = in.v.shape[3], rows = in.q.shape[0] * Hq * Lq;
  std::map<std::string, std::vector<double>> sums;
  for (const Site& s : sites)
    sums[s.buffer].assign(static_cast<size_t>(in.buffers.at(s.buffer).numel()), 0.0);
  EvalPoint p;
  p.idx[4] = static_cast<int32_t>(Lq), p.idx[5] = static_cast<int32_t>(in.k.shape[2]);
  for (int64_t row = 0; row < rows; ++row) {
    p.idx[0] = static_cast<int32_t>(b0 + row / (Hq * Lq));
    p.idx[1] = static_cast<int32_t>((row / Lq) % Hq);
    p.idx[2] = static_cast<int32_t>(row % Lq);
    // d loss / d sink = -P_sink (dOut . Out - dLSE): the sink's value is 0. A row whose weight a
    // +inf score or sink took passes nothing back, as its scores do.
    double delta = 0;
    for (int64_t c = 0; c < Dv; ++c) delta += request.dout.get(row * Dv + c) * out.get(row * Dv + c);
    if (!request.dlse.shape.empty()) delta -= request.dlse.get(row);
    const double l = lse.get(row), t = sink.eval(p, args);
    const double ds = l == INFINITY ? 0.0 : -std::exp(t - l) * delta;
    for (const Site& s : sites) {
      const double partial = s.partial.eval(p, args);
      if (partial == 0) continue;  // an untaken branch's read, which may be out of range
      const int64_t flat = checked_element(in.buffers.at(s.buffer), s.buffer, s.index, p, args);
      sums[s.buffer][static_cast<size_t>(flat)] += ds * partial;
    }
  }
  for (const auto& [name, sum] : sums) {
    HostTensor& g = grads.buffers.at(name);
    for (int64_t e = 0; e < g.numel(); ++e) g.set(e, g.get(e) + sum[static_cast<size_t>(e)]);
  }
}

}  // namespace attn
