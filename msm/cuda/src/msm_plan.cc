#include "msm_plan.h"

#include <algorithm>
#include <string>

namespace cuzk::msm::cuda {

int choose_window_bits(size_t n) {
  // Work ≈ windows·(n mixed additions + ~3 additions per bucket), windows = ceil(256/c).
  int best = 4;
  double best_cost = 1e300;
  for (int c = 4; c <= 22; ++c) {
    const double windows = double((256 + c - 1) / c);
    const double cost = windows * (double(n) + 3.0 * double(1u << (c - 1)));
    if (cost < best_cost) best = c, best_cost = cost;
  }
  return best;
}

namespace detail {

namespace {
uint32_t pow2_ceil(size_t x) {
  uint32_t p = 1;
  while (p < x && p < (1u << 30)) p <<= 1;
  return p;
}
}  // namespace

int bounded_windows(int bits, int c) {
  // The fewest windows W with (2^bits − 1) + H < 2^(c·W), H = Σ_{w<W} 2^(c·w
  // + c − 1): exact while c·W fits 64-bit arithmetic; beyond, c·W ≥ bits + 2
  // suffices (k < 2^(cW−2) and H < 2^(cW−1)·2^c/(2^c − 1) ≤ 2^(cW−1)·4/3).
  for (int w = 1;; ++w) {
    const int bits_w = c * w;
    if (bits_w >= 63) return std::max(w, (bits + 2 + c - 1) / c);
    uint64_t h = 0;
    for (int i = 0; i < w; ++i) h |= uint64_t(1) << (c * i + c - 1);
    const uint64_t k_max = bits >= 63 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
    if (bits < 63 && k_max + h < (uint64_t(1) << bits_w)) return w;
  }
}

size_t pair_bound(size_t n, uint32_t runs, int k) { return std::min(n / 2, (n >> (k + 1)) + runs / 2 + 1); }

size_t pair_threads(size_t pairs) {
  const size_t span = 32 * size_t(kPairsPerThreadHost);
  return pairs / span * 32 + std::min<size_t>(pairs % span, 32);
}

std::vector<size_t> inv_tree_bounds(size_t pairs) {
  std::vector<size_t> b{pair_threads(pairs)};
  while (b.back() > 1) b.push_back((b.back() + kInvChunkHost - 1) / kInvChunkHost);
  return b;
}

Status make_plan(size_t n, const MsmConfig& config, const AffineTuning& tuning, Plan* plan) {
  if (n >= (size_t(1) << 31)) return invalid_argument("msm: n = " + std::to_string(n) + " exceeds 2^31 - 1");
  if (config.window_bits != 0 && (config.window_bits < 2 || config.window_bits > 24))
    return invalid_argument("msm: window_bits " + std::to_string(config.window_bits) + " outside [2, 24]");
  if (config.points_per_task != 0 && config.points_per_task < 2)
    return invalid_argument("msm: points_per_task must be >= 2");
  if (config.scalar_bits < 0 || config.scalar_bits > 255)
    return invalid_argument("msm: scalar_bits " + std::to_string(config.scalar_bits) + " outside [0, 255]");
  Plan p;
  p.n = n;
  p.c = config.window_bits ? config.window_bits : choose_window_bits(n);
  if (config.scalar_bits > 0 && config.window_bits == 0) p.c = std::min(p.c, std::max(2, config.scalar_bits + 1));
  if (config.scalar_bits == 0) {
    // k + H must fit in c·windows bits: with k < r < 0.46·2^256 and
    // H < 2^(c·windows)·2^(c−1)/(2^c − 1) that holds for c·windows ≥ 257, and for
    // c·windows = 256 only when c ≥ 4 (c = 2 needs a 129th window).
    p.windows = n == 0 ? 0 : (256 + p.c - 1) / p.c;
    if (n != 0 && p.c * p.windows == 256 && p.c < 4) ++p.windows;
  } else {
    p.windows = n == 0 ? 0 : bounded_windows(config.scalar_bits, p.c);
  }
  p.buckets = 1u << (p.c - 1);
  p.max_runs = uint32_t(std::min<size_t>(std::max<size_t>(n, 1), size_t(p.buckets) + 1));
  const int lanes = config.window_lanes ? config.window_lanes : config.tuning.window_lanes;
  if (lanes < 1 || lanes > 2)
    return invalid_argument("msm: window_lanes " + std::to_string(config.window_lanes) + " (tuning " +
                            std::to_string(config.tuning.window_lanes) + ") outside [1, 2]");
  p.lanes = p.windows < 2 ? 1 : lanes;
  if (config.reduce_group != 0 &&
      (config.reduce_group < 2 || config.reduce_group > (1 << 16) || (config.reduce_group & (config.reduce_group - 1))))
    return invalid_argument("msm: reduce_group " + std::to_string(config.reduce_group) +
                            " is not a power of two from 2 to 65536");
  if (config.affine_rounds < -1 || config.affine_rounds > 16)
    return invalid_argument("msm: affine_rounds " + std::to_string(config.affine_rounds) + " outside [-1, 16]");
  if (config.affine_rounds >= 0) {
    p.affine_rounds = config.affine_rounds;
  } else {
    int lg = 0;
    while (lg < 31 && (size_t(1) << (lg + 1)) <= n) ++lg;  // floor(log2 n)
    p.affine_rounds = tuning.for_lg(lg);
  }
  if (n < 2) p.affine_rounds = 0;
  size_t items = n, longest = n;
  if (p.affine_rounds > 0) {
    p.inv_bounds = inv_tree_bounds(pair_bound(n, p.max_runs, 0));
    p.affine_items[0] = std::min(n, n / 2 + p.max_runs);
    p.affine_items[1] = p.affine_rounds >= 2 ? std::min(n, n / 4 + p.max_runs) : 0;
    items = std::min(n, (n >> p.affine_rounds) + p.max_runs);
    longest = (n + (size_t(1) << p.affine_rounds) - 1) >> p.affine_rounds;
  }
  const uint32_t k0 = config.points_per_task
                          ? uint32_t(config.points_per_task)
                          : std::clamp<uint32_t>(pow2_ceil((items + p.buckets - 1) / p.buckets), 8, 256);
  p.level0_items = items;
  for (uint32_t k = k0; n > 0; k = kPartialsPerTask) {
    const size_t bound = std::min(items, items / k + p.max_runs) + 1;
    p.levels.push_back({k, bound});
    if (longest <= k) break;
    longest = (longest + k - 1) / k;
    items = bound;
  }
  // Groups of 64 buckets where the windows hold 2^21 buckets or more (then
  // still ≥ 2^15 groups to spread over the SMs), else 32. H200 sweep, ms, for
  // 32 / 64 / 128 / 256 (docs/perf.md §5, "the bucket reduction's groups"):
  // G1 2^27 (c = 22) 614.0 / 609.1 / 608.1 / 608.0; G1 2^23 (c = 19) 63.0 /
  // 62.2 / 61.8 / 64.3; G2 2^24 (c = 20) 239.6 / 234.6 / 241.6 / 240.5; G2
  // 2^20 (c = 16, 2^19 buckets) 43.3 / 46.2 / 53.4 / 68.1 — few groups make
  // long serial chains.
  uint32_t group = kGroupLen;
  if (config.reduce_group != 0)
    group = uint32_t(config.reduce_group);
  else if (size_t(p.windows) * p.buckets >= (size_t(1) << 21))
    group = kLargeGroupLen;
  p.group_len = std::min<uint32_t>(p.buckets, group);
  p.groups = p.buckets / p.group_len;
  *plan = std::move(p);
  return ok_status();
}

}  // namespace detail
}  // namespace cuzk::msm::cuda
