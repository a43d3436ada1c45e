// Host orchestration of the device MSM and batch addition (msm.h), templated
// over the curve. Included by exactly one .cu per curve (msm_g1.cu, msm_g2.cu).
#pragma once

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <deque>
#include <string>
#include <vector>

#include "cuzk/ec/cuda/curve_traits.cuh"
#include "cuzk/gpu/check.h"
#include "cuzk/gpu/nvtx.h"
#include "cuzk/msm/cuda/msm.h"
#include "msm_kernels.cuh"
#include "msm_plan.h"

namespace cuzk::msm::cuda {
namespace detail {

constexpr uint32_t kSumChunk = 32;         // points per thread in tree reductions
constexpr uint32_t kBitmapChunk = 64;      // bases per thread in batch_add
constexpr unsigned kThreads = 128;

inline unsigned grid_for(size_t n, unsigned threads) { return unsigned((n + threads - 1) / threads); }
inline size_t align_up(size_t x) { return (x + 255) & ~size_t(255); }

// Byte offsets of the workspace parts.
struct Layout {
  size_t words, keys_in, vals_in, keys_out, vals_out, unique, counts, num_runs;
  size_t cnt[2], off[2], tasks, cub, partial[2], buckets, red[2], total;
  size_t cub_bytes;
};

template <class C>
Status make_layout(const Plan& p, Layout* l);

}  // namespace detail

namespace detail {

template <class C>
Status cub_temp_bytes(const Plan& p, size_t* bytes) {
  size_t sort = 0, rle = 0, scan = 0;
  const size_t n = std::max<size_t>(p.n, 1);
  RETURN_IF_ERROR(CUZK_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
      nullptr, sort, (const uint32_t*)nullptr, (uint32_t*)nullptr, (const uint32_t*)nullptr, (uint32_t*)nullptr,
      n, 0, p.c)));
  RETURN_IF_ERROR(CUZK_CUDA_CHECK(cub::DeviceRunLengthEncode::Encode(
      nullptr, rle, (const uint32_t*)nullptr, (uint32_t*)nullptr, (uint32_t*)nullptr, (uint32_t*)nullptr, n)));
  RETURN_IF_ERROR(CUZK_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scan, (const uint32_t*)nullptr,
                                                                (uint32_t*)nullptr, p.max_runs + 1)));
  *bytes = std::max({sort, rle, scan, size_t(1)});
  return ok_status();
}

template <class C>
Status make_layout(const Plan& p, Layout* l) {
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
  l->cub = take(l->cub_bytes);
  const size_t partials = p.levels.size() > 1 ? p.levels[0].tasks_bound : 0;
  for (int i = 0; i < 2; ++i) l->partial[i] = take(partials * sizeof(X));
  l->buckets = take(size_t(p.windows) * p.buckets * sizeof(X));
  l->red[0] = take(size_t(p.windows) * p.groups * sizeof(X));
  l->red[1] = take(size_t(p.windows) * ((p.groups + kSumChunk - 1) / kSumChunk) * sizeof(X));
  l->total = at;
  return ok_status();
}

