// Hand-written attention kernels standing in for generated sources in the loader bench.
#include "BenchKernels.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace attn::bench {
namespace {

// Shared by the three kernels; MASK(q, kv) and SCORE(s, h, q, kv) are defined per kernel.
const char* kBody = R"(
#include <math.h>
#include <stdio.h>
#include <vector>

static inline const float* at(const DLTensor* t, long b, long h, long i) {
  const char* base = (const char*)t->data + t->byte_offset;
  long s0 = t->shape[1] * t->shape[2] * t->shape[3], s1 = t->shape[2] * t->shape[3], s2 = t->shape[3];
  if (t->strides) { s0 = t->strides[0]; s1 = t->strides[1]; s2 = t->strides[2]; }
  return (const float*)base + b * s0 + h * s1 + i * s2;
}

extern "C" int ENTRY(const attn_kernel_args* a) {
  if (a->abi_version != ATTN_KERNEL_ABI_VERSION) {
    snprintf(a->error, a->error_size, "kernel ABI version %d, expected %d", a->abi_version,
             ATTN_KERNEL_ABI_VERSION);
    return 1;
  }
  if (a->num_buffers < NUM_BUFFERS) {
    snprintf(a->error, a->error_size, "expected %d buffers, got %d", NUM_BUFFERS, a->num_buffers);
    return 1;
  }
  const long B = a->q->shape[0], H = a->q->shape[1], L = a->q->shape[2], D = a->q->shape[3];
  const long Hkv = a->k->shape[1], Lk = a->k->shape[2], Dv = a->v->shape[3];
  const long group = H / Hkv;
  const float scale = 1.0f / sqrtf((float)D);
  std::vector<float> s(Lk);
  for (long b = 0; b < B; ++b)
    for (long h = 0; h < H; ++h)
      for (long q = 0; q < L; ++q) {
        const float* qr = at(a->q, b, h, q);
        float m = -INFINITY;
        for (long kv = 0; kv < Lk; ++kv) {
          if (!(MASK)) { s[kv] = -INFINITY; continue; }
          const float* kr = at(a->k, b, h / group, kv);
          float dot = 0;
          for (long d = 0; d < D; ++d) dot += qr[d] * kr[d];
          float score = dot * scale;
          s[kv] = SCORE;
          m = s[kv] > m ? s[kv] : m;
        }
        float* o = (float*)at(a->out, b, h, q);
        for (long d = 0; d < Dv; ++d) o[d] = 0;
        if (m == -INFINITY) continue;  // fully masked row: zeros, never NaN
        float sum = 0;
        for (long kv = 0; kv < Lk; ++kv) {
          if (s[kv] == -INFINITY) continue;
          float p = expf(s[kv] - m);
          sum += p;
          const float* vr = at(a->v, b, h / group, kv);
          for (long d = 0; d < Dv; ++d) o[d] += p * vr[d];
        }
        for (long d = 0; d < Dv; ++d) o[d] /= sum;
      }
  return 0;
}
)";

std::string abi_text() {
  std::ifstream in(ATTNC_SOURCE_DIR "/runtime/include/attn/kernel_abi.h");
  std::stringstream s;
  s << in.rdbuf();
  if (s.str().empty()) throw std::runtime_error("cannot read kernel_abi.h under " ATTNC_SOURCE_DIR);
  return s.str();
}

}  // namespace

const char* layer_kind_name(LayerKind kind) {
  switch (kind) {
    case LayerKind::SlidingWindow: return "sliding_window";
    case LayerKind::Causal: return "causal";
    case LayerKind::Alibi: return "alibi";
  }
  return "?";
}

std::string attention_source(LayerKind kind) {
  static const std::string abi = abi_text();
  std::string defs = "#define ENTRY attn_" + std::string(layer_kind_name(kind)) + "\n";
  switch (kind) {
    case LayerKind::SlidingWindow:
      defs += "#define NUM_BUFFERS 0\n#define MASK kv <= q && q - kv < 64\n#define SCORE score\n";
      break;
    case LayerKind::Causal:
      defs += "#define NUM_BUFFERS 0\n#define MASK kv <= q\n#define SCORE 30.0f * tanhf(score / 30.0f)\n";
      break;
    case LayerKind::Alibi:
      defs +=
          "#define NUM_BUFFERS 1\n#define MASK kv <= q\n"
          "#define SCORE score + ((const float*)a->buffers[0]->data)[h] * (float)(kv - q)\n";
      break;
  }
  return "// Hand-written stand-in for a generated attnc cpu kernel (" + std::string(layer_kind_name(kind)) +
         ").\n" + abi + defs + kBody;
}

KernelRequest attention_request(LayerKind kind) {
  KernelRequest r;
  r.target = "cpu";
  r.source = attention_source(kind);
  r.entry = "attn_" + std::string(layer_kind_name(kind));
  return r;
}

}  // namespace attn::bench
