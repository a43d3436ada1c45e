// The deferred two-slot batch loop: order of launches and waits for 0, 1, 2
// and many batches, slot assignment, and error propagation. Runs without a GPU.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cuzk/gpu/batch_pipeline.h"

namespace cuzk::gpu {
namespace {

std::string tag(char kind, size_t i) {
  std::string s(1, kind);
  s += std::to_string(i);
  return s;
}

struct Trace {
  std::vector<std::string> events;
  int in_flight[2] = {-1, -1};  // batch occupying each slot, -1 = free
  Status run(size_t batches, int fail_at = -1) {
    return run_deferred_batches(
        batches,
        [&](size_t i, int slot) -> Status {
          if (int(i) == fail_at) return internal_error("launch failed");
          EXPECT_EQ(slot, int(i & 1));
          EXPECT_EQ(in_flight[slot], -1) << "slot " << slot << " reused before batch was finished";
          in_flight[slot] = int(i);
          events.push_back(tag('L', i));
          return ok_status();
        },
        [&](size_t i, int slot) -> Status {
          EXPECT_EQ(in_flight[slot], int(i));
          in_flight[slot] = -1;
          events.push_back(tag('W', i));
          return ok_status();
        });
  }
};

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (auto& e : v) s += e + " ";
  return s;
}

TEST(BatchPipeline, ZeroBatchesWaitsForNothing) {
  Trace t;
  ASSERT_TRUE(t.run(0).ok());
  EXPECT_TRUE(t.events.empty());
}

TEST(BatchPipeline, OneBatchWaitsAfterTheLoop) {
  Trace t;
  ASSERT_TRUE(t.run(1).ok());
  EXPECT_EQ(join(t.events), "L0 W0 ");
}

TEST(BatchPipeline, TwoBatches) {
  Trace t;
  ASSERT_TRUE(t.run(2).ok());
  EXPECT_EQ(join(t.events), "L0 L1 W0 W1 ");
}

TEST(BatchPipeline, ManyBatchesAlternateSlotsAndFinishEachOnce) {
  Trace t;
  ASSERT_TRUE(t.run(7).ok());
  EXPECT_EQ(join(t.events), "L0 L1 W0 L2 W1 L3 W2 L4 W3 L5 W4 L6 W5 W6 ");
  EXPECT_EQ(t.in_flight[0], -1);
  EXPECT_EQ(t.in_flight[1], -1);
}

TEST(BatchPipeline, StopsAtFirstError) {
  Trace t;
  Status s = t.run(5, 3);
  EXPECT_EQ(s.code(), StatusCode::kInternal);
  EXPECT_EQ(join(t.events), "L0 L1 W0 L2 W1 ");
}

}  // namespace
}  // namespace cuzk::gpu
