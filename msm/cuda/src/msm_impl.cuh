// Host orchestration of the device MSM and batch addition (msm.h), templated
// over the curve. Included by exactly one .cu per curve (msm_g1.cu, msm_g2.cu).
#pragma once

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <deque>
#include <string>
#include <type_traits>
#include <vector>

#include "cuzk/ec/cuda/curve_traits.cuh"
#include "cuzk/gpu/check.h"
#include "cuzk/gpu/nvtx.h"
#include "cuzk/msm/cuda/msm.h"
#include "msm_kernels.cuh"
#include "msm_plan.h"

namespace cuzk::msm::cuda {
namespace detail {

constexpr uint32_t kSumChunk = 32;     // points per thread in tree reductions
constexpr uint32_t kBitmapChunk = 64;  // batch_add workspace: one partial per 64 positions at least
constexpr unsigned kThreads = 128;

inline unsigned grid_for(size_t n, unsigned threads) { return unsigned((n + threads - 1) / threads); }
inline size_t align_up(size_t x) { return (x + 255) & ~size_t(255); }

// Byte offsets of the workspace parts. words, buckets and red are shared by
// all windows; the rest is one window's scratch, laid out once per lane
// (Plan::lanes) from lane_begin on, lane_bytes apart; lane(l, i) gives lane
// i's offsets.
struct Layout {
  size_t words, buckets, red[2];
  size_t keys_in, vals_in, keys_out, vals_out, unique, counts, num_runs;
  size_t cnt[2], off[2], tasks, cub, partial[2];
  size_t cub_bytes;
  size_t poff = 0, affine[2] = {0, 0};    // pair rounds: pair offsets, item buffers
  std::vector<size_t> inv_vals, inv_pre;  // per level of the inversion tree
  size_t lane_begin = 0, lane_bytes = 0, total = 0;
};

inline Layout lane(const Layout& l, int i) {
  Layout r = l;
  const size_t d = size_t(i) * l.lane_bytes;
  for (size_t* f : {&r.keys_in, &r.vals_in, &r.keys_out, &r.vals_out, &r.unique, &r.counts, &r.num_runs, &r.cnt[0],
                    &r.cnt[1], &r.off[0], &r.off[1], &r.tasks, &r.cub, &r.partial[0], &r.partial[1], &r.poff,
                    &r.affine[0], &r.affine[1]})
    *f += d;
  for (size_t& v : r.inv_vals) v += d;
  for (size_t& v : r.inv_pre) v += d;
  return r;
}

static_assert(kPairsPerThreadHost == kernels::kPairsPerThread && kInvChunkHost == kernels::kInvChunk);

template <class C>
Status make_layout(const Plan& p, Layout* l, bool own_buckets = true);

}  // namespace detail

namespace detail {

template <class C>
Status cub_temp_bytes(const Plan& p, size_t* bytes) {
  size_t sort = 0, rle = 0, scan = 0;
  const size_t n = std::max<size_t>(p.n, 1);
  // CUB sizes its temporary storage for the current device; without a usable
  // one (sizes planned on a machine without a GPU: groth16/cuda/device_plan.h)
  // the bound is the radix sort's alternate keys and values plus its bins.
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) {
    cudaGetLastError();
    *bytes = n * 8 + (size_t(4) << 20);
    return ok_status();
  }
  RETURN_IF_ERROR(
      CUZK_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, sort, (const uint32_t*)nullptr, (uint32_t*)nullptr,
                                                      (const uint32_t*)nullptr, (uint32_t*)nullptr, n, 0, p.c)));
  RETURN_IF_ERROR(CUZK_CUDA_CHECK(cub::DeviceRunLengthEncode::Encode(
      nullptr, rle, (const uint32_t*)nullptr, (uint32_t*)nullptr, (uint32_t*)nullptr, (uint32_t*)nullptr, n)));
  RETURN_IF_ERROR(CUZK_CUDA_CHECK(
      cub::DeviceScan::ExclusiveSum(nullptr, scan, (const uint32_t*)nullptr, (uint32_t*)nullptr, p.max_runs + 1)));
  *bytes = std::max({sort, rle, scan, size_t(1)});
  return ok_status();
}

