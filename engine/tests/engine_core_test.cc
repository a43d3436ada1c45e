// Engine building blocks: memory budget, priority work queue, device
// interlock, config validation.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "cuzk/base/random.h"
#include "cuzk/engine/config.h"
#include "cuzk/engine/interlock.h"
#include "cuzk/engine/memory_budget.h"
#include "cuzk/engine/types.h"
#include "cuzk/engine/work_queue.h"

namespace cuzk::engine {
namespace {

using namespace std::chrono_literals;

// Waits for what another thread will do; the bound only guards against a
// hang (a loaded machine slows the test down rather than failing it).
constexpr auto kHangGuard = 120s;
template <class Pred>
bool eventually(Pred pred) {
  const auto end = std::chrono::steady_clock::now() + kHangGuard;
  while (!pred()) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(1ms);
  }
  return true;
}

TEST(MemoryBudget, ReserveReleaseAndPeak) {
  MemoryBudget b(1000);
  Reservation r1, r2;
  ASSERT_TRUE(b.try_reserve(600, &r1));
  EXPECT_FALSE(b.try_reserve(401, &r2));
  ASSERT_TRUE(b.try_reserve(400, &r2));
  EXPECT_EQ(b.used(), 1000u);
  r1.release(100);
  EXPECT_EQ(b.used(), 900u);
  EXPECT_EQ(r1.bytes(), 500u);
  r1.release(10'000);  // clamps to what is held
  EXPECT_EQ(r1.bytes(), 0u);
  r2 = Reservation();
  EXPECT_EQ(b.used(), 0u);
  EXPECT_EQ(b.peak(), 1000u);
}

TEST(MemoryBudget, NeverFitsIsResourceExhausted) {
  MemoryBudget b(100);
  auto r = b.reserve(101, nullptr);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kResourceExhausted);
}

TEST(MemoryBudget, BlockedReserveWakesOnRelease) {
  MemoryBudget b(100);
  Reservation held;
  ASSERT_TRUE(b.try_reserve(80, &held));
  std::atomic<bool> got{false};
  std::jthread t([&] {
    auto r = b.reserve(50, nullptr);
    ASSERT_TRUE(r.ok());
    got = true;
  });
  ASSERT_TRUE(eventually([&] { return b.waiters() == 1; }));
  EXPECT_FALSE(got.load());  // 80 + 50 does not fit
  held.release(40);  // 40 + 50 fits
  t.join();
  EXPECT_TRUE(got.load());
  EXPECT_LE(b.peak(), 100u);
}

TEST(MemoryBudget, CancelAndCloseWakeWaiters) {
  MemoryBudget b(10);
  Reservation held;
  ASSERT_TRUE(b.try_reserve(10, &held));
  std::atomic<bool> cancel{false};
  std::jthread t([&] {
    auto r = b.reserve(5, [&] { return cancel.load(); });
    EXPECT_EQ(r.status().code(), StatusCode::kCancelled);
  });
  cancel = true;
  t.join();
  std::jthread t2([&] {
    auto r = b.reserve(5, nullptr);
    EXPECT_EQ(r.status().code(), StatusCode::kCancelled);
  });
  ASSERT_TRUE(eventually([&] { return b.waiters() == 1; }));  // close() wakes it, not refuses it
  b.close();
  t2.join();
}

TEST(MemoryBudget, ConcurrentUseStaysInside) {
  uint64_t seed = OsRng()();
  std::printf("seed %llu\n", (unsigned long long)seed);
  MemoryBudget b(1000);
  std::vector<std::jthread> ts;
  for (int k = 0; k < 8; ++k) {
    ts.emplace_back([&b, seed, k] {
      TestRng rng(seed + uint64_t(k));
      for (int i = 0; i < 200; ++i) {
        uint64_t want = 1 + rng() % 400;
        auto r = b.reserve(want, nullptr);
        ASSERT_TRUE(r.ok());
        EXPECT_LE(b.used(), 1000u);
        r->release(want / 2);
      }
    });
  }
  ts.clear();
  EXPECT_EQ(b.used(), 0u);
  EXPECT_LE(b.peak(), 1000u);
}

TEST(WorkQueue, PriorityThenFifoThenIndex) {
  WorkQueue<int> q;
  q.push({Priority::kNormal, 1, 0}, "a", 10);
  q.push({Priority::kNormal, 1, 1}, "a", 11);
  q.push({Priority::kLow, 0, 0}, "a", 0);
  q.push({Priority::kNormal, 2, 0}, "a", 20);
  q.push({Priority::kCritical, 3, 0}, "a", 30);
  q.push({Priority::kCritical, 3, 1}, "a", 31);
  q.push({Priority::kHigh, 4, 0}, "a", 40);
  EXPECT_EQ(q.count_before({Priority::kHigh, 5, 0}), 3u);
  std::vector<int> got;
  while (q.size()) got.push_back(q.pop().at(0));
  EXPECT_EQ(got, (std::vector<int>{30, 31, 40, 10, 11, 20, 0}));
}

TEST(WorkQueue, BatchesSameGroupAndPriorityOnly) {
  WorkQueue<int> q;
  q.push({Priority::kNormal, 1, 0}, "x", 1);
  q.push({Priority::kNormal, 2, 0}, "y", 2);
  q.push({Priority::kNormal, 3, 0}, "x", 3);
  q.push({Priority::kLow, 4, 0}, "x", 4);
  q.push({Priority::kNormal, 5, 0}, "x", 5);
  auto b = q.pop_batch(3, 0ms);
  EXPECT_EQ(b, (std::vector<int>{1, 3, 5}));
  EXPECT_EQ(q.pop_batch(3, 0ms), (std::vector<int>{2}));
  EXPECT_EQ(q.pop_batch(3, 0ms), (std::vector<int>{4}));
}

TEST(WorkQueue, BatchWaitCollectsLateArrivals) {
  WorkQueue<int> q;
  q.push({Priority::kNormal, 1, 0}, "x", 1);
  std::jthread t([&] {
    std::this_thread::sleep_for(20ms);
    q.push({Priority::kNormal, 2, 0}, "x", 2);
  });
  auto b = q.pop_batch(2, kHangGuard);  // returns once the batch is full
  EXPECT_EQ(b, (std::vector<int>{1, 2}));
}

TEST(WorkQueue, RemoveIfAndClose) {
  WorkQueue<int> q;
  for (int i = 0; i < 10; ++i) q.push({Priority::kNormal, uint64_t(i), 0}, "g", i);
  auto odd = q.remove_if([](const int& v) { return v % 2 == 1; });
  EXPECT_EQ(odd.size(), 5u);
  EXPECT_EQ(q.size(), 5u);
  std::jthread t([&] { EXPECT_TRUE(q.pop().size() == 1); });
  t.join();
  auto rest = q.close();
  EXPECT_EQ(rest.size(), 4u);
  EXPECT_TRUE(q.pop().empty());
}

TEST(DeviceInterlock, FirstComeFirstServedAndExclusive) {
  DeviceInterlock lock;
  std::atomic<int> inside{0};
  std::vector<int> order;
  std::mutex order_mu;
  auto first = lock.acquire();
  std::vector<std::jthread> ts;
  for (int i = 0; i < 4; ++i) {
    ts.emplace_back([&, i] {
      auto g = lock.acquire();
      EXPECT_EQ(inside.fetch_add(1), 0);
      {
        std::lock_guard<std::mutex> l(order_mu);
        order.push_back(i);
      }
      inside.fetch_sub(1);
    });
    // Let thread i take its ticket before the next one starts.
    while (lock.waiting() < uint64_t(i + 1)) std::this_thread::yield();
  }
  first.release();
  ts.clear();
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3}));
}

