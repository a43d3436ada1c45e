// Faults injected under the engine: allocations that fail (this binary
// replaces operator new so that a test can make large allocations throw).
// The engine survives each, fails only the job concerned, gives its memory
// back, and goes on proving; every proof is checked with the verifying key.
// Also here, since it measures the whole process: memory comes back after
// queue floods.
#include <atomic>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <new>

// The replacement operator new below allocates with malloc, so its delete
// frees with free: g++ cannot see that they pair up.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif

#include "cuzk/groth16/verifier.h"
#include "cuzk/io/bellperson.h"
#include "cuzk/io/snarkjs_json.h"
#include "test_support.h"

namespace {
// Allocations of at least this many bytes throw std::bad_alloc (0: none).
std::atomic<size_t> g_fail_allocations_from{0};
std::atomic<int> g_failed_allocations{0};
}  // namespace

void* operator new(std::size_t n) {
  size_t limit = g_fail_allocations_from.load(std::memory_order_relaxed);
  if (limit != 0 && n >= limit) {
    g_failed_allocations++;
    throw std::bad_alloc();
  }
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace cuzk::engine {
namespace {

using namespace std::chrono_literals;
using testing::TempDir;

class EngineFaultTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    ASSERT_TRUE(ensure_demo_files(spec(), dir_->path(), nullptr).ok());
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  static DemoCircuitSpec spec() { return testing::small_demo(12, 31); }

  void SetUp() override {
    DemoFiles f = demo_files(spec(), dir_->path());
    wtns_ = testing::read_file(f.wtns);
    auto vk = io::read_vk_json(f.vk_json);
    ASSERT_TRUE(vk.ok());
    vk_ = *vk;
  }
  void TearDown() override { g_fail_allocations_from = 0; }

  EngineConfig config() {
    EngineConfig c = testing::base_config(dir_->path());
    c.circuits = {testing::demo_spec("demo", spec())};
    return c;
  }

  std::unique_ptr<Engine> make(const EngineConfig& c) {
    auto e = Engine::create(c);
    EXPECT_TRUE(e.ok()) << e.status().to_string();
    return e.ok() ? std::move(*e) : nullptr;
  }

  JobRequest request() {
    JobRequest r;
    r.kind = ProofKind::kGroth16Circuit;
    r.circuit_id = "demo";
    r.witnesses.push_back(wtns_);
    return r;
  }

  void expect_proves(Engine& e) {
    auto s = e.submit(request());
    ASSERT_TRUE(s.ok()) << s.status().to_string();
    auto r = e.await(s->job_id, 60s);
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r->outcome, JobOutcome::kCompleted) << r->error_message;
    auto proof = io::parse_proof(ByteSpan(reinterpret_cast<const uint8_t*>(r->proof.data()), 192));
    ASSERT_TRUE(proof.ok());
    std::vector<ff::Fr> pub;
    for (const auto& b : r->public_inputs) pub.push_back(*ff::Fr::from_bytes_be(b));
    EXPECT_TRUE(*groth16::verify(vk_, pub, *proof));
  }

  static inline TempDir* dir_ = nullptr;
  std::string wtns_;
  groth16::VerifyingKey vk_;
};

TEST_F(EngineFaultTest, AFailedAllocationInAWorkerFailsThatJobAndFreesItsMemory) {
  auto e = make(config());
  ASSERT_TRUE(e->preload("demo").ok());
  const uint64_t key_bytes = e->status().budget_used_bytes;
  JobRequest r = request();  // built before allocations start failing
  // The witness (32 bytes per variable, 128 KiB here) is the first large
  // allocation of a partition.
  g_failed_allocations = 0;
  g_fail_allocations_from = 64 << 10;
  auto s = e->submit(std::move(r));
  ASSERT_TRUE(s.ok()) << s.status().to_string();
  auto result = e->await(s->job_id, 60s);
  g_fail_allocations_from = 0;
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->outcome, JobOutcome::kFailed);
  EXPECT_EQ(result->error_message.rfind("RESOURCE_EXHAUSTED: out of memory", 0), 0u) << result->error_message;
  EXPECT_GE(g_failed_allocations.load(), 1);
  EXPECT_TRUE(testing::wait_until([&] { return e->status().budget_used_bytes == key_bytes; }, 5s));
  expect_proves(*e);  // the worker lives on
  expect_proves(*e);
}

double rss_mb() {
  std::ifstream f("/proc/self/status");
  std::string key;
  while (f >> key)
    if (key == "VmRSS:") {
      double kib = 0;
      f >> kib;
      return kib / 1024;
    }
  return 0;
}

TEST_F(EngineFaultTest, MemoryComesBackAfterQueueFloods) {
  // Sixteen threads (as gRPC's would) flood the queue with 128 KiB witnesses;
  // every job is cancelled. Freed memory used to stay in the allocator's
  // per-thread heaps (RSS +180 MB here); once idle the engine hands it back.
  EngineConfig c = config();
  c.preparation_workers = 1;
  c.result_retention_ms = 200;
  auto e = make(c);
  ASSERT_TRUE(e->preload("demo").ok());
  expect_proves(*e);
  const double baseline = rss_mb();
  for (int round = 0; round < 3; ++round) {
    std::mutex mu;
    std::vector<std::string> ids;
    {
      std::vector<std::jthread> threads;
      for (int t = 0; t < 16; ++t)
        threads.emplace_back([&] {
          for (int i = 0; i < 80; ++i) {
            JobRequest r = request();
            r.priority = Priority::kLow;
            auto s = e->submit(std::move(r));
            std::lock_guard<std::mutex> lock(mu);
            if (s.ok()) ids.push_back(s->job_id);
          }
        });
    }
    EXPECT_GE(ids.size(), 1000u);
    for (const auto& id : ids) EXPECT_TRUE(e->cancel(id).ok());
  }
  double now = 0;
  EXPECT_TRUE(testing::wait_until([&] { return (now = rss_mb()) < baseline + 64; }, 10s))
      << "RSS " << now << " MB, baseline " << baseline << " MB";
  expect_proves(*e);
}

}  // namespace
}  // namespace cuzk::engine