template <class C>
Status make_layout(const Plan& p, Layout* l, bool own_buckets) {
  using X = ec::cuda::DXyzz<C>;
  RETURN_IF_ERROR(cub_temp_bytes<C>(p, &l->cub_bytes));
  const size_t runs = size_t(p.max_runs) + 1;
  size_t at = 0;
  auto take = [&at](size_t bytes) {
    const size_t here = at;
    at += align_up(bytes);
    return here;
  };
  l->words = take(size_t(kernels::kScalarWords) * p.n * 4);
  l->buckets = take(own_buckets ? size_t(p.windows) * p.buckets * sizeof(X) : 0);
  l->red[0] = take(size_t(p.windows) * p.groups * sizeof(X));
  l->red[1] = take(size_t(p.windows) * ((p.groups + kSumChunk - 1) / kSumChunk) * sizeof(X));
  l->lane_begin = at;
  l->keys_in = take(p.n * 4);
  l->vals_in = take(p.n * 4);
  l->keys_out = take(p.n * 4);
  l->vals_out = take(p.n * 4);
  l->unique = take(runs * 4);
  l->counts = take(runs * 4);
  l->num_runs = take(4);
  for (int i = 0; i < 2; ++i) l->cnt[i] = take(runs * 4);
  for (int i = 0; i < 2; ++i) l->off[i] = take(runs * 4);
  l->tasks = take(runs * 4);
  if (p.affine_rounds > 0) {
    using A = ec::cuda::DAffine<C>;
    using F = kernels::InvField<typename ec::cuda::DeviceCurve<C>::F>;
    l->poff = take(runs * 4);
    for (int i = 0; i < 2; ++i) l->affine[i] = take(p.affine_items[i] * sizeof(A));
    l->inv_vals.clear(), l->inv_pre.clear();
    for (size_t b : p.inv_bounds) {
      l->inv_vals.push_back(take(b * sizeof(F)));
      l->inv_pre.push_back(take(b * sizeof(F)));
    }
  }
  l->cub = take(l->cub_bytes);
  // Level 0's tasks, bounded from its smallest task size (8) so that the
  // layout only grows with n: a StreamedMsm sizes one workspace for its whole
  // batches and also runs shorter ones, whose larger task count (smaller k)
  // could otherwise need more.
  const size_t k0 = p.levels.empty() ? 1 : std::min<size_t>(p.levels[0].k, 8);
  const size_t partials = p.levels.empty() ? 0 : std::min(p.level0_items, p.level0_items / k0 + p.max_runs) + 1;
  for (int i = 0; i < 2; ++i) l->partial[i] = take(partials * sizeof(X));
  l->lane_bytes = at - l->lane_begin;
  l->total = l->lane_begin + size_t(std::max(p.lanes, 1)) * l->lane_bytes;
  return ok_status();
}

template <class T>
T* at(void* ws, size_t offset) {
  return reinterpret_cast<T*>(static_cast<uint8_t*>(ws) + offset);
}

// Item buffer i of the pair rounds (p.affine_items[i] points) as its x and y arrays.
template <class C>
kernels::AffineArray<typename ec::cuda::DeviceCurve<C>::F> affine_array(const Plan& p, const Layout& l, void* ws,
                                                                         int i) {
  using F = typename ec::cuda::DeviceCurve<C>::F;
  F* x = at<F>(ws, l.affine[i]);
  return {x, x + p.affine_items[i]};
}

// H = Σ_{w < windows} 2^(c·w + c − 1) as 9 little-endian 32-bit words.
inline kernels::HWords offset_words(int c, int windows) {
  kernels::HWords h{};
  for (int w = 0; w < windows; ++w) {
    const int bit = c * w + c - 1;
    h.w[bit >> 5] |= 1u << (bit & 31);
  }
  return h;
}

// Event-timed phases for MsmProfile: marks are recorded at phase ends
// (start, prep, then per window [mid, end], then reduce); `next()` hands out
// the mid-window event. Inactive (no events, no waits) without a profile.
class Profiler {
 public:
  explicit Profiler(MsmProfile* out) : out_(out) {}
  bool active() const { return out_ != nullptr; }
  Status mark(cudaStream_t stream) {
    if (out_ == nullptr) return ok_status();
    ASSIGN_OR_RETURN(gpu::Event e, gpu::Event::create(true));
    RETURN_IF_ERROR(e.record(stream));
    events_.push_back(std::move(e));
    return ok_status();
  }
  gpu::Event* next() {
    if (out_ == nullptr) return nullptr;
    auto e = gpu::Event::create(true);
    if (!e.ok()) return nullptr;
    mids_.push_back(std::move(*e));
    return &mids_.back();
  }
  Status finish(const Plan& p) {
    if (out_ == nullptr) return ok_status();
    RETURN_IF_ERROR(events_.back().synchronize());
    MsmProfile r;
    r.window_bits = p.c, r.windows = p.windows, r.levels = int(p.levels.size()), r.affine_rounds = p.affine_rounds;
    ASSIGN_OR_RETURN(r.prep_ms, gpu::Event::elapsed_ms(events_[0], events_[1]));
    for (size_t w = 0; w < mids_.size(); ++w) {
      ASSIGN_OR_RETURN(float a, gpu::Event::elapsed_ms(events_[1 + w], mids_[w]));
      ASSIGN_OR_RETURN(float b, gpu::Event::elapsed_ms(mids_[w], events_[2 + w]));
      r.sort_ms += a, r.accumulate_ms += b;
    }
    ASSIGN_OR_RETURN(r.reduce_ms, gpu::Event::elapsed_ms(events_[events_.size() - 2], events_.back()));
    *out_ = r;
    return ok_status();
  }

