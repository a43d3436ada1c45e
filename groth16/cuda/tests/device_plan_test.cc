// What the CUDA backend chooses for a 32 GiB PoRep key on the GPUs Filecoin
// operators own, from their memory alone (no GPU needed): the sizes are
// NVIDIA's published memory totals as nvidia-smi reports them (MiB).
#include <gtest/gtest.h>

#include <cstdio>

#include "cuzk/gpu/device.h"
#include "cuzk/groth16/cuda/device_plan.h"
#include "cuzk/msm/cuda/tuning.h"

namespace cuzk::groth16::cuda {
namespace {

using Card = OperatorCard;
constexpr auto& kCards = kOperatorCards;

DevicePlan plan_for(uint64_t mib, uint64_t limit, uint32_t workers) {
  return plan_device(device_budget_bytes(mib << 20, limit), KeyCounts::porep_32gib(), workers);
}

uint64_t used(const DevicePlan& p) {
  return p.key_bytes + p.rows_bytes + p.workspace_bytes + uint64_t(p.input_sets) * p.input_set_bytes;
}

TEST(DevicePlan, EveryOperatorCardProvesA32GiBPoRep) {
  uint32_t last_sets = 0;
  bool was_resident = false;
  for (const Card& c : kCards) {
    const DevicePlan p = plan_for(c.mib, 0, 2);
    std::printf("%-18s %s\n", c.name, p.summary().c_str());
    ASSERT_TRUE(p.fits) << c.name << ": " << p.summary();
    EXPECT_GE(p.input_sets, 1u) << c.name;
    EXPECT_LE(p.input_sets, 2u) << c.name;
    EXPECT_LE(used(p), p.budget_bytes) << c.name;
    // More memory never means less: resident once it fits, input sets grow.
    if (was_resident) {
      EXPECT_TRUE(p.resident) << c.name;
    }
    if (p.resident == was_resident) {
      EXPECT_GE(p.input_sets, last_sets) << c.name;
    }
    was_resident = p.resident;
    last_sets = p.input_sets;
    if (!p.resident) {
      EXPECT_GT(p.h_batch, 0u) << c.name;
      EXPECT_GT(p.chunk, 0u) << c.name;
    }
  }
  // The cards the key (≈ 44 GiB of points) cannot fit stream it; the H200
  // holds it with one input set per worker (as measured: docs/perf.md §5).
  EXPECT_FALSE(plan_for(16303, 0, 2).resident);
  EXPECT_FALSE(plan_for(32607, 0, 2).resident);
  const DevicePlan h200 = plan_for(143771, 0, 2);
  EXPECT_TRUE(h200.resident);
  EXPECT_EQ(h200.input_sets, 2u);
}

TEST(DevicePlan, AVramLimitActsAsASmallerCard) {
  const DevicePlan limited = plan_for(143771, uint64_t(16) << 30, 2);
  EXPECT_EQ(limited.budget_bytes, uint64_t(16) << 30);
  EXPECT_FALSE(limited.resident);
  ASSERT_TRUE(limited.fits);
  // The streamed plan under 16 GiB (the batch sizes the H200 runs measured
  // under `vram_limit = "16GiB"`: docs/perf.md §5).
  EXPECT_EQ(limited.h_batch, size_t(1) << 24);
  EXPECT_EQ(limited.add_batch, size_t(1) << 24);
  EXPECT_EQ(limited.chunk, size_t(1) << 22);
  EXPECT_FALSE(limited.side);  // 12 GiB of inputs leave no room for w beside them
  // 24 and 32 GiB: the batch additions go beside the H MSM (a side buffer for
  // w, the splits and their batches), at the largest H batch that leaves room.
  const DevicePlan at24 = plan_for(143771, uint64_t(24) << 30, 2), at32 = plan_for(143771, uint64_t(32) << 30, 2);
  ASSERT_TRUE(at24.fits && at32.fits);
  EXPECT_TRUE(at24.side);
  EXPECT_TRUE(at32.side);
  EXPECT_EQ(at24.h_batch, size_t(1) << 24);
  EXPECT_EQ(at32.h_batch, size_t(1) << 25);
  EXPECT_LE(used(at24), at24.budget_bytes);
  EXPECT_LE(used(at32), at32.budget_bytes);
  EXPECT_NE(at24.summary().find("beside the H MSM"), std::string::npos) << at24.summary();
  // Less memory than any plan needs: said, not a plan that overflows.
  const DevicePlan tiny = plan_for(143771, uint64_t(1) << 30, 2);
  EXPECT_FALSE(tiny.fits);
  EXPECT_NE(tiny.summary().find("does not fit"), std::string::npos);
}

// The plan follows the device's own tuning (msm/cuda/tuning.h): a 16 GB
// card of 70 SMs (an RTX 5070 Ti) starts its batch-affine rounds earlier
// and caps the H batch at 2^24; what it plans still fits its budget.
TEST(DevicePlan, FollowsTheDevicesTuning) {
  gpu::DeviceInfo d;
  d.name = "NVIDIA GeForce RTX 5070 Ti";
  d.sm_count = 70;
  d.total_memory_bytes = uint64_t(16303) << 20;
  const msm::cuda::DeviceTuning tuning = msm::cuda::tune_device(d);
  EXPECT_NE(tuning, msm::cuda::DeviceTuning{});
  const uint64_t budget = device_budget_bytes(d.total_memory_bytes, 0);
  const DevicePlan own = plan_device(budget, KeyCounts::porep_32gib(), 2, tuning);
  ASSERT_TRUE(own.fits) << own.summary();
  EXPECT_LE(used(own), own.budget_bytes);
  EXPECT_LE(own.h_batch, size_t(1) << tuning.streamed_batch_lg);
  // A card whose memory is enough for the H200's cap still takes its own.
  const DevicePlan roomy = plan_device(uint64_t(64) << 30, KeyCounts::porep_32gib(), 2, tuning);
  ASSERT_TRUE(roomy.fits);
  EXPECT_EQ(roomy.h_batch, size_t(1) << tuning.streamed_batch_lg);
}

TEST(DevicePlan, RowsStayBesideAResidentKeyWhenTheyFit) {
  KeyCounts k = KeyCounts::porep_32gib();
  k.circuit_bytes = uint64_t(9) << 30;
  const DevicePlan h200 = plan_device(device_budget_bytes(uint64_t(143771) << 20, 0), k, 2);
  EXPECT_TRUE(h200.rows_on_device);
  const DevicePlan card = plan_device(device_budget_bytes(uint64_t(24564) << 20, 0), k, 2);
  EXPECT_FALSE(card.rows_on_device);  // a streamed key leaves no room for them
  // One worker asks for one input set however much memory there is.
  EXPECT_EQ(plan_device(h200.budget_bytes, k, 1).input_sets, 1u);
}

}  // namespace
}  // namespace cuzk::groth16::cuda
