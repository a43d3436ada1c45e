// Pippenger's bucket method with batch-affine bucket accumulation; the
// template behind msm() (msm.h), instantiated for G1 and G2 in msm.cc.
#pragma once

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "affine_batch.h"
#include "cuzk/base/huge_pages.h"
#include "cuzk/ec/point.h"
#include "cuzk/msm/msm.h"
#include "cuzk/msm/plan.h"

namespace cuzk::msm::detail {

// Sums one window's digits times their points over a range of points:
// Σ_i d_w(k_i)·P_i. Holds the scratch of one task; reused across tasks.
template <class C>
class WindowWorker {
 public:
  using A = ec::Affine<C>;
  using F = typename C::Field;

  explicit WindowWorker(const MsmPlan& plan)
      : plan_(plan),
        buckets_(plan.num_buckets),
        count_(plan.num_buckets),
        start_(plan.num_buckets),
        digits_(huge_page_vector<uint32_t>(plan.chunk_points)),
        sorted_(huge_page_vector<uint32_t>(plan.chunk_points)),
        sums_(huge_page_vector<A>(plan.chunk_points)) {}

  ec::Xyzz<C> window_sum(std::span<const A> bases, std::span<const ff::Limbs<4>> scalars, int window) {
    std::fill(buckets_.begin(), buckets_.end(), A::identity());
    for (size_t lo = 0; lo < bases.size(); lo += plan_.chunk_points) {
      const size_t hi = std::min(bases.size(), lo + plan_.chunk_points);
      sort_chunk(scalars.subspan(lo, hi - lo), window);
      sum_first_level(bases.subspan(lo, hi - lo));
      sum_remaining_levels();
      merge_into_buckets();
    }
    return reduce_buckets();
  }

 private:
  // Counting sort of the chunk's non-zero digits by bucket: sorted_ holds
  // point index | sign << 31, bucket b occupying [start_[b], start_[b] + count_[b]).
  // Cost: two passes over the chunk, no field arithmetic.
  void sort_chunk(std::span<const ff::Limbs<4>> scalars, int window) {
    const int c = plan_.window_bits;
    std::fill(count_.begin(), count_.end(), 0u);
    for (size_t i = 0; i < scalars.size(); ++i) {
      const int32_t d = signed_digit(scalars[i], window, c);
      // digits_: |d| << 1 | sign, 0 for d = 0.
      const uint32_t mag = uint32_t(d < 0 ? -d : d);
      digits_[i] = (mag << 1) | uint32_t(d < 0);
      if (mag) ++count_[mag - 1];
    }
    uint32_t pos = 0;
    for (size_t b = 0; b < count_.size(); ++b) {
      start_[b] = pos;
      pos += count_[b];
    }
    std::vector<uint32_t>& next = level_count_;  // reused as write cursors
    next.assign(start_.begin(), start_.end());
    for (size_t i = 0; i < scalars.size(); ++i) {
      const uint32_t e = digits_[i];
      if (e == 0) continue;
      sorted_[next[(e >> 1) - 1]++] = uint32_t(i) | (e << 31);
    }
  }

  // Level one reads the points themselves: sums_[s + j] = ±P[j] ± P[j + h]
  // within each bucket (h = ⌈m/2⌉); an odd leftover is copied.
  void sum_first_level(std::span<const A> bases) {
    constexpr uint32_t kIndex = 0x7fffffffu;
    pairs_.clear();
    active_.clear();
    level_count_.assign(count_.begin(), count_.end());
    for (size_t b = 0; b < count_.size(); ++b) {
      const uint32_t m = count_[b];
      if (m == 0) continue;
      const uint32_t s = start_[b], h = (m + 1) / 2;
      for (uint32_t j = 0; j + h < m; ++j) {
        const uint32_t ea = sorted_[s + j], eb = sorted_[s + j + h];
        pairs_.push_back({&bases[ea & kIndex], &bases[eb & kIndex], &sums_[s + j], (ea >> 31) | ((eb >> 31) << 1)});
      }
      if (m & 1) {
        const uint32_t e = sorted_[s + h - 1];
        sums_[s + h - 1] = load_point(&bases[e & kIndex], e >> 31);
      }
      level_count_[b] = h;
      if (h > 1) active_.push_back(uint32_t(b));
    }
    add_pairs<C>(pairs_, prefix_);
  }

