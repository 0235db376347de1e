// Text of the runtime glue: each Halide runtime function as a small C++ definition.
#include "backends/cpu/RuntimeGlue.h"

#include <map>
#include <regex>
#include <stdexcept>

namespace attn::cpu {

namespace {

// Shared by the runtime functions and the ABI wrapper: the call's context (error buffer, threads),
// a thread pool per call, and an allocation cache that keeps per-tile buffers out of mmap.
const char* kCommon = R"cpp(namespace {

/// What one call of the kernel carries through Halide's user_context.
struct Context {
  char* error;
  size_t error_size;
  int threads;
  std::atomic<bool> failed;  // tasks on several threads may fail at once
};

void fail(void* user_context, const char* format, ...) __attribute__((format(printf, 2, 3)));
void fail(void* user_context, const char* format, ...) {
  Context* ctx = static_cast<Context*>(user_context);
  if (ctx->failed.exchange(true)) return;  // keep the first message
  if (!ctx->error || ctx->error_size == 0) return;
  va_list ap;
  va_start(ap, format);
  vsnprintf(ctx->error, ctx->error_size, format, ap);
  va_end(ap);
}

/// Runs body(i) for i in [0, n) on ctx->threads threads; returns the first non-zero result.
template <class Body>
int parallel_for(void* user_context, int n, const Body& body) {
  Context* ctx = static_cast<Context*>(user_context);
  int threads = ctx->threads < n ? ctx->threads : n;
  std::atomic<int> next{0}, result{0};
  auto work = [&] {
    for (int i; (i = next.fetch_add(1)) < n && result.load(std::memory_order_relaxed) == 0;)
      if (int r = body(i)) result = r;
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  return result;
}

/// A few freed blocks per thread, reused for the next tile's scores instead of a fresh mmap.
struct BlockCache {
  static constexpr int kSlots = 4;
  void* blocks[kSlots] = {};
  size_t sizes[kSlots] = {};
  ~BlockCache() {
    for (void* b : blocks) free(b);
  }
};
thread_local BlockCache block_cache;
constexpr size_t kHeader = 64;  // keeps the payload 64-byte aligned

}  // namespace

extern "C" {
)cpp";

const std::map<std::string, std::string>& definitions() {
  static const std::map<std::string, std::string> defs = {
      {"malloc", R"cpp(void* @P@malloc(void*, size_t size) {
  size = (size + 63) / 64 * 64 + kHeader;
  for (int i = 0; i < BlockCache::kSlots; ++i) {
    if (block_cache.blocks[i] && block_cache.sizes[i] >= size) {
      char* b = static_cast<char*>(block_cache.blocks[i]);
      *reinterpret_cast<size_t*>(b) = block_cache.sizes[i];
      block_cache.blocks[i] = nullptr;
      return b + kHeader;
    }
  }
  char* b = static_cast<char*>(aligned_alloc(64, size));
  if (!b) return nullptr;
  *reinterpret_cast<size_t*>(b) = size;
  return b + kHeader;
})cpp"},
      {"free", R"cpp(void @P@free(void*, void* payload) {
  if (!payload) return;
  char* b = static_cast<char*>(payload) - kHeader;
  size_t size = *reinterpret_cast<size_t*>(b);
  int slot = 0;  // an empty slot, else the smallest block (kept only if this one is larger)
  for (int i = 0; i < BlockCache::kSlots; ++i) {
    if (!block_cache.blocks[i]) {
      slot = i;
      break;
    }
    if (block_cache.sizes[i] < block_cache.sizes[slot]) slot = i;
  }
  if (block_cache.blocks[slot] && block_cache.sizes[slot] >= size) {
    free(b);
    return;
  }
  free(block_cache.blocks[slot]);
  block_cache.blocks[slot] = b;
  block_cache.sizes[slot] = size;
})cpp"},
      {"do_par_for", R"cpp(int @P@do_par_for(void* user_context, halide_task_t task, int min, int size, uint8_t* closure) {
  return parallel_for(user_context, size, [&](int i) { return task(user_context, min + i, closure); });
})cpp"},
      {"error", R"cpp(void @P@error(void* user_context, const char* message) {
  fail(user_context, "%s", message);
})cpp"},
      {"error_access_out_of_bounds", R"cpp(int @P@error_access_out_of_bounds(void* uc, const char* name, int dim, int min_touched, int max_touched, int min_valid, int max_valid) {
  fail(uc, "internal error: %s is accessed at [%d, %d] in dimension %d, outside [%d, %d]", name, min_touched, max_touched, dim, min_valid, max_valid);
  return -1;
})cpp"},
      {"error_bad_dimensions", R"cpp(int @P@error_bad_dimensions(void* uc, const char* name, int32_t given, int32_t expected) {
  fail(uc, "internal error: %s has %d dimensions, expected %d", name, given, expected);
  return -1;
})cpp"},
      {"error_bad_type", R"cpp(int @P@error_bad_type(void* uc, const char* name, uint32_t, uint32_t) {
  fail(uc, "internal error: %s has the wrong element type", name);
  return -1;
})cpp"},
      {"error_buffer_allocation_too_large", R"cpp(int @P@error_buffer_allocation_too_large(void* uc, const char* name, uint64_t size, uint64_t max_size) {
  fail(uc, "allocation of %s is too large (%llu bytes, at most %llu)", name, (unsigned long long)size, (unsigned long long)max_size);
  return -1;
})cpp"},
      {"error_buffer_argument_is_null", R"cpp(int @P@error_buffer_argument_is_null(void* uc, const char* name) {
  fail(uc, "buffer '%s' is NULL", name);
  return -1;
})cpp"},
      {"error_buffer_extents_negative", R"cpp(int @P@error_buffer_extents_negative(void* uc, const char* name, int dim, int extent) {
  fail(uc, "buffer '%s' has a negative extent %d in dimension %d", name, extent, dim);
  return -1;
})cpp"},
      {"error_buffer_extents_too_large", R"cpp(int @P@error_buffer_extents_too_large(void* uc, const char* name, int64_t size, int64_t max_size) {
  fail(uc, "buffer '%s' is too large (%lld elements, at most %lld)", name, (long long)size, (long long)max_size);
  return -1;
})cpp"},
      {"error_constraint_violated", R"cpp(int @P@error_constraint_violated(void* uc, const char* var, int val, const char* constrained_var, int constrained_val) {
  fail(uc, "internal error: constraint violated: %s (%d) == %s (%d)", var, val, constrained_var, constrained_val);
  return -1;
})cpp"},
      {"error_device_dirty_with_no_device_support", R"cpp(int @P@error_device_dirty_with_no_device_support(void* uc, const char* name) {
  fail(uc, "buffer '%s' lives on a device; this kernel runs on the CPU", name);
  return -1;
})cpp"},
      {"error_explicit_bounds_too_small", R"cpp(int @P@error_explicit_bounds_too_small(void* uc, const char* func, const char* var, int min_bound, int max_bound, int min_required, int max_required) {
  fail(uc, "internal error: bounds of %s.%s [%d, %d] do not cover [%d, %d]", func, var, min_bound, max_bound, min_required, max_required);
  return -1;
})cpp"},
      {"error_host_is_null", R"cpp(int @P@error_host_is_null(void* uc, const char* name) {
  fail(uc, "buffer '%s' has no data", name);
  return -1;
})cpp"},
      {"error_out_of_memory", R"cpp(int @P@error_out_of_memory(void* uc) {
  fail(uc, "out of memory");
  return -1;
})cpp"},
      {"error_requirement_failed", R"cpp(int @P@error_requirement_failed(void* uc, const char*, const char* message) {
  const char* start = strstr(message, "buffer '");  // skip the value Halide prints first
  start = start ? start : message;
  fail(uc, "%.*s", int(strcspn(start, "\n")), start);
  return -1;
})cpp"},
      {"error_buffer_is_null", R"cpp(int @P@error_buffer_is_null(void* uc, const char* routine) {
  fail(uc, "internal error: NULL buffer in %s", routine);
  return -1;
})cpp"},
      {"error_storage_bound_too_small", R"cpp(int @P@error_storage_bound_too_small(void* uc, const char* func, const char* var, int provided, int required) {
  fail(uc, "internal error: storage of %s.%s is %d, needs %d", func, var, provided, required);
  return -1;
})cpp"},
      {"error_param_too_small_i64", R"cpp(int @P@error_param_too_small_i64(void* uc, const char* name, int64_t val, int64_t min_val) {
  fail(uc, "argument %s = %lld is below %lld", name, (long long)val, (long long)min_val);
  return -1;
})cpp"},
      {"error_param_too_large_i64", R"cpp(int @P@error_param_too_large_i64(void* uc, const char* name, int64_t val, int64_t max_val) {
  fail(uc, "argument %s = %lld is above %lld", name, (long long)val, (long long)max_val);
  return -1;
})cpp"},
      {"error_constraints_make_required_region_smaller", R"cpp(int @P@error_constraints_make_required_region_smaller(void* uc, const char* name, int dim, int constrained_min, int constrained_extent, int required_min, int required_extent) {
  fail(uc, "internal error: constraints on %s shrink dimension %d to [%d, +%d), [%d, +%d) is required", name, dim, constrained_min, constrained_extent, required_min, required_extent);
  return -1;
})cpp"},
      {"error_param_too_small_u64", R"cpp(int @P@error_param_too_small_u64(void* uc, const char* name, uint64_t val, uint64_t min_val) {
  fail(uc, "argument %s = %llu is below %llu", name, (unsigned long long)val, (unsigned long long)min_val);
  return -1;
})cpp"},
      {"error_param_too_large_u64", R"cpp(int @P@error_param_too_large_u64(void* uc, const char* name, uint64_t val, uint64_t max_val) {
  fail(uc, "argument %s = %llu is above %llu", name, (unsigned long long)val, (unsigned long long)max_val);
  return -1;
})cpp"},
      {"error_param_too_small_f64", R"cpp(int @P@error_param_too_small_f64(void* uc, const char* name, double val, double min_val) {
  fail(uc, "argument %s = %g is below %g", name, val, min_val);
  return -1;
})cpp"},
      {"error_param_too_large_f64", R"cpp(int @P@error_param_too_large_f64(void* uc, const char* name, double val, double max_val) {
  fail(uc, "argument %s = %g is above %g", name, val, max_val);
  return -1;
})cpp"},
      {"error_bad_fold", R"cpp(int @P@error_bad_fold(void* uc, const char* func, const char* var, const char* loop) {
  fail(uc, "internal error: bad storage fold of %s.%s in %s", func, var, loop);
  return -1;
})cpp"},
      {"error_fold_factor_too_small", R"cpp(int @P@error_fold_factor_too_small(void* uc, const char* func, const char* var, int factor, const char* loop, int required) {
  fail(uc, "internal error: fold factor %d of %s.%s in %s is below %d", factor, func, var, loop, required);
  return -1;
})cpp"},
      {"error_specialize_fail", R"cpp(int @P@error_specialize_fail(void* uc, const char* message) {
  fail(uc, "%s", message);
  return -1;
})cpp"},
      {"error_unaligned_host_ptr", R"cpp(int @P@error_unaligned_host_ptr(void* uc, const char* name, int alignment) {
  fail(uc, "buffer %s is not aligned to %d bytes", name, alignment);
  return -1;
})cpp"},
      {"error_bounds_inference_call_failed", R"cpp(int @P@error_bounds_inference_call_failed(void* uc, const char* stage, int result) {
  fail(uc, "internal error: bounds query of %s failed (%d)", stage, result);
  return -1;
})cpp"},
      {"error_extern_stage_failed", R"cpp(int @P@error_extern_stage_failed(void* uc, const char* stage, int result) {
  fail(uc, "internal error: %s failed (%d)", stage, result);
  return -1;
})cpp"},
      {"error_no_device_interface", R"cpp(int @P@error_no_device_interface(void* uc) {
  fail(uc, "internal error: no device interface");
  return -1;
})cpp"},
      {"error_device_interface_no_device", R"cpp(int @P@error_device_interface_no_device(void* uc) {
  fail(uc, "internal error: device interface without a device");
  return -1;
})cpp"},
      {"error_host_and_device_dirty", R"cpp(int @P@error_host_and_device_dirty(void* uc) {
  fail(uc, "internal error: host and device both dirty");
  return -1;
})cpp"},
      {"error_device_crop_failed", R"cpp(int @P@error_device_crop_failed(void* uc) {
  fail(uc, "internal error: device crop failed");
  return -1;
})cpp"},
  };
  return defs;
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (size_t p = 0; (p = s.find(from, p)) != std::string::npos; p += to.size()) s.replace(p, from.size(), to);
  return s;
}

}  // namespace

std::set<std::string> runtime_functions_used(const std::string& code) {
  static const std::regex call(R"cpp(\bhalide_(malloc|free|do_par_for|error\w*)\b)cpp");
  std::set<std::string> used;
  for (std::sregex_iterator it(code.begin(), code.end(), call), end; it != end; ++it) {
    std::string name = (*it)[1];
    if (name.rfind("error_code", 0) == 0 || name == "error_handler_t") continue;  // types
    used.insert(name);
  }
  return used;
}

std::string emit_runtime_glue(const std::string& prefix, const std::set<std::string>& used) {
  std::string out = kCommon;
  for (const std::string& name : used) {
    auto it = definitions().find(name);
    if (it == definitions().end())
      throw std::runtime_error("cpu backend: the emitted code calls halide_" + name + ", which the runtime glue lacks");
    out += replace_all(it->second, "@P@", prefix) + "\n\n";
  }
  out += "}  // extern \"C\"\n";
  return out;
}

}  // namespace attn::cpu