TEST(Types, PrioritiesAndNames) {
  EXPECT_EQ(effective_priority(ProofKind::kWinningPost, Priority::kUnspecified), Priority::kCritical);
  EXPECT_EQ(effective_priority(ProofKind::kWindowPostPartition, Priority::kUnspecified), Priority::kHigh);
  EXPECT_EQ(effective_priority(ProofKind::kPorepSealCommit, Priority::kUnspecified), Priority::kNormal);
  EXPECT_EQ(effective_priority(ProofKind::kWinningPost, Priority::kLow), Priority::kLow);
  Priority p;
  EXPECT_TRUE(parse_priority("Critical", &p));
  EXPECT_EQ(p, Priority::kCritical);
  EXPECT_FALSE(parse_priority("urgent", &p));
  EXPECT_TRUE(is_known_kind(100));
  EXPECT_FALSE(is_known_kind(5));
  EXPECT_EQ(proof_kind_name(ProofKind::kGroth16Circuit), "GROTH16_CIRCUIT");
}

TEST(EngineConfig, ValidateNamesTheKey) {
  EngineConfig c;
  EXPECT_TRUE(c.validate().ok());
  c.workers_per_device = 0;
  EXPECT_NE(c.validate().message().find("workers_per_device"), std::string::npos);
  c = EngineConfig();
  CircuitSpec s;
  s.id = "x";
  c.circuits.push_back(s);
  EXPECT_NE(c.validate().message().find("circuits[0]"), std::string::npos);
  c.circuits[0].zkey = "/k.zkey";
  EXPECT_TRUE(c.validate().ok());
  c.circuits.push_back(c.circuits[0]);
  EXPECT_NE(c.validate().message().find("used twice"), std::string::npos);
  c.circuits.pop_back();
  c.circuits[0].r1cs = "/c.r1cs";
  EXPECT_NE(c.validate().message().find("r1cs"), std::string::npos);
}

}  // namespace
}  // namespace cuzk::engine