  // Further levels work in place in sums_ until each bucket holds one point.
  void sum_remaining_levels() {
    while (!active_.empty()) {
      pairs_.clear();
      size_t kept = 0;
      for (uint32_t b : active_) {
        const uint32_t m = level_count_[b], s = start_[b], h = (m + 1) / 2;
        for (uint32_t j = 0; j + h < m; ++j) pairs_.push_back({&sums_[s + j], &sums_[s + j + h], &sums_[s + j], 0});
        level_count_[b] = h;
        if (h > 1) active_[kept++] = b;
      }
      active_.resize(kept);
      add_pairs<C>(pairs_, prefix_);
    }
  }

  // buckets_[b] += the chunk's sum for bucket b (a copy when the bucket is empty).
  void merge_into_buckets() {
    pairs_.clear();
    for (size_t b = 0; b < count_.size(); ++b) {
      if (count_[b] == 0) continue;
      if (buckets_[b].is_infinity()) {
        buckets_[b] = sums_[start_[b]];
      } else {
        pairs_.push_back({&buckets_[b], &sums_[start_[b]], &buckets_[b], 0});
      }
    }
    add_pairs<C>(pairs_, prefix_);
  }

  // Σ_b (b + 1)·bucket[b]. With B = 2^k buckets (k ≥ kSplitMinLg), index
  // b = q·M + r (M = 2^⌊k/2⌋) splits the weight into M·q + (r + 1):
  //   Σ = M·Σ_q q·D_q + Σ_r (r + 1)·C_r,  D_q = Σ_r bucket[qM + r],  C_r = Σ_q bucket[qM + r].
  // D and C are 2B − B/M − M affine additions, batched across all groups
  // (≈ 7M each); the two weighted sums left have B/M and M terms. The
  // running sum over all B buckets instead costs ≈ 24M per bucket.
  // Measured: docs/perf.md §2.
  ec::Xyzz<C> reduce_buckets() {
    const size_t nb = buckets_.size();
    if (nb < (size_t(1) << kSplitMinLg) || (nb & (nb - 1)) != 0) return weighted_sum(buckets_);
    const int k = __builtin_ctzll(uint64_t(nb));
    const size_t m = size_t(1) << (k / 2), q = nb / m;
    rows_.assign(buckets_.begin(), buckets_.end());  // group g = q: [g·m, g·m + m)
    cols_.resize(nb);                                // group g = r: [g·q, g·q + q)
    for (size_t i = 0; i < q; ++i)
      for (size_t j = 0; j < m; ++j) cols_[j * q + i] = buckets_[i * m + j];
    sum_groups(rows_, q, m);
    sum_groups(cols_, m, q);
    // D_q sits at rows_[q·m]; weights q = 1 .. Q−1 (D_0 has weight 0).
    std::vector<A>& d = row_sums_;
    d.clear();
    for (size_t i = 1; i < q; ++i) d.push_back(rows_[i * m]);
    std::vector<A>& cr = rows_;  // C_r, weights r + 1 (rows_ no longer needed)
    cr.resize(m);
    for (size_t j = 0; j < m; ++j) cr[j] = cols_[j * q];
    ec::Xyzz<C> high = weighted_sum(d);
    for (int i = 0; i < k / 2; ++i) high = high.dbl();
    return high + weighted_sum(cr);
  }

  // Each of `groups` consecutive runs of `len` points in pts summed into its
  // first point, halving every run per level, all runs in one batch per level.
  void sum_groups(std::vector<A>& pts, size_t groups, size_t len) {
    for (size_t live = len; live > 1;) {
      const size_t h = (live + 1) / 2;
      pairs_.clear();
      for (size_t g = 0; g < groups; ++g) {
        A* s = pts.data() + g * len;
        for (size_t j = 0; j + h < live; ++j) pairs_.push_back({&s[j], &s[j + h], &s[j], 0});
      }
      add_pairs<C>(pairs_, prefix_);
      live = h;
    }
  }

  // Σ_i (i + 1)·pts[i] = Σ_j S_j with S_j = Σ_{i ≥ j} pts[i], by a running
  // sum from the top down. S_j only changes at non-infinite points, so a run
  // of g equal terms is added as g·S (double-and-add); for dense input (g = 1)
  // this is the plain 10M (mixed) + 14M (XYZZ) per point.
  static ec::Xyzz<C> weighted_sum(std::span<const A> pts) {
    ec::Xyzz<C> running = ec::Xyzz<C>::identity(), total = ec::Xyzz<C>::identity();
    size_t upper = 0;  // the last non-infinite point seen, plus one; 0 = none yet
    for (size_t b = pts.size(); b-- > 0;) {
      if (pts[b].is_infinity()) continue;
      if (upper != 0) total += times(running, upper - 1 - b);
      running += pts[b];
      upper = b + 1;
    }
    if (upper != 0) total += times(running, upper);
    return total;
  }

