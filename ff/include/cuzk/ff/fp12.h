// Fp12 = Fp6[w]/(w^2 - v) (docs/formats.md §1). Elements are c0 + c1·w; in
// memory (c0, c1). Over Fp2 the basis is 1, v, v^2, w, v·w, v^2·w, i.e. w^0,
// w^2, w^4, w^1, w^3, w^5, and the coefficient order is
// c0.c0, c0.c1, c0.c2, c1.c0, c1.c1, c1.c2 (each an Fp2, c0 before c1).
//
// Costs count Fp2 multiplications (M) and squarings (S).
#pragma once

#include "cuzk/ff/fp6.h"

namespace cuzk::ff {

struct Fp12 {
  Fp6 c0, c1;

  constexpr Fp12() = default;
  constexpr Fp12(const Fp6& a, const Fp6& b) : c0(a), c1(b) {}

  static constexpr Fp12 zero() { return Fp12(); }
  static constexpr Fp12 one() { return Fp12(Fp6::one(), Fp6()); }
  bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  bool is_one() const { return c0.is_one() && c1.is_zero(); }
  friend bool operator==(const Fp12& a, const Fp12& b) { return a.c0 == b.c0 && a.c1 == b.c1; }
  friend bool operator!=(const Fp12& a, const Fp12& b) { return !(a == b); }

  friend Fp12 operator+(const Fp12& a, const Fp12& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
  friend Fp12 operator-(const Fp12& a, const Fp12& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
  Fp12 operator-() const { return {-c0, -c1}; }
  // Karatsuba over Fp6: 18M.
  friend Fp12 operator*(const Fp12& a, const Fp12& b);
  Fp12& operator+=(const Fp12& b) { return *this = *this + b; }
  Fp12& operator-=(const Fp12& b) { return *this = *this - b; }
  Fp12& operator*=(const Fp12& b) { return *this = *this * b; }

  // Complex squaring: 12M.
  Fp12 square() const;
  // (c0 - c1·w)/(c0^2 - v·c1^2): one Fp6 inverse plus 2 Fp6 S and 2 Fp6 M.
  // Inverse of zero is zero.
  Fp12 inverse() const;
  // x^(p^6): c0 - c1·w. On the cyclotomic subgroup (every pairing value
  // after the easy part of the final exponentiation) this is the inverse.
  Fp12 conjugate() const { return {c0, -c1}; }
  // x^(p^power) for any power >= 0 (the map has period 12).
  Fp12 frobenius_map(int power) const;

  // this·(o0 + o1·v + o4·v·w): the product with a Miller-loop line whose
  // only non-zero coefficients are c0.c0, c0.c1 and c1.c1 (positions 0, 1, 4).
  // Cost: 13M.
  Fp12 mul_by_014(const Fp2& o0, const Fp2& o1, const Fp2& o4) const;

  // Granger–Scott squaring. REQUIRES: this lies in the cyclotomic subgroup,
  // x^(p^4 - p^2 + 1) = 1 (true of x^((p^6 - 1)(p^2 + 1)) for any non-zero x);
  // otherwise the result is not x^2.
  // Cost: 9 Fp2 S.
  Fp12 cyclotomic_square() const;
  // x^e by square-and-multiply with cyclotomic squarings; e = little-endian
  // limbs. REQUIRES: as cyclotomic_square.
  template <size_t M>
  Fp12 cyclotomic_pow(const std::array<uint64_t, M>& e) const {
    Fp12 r = one();
    bool started = false;
    for (int i = int(M) * 64 - 1; i >= 0; --i) {
      if (started) r = r.cyclotomic_square();
      if ((e[size_t(i) / 64] >> (i % 64)) & 1) {
        r = started ? r * *this : *this;
        started = true;
      }
    }
    return r;
  }

  // x^e for any element (plain squarings); e = little-endian limbs.
  template <size_t M>
  Fp12 pow(const std::array<uint64_t, M>& e) const {
    Fp12 r = one();
    for (int i = int(M) * 64 - 1; i >= 0; --i) {
      r = r.square();
      if ((e[size_t(i) / 64] >> (i % 64)) & 1) r *= *this;
    }
    return r;
  }

  template <class Rng>
  static Fp12 random(Rng& rng) {
    Fp6 a = Fp6::random(rng);
    return {a, Fp6::random(rng)};
  }
};

}  // namespace cuzk::ff
