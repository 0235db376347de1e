namespace {

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
