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

/// The source's worker threads, kept from call to call: a call on 2 threads used to start a thread
/// and lose its scratch every time (22 us of a 31 us decoding call). One call uses them at a time;
/// a call that finds them busy (another thread's call), runs inside a call that has them (on one of
/// them or on its caller: a nested parallel_for), or runs in a child after fork() (which has none
/// of the parent's threads) starts its own instead. Stopped and joined
/// when the source is unloaded or the process exits.
class WorkerPool {
 public:
  static WorkerPool& instance() {
    static WorkerPool pool;
    return pool;
  }
  /// Runs body(i) for i in [0, n) on `threads` threads, the caller one of them, and sets `result`
  /// to a non-zero result of one (0 when all are 0); false, with nothing run, when it cannot.
  template <class Body>
  bool run(int threads, int n, const Body& body, int& result) {
    if (in_pool() || process() != owner_) return false;
    std::unique_lock<std::mutex> busy(busy_, std::try_to_lock);
    if (!busy.owns_lock()) return false;
    in_pool() = true;
    {
      std::lock_guard<std::mutex> lock(m_);
      while (int(workers_->size()) < threads - 1) {
        const int index = int(workers_->size());
        workers_->emplace_back([this, index] { serve(index); });
      }
      body_ = &body;
      call_ = [](const void* b, int i) { return (*static_cast<const Body*>(b))(i); };
      n_ = n, next_ = 0, result_ = 0, wanted_ = threads - 1, finished_ = 0, ++generation_;
    }
    wake_.notify_all();
    work();
    std::unique_lock<std::mutex> lock(m_);
    done_.wait(lock, [&] { return finished_ == wanted_; });
    in_pool() = false;
    result = result_;
    return true;
  }
  ~WorkerPool() {
    if (process() != owner_) return;  // a forked child: the threads are the parent's (left, not joined)
    {
      std::lock_guard<std::mutex> lock(m_);
      stop_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : *workers_) t.join();
    delete workers_;
  }

 private:
  WorkerPool() : owner_(process()) {}
  static long process() {
#if defined(__unix__) || defined(__APPLE__)
    return long(getpid());
#else
    return 0;
#endif
  }
  /// Whether this thread is a worker, or the caller of a call that has the workers.
  static bool& in_pool() {
    static thread_local bool inside = false;
    return inside;
  }
  void work() {
    for (int i; (i = next_.fetch_add(1)) < n_ && result_.load(std::memory_order_relaxed) == 0;)
      if (int r = call_(body_, i)) result_ = r;
  }
  /// Worker `index`: takes part in every call that wants more than `index` helpers.
  void serve(int index) {
    in_pool() = true;
    uint64_t seen = 0;
    std::unique_lock<std::mutex> lock(m_);
    for (;;) {
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      if (index >= wanted_) continue;
      lock.unlock();
      work();
      lock.lock();
      if (++finished_ == wanted_) done_.notify_one();
    }
  }

  const long owner_;
  std::mutex busy_;  // held by the call that has the workers
  std::mutex m_;     // guards what follows, but for next_ and result_
  std::condition_variable wake_, done_;
  std::vector<std::thread>* workers_ = new std::vector<std::thread>;  // leaked in a forked child
  uint64_t generation_ = 0;
  int wanted_ = 0, finished_ = 0, n_ = 0;
  bool stop_ = false;
  const void* body_ = nullptr;
  int (*call_)(const void*, int) = nullptr;
  std::atomic<int> next_{0}, result_{0};
};

/// Runs body(i) for i in [0, n) on ctx->threads threads; returns the first non-zero result.
template <class Body>
int parallel_for(void* user_context, int n, const Body& body) {
  Context* ctx = static_cast<Context*>(user_context);
  int threads = ctx->threads < n ? ctx->threads : n;
  int pooled = 0;
  if (threads > 1 && WorkerPool::instance().run(threads, n, body, pooled)) return pooled;
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
