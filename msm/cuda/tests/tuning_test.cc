// tune_device()'s choices for the published properties of the GPUs Filecoin
// operators own (no GPU needed): SMs, memory as nvidia-smi reports it (MiB),
// L2, shared memory per block (opt-in) and per SM, boost clock.
#include "cuzk/msm/cuda/tuning.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "cuzk/gpu/device.h"
#include "cuzk/msm/cuda/msm.h"
#include "../src/msm_plan.h"

namespace cuzk::msm::cuda {
namespace {

gpu::DeviceInfo card(const char* name, int major, int minor, int sms, uint64_t mib, uint64_t l2_mib,
                     uint64_t smem_block_kib, uint64_t smem_sm_kib, int clock_mhz) {
  gpu::DeviceInfo d;
  d.name = name;
  d.cc_major = major;
  d.cc_minor = minor;
  d.sm_count = sms;
  d.total_memory_bytes = mib << 20;
  d.l2_cache_bytes = l2_mib << 20;
  d.shared_memory_per_block_optin_bytes = smem_block_kib << 10;
  d.shared_memory_per_sm_bytes = smem_sm_kib << 10;
  d.clock_khz = clock_mhz * 1000;
  return d;
}

gpu::DeviceInfo rtx_5070_ti() { return card("NVIDIA GeForce RTX 5070 Ti", 12, 0, 70, 16303, 48, 99, 100, 2452); }
gpu::DeviceInfo rtx_4090() { return card("NVIDIA GeForce RTX 4090", 8, 9, 128, 24564, 72, 99, 100, 2520); }
gpu::DeviceInfo rtx_5090() { return card("NVIDIA GeForce RTX 5090", 12, 0, 170, 32607, 96, 99, 100, 2407); }
gpu::DeviceInfo a100_80gb() { return card("NVIDIA A100 80GB PCIe", 8, 0, 108, 81920, 40, 163, 164, 1410); }
gpu::DeviceInfo h200() { return card("NVIDIA H200", 9, 0, 132, 143771, 60, 227, 228, 1980); }

// Ordered by SMs.
std::vector<gpu::DeviceInfo> cards() { return {rtx_5070_ti(), a100_80gb(), rtx_4090(), h200(), rtx_5090()}; }

struct Expected {
  int g1_first_lg, g2_first_lg, window_lanes, streamed_batch_lg;
};

void expect_choices(const gpu::DeviceInfo& d, const Expected& e) {
  const DeviceTuning t = tune_device(d);
  std::printf("%-28s %s\n", d.name.c_str(), t.summary().c_str());
  EXPECT_EQ(t.sm_count, d.sm_count) << d.name;
  EXPECT_EQ(t.g1.first_lg, e.g1_first_lg) << d.name;
  EXPECT_EQ(t.g2.first_lg, e.g2_first_lg) << d.name;
  EXPECT_EQ(t.window_lanes, e.window_lanes) << d.name;
  EXPECT_EQ(t.streamed_batch_lg, e.streamed_batch_lg) << d.name;
  // Only where each table starts moves: the rounds per step are the H200's.
  for (int lg = 0; lg < 40; ++lg) {
    EXPECT_EQ(t.g1.for_lg(lg), DeviceTuning{}.g1.for_lg(lg + 21 - e.g1_first_lg)) << d.name << " lg " << lg;
    EXPECT_EQ(t.g2.for_lg(lg), DeviceTuning{}.g2.for_lg(lg + 20 - e.g2_first_lg)) << d.name << " lg " << lg;
  }
}

TEST(DeviceTuning, TheH200KeepsTheConstantsItsMeasurementsChose) {
  const DeviceTuning defaults;
  const AffineTuning g1{21, {1, 2, 2, 2, 4, 4, 5}, 7}, g2{20, {1, 2, 3, 4, 5}, 5};
  EXPECT_EQ(defaults.g1, g1);
  EXPECT_EQ(defaults.g2, g2);
  EXPECT_EQ(defaults.window_lanes, 2);
  EXPECT_EQ(defaults.streamed_batch_lg, 25);
  EXPECT_EQ(tune_device(h200()), defaults) << tune_device(h200()).summary();
  // Unknown properties (all zero) keep the H200's choices too.
  EXPECT_EQ(tune_device(gpu::DeviceInfo{}), defaults);
}

TEST(DeviceTuning, ChoicesForFivePublicCards) {
  expect_choices(rtx_5070_ti(), {20, 19, 1, 24});
  expect_choices(rtx_4090(), {21, 20, 1, 25});
  expect_choices(rtx_5090(), {21, 20, 1, 25});
  expect_choices(a100_80gb(), {21, 20, 2, 25});
  expect_choices(h200(), {21, 20, 2, 25});
}

TEST(DeviceTuning, FewerSmsNeverTakeLaterRounds) {
  gpu::DeviceInfo d = h200();
  DeviceTuning more;
  for (int sms = 1000; sms >= 1; --sms) {
    d.sm_count = sms;
    const DeviceTuning fewer = tune_device(d);
    if (sms < 1000) {
      for (int lg = 0; lg < 40; ++lg) {
        ASSERT_GE(fewer.g1.for_lg(lg), more.g1.for_lg(lg)) << sms << " SMs, lg " << lg;
        ASSERT_GE(fewer.g2.for_lg(lg), more.g2.for_lg(lg)) << sms << " SMs, lg " << lg;
      }
    }
    // Never earlier than 2^17 (G1) and 2^16 (G2), never later than 2^23 and 2^22.
    ASSERT_GE(fewer.g1.first_lg, 17) << sms;
    ASSERT_LE(fewer.g1.first_lg, 23) << sms;
    ASSERT_GE(fewer.g2.first_lg, 16) << sms;
    more = fewer;
  }
  const std::vector<gpu::DeviceInfo> by_sms = cards();
  for (size_t i = 1; i < by_sms.size(); ++i)
    for (int lg = 0; lg < 40; ++lg) {
      EXPECT_GE(tune_device(by_sms[i - 1]).g1.for_lg(lg), tune_device(by_sms[i]).g1.for_lg(lg)) << by_sms[i].name;
      EXPECT_GE(tune_device(by_sms[i - 1]).g2.for_lg(lg), tune_device(by_sms[i]).g2.for_lg(lg)) << by_sms[i].name;
    }
}

TEST(DeviceTuning, ASmallerCardNeverGetsALargerBatchOrMoreLanes) {
  gpu::DeviceInfo d = h200();
  DeviceTuning larger = tune_device(d);
  for (uint64_t gib = 160; gib >= 1; --gib) {
    d.total_memory_bytes = gib << 30;
    const DeviceTuning smaller = tune_device(d);
    EXPECT_LE(smaller.streamed_batch_lg, larger.streamed_batch_lg) << gib << " GiB";
    EXPECT_LE(smaller.window_lanes, larger.window_lanes) << gib << " GiB";
    EXPECT_GE(smaller.streamed_batch_lg, 10) << gib << " GiB";
    larger = smaller;
  }
  // The batch's two slots fit each card beside a 2^27 domain's H scalars
  // (4 GiB) and the backend's 512 MiB margin; twice the batch would not.
  for (const gpu::DeviceInfo& c : cards()) {
    MsmConfig config;
    config.tuning = tune_device(c);
    const int lg = config.tuning.streamed_batch_lg;
    const uint64_t need = StreamedMsm<ec::G1Curve>::run_bytes(size_t(1) << lg, false, config);
    const uint64_t beside = (uint64_t(9) << 29);
    EXPECT_GT(need, 0u) << c.name;
    EXPECT_LE(need + beside, c.total_memory_bytes) << c.name;
    if (lg < 25) {
      EXPECT_GT(StreamedMsm<ec::G1Curve>::run_bytes(size_t(2) << lg, false, config) + beside, c.total_memory_bytes)
          << c.name;
    }
  }
}

TEST(DeviceTuning, TheSummaryNamesEveryChoice) {
  const std::string s = tune_device(rtx_5070_ti()).summary();
  EXPECT_EQ(s,
            "70 SMs, affine rounds G1 2^20:1,2,2,2,4,4,5 G2 2^19:1,2,3,4,5, 1 window lane, "
            "streamed H batch ≤ 2^24");
  EXPECT_NE(DeviceTuning{}.summary().find("2 window lanes"), std::string::npos);
  EXPECT_EQ(AffineTuning{}.to_string(), "none");
}

// The tuning reaches the plan through MsmConfig: the rounds and the lanes it
// decides are the ones msm() sizes its workspace for.
TEST(DeviceTuning, TheConfigCarriesItIntoThePlan) {
  MsmConfig small;
  small.tuning = tune_device(rtx_5070_ti());
  const size_t n = size_t(1) << 20;
  EXPECT_EQ(choose_affine_rounds<ec::G1Curve>(n), 0);  // the H200 starts at 2^21
  EXPECT_EQ(choose_affine_rounds<ec::G1Curve>(n, small), 1);
  EXPECT_EQ(choose_affine_rounds<ec::G2Curve>(n / 2, small), 1);
  EXPECT_EQ(choose_affine_rounds<ec::G2Curve>(n / 2), 0);
  // One lane where the tuning says so, unless the config asks for two.
  MsmConfig one_lane;
  one_lane.tuning.window_lanes = 1;
  const size_t two = msm_workspace_bytes<ec::G1Curve>(n), one = msm_workspace_bytes<ec::G1Curve>(n, one_lane);
  EXPECT_GT(one, 0u);
  EXPECT_LT(one, two);
  one_lane.window_lanes = 2;
  EXPECT_EQ(msm_workspace_bytes<ec::G1Curve>(n, one_lane), two);
  // A tuning outside its range is refused, as a config outside its range is.
  MsmConfig bad;
  bad.tuning.window_lanes = 3;
  EXPECT_EQ(msm_workspace_bytes<ec::G1Curve>(n, bad), 0u);
}

// MsmConfig::scalar_bits: the windows cover the bound (the signed digits'
// offset H included), checked here against the inequality itself with
// 128-bit arithmetic; scalars that are all 1 make one window of 2 bits.
TEST(MsmPlan, ScalarBoundSetsTheWindows) {
  detail::Plan p;
  MsmConfig ones;
  ones.scalar_bits = 1;
  const size_t n = size_t(1) << 26;
  ASSERT_TRUE(detail::make_plan(n, ones, AffineTuning{}, &p).ok());
  EXPECT_EQ(p.c, 2);
  EXPECT_EQ(p.windows, 1);
  EXPECT_EQ(p.buckets, 2u);
  EXPECT_EQ(p.lanes, 1);
  detail::Plan full;
  ASSERT_TRUE(detail::make_plan(n, MsmConfig{}, AffineTuning{}, &full).ok());
  EXPECT_EQ(full.c, choose_window_bits(n));
  EXPECT_EQ(full.windows, (256 + full.c - 1) / full.c);
  // The bound's workspace is a fraction of the full MSM's.
  EXPECT_LT(msm_workspace_bytes<ec::G1Curve>(n, ones), msm_workspace_bytes<ec::G1Curve>(n) / 2);
  for (int bits = 1; bits <= 100; ++bits) {
    for (int c = 2; c <= 24; ++c) {
      const int w = detail::bounded_windows(bits, c);
      ASSERT_GE(w, 1);
      auto fits = [&](int windows) {
        if (c * windows > 120) return c * windows >= bits + 2;  // the sufficient rule
        unsigned __int128 h = 0;
        for (int i = 0; i < windows; ++i) h |= (unsigned __int128)1 << (c * i + c - 1);
        const unsigned __int128 k = ((unsigned __int128)1 << bits) - 1;
        return k + h < ((unsigned __int128)1 << (c * windows));
      };
      EXPECT_TRUE(fits(w)) << "bits " << bits << " c " << c;
      if (w > 1 && c * (w - 1) <= 62) {
        EXPECT_FALSE(fits(w - 1)) << "bits " << bits << " c " << c << ": fewer fit";
      }
    }
  }
  // Window sizes from the bound when not given; a given one is kept.
  MsmConfig eight;
  eight.scalar_bits = 8;
  ASSERT_TRUE(detail::make_plan(n, eight, AffineTuning{}, &p).ok());
  EXPECT_EQ(p.c, 9);
  EXPECT_EQ(p.windows, 1);
  eight.window_bits = 4;
  ASSERT_TRUE(detail::make_plan(n, eight, AffineTuning{}, &p).ok());
  EXPECT_EQ(p.c, 4);
  EXPECT_EQ(p.windows, 3);  // 255 + (8 + 128) ≥ 2^8: two windows of 4 bits are too few
  MsmConfig bad;
  bad.scalar_bits = 256;
  EXPECT_FALSE(detail::make_plan(n, bad, AffineTuning{}, &p).ok());
  bad.scalar_bits = -1;
  EXPECT_FALSE(detail::make_plan(n, bad, AffineTuning{}, &p).ok());
}

}  // namespace
}  // namespace cuzk::msm::cuda
