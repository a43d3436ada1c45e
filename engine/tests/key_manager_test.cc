// Key residency with fake sources: one load per key, LRU demotion to WARM
// after the minimum idle time, evict, budgets, failures.
#include <atomic>

#include "cuzk/base/random.h"
#include "cuzk/engine/key_manager.h"
#include "test_support.h"

namespace cuzk::engine {
namespace {

using namespace std::chrono_literals;

// A key of `points` G1 points (96 bytes each) that takes load_ms to load.
class FakeSource : public CircuitSource {
 public:
  FakeSource(std::string id, std::string path, uint64_t points, int load_ms)
      : id_(std::move(id)), path_(std::move(path)), points_(points), load_ms_(load_ms) {}
  const std::string& id() const override { return id_; }
  std::string key_path() const override { return path_; }
  StatusOr<CircuitInfo> describe() override {
    CircuitInfo i;
    i.num_vars = 4;
    i.num_public = 1;
    i.lg_n = 2;
    i.key_file_bytes = 123;
    i.est_key_bytes = points_ * 96;
    return i;
  }
  StatusOr<std::shared_ptr<const LoadedCircuit>> load(const MappedFile*,
                                                      const std::function<void(double)>& progress) override {
    loads++;
    for (int i = 1; i <= 4; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(load_ms_ / 4));
      if (progress) progress(i / 4.0);
    }
    if (fail_next.exchange(false)) return failed_precondition("corrupt key file (test)");
    auto c = std::make_shared<LoadedCircuit>();
    c->pk.h.resize(points_);
    return std::shared_ptr<const LoadedCircuit>(c);
  }
  std::atomic<int> loads{0};
  std::atomic<bool> fail_next{false};

 private:
  std::string id_, path_;
  uint64_t points_;
  int load_ms_;
};

class KeyManagerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* name : {"a", "b", "c"}) {
      std::string path = dir_.path() + "/" + name + ".key";
      std::ofstream(path) << "key bytes " << name;
    }
  }
  std::unique_ptr<KeyManager> make(uint64_t budget, KeyManagerOptions o, uint64_t points = 1000, int load_ms = 40) {
    budget_ = std::make_unique<MemoryBudget>(budget);
    std::vector<std::unique_ptr<CircuitSource>> s;
    for (const char* name : {"a", "b", "c"}) {
      auto f = std::make_unique<FakeSource>(name, dir_.path() + "/" + name + ".key", points, load_ms);
      fakes_[name] = f.get();
      s.push_back(std::move(f));
    }
    return std::make_unique<KeyManager>(std::move(s), budget_.get(), o, &metrics_);
  }
  KeyStatus status_of(KeyManager& m, const std::string& id) {
    for (auto& k : m.status())
      if (k.id == id) return k;
    return {};
  }

  testing::TempDir dir_;
  MetricsRegistry metrics_;
  std::unique_ptr<MemoryBudget> budget_;
  std::map<std::string, FakeSource*> fakes_;
};

TEST_F(KeyManagerTest, ConcurrentAcquirersShareOneLoad) {
  auto m = make(1 << 20, {});
  std::vector<std::jthread> ts;
  std::atomic<int> ok{0};
  for (int i = 0; i < 6; ++i)
    ts.emplace_back([&] {
      auto lease = m->acquire("a", nullptr);
      if (lease.ok() && (*lease)->pk.h.size() == 1000) ok++;
    });
  // While loading, status reports progress.
  EXPECT_TRUE(testing::wait_until([&] { return status_of(*m, "a").loading; }, 5s));
  ts.clear();
  EXPECT_EQ(ok.load(), 6);
  EXPECT_EQ(fakes_["a"]->loads.load(), 1);
  KeyStatus k = status_of(*m, "a");
  EXPECT_EQ(k.tier, KeyTier::kHot);
  EXPECT_EQ(k.size_bytes, 96000u);
  EXPECT_EQ(k.ref_count, 0u);
  EXPECT_EQ(budget_->used(), 96000u);
  EXPECT_EQ(m->acquire("zzz", nullptr).status().code(), StatusCode::kNotFound);
}

