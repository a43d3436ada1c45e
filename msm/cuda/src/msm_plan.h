// The work plan of one device MSM: window size, bucket counts, and the
// accumulation levels (internal to msm/cuda).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "cuzk/base/status.h"
#include "cuzk/ec/curves.h"
#include "cuzk/msm/cuda/msm.h"

namespace cuzk::msm::cuda::detail {

constexpr uint32_t kPartialsPerTask = 16;     // task size of the levels after the first
constexpr uint32_t kGroupLen = 32;            // buckets per running-sum group (below 2^21 buckets in all)
constexpr uint32_t kLargeGroupLen = 64;       // ... from 2^21 buckets in all (make_plan)
constexpr uint32_t kPairsPerThreadHost = 16;  // = kernels::kPairsPerThread
constexpr uint32_t kInvChunkHost = 8;         // = kernels::kInvChunk

// Pairs in round k of n points over `runs` runs: at most half the items, and
// round k's items are at most n/2^k + runs.
size_t pair_bound(size_t n, uint32_t runs, int k);
// Threads of the pair kernels that own one of `pairs` pairs (= kernels::
// pair_threads): 32 per full span of 32·K pairs, one per pair up to 32 in the
// last. Non-decreasing in pairs.
size_t pair_threads(size_t pairs);
// Elements per level of the inversion tree over pair_threads(pairs) thread products.
std::vector<size_t> inv_tree_bounds(size_t pairs);

struct Level {
  uint32_t k = 0;          // items per task
  size_t tasks_bound = 0;  // threads launched (upper bound on tasks)
};

struct Plan {
  size_t n = 0;
  int c = 0, windows = 0;
  uint32_t buckets = 0;             // per window: 2^(c−1)
  uint32_t max_runs = 0;            // RLE runs per window, zero-digit sentinel included
  int affine_rounds = 0;            // batch-affine pair rounds before the levels
  std::vector<size_t> inv_bounds;   // round 0's inversion tree: elements per level (last = 1)
  size_t affine_items[2] = {0, 0};  // affine item buffers (levels 1, 3, … and 2, 4, …)
  size_t level0_items = 0;          // items entering the XYZZ levels
  std::vector<Level> levels;
  uint32_t group_len = 0, groups = 0;  // bucket-reduction groups per window
  int lanes = 1;                       // windows accumulated at once (streams, scratch copies)
};

// The batch-affine rounds by size msm() takes for curve C when
// MsmConfig::affine_rounds is −1: the config's device tuning (tuning.h).
template <class C>
const AffineTuning& affine_tuning(const MsmConfig& config) {
  if constexpr (std::is_same_v<C, ec::G2Curve>) {
    return config.tuning.g2;
  } else {
    return config.tuning.g1;
  }
}

// Windows of c bits for scalars below 2^bits (MsmConfig::scalar_bits), the
// signed digits' offset included.
int bounded_windows(int bits, int c);

// Errors: INVALID_ARGUMENT for n >= 2^31 or a config outside its ranges.
Status make_plan(size_t n, const MsmConfig& config, const AffineTuning& tuning, Plan* plan);

}  // namespace cuzk::msm::cuda::detail
