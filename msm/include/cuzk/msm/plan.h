// Pippenger planning: window size, signed-digit rule and the work split.
//
// A scalar k < 2^255 (canonical limbs, limb 0 least significant) is cut into
// num_windows windows of c bits, k = Σ_w d_w · 2^(w·c), with balanced digits
//
//   d_w = raw_w + b(w·c − 1) − 2^c · b(w·c + c − 1)
//
// where raw_w = ⌊k / 2^(w·c)⌋ mod 2^c and b(i) is bit i of k (b(−1) = 0).
// The sum telescopes to k as long as bit num_windows·c − 1 of k is zero,
// which num_windows = ⌈256 / c⌉ guarantees for k < 2^255 (⌈(bits + 1) / c⌉
// for k < 2^bits: msm() plans for its longest scalar). Each digit depends
// only on c + 1 bits of k (no carry chain), so any window of any scalar can be
// recoded independently — on the CPU per window task, on the GPU per thread.
// |d_w| ≤ 2^(c−1): window w needs 2^(c−1) buckets, bucket |d| − 1, and the
// point is added negated when d < 0.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "cuzk/ff/bigint.h"

namespace cuzk::msm {

// Scalars must be below 2^kScalarBits (every canonical Fr is).
inline constexpr int kScalarBits = 255;
inline constexpr int kMaxWindowBits = 20;

// ⌈(bits + 1) / c⌉ windows of c bits: enough that bit num_windows·c − 1 of a
// scalar below 2^bits is zero (256 / c for any canonical Fr).
// REQUIRES: 1 <= c <= kMaxWindowBits, 0 <= bits <= kScalarBits.
constexpr int num_windows_for(int c, int bits = kScalarBits) { return (bits + 1 + c - 1) / c; }

// Bits [pos, pos + len) of k, zero above bit 255. REQUIRES: 0 <= pos, 1 <= len <= 32.
constexpr uint64_t scalar_bits(const ff::Limbs<4>& k, int pos, int len) {
  const int q = pos / 64, sh = pos % 64;
  if (q >= 4) return 0;
  uint64_t v = k[size_t(q)] >> sh;
  if (sh + len > 64 && q + 1 < 4) v |= k[size_t(q) + 1] << (64 - sh);
  return v & ((uint64_t(1) << len) - 1);
}

// The balanced digit d_w of k for window w of c bits (rule above).
// Result in [−2^(c−1), 2^(c−1)].
constexpr int32_t signed_digit(const ff::Limbs<4>& k, int window, int c) {
  const int lo = window * c;
  // c + 1 bits starting one below the window: the carry bit, then raw.
  const uint64_t v = lo == 0 ? scalar_bits(k, 0, c) << 1 : scalar_bits(k, lo - 1, c + 1);
  const int32_t raw = int32_t(v >> 1);
  int32_t d = raw + int32_t(v & 1);
  if (raw >> (c - 1)) d -= int32_t(1) << c;
  return d;
}

// How one MSM of n points is run.
struct MsmPlan {
  size_t n = 0;
  int window_bits = 1;     // c
  int num_windows = 256;   // ⌈(scalar bits + 1) / c⌉
  size_t num_buckets = 1;  // 2^(c−1) per window
  // Each window is split into this many point ranges; every (window, range)
  // pair is one task with its own buckets, run on the thread pool.
  size_t point_ranges = 1;
  // Points sorted into buckets at a time inside a task (bounds the scratch
  // memory: about 170 bytes per point for G1, 320 for G2).
  size_t chunk_points = 0;
  unsigned threads = 1;  // pool workers the plan was made for (1 = run inline)

  size_t num_tasks() const { return size_t(num_windows) * point_ranges; }
  // e.g. "n=65536 c=13 windows=20 buckets=4096 ranges=1 chunk=65536 threads=2"
  std::string to_string() const;
};

// The window size minimising the modelled cost
//   ⌈(bits + 1)/c⌉ · (n · kAddCost + 2^(c−1) · kReduceCost)
// (bucket additions in batch-affine form versus the running-sum reduction)
// for scalars below 2^bits.
int default_window_bits(size_t n, int bits = kScalarBits);

// The bit length of the largest scalar (0 when all are zero).
int max_scalar_bits(std::span<const ff::Limbs<4>> scalars);

// The plan for n points on a pool of `threads` workers, with scalars below
// 2^scalar_bits (fewer windows for short scalars). window_bits = 0 picks
// default_window_bits(n, scalar_bits); otherwise REQUIRES 1 <= window_bits
// <= kMaxWindowBits. REQUIRES: 0 <= scalar_bits <= kScalarBits.
MsmPlan make_plan(size_t n, unsigned threads, int window_bits = 0, int scalar_bits = kScalarBits);

}  // namespace cuzk::msm