 private:
  MsmProfile* out_;
  std::vector<gpu::Event> events_;
  std::deque<gpu::Event> mids_;  // stable addresses
};

// Inverts in place the thread products of one pair round (inv_vals[0],
// ceil(pairs/K) of them, `pairs` counted on the device) through a tree of
// prefix products with one inversion at the root.
template <class C>
Status invert_products(const Layout& l, void* ws, size_t pairs_bound, const uint32_t* d_pairs, cudaStream_t stream) {
  using F = kernels::InvField<typename ec::cuda::DeviceCurve<C>::F>;
  const std::vector<size_t> b = inv_tree_bounds(pairs_bound);
  if (b[0] == 0) return ok_status();
  const int top = int(b.size()) - 1;
  for (int lv = 0; lv < top; ++lv) {
    kernels::inv_up_kernel<F><<<grid_for(b[lv + 1], kThreads), kThreads, 0, stream>>>(
        at<F>(ws, l.inv_vals[lv]), d_pairs, lv, at<F>(ws, l.inv_pre[lv]), at<F>(ws, l.inv_vals[lv + 1]));
    RETURN_IF_ERROR(CUZK_CUDA_LAUNCH_CHECK());
  }
  kernels::inv_root_kernel<F><<<1, 1, 0, stream>>>(at<F>(ws, l.inv_vals[top]), d_pairs, top);
  RETURN_IF_ERROR(CUZK_CUDA_LAUNCH_CHECK());
  for (int lv = top - 1; lv >= 0; --lv) {
    kernels::inv_down_kernel<F><<<grid_for(b[lv + 1], kThreads), kThreads, 0, stream>>>(
        at<F>(ws, l.inv_vals[lv]), d_pairs, lv, at<F>(ws, l.inv_pre[lv]), at<F>(ws, l.inv_vals[lv + 1]));
    RETURN_IF_ERROR(CUZK_CUDA_LAUNCH_CHECK());
  }
  return ok_status();
}

// Batch-affine round k of one window: the items of each run (cnt, off) are
// added in pairs into the next level (next_cnt, next_off) in l.affine[k & 1].
template <class C>
Status pair_round(const Plan& p, const Layout& l, void* ws, const ec::cuda::DAffine<C>* bases, const uint32_t* vals,
                  int k, const uint32_t* cnt, const uint32_t* off, uint32_t* next_cnt, uint32_t* next_off,
                  cudaStream_t stream) {
  using F = typename ec::cuda::DeviceCurve<C>::F;
  const uint32_t runs = p.max_runs;
  uint32_t* pc = at<uint32_t>(ws, l.tasks);
  uint32_t* poff = at<uint32_t>(ws, l.poff);
  void* cub_tmp = at<uint8_t>(ws, l.cub);
  size_t cub_bytes = l.cub_bytes;
  kernels::pair_counts_kernel<<<grid_for(runs + 1, 256), 256, 0, stream>>>(cnt, runs, pc, next_cnt);
  RETURN_IF_ERROR(CUZK_CUDA_LAUNCH_CHECK());
  RETURN_IF_ERROR(CUZK_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(cub_tmp, cub_bytes, pc, poff, runs + 1, stream)));
  cub_bytes = l.cub_bytes;
  RETURN_IF_ERROR(
      CUZK_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(cub_tmp, cub_bytes, next_cnt, next_off, runs + 1, stream)));
  const kernels::AffineArray<F> out = affine_array<C>(p, l, ws, k & 1);
  kernels::InvField<F>* prod = at<kernels::InvField<F>>(ws, l.inv_vals[0]);
  const size_t pairs = pair_bound(p.n, runs, k);
  const unsigned grid = grid_for(pair_threads(pairs), kThreads);
  auto launch = [&](auto items) -> Status {
    using Items = decltype(items);
    constexpr bool kRefs = std::is_same_v<Items, kernels::PairItems<F, true>>;
    if (grid > 0) {
      kernels::pair_forward_kernel<F, kRefs>
          <<<grid, kThreads, 0, stream>>>(items, off, poff, next_off, runs, out, prod);
      RETURN_IF_ERROR(CUZK_CUDA_LAUNCH_CHECK());
      RETURN_IF_ERROR(invert_products<C>(l, ws, pairs, poff + runs, stream));
      kernels::pair_backward_kernel<F, kRefs>
          <<<grid, kThreads, 0, stream>>>(items, off, poff, next_off, runs, prod, out);
      RETURN_IF_ERROR(CUZK_CUDA_LAUNCH_CHECK());
    }
    kernels::pair_leftover_kernel<F, kRefs>
        <<<grid_for(runs, 256), 256, 0, stream>>>(items, cnt, off, next_off, runs, out);
    return CUZK_CUDA_LAUNCH_CHECK();
  };
  if (k == 0) return launch(kernels::PairItems<F, true>{bases, vals, {}});
  return launch(kernels::PairItems<F, false>{nullptr, nullptr, affine_array<C>(p, l, ws, (k - 1) & 1)});
}

