// Device kernels of the MSM and batch addition (msm.h), templated over the
// coordinate field F. Included by exactly one .cu per curve.
#pragma once

#include <cstdint>
#include <type_traits>

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

// With scalar_index, scalar i is scalars[scalar_index[i]].
static __global__ void scalar_to_words_kernel(const DFr* scalars, const uint32_t* scalar_index, size_t n,
                                              uint32_t* words, HWords h) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const DFr k = scalars[scalar_index != nullptr ? size_t(scalar_index[i]) : i].canonical();
  uint32_t r[kScalarWords];
  r[0] = ff::cuda::ptx::add_cc(k.w[0], h.w[0]);
#pragma unroll
  for (int j = 1; j < 8; ++j) r[j] = ff::cuda::ptx::addc_cc(k.w[j], h.w[j]);
  r[8] = ff::cuda::ptx::addc(0, h.w[8]);
#pragma unroll
  for (int j = 0; j < kScalarWords; ++j) words[size_t(j) * n + i] = r[j];
}

// Window w of every scalar: key = |d|−1 (or `sentinel` = 2^(c−1) for d = 0),
// value = point index | sign bit, the point index being i, or point_index[i]
// when given (scalar i then pairs with bases[point_index[i]]).
static __global__ void digits_kernel(const uint32_t* words, const uint32_t* point_index, size_t n, int window, int c,
                                     uint32_t* keys, uint32_t* vals) {
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
  vals[i] = (point_index != nullptr ? point_index[i] : uint32_t(i)) | (d < 0 ? kSignBit : 0);
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
// r; a run with a single task is finished and is added into its bucket,
// otherwise the partial sum goes to partial_out[t] for the next level.
// kInput: (index|sign) values selecting bases, the affine items (`affine`, the
// output of the pair rounds), or XYZZ partials of the previous level.
// At least three blocks per SM: the register cap (168) costs G2 some spills but
// its accumulation still ran 4% faster on an H200 (G1: +0.3%, at the same
// speed with four blocks and 128 registers it was 3% slower); docs/perf.md §4.
enum AccumulateInput : int { kFromRefs = 0, kFromAffine = 1, kFromPartials = 2 };

// The affine items of the pair rounds, stored as two arrays (all x, then all
// y): the forward kernel reads and writes x coordinates only, and a warp's
// 32 adjacent items then cover whole 32-byte sectors, where interleaved
// points would drag in each y's first sector and make every 48-byte x store
// a partial-sector write (G1: docs/perf.md §4).
template <class F>
struct AffineArray {
  F* x;
  F* y;
  __device__ __forceinline__ Affine<F> load(uint32_t i) const { return {x[i], y[i]}; }
  __device__ __forceinline__ void store(uint32_t i, const Affine<F>& a) const {
    x[i] = a.x;
    y[i] = a.y;
  }
};

template <class F, int kInput>
static __global__ void __launch_bounds__(128, 3) accumulate_kernel(
    const Affine<F>* bases, const uint32_t* vals, const Xyzz<F>* partial_in, const uint32_t* cnt,
    const uint32_t* off, const uint32_t* task_off, uint32_t max_runs, uint32_t k, const uint32_t* unique,
    AffineArray<F> affine, Xyzz<F>* buckets, Xyzz<F>* partial_out) {
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= task_off[max_runs]) return;
  const uint32_t r = find_run(task_off, max_runs, t);
  const uint32_t sub = t - task_off[r];
  const uint32_t begin = off[r] + sub * k;
  const uint32_t end = min(begin + k, off[r] + cnt[r]);
  // The task that finishes a bucket starts from the bucket's current value
  // (the identity for one MSM; earlier batches' sums when StreamedMsm runs
  // several batches into one set of buckets).
  Xyzz<F> acc = cnt[r] <= k ? buckets[unique[r]] : Xyzz<F>::identity();
  for (uint32_t i = begin; i < end; ++i) {
    if constexpr (kInput == kFromRefs) {
      const uint32_t v = vals[i];
      ec::cuda::xyzz_add_affine(acc, bases[v & ~kSignBit].neg_if((v & kSignBit) != 0));
    } else if constexpr (kInput == kFromAffine) {
      ec::cuda::xyzz_add_affine(acc, affine.load(i));
    } else {
      acc = ec::cuda::xyzz_add(acc, partial_in[i]);
    }
  }
  if (cnt[r] <= k)
    buckets[unique[r]] = acc;
  else
    partial_out[t] = acc;
}

