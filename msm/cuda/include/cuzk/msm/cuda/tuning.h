// What the device MSM takes from the GPU it runs on: the batch-affine rounds
// by size, the window lanes and the streamed H batch cap. tune_device()
// derives them from the device's properties; a default DeviceTuning holds the
// values measured on the H200 (132 SMs), which tune_device() returns for it.
// Host-only: no CUDA runtime call, so the choices for any card are testable
// without one.
#pragma once

#include <algorithm>
#include <string>

namespace cuzk::gpu {
struct DeviceInfo;
}

namespace cuzk::msm::cuda {

// rounds[i] batch-affine rounds for n ≥ 2^(first_lg + i) (the last entry for
// all larger n), none below first_lg. Each round has a fixed cost — the
// tree's levels and the serial inversion at its root (≈ 0.1 ms on an H200
// with the binary-Euclid inverse; 0.6 ms with Fermat's) — that small MSMs do
// not earn back. Non-decreasing entries.
struct AffineTuning {
  int first_lg = 0;
  int rounds[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  int count = 0;
  constexpr int for_lg(int lg) const {
    if (count == 0 || lg < first_lg) return 0;
    return rounds[std::min(lg - first_lg, count - 1)];
  }
  // "2^21:1,2,2,2,4,4,5" ("none" when count is 0).
  std::string to_string() const;
  friend bool operator==(const AffineTuning&, const AffineTuning&) = default;
};

// The H200's values (docs/perf.md §4); see tune_device() for how each scales.
struct DeviceTuning {
  int sm_count = 132;  // the device's SMs the rounds were shifted for
  // Rounds per size: G1 swept 2^20 .. 2^27, G2 2^20 .. 2^24 ("Batch-affine rounds").
  AffineTuning g1{21, {1, 2, 2, 2, 4, 4, 5}, 7};
  AffineTuning g2{20, {1, 2, 3, 4, 5}, 5};
  // MsmConfig::window_lanes when it is 0 (1 or 2).
  int window_lanes = 2;
  // The largest H MSM batch of the groth16 streamed plan, lg points (G1 2^27
  // fastest in batches of 2^25: 785 ms, 847 in batches of 2^26).
  int streamed_batch_lg = 25;
  // One line: "132 SMs, affine rounds G1 2^21:1,2,2,2,4,4,5 G2 2^20:1,2,3,4,5,
  // 2 window lanes, streamed H batch ≤ 2^25".
  std::string summary() const;
  friend bool operator==(const DeviceTuning&, const DeviceTuning&) = default;
};

// The tuning for `device` (its SMs and memory; a zero field keeps the H200's
// choice for what it decides). Pure: the same properties give the same
// tuning, and the H200's give DeviceTuning{}.
DeviceTuning tune_device(const gpu::DeviceInfo& device);

}  // namespace cuzk::msm::cuda