// Sorts window w's digits by bucket and accumulates its buckets.
template <class C>
Status run_window(const Plan& p, const Layout& l, void* ws, const ec::cuda::DAffine<C>* bases,
                  const uint32_t* point_index, ec::cuda::DXyzz<C>* all_buckets, int w, cudaStream_t stream,
                  gpu::Event* mid) {
  using F = typename ec::cuda::DeviceCurve<C>::F;
  using X = ec::cuda::Xyzz<F>;
  const uint32_t runs = p.max_runs;
  auto* keys_in = at<uint32_t>(ws, l.keys_in);
  auto* vals_in = at<uint32_t>(ws, l.vals_in);
  auto* keys_out = at<uint32_t>(ws, l.keys_out);
  auto* vals_out = at<uint32_t>(ws, l.vals_out);
  auto* unique = at<uint32_t>(ws, l.unique);
  auto* num_runs = at<uint32_t>(ws, l.num_runs);
  void* cub_tmp = at<uint8_t>(ws, l.cub);
  size_t cub_bytes = l.cub_bytes;
  kernels::digits_kernel<<<grid_for(p.n, 256), 256, 0, stream>>>(at<uint32_t>(ws, l.words), point_index, p.n, w,
                                                                 p.c, keys_in, vals_in);
  RETURN_IF_ERROR(CUZK_CUDA_LAUNCH_CHECK());
  RETURN_IF_ERROR(CUZK_CUDA_CHECK(
      cub::DeviceRadixSort::SortPairs(cub_tmp, cub_bytes, keys_in, keys_out, vals_in, vals_out, p.n, 0, p.c, stream)));
  cub_bytes = l.cub_bytes;
  RETURN_IF_ERROR(CUZK_CUDA_CHECK(cub::DeviceRunLengthEncode::Encode(
      cub_tmp, cub_bytes, keys_out, unique, at<uint32_t>(ws, l.counts), num_runs, p.n, stream)));
  uint32_t* cnt[2] = {at<uint32_t>(ws, l.cnt[0]), at<uint32_t>(ws, l.cnt[1])};
  uint32_t* off[2] = {at<uint32_t>(ws, l.off[0]), at<uint32_t>(ws, l.off[1])};
  X* partial[2] = {at<X>(ws, l.partial[0]), at<X>(ws, l.partial[1])};
  uint32_t* tasks = at<uint32_t>(ws, l.tasks);
  kernels::mask_counts_kernel<<<grid_for(runs + 1, 256), 256, 0, stream>>>(at<uint32_t>(ws, l.counts), unique, num_runs,
                                                                           p.buckets, runs, cnt[0]);
  RETURN_IF_ERROR(CUZK_CUDA_LAUNCH_CHECK());
  cub_bytes = l.cub_bytes;
  RETURN_IF_ERROR(CUZK_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(cub_tmp, cub_bytes, cnt[0], off[0], runs + 1, stream)));
  if (mid != nullptr) RETURN_IF_ERROR(mid->record(stream));
  X* buckets = all_buckets + size_t(w) * p.buckets;
  int cur = 0;  // cnt[cur], off[cur]: items per run and run offsets of the
                // current level
  for (int k = 0; k < p.affine_rounds; ++k, cur ^= 1)
    RETURN_IF_ERROR(
        pair_round<C>(p, l, ws, bases, vals_out, k, cnt[cur], off[cur], cnt[cur ^ 1], off[cur ^ 1], stream));
  const kernels::AffineArray<F> affine_items = p.affine_rounds > 0
                                                   ? affine_array<C>(p, l, ws, (p.affine_rounds - 1) & 1)
                                                   : kernels::AffineArray<F>{nullptr, nullptr};
  for (size_t lv = 0; lv < p.levels.size(); ++lv, cur ^= 1) {
    const int nxt = cur ^ 1;
    const Level& level = p.levels[lv];
    kernels::tasks_kernel<<<grid_for(runs + 1, 256), 256, 0, stream>>>(cnt[cur], runs, level.k, tasks, cnt[nxt]);
    RETURN_IF_ERROR(CUZK_CUDA_LAUNCH_CHECK());
    cub_bytes = l.cub_bytes;
    RETURN_IF_ERROR(
        CUZK_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(cub_tmp, cub_bytes, tasks, off[nxt], runs + 1, stream)));
    const unsigned grid = grid_for(level.tasks_bound, kThreads);
    const int pl = int(lv & 1);  // partials written by this level
    if (lv == 0 && affine_items.x != nullptr)
      kernels::accumulate_kernel<F, kernels::kFromAffine><<<grid, kThreads, 0, stream>>>(
          nullptr, nullptr, nullptr, cnt[cur], off[cur], off[nxt], runs, level.k, unique, affine_items, buckets,
          partial[0]);
    else if (lv == 0)
      kernels::accumulate_kernel<F, kernels::kFromRefs><<<grid, kThreads, 0, stream>>>(
          bases, vals_out, nullptr, cnt[cur], off[cur], off[nxt], runs, level.k, unique, {}, buckets, partial[0]);
    else
      kernels::accumulate_kernel<F, kernels::kFromPartials><<<grid, kThreads, 0, stream>>>(
          nullptr, nullptr, partial[pl ^ 1], cnt[cur], off[cur], off[nxt], runs, level.k, unique, {}, buckets,
          partial[pl]);
    RETURN_IF_ERROR(CUZK_CUDA_LAUNCH_CHECK());
  }
  return ok_status();
}