// ---- Batch-affine pair rounds -------------------------------------------
// Before the XYZZ levels, each bucket's run of points can be halved R times by
// affine additions P + Q = (λ² − x1 − x2, λ(x1 − x3) − y1) with
// λ = (y2 − y1)/(x2 − x1), whose denominators share one inversion per round (Montgomery's trick,
// hierarchical over threads): 6 products per addition instead of the mixed
// XYZZ addition's 10. Round k: pair j of run r adds items 2j and 2j + 1 of the
// run (level-k items) into item j of the run at level k + 1; an odd last item
// is copied (`pair_leftover_kernel`). Level 0 items are the sorted
// (index|sign) values selecting bases; later levels are affine arrays.

constexpr uint32_t kPairsPerThread = 16;  // pairs (and denominators) per thread
constexpr uint32_t kInvChunk = 8;         // elements per thread in the inversion tree
                                          // (a short serial chain per level)

// Which pairs a thread of the pair kernels owns: warp w takes the 32·K pairs
// from w·32·K (K = kPairsPerThread) and its lane l every 32nd of them from
// w·32·K + l, so that a warp's loads and stores of one step touch adjacent
// items (one contiguous run of memory) instead of 32 items K apart.
constexpr uint32_t kPairSpan = 32 * kPairsPerThread;
struct PairLane {
  uint32_t first, end;  // pairs first, first + 32, … below end; none if first >= end
};
__device__ __forceinline__ PairLane pair_lane(uint32_t t, uint32_t total) {
  const uint32_t base = (t / 32) * kPairSpan;
  return PairLane{base + t % 32, min(base + kPairSpan, total)};
}
// Threads that own at least one of `total` pairs: every lane of the full
// spans, and in the last one a lane per pair up to 32. Level 0 of the
// inversion tree has one element per such thread.
__device__ __forceinline__ uint32_t pair_threads(uint32_t total) {
  return (total / kPairSpan) * 32 + min(total % kPairSpan, 32u);
}

// What a pair's sum needs: an affine addition (denominator x2 − x1), a
// doubling (denominator 2y), or no inversion at all (a copy or infinity).
enum PairKind : int { kPairAdd = 0, kPairDouble = 1, kPairTakeP = 2, kPairTakeQ = 3, kPairZero = 4 };

template <class F>
__device__ __forceinline__ int pair_kind(const Affine<F>& p, const Affine<F>& q) {
  if (p.is_infinity()) return kPairTakeQ;
  if (q.is_infinity()) return kPairTakeP;
  if (p.x != q.x) return kPairAdd;
  return p.y == q.y ? kPairDouble : kPairZero;
}

template <class F>
__device__ __forceinline__ F pair_denominator(int kind, const Affine<F>& p, const Affine<F>& q) {
  if (kind == kPairAdd) return q.x - p.x;
  if (kind == kPairDouble) return p.y.dbl();
  return F::one();
}

// The field Montgomery's trick runs in. Over Fp2 (G2) it is Fp: a pair's
// denominator d = d0 + d1·u is inverted through its norm, 1/d = conj(d)/N(d)
// with N(d) = d0² + d1² ∈ Fp (nonzero for d ≠ 0, as −1 is not a square mod p).
// The thread's running products, the tree and the stored prefixes are then Fp
// values, and the backward walk takes 4 Fp products per pair instead of the 6
// of two Fp2 products (the forward walk: 3 either way).
template <class F>
struct InvTrait {
  using T = F;
  __device__ __forceinline__ static T norm(const F& d) { return d; }
  __device__ __forceinline__ static F inverse_from(const F&, const T& norm_inv) { return norm_inv; }
};
template <>
struct InvTrait<ff::cuda::Fp2> {
  using T = ff::cuda::Fp;
  __device__ __forceinline__ static T norm(const ff::cuda::Fp2& d) { return d.norm(); }
  __device__ __forceinline__ static ff::cuda::Fp2 inverse_from(const ff::cuda::Fp2& d, const T& norm_inv) {
    return d.inverse_from_norm(norm_inv);
  }
};
template <class F>
using InvField = typename InvTrait<F>::T;