template <class T>
T* at(void* ws, size_t offset) {
  return reinterpret_cast<T*>(static_cast<uint8_t*>(ws) + offset);
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
    r.window_bits = p.c, r.windows = p.windows, r.levels = int(p.levels.size());
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

// Sorts window w's digits by bucket and accumulates its buckets.
template <class C>
Status run_window(const Plan& p, const Layout& l, void* ws, const ec::cuda::DAffine<C>* bases, int w,
                  cudaStream_t stream, gpu::Event* mid) {
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
  kernels::digits_kernel<<<grid_for(p.n, 256), 256, 0, stream>>>(at<uint32_t>(ws, l.words), p.n, w, p.c, keys_in,
                                                                  vals_in);
  RETURN_IF_ERROR(CUZK_CUDA_LAUNCH_CHECK());
  RETURN_IF_ERROR(CUZK_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(cub_tmp, cub_bytes, keys_in, keys_out, vals_in,
                                                                  vals_out, p.n, 0, p.c, stream)));
  cub_bytes = l.cub_bytes;
  RETURN_IF_ERROR(CUZK_CUDA_CHECK(cub::DeviceRunLengthEncode::Encode(
      cub_tmp, cub_bytes, keys_out, unique, at<uint32_t>(ws, l.counts), num_runs, p.n, stream)));
  uint32_t* cnt[2] = {at<uint32_t>(ws, l.cnt[0]), at<uint32_t>(ws, l.cnt[1])};
  uint32_t* off[2] = {at<uint32_t>(ws, l.off[0]), at<uint32_t>(ws, l.off[1])};
  X* partial[2] = {at<X>(ws, l.partial[0]), at<X>(ws, l.partial[1])};
  uint32_t* tasks = at<uint32_t>(ws, l.tasks);
  kernels::mask_counts_kernel<<<grid_for(runs + 1, 256), 256, 0, stream>>>(at<uint32_t>(ws, l.counts), unique,
                                                                          num_runs, p.buckets, runs, cnt[0]);
  RETURN_IF_ERROR(CUZK_CUDA_LAUNCH_CHECK());
  cub_bytes = l.cub_bytes;
  RETURN_IF_ERROR(CUZK_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(cub_tmp, cub_bytes, cnt[0], off[0], runs + 1, stream)));
  if (mid != nullptr) RETURN_IF_ERROR(mid->record(stream));
  X* buckets = at<X>(ws, l.buckets) + size_t(w) * p.buckets;
  for (size_t lv = 0; lv < p.levels.size(); ++lv) {
    const int cur = int(lv & 1), nxt = cur ^ 1;
    const Level& level = p.levels[lv];
    kernels::tasks_kernel<<<grid_for(runs + 1, 256), 256, 0, stream>>>(cnt[cur], runs, level.k, tasks, cnt[nxt]);
    RETURN_IF_ERROR(CUZK_CUDA_LAUNCH_CHECK());
    cub_bytes = l.cub_bytes;
    RETURN_IF_ERROR(
        CUZK_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(cub_tmp, cub_bytes, tasks, off[nxt], runs + 1, stream)));
    const unsigned grid = grid_for(level.tasks_bound, kThreads);
    if (lv == 0)
      kernels::accumulate_kernel<F, true><<<grid, kThreads, 0, stream>>>(
          bases, vals_out, nullptr, cnt[cur], off[cur], off[nxt], runs, level.k, unique, buckets, partial[0]);
    else
      kernels::accumulate_kernel<F, false><<<grid, kThreads, 0, stream>>>(
          nullptr, nullptr, partial[cur ^ 1], cnt[cur], off[cur], off[nxt], runs, level.k, unique, buckets,
          partial[cur]);
    RETURN_IF_ERROR(CUZK_CUDA_LAUNCH_CHECK());
  }
  return ok_status();
}

// Reduces every window's buckets and combines the windows into *d_result.
template <class C>
Status reduce_windows(const Plan& p, const Layout& l, void* ws, ec::cuda::DJacobian<C>* d_result,
                      cudaStream_t stream) {
  using F = typename ec::cuda::DeviceCurve<C>::F;
  using X = ec::cuda::Xyzz<F>;
  X* red[2] = {at<X>(ws, l.red[0]), at<X>(ws, l.red[1])};
  int cur = 0;
  uint32_t len = 1;
  if (p.windows > 0) {
    const size_t groups = size_t(p.groups) * p.windows;
    kernels::bucket_groups_kernel<F><<<grid_for(groups, kThreads), kThreads, 0, stream>>>(
        at<X>(ws, l.buckets), p.buckets, p.group_len, p.groups, uint32_t(p.windows), red[0]);
    RETURN_IF_ERROR(CUZK_CUDA_LAUNCH_CHECK());
    for (len = p.groups; len > 1; len = (len + kSumChunk - 1) / kSumChunk, cur ^= 1) {
      const size_t outs = size_t(p.windows) * ((len + kSumChunk - 1) / kSumChunk);
      kernels::sum_segments_kernel<F><<<grid_for(outs, kThreads), kThreads, 0, stream>>>(
          red[cur], uint32_t(p.windows), len, kSumChunk, red[cur ^ 1]);
      RETURN_IF_ERROR(CUZK_CUDA_LAUNCH_CHECK());
    }
  }
  kernels::combine_windows_kernel<F><<<1, 1, 0, stream>>>(red[cur], p.windows, p.c, d_result);
  return CUZK_CUDA_LAUNCH_CHECK();
}

}  // namespace detail

template <class C>
size_t msm_workspace_bytes(size_t n, const MsmConfig& config) {
  detail::Plan p;
  detail::Layout l{};
  if (!detail::make_plan(n, config, &p).ok() || !detail::make_layout<C>(p, &l).ok()) return 0;
  return l.total;
}