TEST_F(KeyManagerTest, IdleKeysAreDemotedLeastRecentlyUsedFirst) {
  KeyManagerOptions o;
  o.host_cap_bytes = 2 * 96000;  // two keys fit
  o.min_idle_ms = 0;
  auto m = make(1 << 30, o);
  { auto l = m->acquire("a", nullptr); }
  std::this_thread::sleep_for(5ms);
  { auto l = m->acquire("b", nullptr); }
  std::this_thread::sleep_for(5ms);
  { auto l = m->acquire("a", nullptr); }  // a is now the most recently used
  { auto l = m->acquire("c", nullptr); }  // needs room: b goes
  EXPECT_EQ(status_of(*m, "a").tier, KeyTier::kHot);
  EXPECT_EQ(status_of(*m, "b").tier, KeyTier::kWarm);
  EXPECT_EQ(status_of(*m, "c").tier, KeyTier::kHot);
  EXPECT_EQ(m->hot_bytes(), 2 * 96000u);
  EXPECT_EQ(budget_->used(), 2 * 96000u);
  EXPECT_EQ(metrics_.counter("cuzk_key_evictions_total", "reason=\"idle\""), 1);
}

TEST_F(KeyManagerTest, ReferencedOrRecentKeysAreNotDemoted) {
  KeyManagerOptions o;
  o.host_cap_bytes = 96000;  // one key
  o.min_idle_ms = 60'000;
  auto m = make(1 << 30, o);
  { auto l = m->acquire("a", nullptr); }
  // a is idle for less than min_idle: b cannot get room; a cancelled wait ends.
  std::atomic<bool> cancel{false};
  std::jthread t([&] {
    auto r = m->acquire("b", [&] { return cancel.load(); });
    EXPECT_EQ(r.status().code(), StatusCode::kCancelled);
  });
  std::this_thread::sleep_for(100ms);
  cancel = true;
  t.join();
  EXPECT_EQ(status_of(*m, "a").tier, KeyTier::kHot);
  EXPECT_EQ(status_of(*m, "b").tier, KeyTier::kCold);
}

TEST_F(KeyManagerTest, EvictFreesAndRefusesWhileReferenced) {
  auto m = make(1 << 20, {});
  auto lease = m->acquire("a", nullptr);
  ASSERT_TRUE(lease.ok());
  EXPECT_EQ(m->evict("a").status().code(), StatusCode::kFailedPrecondition);
  lease->reset();
  auto r = m->evict("a");
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->was_loaded);
  EXPECT_EQ(r->freed_bytes, 96000u);
  EXPECT_EQ(budget_->used(), 0u);
  EXPECT_EQ(status_of(*m, "a").tier, KeyTier::kCold);
  auto again = m->evict("a");
  EXPECT_FALSE(again->was_loaded);
  auto p = m->preload("a");
  ASSERT_TRUE(p.ok());
  EXPECT_FALSE(p->already_loaded);
  EXPECT_TRUE(m->preload("a")->already_loaded);
  EXPECT_EQ(fakes_["a"]->loads.load(), 2);  // evicted keys really reload
}