// Reduces every window's buckets and combines the windows into *d_result:
// Σ_k (k+1)·S_k per window by groups (bucket_groups_kernel), then group sums
// added by chunks until one is left, then Horner over the windows. Window w
// works in its parts of red[0] (from w·groups) and red[1] (from
// w·ceil(groups/chunk)), so its sum ends in red[cur] at w·red_stride(p, cur).
inline size_t red_stride(const Plan& p, int buffer) {
  return buffer == 0 ? size_t(p.groups) : size_t((p.groups + kSumChunk - 1) / kSumChunk);
}
template <class C>
Status reduce_windows(const Plan& p, const Layout& l, void* ws, const ec::cuda::DXyzz<C>* all_buckets,
                      ec::cuda::DJacobian<C>* d_result, cudaStream_t stream) {
  using F = typename ec::cuda::DeviceCurve<C>::F;
  using X = ec::cuda::Xyzz<F>;
  X* red[2] = {at<X>(ws, l.red[0]), at<X>(ws, l.red[1])};
  int cur = 0;  // the buffer the last level wrote
  if (p.windows > 0) {
    const size_t groups = size_t(p.groups) * p.windows;
    kernels::bucket_groups_kernel<F><<<grid_for(groups, kThreads), kThreads, 0, stream>>>(
        all_buckets, p.buckets, p.group_len, p.groups, uint32_t(p.windows), red[0]);
    RETURN_IF_ERROR(CUZK_CUDA_LAUNCH_CHECK());
    for (uint32_t len = p.groups; len > 1; len = (len + kSumChunk - 1) / kSumChunk, cur ^= 1) {
      const size_t outs = size_t(p.windows) * ((len + kSumChunk - 1) / kSumChunk);
      kernels::sum_segments_kernel<F><<<grid_for(outs, kThreads), kThreads, 0, stream>>>(
          red[cur], red_stride(p, cur), uint32_t(p.windows), len, kSumChunk, red[cur ^ 1], red_stride(p, cur ^ 1));
      RETURN_IF_ERROR(CUZK_CUDA_LAUNCH_CHECK());
    }
  }
  kernels::combine_windows_kernel<F><<<1, 1, 0, stream>>>(red[cur], red_stride(p, cur), p.windows, p.c, d_result);
  return CUZK_CUDA_LAUNCH_CHECK();
}

}  // namespace detail

template <class C>
size_t msm_workspace_bytes(size_t n, const MsmConfig& config) {
  detail::Plan p;
  detail::Layout l{};
  if (!detail::make_plan(n, config, detail::affine_tuning<C>(config), &p).ok() || !detail::make_layout<C>(p, &l).ok())
    return 0;
  return l.total;
}