// Level-k items: kRefs selects (index|sign) values into `bases`.
template <class F, bool kRefs>
struct PairItems {
  const Affine<F>* bases;
  const uint32_t* vals;
  AffineArray<F> points;
  __device__ __forceinline__ Affine<F> load(uint32_t i) const {
    if constexpr (kRefs) {
      const uint32_t v = vals[i];
      return bases[v & ~kSignBit].neg_if((v & kSignBit) != 0);
    } else {
      return points.load(i);
    }
  }
  __device__ __forceinline__ F load_x(uint32_t i) const {
    if constexpr (kRefs)
      return bases[vals[i] & ~kSignBit].x;
    else
      return points.x[i];
  }
};

// pc[r] = pairs of run r at this round, next_cnt[r] = its items at the next level.
static __global__ void pair_counts_kernel(const uint32_t* cnt, uint32_t max_runs, uint32_t* pc, uint32_t* next_cnt) {
  const uint32_t r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r > max_runs) return;
  pc[r] = cnt[r] >> 1;
  next_cnt[r] = (cnt[r] + 1) >> 1;
}

// The forward kernel issues the next pair's loads before this pair's product
// for Fp (G1: 2^27 −3%, the kernel waits on random gathers in round 0); for
// Fp2 the two extra coordinates cost more registers than they save (G2 2^24
// +1.5%).
template <class F>
constexpr bool kPipelinedForward = sizeof(F) == 48;

// Blocks per SM asked of the forward kernel (H200, 2026-11-30): G2 at three
// (168 registers, no spills; 2^24 351.0 → 346.8 ms); G1 left to ptxas (121
// registers, four blocks; five blocks, 96 registers, measured 3% slower, and
// again with the coalesced lanes: 2^27 678 vs 657 ms; six blocks 733).
template <class F>
inline constexpr int kForwardMinBlocks = sizeof(F) == 48 ? 1 : 3;

