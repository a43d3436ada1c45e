// Device kernels of the MSM and batch addition (msm.h), templated over the
// coordinate field F. Included by exactly one .cu per curve.
#pragma once

#include <cstdint>

#include "cuzk/ec/cuda/point.cuh"
#include "cuzk/ff/cuda/fields.cuh"

namespace cuzk::msm::cuda::kernels {

using ec::cuda::Affine;
using ec::cuda::Xyzz;
using DFr = ff::cuda::Fr;

constexpr int kScalarWords = 9;  // canonical scalar + H, 288 bits
constexpr uint32_t kSignBit = 0x80000000u;

// words[j·n + i] = word j of canonical(scalars[i]) + H (288-bit sum).
struct HWords {
  uint32_t w[kScalarWords];
};

static __global__ void scalar_to_words_kernel(const DFr* scalars, size_t n, uint32_t* words, HWords h) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const DFr k = scalars[i].canonical();
  uint32_t r[kScalarWords];
  r[0] = ff::cuda::ptx::add_cc(k.w[0], h.w[0]);
#pragma unroll
  for (int j = 1; j < 8; ++j) r[j] = ff::cuda::ptx::addc_cc(k.w[j], h.w[j]);
  r[8] = ff::cuda::ptx::addc(0, h.w[8]);
#pragma unroll
  for (int j = 0; j < kScalarWords; ++j) words[size_t(j) * n + i] = r[j];
}

// Window w of every scalar: key = |d|−1 (or `sentinel` = 2^(c−1) for d = 0),
// value = index | sign bit.
static __global__ void digits_kernel(const uint32_t* words, size_t n, int window, int c, uint32_t* keys,
                                     uint32_t* vals) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int bit = window * c;
  const int word = bit >> 5, sh = bit & 31;
  const uint64_t lo = words[size_t(word) * n + i];
  const uint64_t hi = word + 1 < kScalarWords ? words[size_t(word + 1) * n + i] : 0;
  const uint32_t v = uint32_t(((hi << 32) | lo) >> sh) & ((1u << c) - 1);
  const int32_t d = int32_t(v) - int32_t(1u << (c - 1));
  const uint32_t half = 1u << (c - 1);
  keys[i] = d == 0 ? half : uint32_t(d < 0 ? -d : d) - 1;
  vals[i] = uint32_t(i) | (d < 0 ? kSignBit : 0);
}

// cnt[r] = counts[r] for real runs that are not the zero-digit sentinel, else 0.
static __global__ void mask_counts_kernel(const uint32_t* counts, const uint32_t* unique, const uint32_t* num_runs,
                                          uint32_t sentinel, uint32_t max_runs, uint32_t* cnt) {
  const uint32_t r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r > max_runs) return;
  cnt[r] = (r < *num_runs && unique[r] != sentinel) ? counts[r] : 0;
}

// tasks[r] = ceil(cnt[r] / k); cnt_next[r] = tasks[r] when the run needs a
// further level (more than one task), else 0.
static __global__ void tasks_kernel(const uint32_t* cnt, uint32_t max_runs, uint32_t k, uint32_t* tasks,
                                    uint32_t* cnt_next) {
  const uint32_t r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r > max_runs) return;
  const uint32_t t = (cnt[r] + k - 1) / k;
  tasks[r] = t;
  cnt_next[r] = t > 1 ? t : 0;
}

// Largest r with off[r] <= t (off non-decreasing, off[0] = 0).
__device__ __forceinline__ uint32_t find_run(const uint32_t* off, uint32_t runs, uint32_t t) {
  uint32_t lo = 0, hi = runs;  // invariant: off[lo] <= t < off[hi] (off[runs] = total > t)
  while (hi - lo > 1) {
    const uint32_t mid = (lo + hi) >> 1;
    if (off[mid] <= t) lo = mid; else hi = mid;
  }
  return lo;
}