namespace detail {

// Scalars to window words, then every window sorted and accumulated into
// `buckets` (added to what they hold).
// With two lanes the odd windows run on a second stream, forked from and
// joined back into `stream`, each lane in its own scratch: one window's
// serial steps (the inversion roots, scans, the small upper levels of the
// trees, each kernel's last wave) then overlap the other's large kernels.
// A profiled run keeps to one lane, so that its phase times add up. (Reducing
// each window's buckets in its lane right after it, instead of all windows
// at once afterwards, measured slower: a one-window reduction is too few
// threads, each a long serial chain — G2 2^24 278 vs 253 ms, 2^20 94 vs 51.)
template <class C>
Status accumulate_windows(const Plan& p, const Layout& l, void* ws, const ec::Affine<C>* d_bases,
                          const ff::Fr* d_scalars, const MsmConfig& config, ec::cuda::DXyzz<C>* buckets,
                          cudaStream_t stream, Profiler& prof) {
  kernels::scalar_to_words_kernel<<<grid_for(p.n, 256), 256, 0, stream>>>(
      reinterpret_cast<const ff::cuda::Fr*>(d_scalars), config.scalar_index, p.n, at<uint32_t>(ws, l.words),
      offset_words(p.c, p.windows));
  RETURN_IF_ERROR(CUZK_CUDA_LAUNCH_CHECK());
  RETURN_IF_ERROR(prof.mark(stream));
  const auto* bases = ec::cuda::dev<C>(d_bases);
  if (p.lanes < 2 || p.windows < 2 || prof.active()) {
    for (int w = 0; w < p.windows; ++w) {
      RETURN_IF_ERROR(run_window<C>(p, l, ws, bases, config.point_index, buckets, w, stream, prof.next()));
      RETURN_IF_ERROR(prof.mark(stream));
    }
    return ok_status();
  }
  ASSIGN_OR_RETURN(gpu::Stream second, gpu::Stream::create());
  ASSIGN_OR_RETURN(gpu::Event forked, gpu::Event::create(false));
  ASSIGN_OR_RETURN(gpu::Event joined, gpu::Event::create(false));
  RETURN_IF_ERROR(forked.record(stream));
  RETURN_IF_ERROR(second.wait(forked));
  const Layout lanes[2] = {lane(l, 0), lane(l, 1)};
  for (int w = 0; w < p.windows; ++w)
    RETURN_IF_ERROR(run_window<C>(p, lanes[w & 1], ws, bases, config.point_index, buckets, w,
                                  w & 1 ? second.get() : stream, nullptr));
  RETURN_IF_ERROR(joined.record(second));
  return CUZK_CUDA_CHECK(cudaStreamWaitEvent(stream, joined.get(), 0));
}

inline Status check_workspace(const char* what, void* ws, size_t* bytes, size_t need) {
  if (ws == nullptr) {
    if (bytes == nullptr) return invalid_argument(std::string(what) + ": null workspace and null workspace_bytes");
    *bytes = need;
    return ok_status();
  }
  if (bytes != nullptr && *bytes < need)
    return invalid_argument(std::string(what) + ": workspace of " + std::to_string(*bytes) + " bytes, need " +
                            std::to_string(need));
  return ok_status();
}

// The plan of a batched MSM: the window size must be fixed.
inline Status batched_plan(size_t n, const MsmConfig& config, const AffineTuning& tuning, Plan* p) {
  if (config.window_bits == 0) return invalid_argument("batched msm: config.window_bits must be set");
  return make_plan(std::max<size_t>(n, 1), config, tuning, p);
}

}  // namespace detail

template <class C>
Status msm(const ec::Affine<C>* d_bases, const ff::Fr* d_scalars, size_t n, ec::Jacobian<C>* d_result,
           void* d_workspace, size_t* workspace_bytes, cudaStream_t stream, const MsmConfig& config) {
  CUZK_NVTX_RANGE("msm.cuda");
  detail::Plan p;
  RETURN_IF_ERROR(detail::make_plan(n, config, detail::affine_tuning<C>(config), &p));
  detail::Layout l{};
  RETURN_IF_ERROR(detail::make_layout<C>(p, &l));
  RETURN_IF_ERROR(detail::check_workspace("msm", d_workspace, workspace_bytes, l.total));
  if (d_workspace == nullptr) return ok_status();
  using X = ec::cuda::DXyzz<C>;
  auto* result = ec::cuda::dev<C>(d_result);
  X* buckets = detail::at<X>(d_workspace, l.buckets);
  if (n == 0) return detail::reduce_windows<C>(p, l, d_workspace, buckets, result, stream);
  detail::Profiler prof(config.profile);
  RETURN_IF_ERROR(prof.mark(stream));
  RETURN_IF_ERROR(CUZK_CUDA_CHECK(cudaMemsetAsync(buckets, 0, size_t(p.windows) * p.buckets * sizeof(X), stream)));
  RETURN_IF_ERROR(
      detail::accumulate_windows<C>(p, l, d_workspace, d_bases, d_scalars, config, buckets, stream, prof));
  RETURN_IF_ERROR(detail::reduce_windows<C>(p, l, d_workspace, buckets, result, stream));
  RETURN_IF_ERROR(prof.mark(stream));
  return prof.finish(p);
}

