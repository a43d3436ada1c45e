// Fp2 = Fp[u]/(u^2 + 1). Elements are c0 + c1·u; in memory (c0, c1).
#pragma once

#include "cuzk/ff/fp.h"

namespace cuzk::ff {

struct Fp2 {
  Fp c0, c1;

  constexpr Fp2() = default;
  constexpr Fp2(const Fp& a, const Fp& b) : c0(a), c1(b) {}

  static constexpr Fp2 zero() { return Fp2(); }
  static constexpr Fp2 one() { return Fp2(Fp::one(), Fp::zero()); }
  bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  bool is_one() const { return c0.is_one() && c1.is_zero(); }
  friend bool operator==(const Fp2& a, const Fp2& b) { return a.c0 == b.c0 && a.c1 == b.c1; }
  friend bool operator!=(const Fp2& a, const Fp2& b) { return !(a == b); }

  friend Fp2 operator+(const Fp2& a, const Fp2& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
  friend Fp2 operator-(const Fp2& a, const Fp2& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
  Fp2 operator-() const { return {-c0, -c1}; }
  // Karatsuba: 3M + 5A.
  friend Fp2 operator*(const Fp2& a, const Fp2& b) {
    Fp t0 = a.c0 * b.c0, t1 = a.c1 * b.c1;
    return {t0 - t1, (a.c0 + a.c1) * (b.c0 + b.c1) - t0 - t1};
  }
  friend Fp2 operator*(const Fp2& a, const Fp& b) { return {a.c0 * b, a.c1 * b}; }
  Fp2& operator+=(const Fp2& b) { return *this = *this + b; }
  Fp2& operator-=(const Fp2& b) { return *this = *this - b; }
  Fp2& operator*=(const Fp2& b) { return *this = *this * b; }

  Fp2 dbl() const { return {c0.dbl(), c1.dbl()}; }
  // (c0 + c1)(c0 - c1) + 2·c0·c1·u: 2M.
  Fp2 sqr() const { return square(); }  // the name the shared curve formulas use (ec/formulas.h)
  Fp2 square() const {
    Fp t = c0 * c1;
    return {(c0 + c1) * (c0 - c1), t.dbl()};
  }
  Fp2 conjugate() const { return {c0, -c1}; }
  // Multiplication by the sextic non-residue ξ = 1 + u.
  Fp2 mul_by_nonresidue() const { return {c0 - c1, c0 + c1}; }
  // Norm c0^2 + c1^2 in Fp.
  Fp norm() const { return c0.square() + c1.square(); }
  // Inverse via the norm; inverse of zero is zero.
  Fp2 inverse() const {
    Fp n = norm().inverse();
    return {c0 * n, -(c1 * n)};
  }
  // x^(p^power): conjugation for odd powers.
  Fp2 frobenius_map(int power) const { return (power & 1) ? conjugate() : *this; }

  template <size_t M>
  Fp2 pow(const std::array<uint64_t, M>& e) const {
    Fp2 r = one();
    for (int i = int(M) * 64 - 1; i >= 0; --i) {
      r = r.square();
      if ((e[size_t(i) / 64] >> (i % 64)) & 1) r *= *this;
    }
    return r;
  }

  // Square root for p = 3 mod 4 (Adj & Rodríguez-Henríquez, Algorithm 9).
  // Returns false when x is not a square.
  bool sqrt(Fp2* out) const;

  template <class Rng>
  static Fp2 random(Rng& rng) {
    Fp a = Fp::random(rng);
    return {a, Fp::random(rng)};
  }
};

}  // namespace cuzk::ff