// Forward half of a round: each thread takes its pairs of the round's pair
// list (pair_lane: up to K of them, 32 apart), stores in each pair's output slot
// the product of the earlier denominators (x coordinate, from the second pair
// on), and the product of all its denominators in prod[t]. Over Fp2 the
// products are of norms (InvTrait), and the slot's x holds the prefix in c0
// and this pair's norm in c1, which the backward walk then reads back.
template <class F, bool kRefs>
static __global__ void __launch_bounds__(128, kForwardMinBlocks<F>)
    pair_forward_kernel(PairItems<F, kRefs> items, const uint32_t* off, const uint32_t* poff, const uint32_t* next_off,
                        uint32_t max_runs, AffineArray<F> out, InvField<F>* prod) {
  using T = InvField<F>;
  constexpr bool kNorm = !std::is_same_v<T, F>;
  const uint32_t total = poff[max_runs];
  const PairLane lane = pair_lane(blockIdx.x * blockDim.x + threadIdx.x, total);
  const uint32_t p0 = lane.first, p1 = lane.end;
  if (p0 >= p1) return;
  uint32_t r = find_run(poff, max_runs, p0);
  uint32_t a = off[r] + 2 * (p0 - poff[r]);  // first item of pair p
  F x1 = items.load_x(a), x2 = items.load_x(a + 1);
  T acc;
  for (uint32_t p = p0; p < p1; p += 32) {
    const uint32_t o = next_off[r] + (p - poff[r]);
    uint32_t rn = r, an = a;
    F nx1, nx2;
    if (p + 32 < p1) {
      while (poff[rn + 1] <= p + 32) ++rn;
      an = off[rn] + 2 * (p + 32 - poff[rn]);
      if constexpr (kPipelinedForward<F>) nx1 = items.load_x(an), nx2 = items.load_x(an + 1);
    }
    F d;
    if (x1 != x2 && !x1.is_zero() && !x2.is_zero()) {
      d = x2 - x1;
    } else {
      const Affine<F> P = items.load(a), Q = items.load(a + 1);
      d = pair_denominator(pair_kind(P, Q), P, Q);
    }
    const T n = InvTrait<F>::norm(d);
    if (p == p0) {
      acc = n;
    } else {
      if constexpr (kNorm)
        out.x[o] = F{acc, n};
      else
        out.x[o] = acc;
      acc = acc * n;
    }
    if (p + 32 < p1) {
      if constexpr (kPipelinedForward<F>)
        x1 = nx1, x2 = nx2;
      else
        x1 = items.load_x(an), x2 = items.load_x(an + 1);
    }
    a = an, r = rn;
  }
  prod[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// Blocks per SM asked of the backward kernel: G1 at four, which ptxas fits in
// 128 registers (130 otherwise) — the G1 MSM at 2^27 went 833 → 801 ms on an
// H200; G2 at three (168 registers with some spilling, 204 uncapped since the
// Fp2 denominators are inverted through their norms): 2^24 284.0 → 272.8 ms.
// docs/perf.md §4.
template <class F>
inline constexpr int kBackwardMinBlocks = sizeof(F) == 48 ? 4 : 3;

// Backward half: with inv[t] = 1/prod[t], walks the thread's pairs from the
// last, recovering each pair's 1/d from the stored prefix, and writes the sums.
template <class F, bool kRefs>
static __global__ void __launch_bounds__(128, kBackwardMinBlocks<F>)
    pair_backward_kernel(PairItems<F, kRefs> items, const uint32_t* off, const uint32_t* poff, const uint32_t* next_off,
                         uint32_t max_runs, const InvField<F>* inv, AffineArray<F> out) {
  using T = InvField<F>;
  constexpr bool kNorm = !std::is_same_v<T, F>;
  const uint32_t total = poff[max_runs];
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const PairLane lane = pair_lane(t, total);
  const uint32_t p0 = lane.first;
  if (p0 >= lane.end) return;
  const uint32_t last = p0 + (lane.end - 1 - p0) / 32 * 32;
  uint32_t r = find_run(poff, max_runs, last);
  T acc = inv[t];
  for (uint32_t p = last + 32; p != p0;) {
    p -= 32;
    while (poff[r] > p) --r;
    const uint32_t j = p - poff[r];
    const uint32_t a = off[r] + 2 * j;
    const uint32_t o = next_off[r] + j;
    const Affine<F> P = items.load(a), Q = items.load(a + 1);
    const int kind = pair_kind(P, Q);
    F dinv;
    if constexpr (kNorm) {
      T ninv = acc;  // 1/N(d)
      if (p != p0) {
        const F slot = out.x[o];  // prefix, N(d)
        ninv = acc * slot.c0;
        acc = acc * slot.c1;
      }
      dinv = InvTrait<F>::inverse_from(pair_denominator(kind, P, Q), ninv);
    } else {
      dinv = acc;
      if (p != p0) {
        dinv = acc * out.x[o];
        acc = acc * pair_denominator(kind, P, Q);
      }
    }
    Affine<F> s;
    if (kind == kPairAdd || kind == kPairDouble) {
      F num;
      if (kind == kPairAdd) {
        num = Q.y - P.y;
      } else {
        const F xx = P.x.sqr();
        num = xx.dbl() + xx;
      }
      const F lambda = num * dinv;
      s.x = lambda.sqr() - P.x - Q.x;
      s.y = lambda * (P.x - s.x) - P.y;
    } else if (kind == kPairTakeP) {
      s = P;
    } else if (kind == kPairTakeQ) {
      s = Q;
    } else {
      s = Affine<F>::identity();
    }
    out.store(o, s);
  }
}

// The odd last item of each run moves to the next level unchanged.
template <class F, bool kRefs>
static __global__ void pair_leftover_kernel(PairItems<F, kRefs> items, const uint32_t* cnt, const uint32_t* off,
                                            const uint32_t* next_off, uint32_t max_runs, AffineArray<F> out) {
  const uint32_t r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= max_runs || (cnt[r] & 1) == 0) return;
  out.store(next_off[r] + (cnt[r] >> 1), items.load(off[r] + cnt[r] - 1));
}

// Elements at level `lv` of the inversion tree over prod[0 .. ceil(total/K)).
__device__ __forceinline__ uint32_t inv_level_count(const uint32_t* total_pairs, int lv) {
  uint32_t c = pair_threads(*total_pairs);
  for (int i = 0; i < lv; ++i) c = (c + kInvChunk - 1) / kInvChunk;
  return c;
}

// The elements [b, e) of level lv that thread u of a tree kernel owns:
// [u·C, u·C + C) (C = kInvChunk) clipped to the level; empty when b ≥ e.
struct InvChunk {
  uint32_t u, b, e;
};
__device__ __forceinline__ InvChunk inv_chunk(const uint32_t* total_pairs, int lv) {
  const uint32_t u = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t count = inv_level_count(total_pairs, lv);
  const uint32_t b = min(u * kInvChunk, count);
  return InvChunk{u, b, min(b + kInvChunk, count)};
}

// Up-sweep of the inversion tree: thread u multiplies elements
// [u·C, u·C + C) of level lv (C = kInvChunk), keeping prefix products in pre.
template <class F>
static __global__ void __launch_bounds__(128)
    inv_up_kernel(const F* vals, const uint32_t* total_pairs, int lv, F* pre, F* up) {
  const auto [u, b, e] = inv_chunk(total_pairs, lv);
  if (b >= e) return;
  F acc = vals[b];
  for (uint32_t i = b + 1; i < e; ++i) {
    pre[i] = acc;
    acc = acc * vals[i];
  }
  up[u] = acc;
}

// The root: one inversion.
template <class F>
static __global__ void inv_root_kernel(F* root, const uint32_t* total_pairs, int lv) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  if (inv_level_count(total_pairs, lv) == 0) return;
  *root = root->inverse();
}

