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

#if ATTN_PART != 1  // the worker threads: part 2's entry points use them (backends/cpu/SourceParts.h)
/// parallel_for's work: body(i) for i in [0, n) on whichever threads take part, a non-zero result
/// ending it (the first one kept). On the caller's stack, in a cache line of its own: the threads
/// take jobs from `next` while the caller's frames below it are written.
struct alignas(64) Work {
  const void* body;
  int (*call)(const void*, int);
  int n;
  std::atomic<int> next{0}, result{0};
  void take_part() {
    for (int i; (i = next.fetch_add(1)) < n && result.load(std::memory_order_relaxed) == 0;)
      if (int r = call(body, i)) result = r;
  }
  static void* thread_main(void* work) {
    static_cast<Work*>(work)->take_part();
    return nullptr;
  }
};

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
  /// Runs `work` on `threads` threads, the caller one of them; false, with nothing run, when it cannot.
  bool run(int threads, Work& work) {
    if (in_pool() || process() != owner_ || pthread_mutex_trylock(&busy_) != 0) return false;
    in_pool() = true;
    pthread_mutex_lock(&m_);
    for (pthread_t t; int(workers_->size()) < threads - 1 && pthread_create(&t, nullptr, serve, this) == 0;)
      workers_->push_back(t);
    work_ = &work, wanted_ = threads - 1 < int(workers_->size()) ? threads - 1 : int(workers_->size());
    finished_ = 0, ++generation_;
    pthread_mutex_unlock(&m_);
    pthread_cond_broadcast(&wake_);  // after the unlock: a woken worker need not wait for the mutex
    work.take_part();
    pthread_mutex_lock(&m_);
    while (finished_ != wanted_) pthread_cond_wait(&done_, &m_);
    pthread_mutex_unlock(&m_);
    in_pool() = false;
    pthread_mutex_unlock(&busy_);
    return true;
  }
  ~WorkerPool() {
    if (process() != owner_) return;  // a forked child: the threads are the parent's (left, not joined)
    pthread_mutex_lock(&m_);
    stop_ = true;
    pthread_mutex_unlock(&m_);
    pthread_cond_broadcast(&wake_);
    for (pthread_t t : *workers_) pthread_join(t, nullptr);
    delete workers_;
  }

 private:
  WorkerPool() : owner_(process()) {}
  static long process() { return long(getpid()); }
  /// Whether this thread is a worker, or the caller of a call that has the workers.
  static bool& in_pool() {
    static thread_local bool inside = false;
    return inside;
  }
  /// A worker: takes part in every call that wants more helpers than the workers started before it.
  static void* serve(void* pool) {
    WorkerPool& p = *static_cast<WorkerPool*>(pool);
    in_pool() = true;
    uint64_t seen = 0;
    pthread_mutex_lock(&p.m_);
    const int index = p.started_++;
    for (;;) {
      while (!p.stop_ && p.generation_ == seen) pthread_cond_wait(&p.wake_, &p.m_);
      if (p.stop_) break;
      seen = p.generation_;
      if (index >= p.wanted_) continue;
      pthread_mutex_unlock(&p.m_);
      p.work_->take_part();
      pthread_mutex_lock(&p.m_);
      if (++p.finished_ == p.wanted_) pthread_cond_signal(&p.done_);
    }
    pthread_mutex_unlock(&p.m_);
    return nullptr;
  }

  const long owner_;
  pthread_mutex_t busy_ = PTHREAD_MUTEX_INITIALIZER;  // held by the call that has the workers
  pthread_mutex_t m_ = PTHREAD_MUTEX_INITIALIZER;     // guards what follows
  pthread_cond_t wake_ = PTHREAD_COND_INITIALIZER, done_ = PTHREAD_COND_INITIALIZER;
  std::vector<pthread_t>* workers_ = new std::vector<pthread_t>;  // leaked in a forked child
  uint64_t generation_ = 0;
  int wanted_ = 0, finished_ = 0, started_ = 0;
  bool stop_ = false;
  Work* work_ = nullptr;
};

/// parallel_for's work: call(body, i) for i in [0, n) on ctx->threads threads; the first non-zero
/// result. One function for every body: only the call of the body is made per body.
inline int parallel_run(void* user_context, int n, const void* body, int (*call)(const void*, int)) {
  Context* ctx = static_cast<Context*>(user_context);
  int threads = ctx->threads < n ? ctx->threads : n;
  Work work{body, call, n};
  if (threads > 1 && WorkerPool::instance().run(threads, work)) return work.result;
  std::vector<pthread_t> helpers;
  for (pthread_t t; int(helpers.size()) < threads - 1 && pthread_create(&t, nullptr, Work::thread_main, &work) == 0;)
    helpers.push_back(t);
  work.take_part();
  for (pthread_t t : helpers) pthread_join(t, nullptr);
  return work.result;
}

/// Runs body(i) for i in [0, n) on ctx->threads threads; returns the first non-zero result.
template <class Body>
int parallel_for(void* user_context, int n, const Body& body) {
  return parallel_run(user_context, n, &body, [](const void* b, int i) { return (*static_cast<const Body*>(b))(i); });
}

#endif

#if ATTN_PART != 2  // the pipelines' scratch: part 1's runtime functions
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
#endif

}  // namespace
