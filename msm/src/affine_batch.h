// Batch-affine point addition: many independent sums out = a + b computed in
// affine coordinates with one field inversion shared by the whole batch.
//
// For a + b with a ≠ ±b: λ = (y_b − y_a)/(x_b − x_a), x = λ² − x_a − x_b,
// y = λ(x_a − x) − y_a: 2M + 1S per pair, plus 3M per pair for the shared
// inversion (prefix products, then one inverse unwound backwards) and 1I per
// batch. a = b uses the tangent (λ = 3x²/2y), a = −b gives infinity, and an
// infinite operand makes the sum a copy of the other one.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "cuzk/ec/point.h"
#include "field_ops.h"

namespace cuzk::msm::detail {

inline constexpr uint32_t kNegA = 1;  // use −a instead of a
inline constexpr uint32_t kNegB = 2;  // use −b instead of b

// One pending sum. out may equal a or b (each pair reads its operands before
// writing); distinct pairs must not write what another pair of the same
// batch reads.
template <class C>
struct PairRef {
  const ec::Affine<C>* a;
  const ec::Affine<C>* b;
  ec::Affine<C>* out;
  uint32_t neg;  // kNegA | kNegB
};

enum class PairKind : uint8_t { kAdd, kDouble, kCopyA, kCopyB, kInfinity };

template <class C>
inline ec::Affine<C> load_point(const ec::Affine<C>* p, bool neg) {
  ec::Affine<C> q = *p;
  if (neg) q.y = -q.y;  // −0 = 0 keeps infinity as (0, 0)
  return q;
}

template <class C>
inline PairKind classify_pair(const ec::Affine<C>& a, const ec::Affine<C>& b) {
  if (b.is_infinity()) return PairKind::kCopyA;
  if (a.is_infinity()) return PairKind::kCopyB;
  if (a.x != b.x) return PairKind::kAdd;
  // Same x: b = a (tangent) or b = −a. y = 0 would be a point of order 2,
  // which the prime-order groups do not contain; its double is infinity.
  if (a.y == b.y && !a.y.is_zero()) return PairKind::kDouble;
  return PairKind::kInfinity;
}

// Pairs per shared inversion: large enough to amortise the inversion (Fp by
// Fermat, ~15 us measured, i.e. ~7 ns per pair at 2048), small enough that the
// second pass finds the operands of the first still in the 1 MiB L2 cache
// (~270 bytes per G1 pair, twice that for G2). Measured on MSM G1 2^16 (one
// thread, 2-core development machine): 1024 -> 2048 pairs 0.37 -> 0.35 s,
// 4096 pairs 0.36 s.
template <class C>
inline constexpr size_t kMaxBatch = sizeof(ec::Affine<C>) <= 96 ? 2048 : 1024;

template <class C>
inline void prefetch_pair(const PairRef<C>& p) {
  // A 96-byte point at 16-byte alignment can span three cache lines.
  for (size_t off = 0; off < sizeof(ec::Affine<C>); off += 64) {
    __builtin_prefetch(reinterpret_cast<const char*>(p.a) + off);
    __builtin_prefetch(reinterpret_cast<const char*>(p.b) + off);
  }
  __builtin_prefetch(reinterpret_cast<const char*>(p.a) + sizeof(ec::Affine<C>) - 1);
  __builtin_prefetch(reinterpret_cast<const char*>(p.b) + sizeof(ec::Affine<C>) - 1);
}

// The kind of a pair, reading only x when the x differ (the common case).
template <class C>
inline PairKind kind_of(const PairRef<C>& p) {
  if (p.b->is_infinity()) return PairKind::kCopyA;
  if (p.a->is_infinity()) return PairKind::kCopyB;
  if (p.a->x != p.b->x) return PairKind::kAdd;
  return classify_pair(load_point(p.a, p.neg & kNegA), load_point(p.b, p.neg & kNegB));
}

// 2y of the (possibly negated) first operand: the denominator of a doubling.
template <class C>
inline typename C::Field tangent_denominator(const PairRef<C>& p) {
  return load_point(p.a, p.neg & kNegA).y.dbl();
}

// The pairs other than kAdd; `inv_d` = 1/2y for kDouble.
template <class C>
void finish_special_pair(const PairRef<C>& p, PairKind kind, const typename C::Field& inv_d) {
  using F = typename C::Field;
  const ec::Affine<C> a = load_point(p.a, p.neg & kNegA), b = load_point(p.b, p.neg & kNegB);
  switch (kind) {
    case PairKind::kDouble: {
      const F xx = a.x.square();
      const F lambda = (xx.dbl() + xx) * inv_d;
      const F x = lambda.square() - a.x.dbl();
      p.out->y = lambda * (a.x - x) - a.y;
      p.out->x = x;
      break;
    }
    case PairKind::kCopyA: *p.out = a; break;
    case PairKind::kCopyB: *p.out = b; break;
    default: *p.out = ec::Affine<C>::identity(); break;
  }
}

// Montgomery's trick runs in InvTrait<F>::T. Over Fp2 (G2) that is Fp: a
// denominator d is inverted as conj(d)/N(d), N(d) = c0² + c1² (nonzero for
// d ≠ 0, −1 not being a square mod p). The running product and its inverse
// are then Fp values, and each prefix slot (an Fp2) holds the prefix in c0
// and N(d) in c1. Per kAdd pair that is 2S + 5M of Fp for the inversion's
// share instead of three Fp2 products (9M).
template <class F>
struct InvTrait {
  using T = F;
  static constexpr bool kNorm = false;
};
template <>
struct InvTrait<ff::Fp2> {
  using T = ff::Fp;
  static constexpr bool kNorm = true;
};

// Computes one batch (at most kMaxBatch<C> pairs) with one inversion. The first
// pass records each pair's kind and the prefix products of the denominators;
// the second unwinds the inverse backwards. Operands are read in place
// (the common kAdd case never copies a point).
// Cost: 1I + (6M + 1S) per kAdd pair over Fp; kDouble adds 1S.
template <class C>
void add_pairs_batch(std::span<const PairRef<C>> pairs, typename C::Field* prefix) {
  using F = typename C::Field;
  using T = typename InvTrait<F>::T;
  constexpr bool kNorm = InvTrait<F>::kNorm;
  constexpr size_t kAhead = 8;  // prefetch distance, in pairs
  PairKind kinds[kMaxBatch<C>];
  T acc = T::one();
  // The running product times d (over Fp2: times N(d), and the slot keeps N(d)).
  auto push = [&acc](F* slot, const F& d) {
    if constexpr (kNorm) {
      const T n = d.norm();
      *slot = F{acc, n};
      acc *= n;
    } else {
      *slot = acc;
      acc *= d;
    }
  };
  // 1/d from the unwound inverse `inv` and the slot; steps `inv` past d.
  auto pop = [&](T& inv, const F& slot, const F& d) -> F {
    if constexpr (kNorm) {
      const T n_inv = inv * slot.c0;
      inv *= slot.c1;
      return d.conjugate() * n_inv;
    } else {
      const F t = inv * slot;
      inv *= d;
      return t;
    }
  };
  for (size_t i = 0; i < pairs.size(); ++i) {
    if (i + kAhead < pairs.size()) prefetch_pair(pairs[i + kAhead]);
    const PairRef<C>& p = pairs[i];
    kinds[i] = kind_of(p);
    if (kinds[i] == PairKind::kAdd) {
      push(&prefix[i], p.b->x - p.a->x);
    } else if (kinds[i] == PairKind::kDouble) {
      push(&prefix[i], tangent_denominator(p));
    }
  }
  T inv = acc.inverse();
  for (size_t i = pairs.size(); i-- > 0;) {
    const PairRef<C>& p = pairs[i];
    const PairKind kind = kinds[i];
    // The common case first: with the special cases tested first, or with
    // [[likely]] on this branch, GCC 12 builds a loop that runs ~40% slower
    // (measured on MSM G1 2^16); keep this shape.
    if (kind == PairKind::kAdd) {
      const F& xa = p.a->x;
      const F& xb = p.b->x;
      const F ya = neg_if(p.a->y, p.neg & kNegA), yb = neg_if(p.b->y, p.neg & kNegB);
      const F t = pop(inv, prefix[i], xb - xa);
      const F lambda = (yb - ya) * t;
      const F x = lambda.square() - xa - xb;
      p.out->y = lambda * (xa - x) - ya;
      p.out->x = x;
      continue;
    }
    F inv_d;
    if (kind == PairKind::kDouble) inv_d = pop(inv, prefix[i], tangent_denominator(p));
    finish_special_pair(p, kind, inv_d);
  }
}

// add_pairs_batch over Fp with every call inside it inlined. GCC 12 leaves
// the field subtraction and the Montgomery product's final subtraction as
// calls there (~27% of a G1 MSM's samples). Measured on the 2-core
// development machine, CPU time: G1 2^16 0.46 -> 0.39 s, the verifier's MSM
// of 25,839 inputs 55 -> 46 ms (docs/perf.md §7); for G2 (Fp2) the same made
// 2^12 12% slower, so G2 keeps the compiler's choice.
template <class C>
[[gnu::flatten]] void add_pairs_batch_flat(std::span<const PairRef<C>> pairs, typename C::Field* prefix) {
  add_pairs_batch<C>(pairs, prefix);
}

// Computes every pair, in batches of kMaxBatch<C>. `prefix` is scratch.
template <class C>
void add_pairs(std::span<const PairRef<C>> pairs, std::vector<typename C::Field>& prefix) {
  constexpr size_t kBatch = kMaxBatch<C>;
  if (prefix.size() < kBatch) prefix.resize(kBatch);
  for (size_t lo = 0; lo < pairs.size(); lo += kBatch) {
    const auto batch = pairs.subspan(lo, std::min(kBatch, pairs.size() - lo));
    if constexpr (std::is_same_v<typename C::Field, ff::Fp>) {
      add_pairs_batch_flat<C>(batch, prefix.data());
    } else {
      add_pairs_batch<C>(batch, prefix.data());
    }
  }
}

// Sums points[0 .. m) into points[0] in place, halving the count per level
// (points[j] += points[j + h], h = ⌈m/2⌉), one batch per level; returns the
// sum (identity for m = 0). `pairs` and `prefix` are scratch.
template <class C>
ec::Affine<C> reduce_in_place(std::span<ec::Affine<C>> points, std::vector<PairRef<C>>& pairs,
                              std::vector<typename C::Field>& prefix) {
  size_t m = points.size();
  if (m == 0) return ec::Affine<C>::identity();
  while (m > 1) {
    const size_t h = (m + 1) / 2;
    pairs.clear();
    for (size_t j = 0; j + h < m; ++j) pairs.push_back({&points[j], &points[j + h], &points[j], 0});
    add_pairs<C>(pairs, prefix);
    m = h;
  }
  return points[0];
}

}  // namespace cuzk::msm::detail
