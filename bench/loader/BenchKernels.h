// Hand-written attention kernels (CPU kernel ABI) standing in for generated sources in the loader bench.
#pragma once

#include <string>

#include "attn/compiler.hpp"

namespace attn::bench {

/// The three layer kinds of the benchmark model.
enum class LayerKind { SlidingWindow, Causal, Alibi };

/// A self-contained translation unit with one naive f32 attention kernel of `kind`; the Alibi
/// kernel takes one buffer (per-head slopes, f32[H]).
std::string attention_source(LayerKind kind);
/// The cpu request for attention_source(kind).
KernelRequest attention_request(LayerKind kind);
/// "sliding_window", "causal", "alibi".
const char* layer_kind_name(LayerKind kind);

}  // namespace attn::bench
