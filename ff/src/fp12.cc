#include "cuzk/ff/fp12.h"

namespace cuzk::ff {

// t0 = a0·b0, t1 = a1·b1; c0 = t0 + v·t1, c1 = (a0 + a1)(b0 + b1) - t0 - t1.
Fp12 operator*(const Fp12& a, const Fp12& b) {
  Fp6 t0 = a.c0 * b.c0, t1 = a.c1 * b.c1;
  Fp6 c1 = (a.c0 + a.c1) * (b.c0 + b.c1) - t0 - t1;
  return {t0 + t1.mul_by_nonresidue(), c1};
}

// t = a0·a1; c0 = (a0 + a1)(a0 + v·a1) - t - v·t, c1 = 2t.
Fp12 Fp12::square() const {
  Fp6 t = c0 * c1;
  Fp6 r0 = (c0 + c1) * (c0 + c1.mul_by_nonresidue()) - t - t.mul_by_nonresidue();
  return {r0, t.dbl()};
}

Fp12 Fp12::inverse() const {
  Fp6 t = (c0.square() - c1.square().mul_by_nonresidue()).inverse();
  return {c0 * t, -(c1 * t)};
}

// (c0 + c1·w)^(p^k) = c0^(p^k) + c1^(p^k)·w_coeff[k]·w.
Fp12 Fp12::frobenius_map(int power) const {
  size_t k = size_t(power % 12);
  return {c0.frobenius_map(power), c1.frobenius_map(power).mul_by_fp2(tower_frobenius().w_coeff[k])};
}

// Line L = L0 + L1·w with L0 = o0 + o1·v, L1 = o4·v (Karatsuba over Fp6):
// t0 = c0·L0 (5M), t1 = c1·L1 (3M), c1' = (c0 + c1)(L0 + L1) - t0 - t1 (5M),
// c0' = t0 + v·t1.
Fp12 Fp12::mul_by_014(const Fp2& o0, const Fp2& o1, const Fp2& o4) const {
  Fp6 t0 = c0.mul_by_01(o0, o1);
  Fp6 t1 = c1.mul_by_1(o4);
  Fp6 r1 = (c0 + c1).mul_by_01(o0, o1 + o4) - t0 - t1;
  return {t0 + t1.mul_by_nonresidue(), r1};
}

namespace {

// (a + b·s)^2 in Fp4 = Fp2[s]/(s^2 - ξ): (a^2 + ξ·b^2, 2ab), 3S.
inline void fp4_square(const Fp2& a, const Fp2& b, Fp2* r0, Fp2* r1) {
  Fp2 t0 = a.square(), t1 = b.square();
  *r0 = t0 + t1.mul_by_nonresidue();
  *r1 = (a + b).square() - t0 - t1;
}

}  // namespace

// View x as A0 + A1·w + A2·w^2 over Fp4 = Fp2[s], s = w^3 (so s^2 = ξ):
// A0 = c0.c0 + c1.c1·s, A1 = c1.c0 + c0.c2·s, A2 = c0.c1 + c1.c2·s.
// For cyclotomic x (Granger–Scott 2010):
//   x^2 = (3A0^2 - 2·conj(A0)) + (3s·A2^2 + 2·conj(A1))·w + (3A1^2 - 2·conj(A2))·w^2,
// conj being s -> -s.
Fp12 Fp12::cyclotomic_square() const {
  Fp2 a0, a1, b0, b1, d0, d1;
  fp4_square(c0.c0, c1.c1, &a0, &a1);  // A0^2
  fp4_square(c1.c0, c0.c2, &b0, &b1);  // A1^2
  fp4_square(c0.c1, c1.c2, &d0, &d1);  // A2^2
  // s·A2^2 = ξ·d1 + d0·s.
  Fp2 e0 = d1.mul_by_nonresidue(), e1 = d0;
  // r = 3t - 2z for the "minus conj" terms: (3t0 - 2z0, 3t1 + 2z1).
  auto minus = [](const Fp2& t, const Fp2& z) { return (t - z).dbl() + t; };
  auto plus = [](const Fp2& t, const Fp2& z) { return (t + z).dbl() + t; };
  Fp12 r;
  r.c0.c0 = minus(a0, c0.c0);  // B0 = 3A0^2 - 2conj(A0)
  r.c1.c1 = plus(a1, c1.c1);
  r.c1.c0 = plus(e0, c1.c0);  // B1 = 3s·A2^2 + 2conj(A1)
  r.c0.c2 = minus(e1, c0.c2);
  r.c0.c1 = minus(b0, c0.c1);  // B2 = 3A1^2 - 2conj(A2)
  r.c1.c2 = plus(b1, c1.c2);
  return r;
}

}  // namespace cuzk::ff
