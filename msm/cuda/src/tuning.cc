// tune_device(): the MSM's choices from the device's properties (tuning.h).
#include "cuzk/msm/cuda/tuning.h"

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "cuzk/gpu/device.h"
#include "cuzk/msm/cuda/msm.h"

namespace cuzk::msm::cuda {

namespace {

// The H200 every default was measured on (docs/perf.md §4).
constexpr int kReferenceSms = 132;

// How far the rounds table moves down, in lg n, for a card with `sm_count`
// SMs. A round's fixed cost is serial — the inversion root on one thread,
// the tree's upper levels, the scans — so its time follows the clock, not the
// SMs; what it saves is parallel (n/2 pairs at ≈ 6 products instead of a
// mixed addition's 10), spread over every SM. Break-even n therefore scales
// with the SMs and the clock cancels: a card with half the H200's SMs takes
// each of the H200's rounds at half the n. Rounded to whole lg steps (what
// the H200 sweep resolved), and kept within a factor 16 fewer (the sweeps
// went down to 2^20, and a run per bucket must stay long enough to pair) or
// 4 more SMs.
int rounds_shift_lg(int sm_count) {
  if (sm_count <= 0) return 0;
  const double shift = std::log2(double(kReferenceSms) / double(sm_count));
  return std::clamp(int(std::lround(shift)), -2, 4);
}

AffineTuning shifted(AffineTuning t, int shift_lg) {
  t.first_lg -= shift_lg;
  return t;
}

// Two window lanes keep a second copy of the per-window scratch: on the H200
// G1 2^27 took 760.8 ms with two against 776.4 with one, for 38250 MiB of
// workspace against 23807 (docs/perf.md §4, "Two window lanes"): ≈ 1.1 ms
// per GiB. Keeping part of a streamed key on the card saves 12 to 19 ms per
// GiB (§5, "Smaller cards"), so a card that cannot hold the largest MSM's
// two-lane workspace (G1 2^27, the 32 GiB PoRep's H and L) spends that
// memory better on the key and the streamed batches: one lane there.
constexpr uint64_t kTwoLaneWorkspaceBytes = uint64_t(38250) << 20;

int window_lanes_for(uint64_t memory_bytes) {
  return memory_bytes == 0 || memory_bytes >= kTwoLaneWorkspaceBytes ? 2 : 1;
}

// The streamed H batch: 2^25 measured fastest on the H200 (G1 2^27: 785 ms,
// 847 in batches of 2^26; docs/perf.md §4), and the same plan limited to 24
// and 32 GiB took 2^25 batches too, 827 → 758 ms per H MSM against 2^24 at
// 16 GiB (§5). A smaller card takes the largest batch whose two slots (the
// H MSM's lent memory: bases staged, scalars read in place; 18.0 GiB at
// 2^25, 10.8 at 2^24) fit beside what the streamed plan keeps with them: the
// H scalars in the input set's a buffer (n Fr, 4 GiB for the largest key,
// 2^27) and the backend's 512 MiB margin. The groth16 plan fits the rest of
// its buffers below this cap.
constexpr int kMaxStreamedBatchLg = 25;
constexpr int kMinStreamedBatchLg = 10;
constexpr uint64_t kBesideBatchBytes = (uint64_t(4) << 30) + (uint64_t(512) << 20);

int streamed_batch_lg_for(const DeviceTuning& t, uint64_t memory_bytes) {
  if (memory_bytes == 0) return kMaxStreamedBatchLg;
  MsmConfig config;
  config.tuning = t;
  for (int lg = kMaxStreamedBatchLg; lg > kMinStreamedBatchLg; --lg) {
    const uint64_t need = StreamedMsm<ec::G1Curve>::run_bytes(size_t(1) << lg, false, config);
    if (need != 0 && need + kBesideBatchBytes <= memory_bytes) return lg;
  }
  return kMinStreamedBatchLg;
}

}  // namespace

std::string AffineTuning::to_string() const {
  if (count == 0) return "none";
  std::string s = "2^" + std::to_string(first_lg) + ":";
  for (int i = 0; i < count; ++i) {
    if (i > 0) s += ',';
    s += std::to_string(rounds[i]);
  }
  return s;
}

std::string DeviceTuning::summary() const {
  return std::to_string(sm_count) + " SMs, affine rounds G1 " + g1.to_string() + " G2 " + g2.to_string() + ", " +
         std::to_string(window_lanes) + " window lane" + (window_lanes == 1 ? "" : "s") +
         ", streamed H batch ≤ 2^" + std::to_string(streamed_batch_lg);
}

DeviceTuning tune_device(const gpu::DeviceInfo& device) {
  DeviceTuning t;
  const int shift = rounds_shift_lg(device.sm_count);
  if (device.sm_count > 0) t.sm_count = device.sm_count;
  t.g1 = shifted(t.g1, shift);
  t.g2 = shifted(t.g2, shift);
  t.window_lanes = window_lanes_for(device.total_memory_bytes);
  t.streamed_batch_lg = streamed_batch_lg_for(t, device.total_memory_bytes);
  return t;
}

}  // namespace cuzk::msm::cuda