template <class C>
int choose_affine_rounds(size_t n, const MsmConfig& base) {
  MsmConfig config = base;
  config.affine_rounds = -1;
  detail::Plan p;
  if (!detail::make_plan(n, config, detail::affine_tuning<C>(config), &p).ok()) return 0;
  return p.affine_rounds;
}

template <class C>
size_t msm_buckets_bytes(const MsmConfig& config) {
  detail::Plan p;
  if (!detail::batched_plan(1, config, detail::affine_tuning<C>(config), &p).ok()) return 0;
  return size_t(p.windows) * p.buckets * sizeof(ec::cuda::DXyzz<C>);
}

template <class C>
size_t msm_accumulate_workspace_bytes(size_t n, const MsmConfig& config) {
  detail::Plan p;
  detail::Layout l{};
  if (!detail::batched_plan(n, config, detail::affine_tuning<C>(config), &p).ok() ||
      !detail::make_layout<C>(p, &l, false).ok())
    return 0;
  return l.total;
}

template <class C>
Status msm_accumulate(const ec::Affine<C>* d_bases, const ff::Fr* d_scalars, size_t n, void* d_buckets,
                      void* d_workspace, size_t workspace_bytes, cudaStream_t stream, const MsmConfig& config) {
  CUZK_NVTX_RANGE("msm.cuda.accumulate");
  detail::Plan p;
  RETURN_IF_ERROR(detail::batched_plan(n, config, detail::affine_tuning<C>(config), &p));
  detail::Layout l{};
  RETURN_IF_ERROR(detail::make_layout<C>(p, &l, false));
  if (d_workspace == nullptr || d_buckets == nullptr) return invalid_argument("msm_accumulate: null buffer");
  RETURN_IF_ERROR(detail::check_workspace("msm_accumulate", d_workspace, &workspace_bytes, l.total));
  if (n == 0) return ok_status();
  detail::Profiler prof(nullptr);
  return detail::accumulate_windows<C>(p, l, d_workspace, d_bases, d_scalars, config,
                                       static_cast<ec::cuda::DXyzz<C>*>(d_buckets), stream, prof);
}

template <class C>
Status msm_merge_buckets(void* d_into, const void* d_from, cudaStream_t stream, const MsmConfig& config) {
  using F = typename ec::cuda::DeviceCurve<C>::F;
  detail::Plan p;
  RETURN_IF_ERROR(detail::batched_plan(1, config, detail::affine_tuning<C>(config), &p));
  if (d_into == nullptr || d_from == nullptr) return invalid_argument("msm_merge_buckets: null buffer");
  const size_t count = size_t(p.windows) * p.buckets;
  kernels::merge_buckets_kernel<F><<<detail::grid_for(count, detail::kThreads), detail::kThreads, 0, stream>>>(
      static_cast<ec::cuda::Xyzz<F>*>(d_into), static_cast<const ec::cuda::Xyzz<F>*>(d_from), count);
  return CUZK_CUDA_LAUNCH_CHECK();
}

template <class C>
Status msm_finish(const void* d_buckets, ec::Jacobian<C>* d_result, void* d_workspace, size_t workspace_bytes,
                  cudaStream_t stream, const MsmConfig& config) {
  detail::Plan p;
  RETURN_IF_ERROR(detail::batched_plan(1, config, detail::affine_tuning<C>(config), &p));
  detail::Layout l{};
  RETURN_IF_ERROR(detail::make_layout<C>(p, &l, false));
  if (d_workspace == nullptr || d_buckets == nullptr) return invalid_argument("msm_finish: null buffer");
  RETURN_IF_ERROR(detail::check_workspace("msm_finish", d_workspace, &workspace_bytes, l.total));
  return detail::reduce_windows<C>(p, l, d_workspace, static_cast<const ec::cuda::DXyzz<C>*>(d_buckets),
                                   ec::cuda::dev<C>(d_result), stream);
}