  // g·p for g >= 1 by double-and-add from the top bit.
  static ec::Xyzz<C> times(const ec::Xyzz<C>& p, size_t g) {
    ec::Xyzz<C> r = p;
    for (int bit = 62 - __builtin_clzll(uint64_t(g)); bit >= 0; --bit) {
      r = r.dbl();
      if ((g >> bit) & 1) r += p;
    }
    return r;
  }

  // Bucket sets of at least 2^kSplitMinLg take the two-level reduction.
  static constexpr int kSplitMinLg = 8;

  const MsmPlan& plan_;
  std::vector<A> buckets_, rows_, cols_, row_sums_;
  std::vector<uint32_t> count_, start_, level_count_, active_;
  std::vector<uint32_t> digits_, sorted_;
  std::vector<A> sums_;
  std::vector<PairRef<C>> pairs_;
  std::vector<F> prefix_;
};

// Σ_w 2^(w·c)·W_w (Horner, c doublings per window). Cost: ~256 doublings.
template <class C>
ec::Jacobian<C> combine_windows(std::span<const ec::Xyzz<C>> window_sums, int c) {
  ec::Jacobian<C> acc = ec::Jacobian<C>::identity();
  for (size_t w = window_sums.size(); w-- > 0;) {
    for (int i = 0; i < c; ++i) acc = acc.dbl();
    acc += window_sums[w].to_jacobian();
  }
  return acc;
}

template <class C>
ec::Jacobian<C> pippenger(std::span<const ec::Affine<C>> bases, std::span<const ff::Limbs<4>> scalars,
                          const MsmOptions& options) {
  assert(bases.size() == scalars.size());
  const size_t n = std::min(bases.size(), scalars.size());
  if (n == 0) return ec::Jacobian<C>::identity();
  ThreadPool& pool = pool_of(options);
  // Windows only up to the longest scalar: a verifier's inputs are often
  // short (Window PoSt leaf indices < 2^30; docs/perf.md §7).
  const int bits = std::min(kScalarBits, max_scalar_bits(scalars.first(n)));
  const MsmPlan plan = make_plan(n, pool.size(), options.window_bits, bits);
  std::vector<ec::Xyzz<C>> partial(plan.num_tasks());
  // Workers are handed from chunk to chunk, so that each thread allocates
  // (and the kernel faults in) a worker's scratch once per call, not once per
  // chunk: ~110 bytes per point, 7 MB at 2^16, and parallel_for makes up to
  // 4 chunks per thread. A one-shot 2^16 proof takes 5 400 fewer page faults
  // (24 900 → 19 500) and 6% less CPU time (docs/perf.md).
  std::mutex idle_mu;
  std::vector<std::unique_ptr<WindowWorker<C>>> idle;  // GUARDED_BY(idle_mu)
  auto run_tasks = [&](size_t begin, size_t end) {
    std::unique_ptr<WindowWorker<C>> worker;
    {
      std::lock_guard<std::mutex> lock(idle_mu);
      if (!idle.empty()) {
        worker = std::move(idle.back());
        idle.pop_back();
      }
    }
    if (!worker) worker = std::make_unique<WindowWorker<C>>(plan);
    for (size_t t = begin; t < end; ++t) {
      const int w = int(t / plan.point_ranges);
      const size_t r = t % plan.point_ranges;
      const size_t lo = n * r / plan.point_ranges, hi = n * (r + 1) / plan.point_ranges;
      partial[t] = worker->window_sum(bases.subspan(lo, hi - lo), scalars.subspan(lo, hi - lo), w);
    }
    std::lock_guard<std::mutex> lock(idle_mu);
    idle.push_back(std::move(worker));
  };
  if (plan.threads <= 1) {
    run_tasks(0, plan.num_tasks());
  } else {
    pool.parallel_for(plan.num_tasks(), 1, run_tasks);
  }
  std::vector<ec::Xyzz<C>> window_sums(size_t(plan.num_windows), ec::Xyzz<C>::identity());
  for (size_t t = 0; t < partial.size(); ++t) window_sums[t / plan.point_ranges] += partial[t];
  return combine_windows<C>(window_sums, plan.window_bits);
}

}  // namespace cuzk::msm::detail
