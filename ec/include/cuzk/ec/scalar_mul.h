// Scalar multiplication on Jacobian points (templates over the curve, see point.h).
// Nothing here is constant time: the running time and memory accesses depend on
// the scalar.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "cuzk/ec/point.h"
#include "cuzk/ff/bigint.h"
#include "cuzk/ff/fr.h"

namespace cuzk::ec {

// [k]P for k given as little-endian 64-bit limbs of any length (k is not
// reduced modulo the group order, so [r]P = O for P in the subgroup).
// Fixed 4-bit window, most significant window first: the table 2P..15P costs
// 7 doublings + 7 additions, then each 4-bit window costs 4 doublings plus one
// addition when the window is non-zero (~ 252 doublings + 63 additions for a
// 255-bit k).
template <class C>
Jacobian<C> mul(const Jacobian<C>& p, std::span<const uint64_t> k) {
  constexpr int kWindowBits = 4;
  constexpr int kTableSize = 1 << kWindowBits;
  int bits = 0;
  for (size_t i = k.size(); i-- > 0;) {
    if (k[i]) {
      bits = int(64 * i) + 64 - __builtin_clzll(k[i]);
      break;
    }
  }
  if (bits == 0 || p.is_infinity()) return Jacobian<C>::identity();
  std::array<Jacobian<C>, kTableSize> table;
  table[0] = Jacobian<C>::identity();
  table[1] = p;
  for (int i = 2; i < kTableSize; ++i) table[i] = (i & 1) ? table[i - 1] + p : table[i / 2].dbl();
  Jacobian<C> acc = Jacobian<C>::identity();
  for (int w = (bits + kWindowBits - 1) / kWindowBits - 1; w >= 0; --w) {
    for (int d = 0; d < kWindowBits; ++d) acc = acc.dbl();
    // 64 is a multiple of the window width, so a window never straddles limbs.
    int bit = w * kWindowBits;
    unsigned digit = unsigned(k[size_t(bit / 64)] >> (bit % 64)) & (kTableSize - 1);
    if (digit) acc += table[digit];
  }
  return acc;
}

// [k]P with k the canonical value of an Fr element.
template <class C>
Jacobian<C> mul(const Jacobian<C>& p, const ff::Fr& k) {
  const ff::Fr::Repr c = k.canonical();
  return mul(p, std::span<const uint64_t>(c));
}
template <class C>
Jacobian<C> mul(const Affine<C>& p, const ff::Fr& k) {
  return mul(Jacobian<C>::from_affine(p), k);
}
template <class C>
Jacobian<C> mul(const Affine<C>& p, std::span<const uint64_t> k) {
  return mul(Jacobian<C>::from_affine(p), k);
}

// [k]P by binary double-and-add, for short scalars of low Hamming weight such
// as |x| = 0xd201000000010000 (6 bits set): 63 doublings + 5 additions.
template <class C>
Jacobian<C> mul_u64(const Jacobian<C>& p, uint64_t k) {
  Jacobian<C> acc = Jacobian<C>::identity();
  for (int i = 63; i >= 0; --i) {
    acc = acc.dbl();
    if ((k >> i) & 1) acc += p;
  }
  return acc;
}

// [k]P for a short scalar applied to an affine point (mixed additions):
// 63 doublings + 5 mixed additions for |x|.
template <class C>
Jacobian<C> mul_u64(const Affine<C>& p, uint64_t k) {
  Jacobian<C> acc = Jacobian<C>::identity();
  for (int i = 63; i >= 0; --i) {
    acc = acc.dbl();
    if ((k >> i) & 1) acc += p;
  }
  return acc;
}

}  // namespace cuzk::ec
