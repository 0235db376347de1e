// One compile per key however many requests, threads or processes; distinct keys in parallel.
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <boost/test/unit_test.hpp>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <set>
#include <thread>

#include "TestKernels.h"

namespace attn::test {
namespace {

// A target whose "compile" waits until `expected` compiles are in progress at once (or gives up
// after a timeout): distinct keys compiled one after another fail it.
class RendezvousCompiler : public Compiler {
 public:
  explicit RendezvousCompiler(int expected) : expected_(expected) {}
  std::string target() const override { return "rendezvous"; }
  std::string fingerprint(const KernelRequest&) const override { return "rendezvous/1"; }
  std::vector<uint8_t> compile(const KernelRequest& request) const override {
    std::unique_lock<std::mutex> lock(mutex_);
    ++compiles_;
    cv_.notify_all();
    // No compile leaves before `expected` have started: they all overlap in time.
    bool met = cv_.wait_for(lock, std::chrono::seconds(20), [&] { return compiles_ >= expected_; });
    if (!met) throw LoadError(LoadErrorKind::CompileFailed, "compiles were not concurrent");
    return std::vector<uint8_t>(request.source.begin(), request.source.end());
  }
  std::shared_ptr<const KernelModule> load(const std::vector<uint8_t>&, const KernelRequest&) const override {
    struct Nop : KernelModule {
      int invoke(const attn_kernel_args*) const override { return 0; }
    };
    return std::make_shared<Nop>();
  }
  int compiles() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return compiles_;
  }

 private:
  int expected_;
  mutable std::mutex mutex_;
  mutable std::condition_variable cv_;
  mutable int compiles_ = 0;
};

}  // namespace

BOOST_FIXTURE_TEST_SUITE(single_flight, CacheFixture)

BOOST_AUTO_TEST_CASE(many_identical_requests_compile_once) {
  Loader loader(options());
  KernelRequest r = scale_kernel_request(2);
  Kernel first = loader.get(r);
  BOOST_TEST(run_scale(first, 1.5f) == 3.0f);
  for (int i = 0; i < 31; ++i) BOOST_TEST(loader.get(r).key() == first.key());
  LoaderStats s = loader.stats();
  BOOST_TEST(s.compiles == 1u);
  BOOST_TEST(s.memory_hits == 31u);
  BOOST_TEST(s.disk_misses == 1u);
  BOOST_TEST(s.disk_writes == 1u);
  BOOST_TEST(first.key().size() == 64u);
}

BOOST_AUTO_TEST_CASE(sixteen_threads_at_once_compile_once) {
  Loader loader(options());
  KernelRequest r = scale_kernel_request(2);
  std::vector<Kernel> kernels(16);
  std::vector<std::thread> threads;
  for (int i = 0; i < 16; ++i) threads.emplace_back([&, i] { kernels[i] = loader.get(r); });
  for (std::thread& t : threads) t.join();
  for (const Kernel& k : kernels) BOOST_TEST(run_scale(k, 1.0f) == 2.0f);
  LoaderStats s = loader.stats();
  BOOST_TEST(s.compiles == 1u);
  BOOST_TEST(s.memory_hits == 15u);
}

BOOST_AUTO_TEST_CASE(distinct_keys_compile_separately) {
  Loader loader(options());
  KernelRequest two = scale_kernel_request(2), three = scale_kernel_request(3);
  KernelRequest other_entry = scale_kernel_request(2, "scale_kernel_b");
  KernelRequest flagged = two;
  flagged.flags = {"-pthread"};
  std::set<std::string> keys = {loader.key_of(two), loader.key_of(three), loader.key_of(other_entry),
                                loader.key_of(flagged)};
  BOOST_TEST(keys.size() == 4u);
  BOOST_TEST(loader.key_of(two) == loader.key_of(scale_kernel_request(2)));
  BOOST_TEST(run_scale(loader.get(two), 1.0f) == 2.0f);
  BOOST_TEST(run_scale(loader.get(three), 1.0f) == 3.0f);
  BOOST_TEST(run_scale(loader.get(two), 1.0f) == 2.0f);
  BOOST_TEST(loader.stats().compiles == 2u);
}

BOOST_AUTO_TEST_CASE(distinct_keys_compile_in_parallel) {
  LoaderOptions o = options();
  o.disk_cache = false;
  Loader loader(o);
  auto compiler = std::make_unique<RendezvousCompiler>(2);
  RendezvousCompiler* rendezvous = compiler.get();
  loader.add_compiler(std::move(compiler));
  KernelRequest a{"rendezvous", "a", "a", {}, {}}, b{"rendezvous", "b", "b", {}, {}};
  // Four requests per key: two compiles, which must overlap, and six waits.
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int i = 0; i < 8; ++i)
    threads.emplace_back([&, i] {
      try {
        if (loader.get(i % 2 ? a : b)) ++ok;
      } catch (const LoadError& e) {
        BOOST_TEST_MESSAGE(e.what());
      }
    });
  for (std::thread& t : threads) t.join();
  BOOST_TEST(ok.load() == 8);
  BOOST_TEST(rendezvous->compiles() == 2);
  BOOST_TEST(loader.stats().compiles == 2u);
  BOOST_TEST(loader.stats().memory_hits == 6u);
}

BOOST_AUTO_TEST_CASE(eight_processes_on_a_cold_cache_compile_once) {
  // Released together by closing a pipe; each reports its compiles in its exit status (10 + n).
  // Whatever the scheduling (two cores or sixty-four), the lock makes the others wait for the
  // first compile and take its entry.
  constexpr int kProcesses = 8;
  KernelRequest r = scale_kernel_request(6);
  int compiles = 0;
  for (int status : run_released_together(kProcesses, [&](int) {
         Loader loader(options());
         Kernel k = loader.get(r);
         LoaderStats s = loader.stats();
         bool ok = k && s.compiles + s.disk_hits == 1 && s.rejects == 0;
         return ok ? 10 + static_cast<int>(s.compiles) : 2;
       })) {
    BOOST_TEST(status >= 10);
    compiles += status - 10;
  }
  BOOST_TEST(compiles == 1);
  Loader after(options());
  BOOST_TEST(run_scale(after.get(r), 1.0f) == 6.0f);
  BOOST_TEST(after.stats().disk_hits == 1u);
  for (const auto& e : std::filesystem::directory_iterator(cache))  // no lock or temporary left behind
    BOOST_TEST((e.path().extension() == ".entry" || e.path().filename() == ".traffic"), e.path());
}

BOOST_AUTO_TEST_CASE(without_dedup_every_request_compiles) {
  LoaderOptions o = options();
  o.dedup = false;
  o.disk_cache = false;
  Loader loader(o);
  KernelRequest r = scale_kernel_request(2);
  for (int i = 0; i < 2; ++i) BOOST_TEST(run_scale(loader.get(r), 1.0f) == 2.0f);
  BOOST_TEST(loader.stats().compiles == 2u);
  BOOST_TEST(loader.cache_dir().empty());
  BOOST_TEST(file_size(cache) == -1);  // never created
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace attn::test
