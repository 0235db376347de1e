// `attnc bench FILE [KERNEL] --serving TRACE.json`: one serving step of a trace over a paged KV cache.
#pragma once

#include "cli/Commands.h"

namespace attn {
struct KernelIR;
class Backend;
}  // namespace attn

namespace attn::cli {

/// Times `ir` on `target` over the requests of the trace `o.serving` (samples/serving/trace.json's
/// format): their packed queries, a paged cache in a shuffled page order, warm-up and timed steps.
/// Prints the step's median/min/max and the query tokens per second (or JSON). Throws InputError for
/// a trace it cannot read.
int bench_serving(const KernelIR& ir, const Backend& target, const BenchOptions& o);

}  // namespace attn::cli