// Down-sweep: with up[u] now inverted, replaces each element of level lv by its
// inverse.
template <class F>
static __global__ void __launch_bounds__(128)
    inv_down_kernel(F* vals, const uint32_t* total_pairs, int lv, const F* pre, const F* up) {
  const auto [u, b, e] = inv_chunk(total_pairs, lv);
  if (b >= e) return;
  F acc = up[u];
  for (uint32_t i = e - 1; i > b; --i) {
    const F v = vals[i];
    vals[i] = acc * pre[i];
    acc = acc * v;
  }
  vals[b] = acc;
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

// out[s·out_stride + t] = Σ in[s·in_stride + t·chunk .. s·in_stride + min(len, (t+1)·chunk))
// for t < ceil(len/chunk): segment s holds len points from in[s·in_stride].
template <class F>
static __global__ void __launch_bounds__(128) sum_segments_kernel(const Xyzz<F>* in, size_t in_stride, uint32_t segments,
                                                                  uint32_t len, uint32_t chunk, Xyzz<F>* out,
                                                                  size_t out_stride) {
  const uint32_t m = (len + chunk - 1) / chunk;
  const uint32_t id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= segments * m) return;
  const uint32_t s = id / m, t = id % m;
  const uint32_t begin = t * chunk, end = min(len, begin + chunk);
  Xyzz<F> acc = Xyzz<F>::identity();
  for (uint32_t i = begin; i < end; ++i) acc = ec::cuda::xyzz_add(acc, in[size_t(s) * in_stride + i]);
  out[size_t(s) * out_stride + t] = acc;
}

// into[i] += from[i] (two sets of bucket sums).
template <class F>
static __global__ void __launch_bounds__(128) merge_buckets_kernel(Xyzz<F>* into, const Xyzz<F>* from, size_t count) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count) return;
  into[i] = ec::cuda::xyzz_add(into[i], from[i]);
}