namespace detail {

// Partial sums of batch_add over n positions: one per lane of the warps of
// bitmap_sum_kernel.
inline size_t batch_add_parts(size_t n) {
  const size_t words = (n + 63) / 64;
  return (words + kernels::kBitmapWarpWords - 1) / kernels::kBitmapWarpWords * 32;
}

}  // namespace detail

template <class C>
size_t batch_add_workspace_bytes(size_t n) {
  // Kept at the size of the earlier kernel's partials (one per 64 positions),
  // so that the GPU prover's memory plans, measured with it, do not move; the
  // kernel needs batch_add_parts(n), a quarter of that for large n.
  const size_t parts = std::max(detail::batch_add_parts(n), (n + detail::kBitmapChunk - 1) / detail::kBitmapChunk);
  return 2 * detail::align_up(std::max<size_t>(parts, 1) * sizeof(ec::cuda::DXyzz<C>));
}

template <class C>
Status batch_add(const ec::Affine<C>* d_bases, const uint64_t* d_bitmap, size_t n, ec::Jacobian<C>* d_result,
                 void* d_workspace, size_t* workspace_bytes, cudaStream_t stream) {
  using F = typename ec::cuda::DeviceCurve<C>::F;
  using X = ec::cuda::Xyzz<F>;
  const size_t need = batch_add_workspace_bytes<C>(n);
  RETURN_IF_ERROR(detail::check_workspace("batch_add", d_workspace, workspace_bytes, need));
  if (d_workspace == nullptr) return ok_status();
  const size_t parts = n == 0 ? 0 : detail::batch_add_parts(n);
  X* red[2] = {static_cast<X*>(d_workspace), detail::at<X>(d_workspace, need / 2)};
  int cur = 0;
  if (parts > 0) {
    kernels::bitmap_sum_kernel<F><<<detail::grid_for(parts, detail::kThreads), detail::kThreads, 0, stream>>>(
        ec::cuda::dev<C>(d_bases), d_bitmap, n, red[0]);
    RETURN_IF_ERROR(CUZK_CUDA_LAUNCH_CHECK());
    for (uint32_t len = uint32_t(parts); len > 1; len = (len + detail::kSumChunk - 1) / detail::kSumChunk, cur ^= 1) {
      const size_t outs = (len + detail::kSumChunk - 1) / detail::kSumChunk;
      kernels::sum_segments_kernel<F><<<detail::grid_for(outs, detail::kThreads), detail::kThreads, 0, stream>>>(
          red[cur], len, 1, len, detail::kSumChunk, red[cur ^ 1], outs);
      RETURN_IF_ERROR(CUZK_CUDA_LAUNCH_CHECK());
    }
  }
  kernels::combine_windows_kernel<F><<<1, 1, 0, stream>>>(red[cur], 1, parts > 0 ? 1 : 0, 0,
                                                          ec::cuda::dev<C>(d_result));
  return CUZK_CUDA_LAUNCH_CHECK();
}

}  // namespace cuzk::msm::cuda

#define CUZK_MSM_CUDA_INSTANTIATE(C)                                                                                   \
  template size_t cuzk::msm::cuda::msm_workspace_bytes<C>(size_t, const MsmConfig&);                                   \
  template cuzk::Status cuzk::msm::cuda::msm<C>(const ec::Affine<C>*, const ff::Fr*, size_t, ec::Jacobian<C>*, void*,  \
                                                size_t*, cudaStream_t, const MsmConfig&);                              \
  template int cuzk::msm::cuda::choose_affine_rounds<C>(size_t, const MsmConfig&);                                     \
  template size_t cuzk::msm::cuda::msm_buckets_bytes<C>(const MsmConfig&);                                             \
  template size_t cuzk::msm::cuda::msm_accumulate_workspace_bytes<C>(size_t, const MsmConfig&);                        \
  template cuzk::Status cuzk::msm::cuda::msm_accumulate<C>(const ec::Affine<C>*, const ff::Fr*, size_t, void*, void*,  \
                                                           size_t, cudaStream_t, const MsmConfig&);                    \
  template cuzk::Status cuzk::msm::cuda::msm_merge_buckets<C>(void*, const void*, cudaStream_t, const MsmConfig&); \
  template cuzk::Status cuzk::msm::cuda::msm_finish<C>(const void*, ec::Jacobian<C>*, void*, size_t, cudaStream_t,     \
                                                       const MsmConfig&);                                              \
  template size_t cuzk::msm::cuda::batch_add_workspace_bytes<C>(size_t);                                               \
  template cuzk::Status cuzk::msm::cuda::batch_add<C>(const ec::Affine<C>*, const uint64_t*, size_t, ec::Jacobian<C>*, \
                                                      void*, size_t*, cudaStream_t);
