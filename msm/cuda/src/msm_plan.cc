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

Status make_plan(size_t n, const MsmConfig& config, Plan* plan) {
  if (n >= (size_t(1) << 31)) return invalid_argument("msm: n = " + std::to_string(n) + " exceeds 2^31 - 1");
  if (config.window_bits != 0 && (config.window_bits < 2 || config.window_bits > 24))
    return invalid_argument("msm: window_bits " + std::to_string(config.window_bits) + " outside [2, 24]");
  if (config.points_per_task != 0 && config.points_per_task < 2)
    return invalid_argument("msm: points_per_task must be >= 2");
  Plan p;
  p.n = n;
  p.c = config.window_bits ? config.window_bits : choose_window_bits(n);
  // k + H must fit in c·windows bits: with k < r < 0.46·2^256 and
  // H < 2^(c·windows)·2^(c−1)/(2^c − 1) that holds for c·windows ≥ 257, and for
  // c·windows = 256 only when c ≥ 4 (c = 2 needs a 129th window).
  p.windows = n == 0 ? 0 : (256 + p.c - 1) / p.c;
  if (n != 0 && p.c * p.windows == 256 && p.c < 4) ++p.windows;
  p.buckets = 1u << (p.c - 1);
  p.max_runs = uint32_t(std::min<size_t>(std::max<size_t>(n, 1), size_t(p.buckets) + 1));
  const uint32_t k0 = config.points_per_task
                          ? uint32_t(config.points_per_task)
                          : std::clamp<uint32_t>(pow2_ceil((n + p.buckets - 1) / p.buckets), 8, 256);
  size_t items = n, longest = n;
  for (uint32_t k = k0; n > 0; k = kPartialsPerTask) {
    const size_t bound = std::min(items, items / k + p.max_runs) + 1;
    p.levels.push_back({k, bound});
    if (longest <= k) break;
    longest = (longest + k - 1) / k;
    items = bound;
  }
  p.group_len = std::min<uint32_t>(p.buckets, kGroupLen);
  p.groups = p.buckets / p.group_len;
  *plan = std::move(p);
  return ok_status();
}

}  // namespace detail
}  // namespace cuzk::msm::cuda