// One level of bucket accumulation. Task t sums items [start, end) of its run
// r; a run with a single task is finished and lands in its bucket, otherwise
// the partial sum goes to partial_out[t] for the next level.
// kFirst: items are (index|sign) values selecting bases; else XYZZ partials.
// At least three blocks per SM: the register cap (168) costs G2 some spills but
// its accumulation still ran 4% faster on an H200 (G1: +0.3%, at the same
// speed with four blocks and 128 registers it was 3% slower); docs/perf.md §4.
template <class F, bool kFirst>
static __global__ void __launch_bounds__(128, 3) accumulate_kernel(
    const Affine<F>* bases, const uint32_t* vals, const Xyzz<F>* partial_in, const uint32_t* cnt,
    const uint32_t* off, const uint32_t* task_off, uint32_t max_runs, uint32_t k, const uint32_t* unique,
    Xyzz<F>* buckets, Xyzz<F>* partial_out) {
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= task_off[max_runs]) return;
  const uint32_t r = find_run(task_off, max_runs, t);
  const uint32_t sub = t - task_off[r];
  const uint32_t begin = off[r] + sub * k;
  const uint32_t end = min(begin + k, off[r] + cnt[r]);
  Xyzz<F> acc = Xyzz<F>::identity();
  for (uint32_t i = begin; i < end; ++i) {
    if constexpr (kFirst) {
      const uint32_t v = vals[i];
      ec::cuda::xyzz_add_affine(acc, bases[v & ~kSignBit].neg_if((v & kSignBit) != 0));
    } else {
      acc = ec::cuda::xyzz_add(acc, partial_in[i]);
    }
  }
  if (cnt[r] <= k)
    buckets[unique[r]] = acc;
  else
    partial_out[t] = acc;
}

// Group g of window w covers buckets [g·L, (g+1)·L) of that window:
// out = Σ_{k in group} (k+1)·S_k = Σ_local (k − gL + 1)·S_k + gL·Σ S_k.
template <class F>
static __global__ void __launch_bounds__(128) bucket_groups_kernel(const Xyzz<F>* buckets, uint32_t buckets_per_window,
                                                                   uint32_t group_len, uint32_t groups_per_window,
                                                                   uint32_t windows, Xyzz<F>* out) {
  const uint32_t id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= groups_per_window * windows) return;
  const uint32_t w = id / groups_per_window, g = id % groups_per_window;
  const Xyzz<F>* s = buckets + size_t(w) * buckets_per_window + size_t(g) * group_len;
  Xyzz<F> run = Xyzz<F>::identity(), acc = Xyzz<F>::identity();
  for (int k = int(group_len) - 1; k >= 0; --k) {
    run = ec::cuda::xyzz_add(run, s[k]);
    acc = ec::cuda::xyzz_add(acc, run);
  }
  out[id] = ec::cuda::xyzz_add(acc, ec::cuda::xyzz_mul_small(run, uint64_t(g) * group_len));
}

// out[s·m + t] = Σ in[s·len + t·chunk .. min(len, (t+1)·chunk)), m = ceil(len/chunk).
template <class F>
static __global__ void __launch_bounds__(128) sum_segments_kernel(const Xyzz<F>* in, uint32_t segments, uint32_t len,
                                                                  uint32_t chunk, Xyzz<F>* out) {
  const uint32_t m = (len + chunk - 1) / chunk;
  const uint32_t id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= segments * m) return;
  const uint32_t s = id / m, t = id % m;
  const uint32_t begin = t * chunk, end = min(len, begin + chunk);
  Xyzz<F> acc = Xyzz<F>::identity();
  for (uint32_t i = begin; i < end; ++i) acc = ec::cuda::xyzz_add(acc, in[size_t(s) * len + i]);
  out[id] = acc;
}

// Horner over the window sums: Σ_w 2^(c·w)·W_w, as a Jacobian point.
template <class F>
static __global__ void combine_windows_kernel(const Xyzz<F>* window_sums, int windows, int c,
                                              ec::cuda::Jacobian<F>* out) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  Xyzz<F> r = Xyzz<F>::identity();
  for (int w = windows - 1; w >= 0; --w) {
    if (w != windows - 1)
      for (int i = 0; i < c; ++i) r = ec::cuda::xyzz_dbl(r);
    r = ec::cuda::xyzz_add(r, window_sums[w]);
  }
  *out = ec::cuda::xyzz_to_jacobian(r);
}

// partial[t] = Σ bases[i] over i in [t·chunk, (t+1)·chunk) with bit i set.
template <class F>
static __global__ void __launch_bounds__(128) bitmap_sum_kernel(const Affine<F>* bases, const uint64_t* bitmap,
                                                                size_t n, uint32_t chunk, Xyzz<F>* partial) {
  const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const size_t begin = t * chunk;
  if (begin >= n) return;
  const size_t end = min(n, begin + chunk);
  Xyzz<F> acc = Xyzz<F>::identity();
  for (size_t i = begin; i < end; ++i)
    if ((bitmap[i >> 6] >> (i & 63)) & 1) ec::cuda::xyzz_add_affine(acc, bases[i]);
  partial[t] = acc;
}

}  // namespace cuzk::msm::cuda::kernels