template <class C>
Status msm(const ec::Affine<C>* d_bases, const ff::Fr* d_scalars, size_t n, ec::Jacobian<C>* d_result,
           void* d_workspace, size_t* workspace_bytes, cudaStream_t stream, const MsmConfig& config) {
  CUZK_NVTX_RANGE("msm.cuda");
  detail::Plan p;
  RETURN_IF_ERROR(detail::make_plan(n, config, &p));
  detail::Layout l{};
  RETURN_IF_ERROR(detail::make_layout<C>(p, &l));
  if (d_workspace == nullptr) {
    if (workspace_bytes == nullptr) return invalid_argument("msm: null workspace and null workspace_bytes");
    *workspace_bytes = l.total;
    return ok_status();
  }
  if (workspace_bytes != nullptr && *workspace_bytes < l.total)
    return invalid_argument("msm: workspace of " + std::to_string(*workspace_bytes) + " bytes, need " +
                            std::to_string(l.total));
  auto* result = ec::cuda::dev<C>(d_result);
  if (n == 0) return detail::reduce_windows<C>(p, l, d_workspace, result, stream);
  using X = ec::cuda::DXyzz<C>;
  detail::Profiler prof(config.profile);
  RETURN_IF_ERROR(prof.mark(stream));
  RETURN_IF_ERROR(CUZK_CUDA_CHECK(
      cudaMemsetAsync(detail::at<X>(d_workspace, l.buckets), 0, size_t(p.windows) * p.buckets * sizeof(X), stream)));
  kernels::scalar_to_words_kernel<<<detail::grid_for(n, 256), 256, 0, stream>>>(
      reinterpret_cast<const ff::cuda::Fr*>(d_scalars), n, detail::at<uint32_t>(d_workspace, l.words),
      detail::offset_words(p.c, p.windows));
  RETURN_IF_ERROR(CUZK_CUDA_LAUNCH_CHECK());
  RETURN_IF_ERROR(prof.mark(stream));
  for (int w = 0; w < p.windows; ++w) {
    RETURN_IF_ERROR(detail::run_window<C>(p, l, d_workspace, ec::cuda::dev<C>(d_bases), w, stream, prof.next()));
    RETURN_IF_ERROR(prof.mark(stream));
  }
  RETURN_IF_ERROR(detail::reduce_windows<C>(p, l, d_workspace, result, stream));
  RETURN_IF_ERROR(prof.mark(stream));
  return prof.finish(p);
}

template <class C>
size_t batch_add_workspace_bytes(size_t n) {
  const size_t parts = (n + detail::kBitmapChunk - 1) / detail::kBitmapChunk;
  return 2 * detail::align_up(std::max<size_t>(parts, 1) * sizeof(ec::cuda::DXyzz<C>));
}

template <class C>
Status batch_add(const ec::Affine<C>* d_bases, const uint64_t* d_bitmap, size_t n, ec::Jacobian<C>* d_result,
                 void* d_workspace, size_t* workspace_bytes, cudaStream_t stream) {
  using F = typename ec::cuda::DeviceCurve<C>::F;
  using X = ec::cuda::Xyzz<F>;
  const size_t need = batch_add_workspace_bytes<C>(n);
  if (d_workspace == nullptr) {
    if (workspace_bytes == nullptr) return invalid_argument("batch_add: null workspace and null workspace_bytes");
    *workspace_bytes = need;
    return ok_status();
  }
  if (workspace_bytes != nullptr && *workspace_bytes < need) return invalid_argument("batch_add: workspace too small");
  const size_t parts = (n + detail::kBitmapChunk - 1) / detail::kBitmapChunk;
  X* red[2] = {static_cast<X*>(d_workspace), detail::at<X>(d_workspace, need / 2)};
  int cur = 0;
  if (parts > 0) {
    kernels::bitmap_sum_kernel<F><<<detail::grid_for(parts, detail::kThreads), detail::kThreads, 0, stream>>>(
        ec::cuda::dev<C>(d_bases), d_bitmap, n, detail::kBitmapChunk, red[0]);
    RETURN_IF_ERROR(CUZK_CUDA_LAUNCH_CHECK());
    for (uint32_t len = uint32_t(parts); len > 1; len = (len + detail::kSumChunk - 1) / detail::kSumChunk, cur ^= 1) {
      const size_t outs = (len + detail::kSumChunk - 1) / detail::kSumChunk;
      kernels::sum_segments_kernel<F><<<detail::grid_for(outs, detail::kThreads), detail::kThreads, 0, stream>>>(
          red[cur], 1, len, detail::kSumChunk, red[cur ^ 1]);
      RETURN_IF_ERROR(CUZK_CUDA_LAUNCH_CHECK());
    }
  }
  kernels::combine_windows_kernel<F><<<1, 1, 0, stream>>>(red[cur], parts > 0 ? 1 : 0, 0,
                                                          ec::cuda::dev<C>(d_result));
  return CUZK_CUDA_LAUNCH_CHECK();
}

}  // namespace cuzk::msm::cuda

#define CUZK_MSM_CUDA_INSTANTIATE(C)                                                                               \
  template size_t cuzk::msm::cuda::msm_workspace_bytes<C>(size_t, const MsmConfig&);                              \
  template cuzk::Status cuzk::msm::cuda::msm<C>(const ec::Affine<C>*, const ff::Fr*, size_t, ec::Jacobian<C>*,     \
                                                void*, size_t*, cudaStream_t, const MsmConfig&);                  \
  template size_t cuzk::msm::cuda::batch_add_workspace_bytes<C>(size_t);                                          \
  template cuzk::Status cuzk::msm::cuda::batch_add<C>(const ec::Affine<C>*, const uint64_t*, size_t,             \
                                                      ec::Jacobian<C>*, void*, size_t*, cudaStream_t);
