// The table behind HostRegistration (pinned_ranges.h), with a pin callback
// that records what the CUDA runtime would have been asked to do: one
// cudaHostRegister per range however many hold it, shared holders, refused
// partial overlaps and missing flags, unpinning by the last holder, and many
// threads taking and dropping the same range. Runs without a GPU.
#include <gtest/gtest.h>

#include <atomic>
#include <random>
#include <thread>
#include <vector>

#include "cuzk/base/random.h"
#include "cuzk/gpu/pinned_ranges.h"

namespace cuzk::gpu {
namespace {

constexpr unsigned kMapped = 2, kPortable = 1;

struct Calls {
  std::atomic<int> pins{0}, unpins{0};
  std::function<Status()> pin() {
    return [this] {
      pins++;
      return ok_status();
    };
  }
  std::function<void()> unpin() {
    return [this] { unpins++; };
  }
};

TEST(PinnedRanges, OnePinPerRangeSharedByItsHolders) {
  PinnedRanges t;
  Calls c;
  std::vector<uint8_t> mem(1 << 16);
  uint8_t* p = mem.data() + 4096;
  auto a = t.acquire(p, 8192, kMapped | kPortable, c.pin());
  ASSERT_TRUE(a.ok()) << a.status().to_string();
  EXPECT_EQ(*a, p);
  auto b = t.acquire(p, 8192, kPortable, c.pin());  // the same range, a subset of the flags
  ASSERT_TRUE(b.ok()) << b.status().to_string();
  auto inner = t.acquire(p + 100, 50, 0, c.pin());
  ASSERT_TRUE(inner.ok()) << inner.status().to_string();
  EXPECT_EQ(*inner, p) << "a range inside a pinned one is held as that range";
  EXPECT_EQ(c.pins, 1);
  EXPECT_EQ(t.holders(p + 8191), 3);
  EXPECT_EQ(t.holders(p + 8192), 0);
  EXPECT_EQ(t.holders(p - 1), 0);
  t.release(*a, c.unpin());
  t.release(*b, c.unpin());
  EXPECT_EQ(c.unpins, 0) << "unpinned while a holder is left";
  EXPECT_EQ(t.holders(p), 1);
  t.release(*inner, c.unpin());
  EXPECT_EQ(c.unpins, 1);
  EXPECT_EQ(t.holders(p), 0);
  // Pinned afresh afterwards.
  auto again = t.acquire(p, 8192, 0, c.pin());
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(c.pins, 2);
}

TEST(PinnedRanges, PartialOverlapsAndMissingFlagsAreRefused) {
  PinnedRanges t;
  Calls c;
  std::vector<uint8_t> mem(1 << 16);
  uint8_t* p = mem.data() + 8192;
  ASSERT_TRUE(t.acquire(p, 4096, kPortable, c.pin()).ok());
  for (auto [start, bytes] : {std::pair{p + 2048, size_t(4096)},    // runs past its end
                              std::pair{p - 100, size_t(200)},      // covers its start
                              std::pair{p - 100, size_t(10000)}}) { // covers all of it
    auto r = t.acquire(start, bytes, kPortable, c.pin());
    EXPECT_EQ(r.status().code(), StatusCode::kFailedPrecondition) << r.status().to_string();
    EXPECT_NE(r.status().message().find("pinning " + std::to_string(bytes) + " bytes"), std::string::npos)
        << r.status().to_string();
  }
  auto mapped = t.acquire(p, 4096, kPortable | kMapped, c.pin());
  EXPECT_EQ(mapped.status().code(), StatusCode::kFailedPrecondition) << mapped.status().to_string();
  EXPECT_NE(mapped.status().message().find("flags"), std::string::npos) << mapped.status().to_string();
  // Ranges beside it are their own.
  EXPECT_TRUE(t.acquire(p + 4096, 4096, 0, c.pin()).ok());
  EXPECT_TRUE(t.acquire(p - 4096, 4096, 0, c.pin()).ok());
  EXPECT_EQ(c.pins, 3);
  EXPECT_EQ(t.holders(p), 1);
}

TEST(PinnedRanges, AFailedPinRecordsNothing) {
  PinnedRanges t;
  std::vector<uint8_t> mem(4096);
  auto r = t.acquire(mem.data(), mem.size(), 0, [] { return internal_error("cudaHostRegister: out of memory"); });
  EXPECT_EQ(r.status().code(), StatusCode::kInternal);
  EXPECT_EQ(t.holders(mem.data()), 0);
  Calls c;
  EXPECT_TRUE(t.acquire(mem.data(), mem.size(), 0, c.pin()).ok());
  EXPECT_EQ(c.pins, 1);
}

// Threads take and drop holds on ranges of one buffer in random order: each
// range is pinned exactly when it goes from no holder to one, and unpinned
// exactly when the last holder leaves.
TEST(PinnedRanges, ManyThreadsBalancePinsAndUnpins) {
  PinnedRanges t;
  Calls c;
  std::vector<uint8_t> mem(4 << 12);
  const uint64_t seed = cuzk::fresh_test_seed();
  std::vector<std::thread> threads;
  for (int k = 0; k < 8; ++k)
    threads.emplace_back([&, k] {
      std::mt19937_64 rng(seed + uint64_t(k));
      for (int i = 0; i < 2000; ++i) {
        uint8_t* p = mem.data() + (rng() % 4) * 4096;
        auto r = t.acquire(p, 4096, 0, c.pin());
        ASSERT_TRUE(r.ok()) << r.status().to_string();
        EXPECT_GE(t.holders(p), 1);
        t.release(*r, c.unpin());
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(c.pins, c.unpins);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(t.holders(mem.data() + i * 4096), 0);
}

}  // namespace
}  // namespace cuzk::gpu
