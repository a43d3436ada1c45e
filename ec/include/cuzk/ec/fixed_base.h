// Fixed-base scalar multiplication: [k]G for many scalars k and one point G,
// as a development setup needs for every point of a key. Not constant time.
//
// The table holds T[w][d] = d·2^(c·w)·G for every window w and digit
// d = 1..2^c − 1 (c = kWindowBits), so [k]G is the sum of one table point per
// non-zero c-bit digit of k: no doublings.
//
// mul_batch() adds in affine coordinates for a batch of scalars at once,
// window by window, sharing one field inversion among the batch (Montgomery's
// trick): an affine addition then costs 5M + 1S (3M of the batch inversion,
// λ, λ², y3) where a mixed Jacobian addition costs 7M + 4S, and the results
// need no normalisation. Working one window at a time over the batch also
// keeps the accesses to the table within one window's 2^c points.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/ec/batch.h"
#include "cuzk/ec/point.h"
#include "cuzk/ff/fr.h"

namespace cuzk::ec {

template <class C>
class FixedBaseTable {
 public:
  // 12-bit windows: 22 windows cover the 255 bits of a canonical Fr scalar;
  // the table is 22·4095 points (8.6 MB for G1, 17 MB for G2, the last window
  // needing only 7 of them) and [k]G costs at most 21 additions.
  static constexpr int kWindowBits = 12;
  static constexpr int kScalarBits = 255;
  static constexpr int kWindows = (kScalarBits + kWindowBits - 1) / kWindowBits;

  // Table: kWindows chains of 2^c − 1 Jacobian additions, one batch
  // normalisation. REQUIRES: base is a point of order r (no table point is
  // then infinity).
  explicit FixedBaseTable(const Affine<C>& base) {
    size_t total = 0;
    for (int w = 0; w < kWindows; ++w) {
      offset_[w] = total;
      total += digits_in(w);
    }
    std::vector<Jacobian<C>> jac(total);
    Jacobian<C> window_base = Jacobian<C>::from_affine(base);
    for (int w = 0; w < kWindows; ++w) {
      Jacobian<C> acc = window_base;
      for (size_t d = 1; d <= digits_in(w); ++d) {
        jac[offset_[w] + d - 1] = acc;
        acc += window_base;
      }
      for (int i = 0; i < kWindowBits; ++i) window_base = window_base.dbl();  // 2^c · previous base
    }
    table_ = batch_normalize<C>(std::span<const Jacobian<C>>(jac));
  }

  // [k]G by mixed Jacobian additions (for a few scalars).
  Jacobian<C> mul(const ff::Fr& k) const {
    const ff::Fr::Repr c = k.canonical();
    Jacobian<C> acc = Jacobian<C>::identity();
    for (int w = 0; w < kWindows; ++w)
      if (unsigned d = digit(c, w)) acc += entry(w, d);
    return acc;
  }

  // out[i] = [k[i]]G in affine form ([0]G is Affine::identity()).
  // REQUIRES: out.size() == k.size(). Cost per scalar: at most 21 affine
  // additions of 5M + 1S, plus 22 inversions per batch of kBatch scalars.
  void mul_batch(std::span<const ff::Fr> k, std::span<Affine<C>> out) const {
    for (size_t b = 0; b < k.size(); b += kBatch) {
      const size_t e = std::min(k.size(), b + kBatch);
      mul_batch_part(k.subspan(b, e - b), out.subspan(b, e - b));
    }
  }

 private:
  using F = typename C::Field;
  // Scalars whose accumulators are added to at once: one inversion per
  // window per batch (~800M for Fp by Fermat) spread over up to 4096
  // additions; the accumulators (384 KiB for G1) stay in cache beside the
  // window's points. (On the 2-core development machine, 7.2 µs per G1 point
  // against 8.2 µs with batches of 2048; windows of 13 or 14 bits were no
  // faster: their tables leave the cache.)
  static constexpr size_t kBatch = 4096;

  static size_t digits_in(int w) {
    const int bits = std::min(kWindowBits, kScalarBits - kWindowBits * w);
    return (size_t(1) << bits) - 1;
  }
  static unsigned digit(const ff::Fr::Repr& c, int w) {
    const int bit = kWindowBits * w, limb = bit / 64, shift = bit % 64;
    uint64_t v = c[size_t(limb)] >> shift;
    if (shift + kWindowBits > 64 && size_t(limb) + 1 < c.size()) v |= c[size_t(limb) + 1] << (64 - shift);
    return unsigned(v & ((uint64_t(1) << kWindowBits) - 1));
  }
  const Affine<C>& entry(int w, unsigned d) const { return table_[offset_[w] + d - 1]; }

  // One batch: for each window in turn, the scalars with a non-zero digit
  // there add their table point to their accumulator. The slopes'
  // denominators x_T − x_acc are inverted together: a forward pass of
  // prefix products, one inversion, and a backward pass that applies each
  // addition. A denominator of zero (acc = ±T) would need a doubling or give
  // infinity; it cannot happen for canonical scalars (the accumulator holds
  // [a]G with a < 2^(c·w) ≤ d·2^(c·w) and a + d·2^(c·w) ≤ k < r), and is
  // handled by a Jacobian addition all the same.
  void mul_batch_part(std::span<const ff::Fr> k, std::span<Affine<C>> out) const {
    const size_t n = k.size();
    std::vector<ff::Fr::Repr> scalars(n);
    for (size_t i = 0; i < n; ++i) scalars[i] = k[i].canonical();
    std::vector<uint8_t> started(n, 0);  // acc holds a point (else it is still [0]G)
    std::vector<uint32_t> pending;       // scalars adding in this window
    std::vector<F> prefix;               // prefix[j] = Π_{i<j} (x_T − x_acc) over pending
    pending.reserve(n);
    prefix.reserve(n);
    for (size_t i = 0; i < n; ++i) out[i] = Affine<C>::identity();
    for (int w = 0; w < kWindows; ++w) {
      pending.clear();
      prefix.clear();
      F acc = F::one();
      for (size_t i = 0; i < n; ++i) {
        const unsigned d = digit(scalars[i], w);
        if (!d) continue;
        const Affine<C>& t = entry(w, d);
        if (!started[i]) {
          out[i] = t;
          started[i] = 1;
          continue;
        }
        const F dx = t.x - out[i].x;
        if (dx.is_zero()) {
          out[i] = (Jacobian<C>::from_affine(out[i]) + t).to_affine();
          started[i] = !out[i].is_infinity();
          continue;
        }
        pending.push_back(uint32_t(i));
        prefix.push_back(acc);
        acc *= dx;
      }
      if (pending.empty()) continue;
      F inv = acc.inverse();
      for (size_t j = pending.size(); j-- > 0;) {
        Affine<C>& p = out[pending[j]];
        const Affine<C>& t = entry(w, digit(scalars[pending[j]], w));
        const F dx = t.x - p.x;
        const F lambda = (t.y - p.y) * (inv * prefix[j]);
        inv *= dx;
        const F x3 = lambda.square() - p.x - t.x;
        p.y = lambda * (p.x - x3) - p.y;
        p.x = x3;
      }
    }
  }

  size_t offset_[kWindows];
  std::vector<Affine<C>> table_;
};

}  // namespace cuzk::ec
