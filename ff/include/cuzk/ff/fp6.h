// Fp6 = Fp2[v]/(v^3 - ξ), ξ = u + 1 (docs/formats.md §1). Elements are
// c0 + c1·v + c2·v^2; in memory (c0, c1, c2).
//
// Costs below count Fp2 multiplications (M) and squarings (S); one Fp2 M is
// 3 Fp multiplications, one Fp2 S is 2.
#pragma once

#include <array>
#include <cstdint>

#include "cuzk/ff/fp2.h"

namespace cuzk::ff {

// Frobenius coefficients of the tower, derived once from ξ (fp6.cc):
//   w_coeff[k]  = ξ^((p^k - 1)/6)   (w^(p^k) = w_coeff[k]·w)
//   v_coeff1[k] = ξ^((p^k - 1)/3)   (v^(p^k) = v_coeff1[k]·v)
//   v_coeff2[k] = ξ^(2(p^k - 1)/3)  ((v^2)^(p^k) = v_coeff2[k]·v^2)
// for k = 0..11. Immutable after first use; safe to read from any thread.
struct TowerFrobenius {
  std::array<Fp2, 12> w_coeff;
  std::array<Fp2, 12> v_coeff1;
  std::array<Fp2, 12> v_coeff2;
};
const TowerFrobenius& tower_frobenius();

struct Fp6 {
  Fp2 c0, c1, c2;

  constexpr Fp6() = default;
  constexpr Fp6(const Fp2& a, const Fp2& b, const Fp2& c) : c0(a), c1(b), c2(c) {}

  static constexpr Fp6 zero() { return Fp6(); }
  static constexpr Fp6 one() { return Fp6(Fp2::one(), Fp2(), Fp2()); }
  bool is_zero() const { return c0.is_zero() && c1.is_zero() && c2.is_zero(); }
  bool is_one() const { return c0.is_one() && c1.is_zero() && c2.is_zero(); }
  friend bool operator==(const Fp6& a, const Fp6& b) { return a.c0 == b.c0 && a.c1 == b.c1 && a.c2 == b.c2; }
  friend bool operator!=(const Fp6& a, const Fp6& b) { return !(a == b); }

  friend Fp6 operator+(const Fp6& a, const Fp6& b) { return {a.c0 + b.c0, a.c1 + b.c1, a.c2 + b.c2}; }
  friend Fp6 operator-(const Fp6& a, const Fp6& b) { return {a.c0 - b.c0, a.c1 - b.c1, a.c2 - b.c2}; }
  Fp6 operator-() const { return {-c0, -c1, -c2}; }
  Fp6 dbl() const { return {c0.dbl(), c1.dbl(), c2.dbl()}; }
  // Karatsuba: 6M.
  friend Fp6 operator*(const Fp6& a, const Fp6& b);
  Fp6& operator+=(const Fp6& b) { return *this = *this + b; }
  Fp6& operator-=(const Fp6& b) { return *this = *this - b; }
  Fp6& operator*=(const Fp6& b) { return *this = *this * b; }

  // Chung–Hasan SQR2: 2M + 3S.
  Fp6 square() const;
  // Inverse via the norm to Fp2: 9M + 3S + one Fp2 inverse. Inverse of zero is zero.
  Fp6 inverse() const;
  // Multiplication by v: (ξ·c2, c0, c1). Additions only.
  Fp6 mul_by_nonresidue() const { return {c2.mul_by_nonresidue(), c0, c1}; }
  // Multiplication by an element of Fp2: 3M.
  Fp6 mul_by_fp2(const Fp2& b) const { return {c0 * b, c1 * b, c2 * b}; }
  // Sparse products used by the Miller loop: this·(b1·v) in 3M and
  // this·(b0 + b1·v) in 5M.
  Fp6 mul_by_1(const Fp2& b1) const;
  Fp6 mul_by_01(const Fp2& b0, const Fp2& b1) const;
  // x^(p^power) for any power >= 0 (the map has period 6).
  Fp6 frobenius_map(int power) const;

  template <size_t M>
  Fp6 pow(const std::array<uint64_t, M>& e) const {
    Fp6 r = one();
    for (int i = int(M) * 64 - 1; i >= 0; --i) {
      r = r.square();
      if ((e[size_t(i) / 64] >> (i % 64)) & 1) r *= *this;
    }
    return r;
  }

  template <class Rng>
  static Fp6 random(Rng& rng) {
    Fp2 a = Fp2::random(rng);
    Fp2 b = Fp2::random(rng);
    return {a, b, Fp2::random(rng)};
  }
};

}  // namespace cuzk::ff