TEST_F(KeyManagerTest, TooLargeAndFailedLoads) {
  auto m = make(50'000, {});
  EXPECT_EQ(m->acquire("a", nullptr).status().code(), StatusCode::kResourceExhausted);
  m.reset();
  auto m2 = make(1 << 20, {});
  fakes_["b"]->fail_next = true;
  auto r = m2->acquire("b", nullptr);
  EXPECT_EQ(r.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(status_of(*m2, "b").last_error.find("corrupt"), std::string::npos);
  EXPECT_EQ(budget_->used(), 0u);
  EXPECT_TRUE(m2->acquire("b", nullptr).ok());  // the next attempt loads again
}

TEST_F(KeyManagerTest, AdmissionsAreServedInArrivalOrder) {
  auto m = make(96000 + 1000, {});
  auto first = m->admit("a", 600, nullptr);
  ASSERT_TRUE(first.ok()) << first.status().to_string();
  EXPECT_EQ(budget_->used(), 96000u + 600);
  // big (1000) cannot fit until first ends; small (300) would fit now, but
  // it came later and waits its turn.
  std::mutex mu;
  std::vector<std::string> order;
  // The claim hook is asked only while an admission waits in line for room:
  // once it has been, big is queued, and small comes after it.
  std::atomic<bool> big_waits{false};
  std::jthread big([&] {
    auto r = m->admit("a", 1000, nullptr, nullptr, [&](uint64_t) {
      big_waits = true;
      return uint64_t(0);
    });
    ASSERT_TRUE(r.ok());
    std::lock_guard<std::mutex> lock(mu);
    order.push_back("big");
  });
  ASSERT_TRUE(testing::wait_until([&] { return big_waits.load(); }, 5s));
  std::jthread small([&] {
    auto r = m->admit("a", 300, nullptr);
    ASSERT_TRUE(r.ok());
    std::lock_guard<std::mutex> lock(mu);
    order.push_back("small");
  });
  std::this_thread::sleep_for(100ms);
  {
    std::lock_guard<std::mutex> lock(mu);
    EXPECT_TRUE(order.empty());
  }
  first = Status(StatusCode::kCancelled, "done");  // ends the first admission
  big.join();
  small.join();
  ASSERT_EQ(order.size(), 2u);
  EXPECT_EQ(order[0], "big");
  EXPECT_EQ(budget_->used(), 96000u);  // the key only
}

TEST_F(KeyManagerTest, WorkThatCanNeverFitWithItsKeyIsRefusedAtOnce) {
  auto m = make(96000 + 1000, {});
  auto r = m->admit("a", 1001, nullptr);
  EXPECT_EQ(r.status().code(), StatusCode::kResourceExhausted);
  EXPECT_NE(r.status().message().find("memory budget"), std::string::npos) << r.status().message();
  EXPECT_TRUE(m->admit("a", 1000, nullptr).ok());
}

TEST_F(KeyManagerTest, AnIdleKeyGivesWayToWorkOnAnother) {
  KeyManagerOptions o;
  o.min_idle_ms = 0;
  auto m = make(2 * 96000 + 500, o);
  ASSERT_TRUE(m->preload("a").ok());
  ASSERT_TRUE(m->preload("b").ok());
  auto r = m->admit("b", 1000, nullptr);  // a must go
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  EXPECT_EQ(status_of(*m, "a").tier, KeyTier::kWarm);
  EXPECT_EQ(status_of(*m, "b").tier, KeyTier::kHot);
  EXPECT_EQ(budget_->used(), 96000u + 1000);
}

// Options whose reclaim frees buffers from the back of *idle (memory held
// idle outside the manager) until the shortfall is covered, recording each
// shortfall asked for in *asked; keys may be demoted at once.
KeyManagerOptions reclaiming(std::vector<Reservation>* idle, std::vector<uint64_t>* asked) {
  KeyManagerOptions o;
  o.min_idle_ms = 0;
  o.reclaim = [idle, asked](uint64_t short_by) {
    asked->push_back(short_by);
    uint64_t freed = 0;
    while (!idle->empty() && freed < short_by) {
      freed += idle->back().bytes();
      idle->pop_back();
    }
    return freed;
  };
  return o;
}

// Memory held idle outside the manager (options.reclaim: the engine's pooled
// pinned buffers) is asked for first, for exactly the shortfall; an idle key
// is demoted only when that is not enough.
TEST_F(KeyManagerTest, IdleMemoryElsewhereIsReclaimedBeforeAKeyIsDemoted) {
  std::vector<Reservation> idle;  // 3 buffers of 600 bytes, held outside the manager
  std::vector<uint64_t> asked;
  KeyManagerOptions o = reclaiming(&idle, &asked);
  auto m = make(2 * 96000 + 2000, o);
  ASSERT_TRUE(m->preload("a").ok());
  ASSERT_TRUE(m->preload("b").ok());
  for (int i = 0; i < 3; ++i) {
    idle.emplace_back();
    ASSERT_TRUE(budget_->try_reserve(600, &idle.back()));
  }
  // 200 bytes free: work of 900 needs 700 more, two buffers; both keys stay.
  auto r = m->admit("b", 900, nullptr);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  EXPECT_EQ(asked, std::vector<uint64_t>{700});
  EXPECT_EQ(idle.size(), 1u);
  EXPECT_EQ(status_of(*m, "a").tier, KeyTier::kHot);
  // 100 free: work of 1600 more than the last buffer can make room for, so
  // the idle key a goes too.
  auto r2 = m->admit("b", 1600, nullptr);
  ASSERT_TRUE(r2.ok()) << r2.status().to_string();
  EXPECT_TRUE(idle.empty());
  EXPECT_EQ(status_of(*m, "a").tier, KeyTier::kWarm);
  EXPECT_EQ(budget_->used(), 96000u + 900 + 1600);
}

// Memory a request holds while it is decoded (reserve_now): taken when it
// fits, else room is made as for an admission (idle memory elsewhere, then
// an idle key), else charged past the total (it is held already) so that
// admissions wait for it; refused only when it exceeds the whole budget;
// never waits.
TEST_F(KeyManagerTest, MemoryForARequestIsMadeRoomForOrChargedAtOnce) {
  std::vector<Reservation> idle;  // 2 buffers of 600 bytes, held outside the manager
  std::vector<uint64_t> asked;
  KeyManagerOptions o = reclaiming(&idle, &asked);
  const uint64_t total = 2 * 96000 + 1400;
  auto m = make(total, o);
  ASSERT_TRUE(m->preload("a").ok());
  ASSERT_TRUE(m->preload("b").ok());
  for (int i = 0; i < 2; ++i) {
    idle.emplace_back();
    ASSERT_TRUE(budget_->try_reserve(600, &idle.back()));
  }
  // 200 bytes free: 150 fit as they are.
  {
    auto r = m->reserve_now(150);
    ASSERT_TRUE(r.ok()) << r.status().to_string();
    EXPECT_EQ(budget_->used(), total - 50);
    EXPECT_TRUE(asked.empty());
  }
  EXPECT_EQ(budget_->used(), total - 200);
  // 700 need 500 more: one idle buffer goes, both keys stay.
  auto r1 = m->reserve_now(700);
  ASSERT_TRUE(r1.ok()) << r1.status().to_string();
  EXPECT_EQ(asked, std::vector<uint64_t>{500});
  EXPECT_EQ(idle.size(), 1u);
  EXPECT_EQ(status_of(*m, "a").tier, KeyTier::kHot);
  EXPECT_EQ(status_of(*m, "b").tier, KeyTier::kHot);
  // 100 free; b is in use: 2000 need the last buffer and the idle key a.
  auto lease = m->acquire("b", nullptr);
  ASSERT_TRUE(lease.ok());
  auto r2 = m->reserve_now(2000);
  ASSERT_TRUE(r2.ok()) << r2.status().to_string();
  EXPECT_TRUE(idle.empty());
  EXPECT_EQ(status_of(*m, "a").tier, KeyTier::kWarm);
  EXPECT_EQ(status_of(*m, "b").tier, KeyTier::kHot);
  // Nothing idle is left: charged past the total at once, the key in use
  // stays, and nothing else fits until the bytes come back.
  const uint64_t used = budget_->used();
  TestRng rng(fresh_test_seed());
  const uint64_t over = total - used + 1 + rng() % 1000;
  auto r3 = m->reserve_now(over);
  ASSERT_TRUE(r3.ok()) << r3.status().to_string();
  EXPECT_EQ(budget_->used(), used + over);
  EXPECT_GT(budget_->used(), total);
  EXPECT_EQ(status_of(*m, "b").tier, KeyTier::kHot);
  Reservation probe;
  EXPECT_FALSE(budget_->try_reserve(1, &probe));
  *r3 = Reservation();
  EXPECT_EQ(budget_->used(), used);
  EXPECT_TRUE(budget_->try_reserve(total - used, &probe));
  probe = Reservation();
  // More than the whole budget can never fit: refused, naming both, nothing taken.
  auto r4 = m->reserve_now(total + 1);
  EXPECT_EQ(r4.status().code(), StatusCode::kResourceExhausted);
  EXPECT_NE(r4.status().message().find(std::to_string(total + 1) + " bytes"), std::string::npos)
      << r4.status().message();
  EXPECT_NE(r4.status().message().find(std::to_string(total) + " bytes in all"), std::string::npos)
      << r4.status().message();
  EXPECT_EQ(budget_->used(), used);
  // Every byte comes back with the reservations.
  *r1 = Reservation();
  *r2 = Reservation();
  EXPECT_EQ(budget_->used(), 96000u);
}

}  // namespace
}  // namespace cuzk::engine
