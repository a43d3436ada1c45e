// The work plan of one device MSM: window size, bucket counts, and the
// accumulation levels (internal to msm/cuda).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cuzk/base/status.h"
#include "cuzk/msm/cuda/msm.h"

namespace cuzk::msm::cuda::detail {

constexpr uint32_t kPartialsPerTask = 16;  // task size of the levels after the first
constexpr uint32_t kGroupLen = 32;         // buckets per running-sum group

struct Level {
  uint32_t k = 0;          // items per task
  size_t tasks_bound = 0;  // threads launched (upper bound on tasks)
};

struct Plan {
  size_t n = 0;
  int c = 0, windows = 0;
  uint32_t buckets = 0;   // per window: 2^(c−1)
  uint32_t max_runs = 0;  // RLE runs per window, zero-digit sentinel included
  std::vector<Level> levels;
  uint32_t group_len = 0, groups = 0;  // bucket-reduction groups per window
};

// Errors: INVALID_ARGUMENT for n >= 2^31 or a config outside its ranges.
Status make_plan(size_t n, const MsmConfig& config, Plan* plan);

}  // namespace cuzk::msm::cuda::detail