// Horner over the window sums (window w's at window_sums[w·stride]):
// Σ_w 2^(c·w)·W_w, in Jacobian coordinates, whose doubling (2M + 5S) is
// cheaper than the XYZZ one (6M + 3S); one thread runs the c·(windows − 1)
// doublings in series.
template <class F>
static __global__ void combine_windows_kernel(const Xyzz<F>* window_sums, size_t stride, int windows, int c,
                                              ec::cuda::Jacobian<F>* out) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  ec::cuda::Jacobian<F> r = ec::cuda::Jacobian<F>::identity();
  for (int w = windows - 1; w >= 0; --w) {
    if (w != windows - 1)
      for (int i = 0; i < c; ++i) r = ec::cuda::jacobian_dbl(r);
    r = ec::cuda::jacobian_add(r, ec::cuda::xyzz_to_jacobian(window_sums[size_t(w) * stride]));
  }
  *out = r;
}

// The batch addition of the ones. A warp takes kBitmapGroups groups of 32
// bitmap words (2048 positions each) and hands the set bits of a group out
// in order, one to a lane, so that every lane adds a point at (nearly) every
// step: walking positions instead, a lane idles on each clear bit while the
// warp's other lanes add (at half density the warp ran at half its rate:
// docs/perf.md §5). Lane t's sum goes to partial[t].
constexpr uint32_t kBitmapGroups = 4;
constexpr uint32_t kBitmapWarpWords = 32 * kBitmapGroups;

// Position of the r-th (from 0) set bit of x; x has more than r set bits.
__device__ __forceinline__ uint32_t select_bit(uint32_t x, uint32_t r) {
  uint32_t pos = 0;
#pragma unroll
  for (uint32_t b = 16; b >= 1; b >>= 1) {
    const uint32_t c = __popc(x & ((1u << b) - 1));
    if (r >= c) r -= c, x >>= b, pos += b;
  }
  return pos;
}

template <class F>
static __global__ void __launch_bounds__(128) bitmap_sum_kernel(const Affine<F>* bases, const uint64_t* bitmap,
                                                                size_t n, Xyzz<F>* partial) {
  constexpr unsigned kAll = 0xffffffffu;
  const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const uint32_t lane = threadIdx.x & 31;
  const size_t words = (n + 63) / 64;
  const size_t first = (t / 32) * kBitmapWarpWords;
  if (first >= words) return;  // the whole warp
  Xyzz<F> acc = Xyzz<F>::identity();
  for (uint32_t g = 0; g < kBitmapGroups; ++g) {
    const size_t w0 = first + size_t(g) * 32;
    if (w0 >= words) break;  // the whole warp
    const size_t wi = w0 + lane;
    uint64_t bits = 0;
    if (wi < words) {
      bits = bitmap[wi];
      if (wi == words - 1 && (n & 63) != 0) bits &= (uint64_t(1) << (n & 63)) - 1;
    }
    const uint32_t lo = uint32_t(bits), hi = uint32_t(bits >> 32);
    const uint32_t c = __popc(lo) + __popc(hi);
    uint32_t incl = c;  // set bits in the words of lanes 0 .. lane
#pragma unroll
    for (uint32_t d = 1; d < 32; d <<= 1) {
      const uint32_t v = __shfl_up_sync(kAll, incl, d);
      if (lane >= d) incl += v;
    }
    const uint32_t excl = incl - c;
    const uint32_t total = __shfl_sync(kAll, incl, 31);
    for (uint32_t j0 = 0; j0 < total; j0 += 32) {
      const uint32_t j = j0 + lane;  // this lane's set bit, counted over the group
      uint32_t q = 0;                // the word holding it: lanes with incl <= j
#pragma unroll
      for (uint32_t b = 16; b >= 1; b >>= 1)
        if (__shfl_sync(kAll, incl, q + b - 1) <= j) q += b;
      const uint32_t qlo = __shfl_sync(kAll, lo, q), qhi = __shfl_sync(kAll, hi, q);
      const uint32_t qex = __shfl_sync(kAll, excl, q);
      if (j < total) {
        const uint32_t r = j - qex, below = __popc(qlo);
        const uint32_t bit = r < below ? select_bit(qlo, r) : 32 + select_bit(qhi, r - below);
        ec::cuda::xyzz_add_affine(acc, bases[(w0 + q) * 64 + bit]);
      }
    }
  }
  partial[t] = acc;
}

}  // namespace cuzk::msm::cuda::kernels
