#include "cuzk/ff/fp6.h"

namespace cuzk::ff {

namespace {

// a / d for a small divisor d that divides a exactly (no remainder check).
Limbs<6> limbs_div_small(const Limbs<6>& a, uint64_t d) {
  Limbs<6> q{};
  u128 rem = 0;
  for (int i = 5; i >= 0; --i) {
    u128 cur = (rem << 64) | a[size_t(i)];
    q[size_t(i)] = uint64_t(cur / d);
    rem = cur % d;
  }
  return q;
}

// g_k = ξ^((p^k - 1)/6). From (p^(k+1) - 1)/6 = p·(p^k - 1)/6 + (p - 1)/6:
// g_(k+1) = g_k^p · g_1, and the p-power map on Fp2 is conjugation.
// p = 1 mod 6 for BLS12-381, so (p - 1)/6 is exact.
TowerFrobenius make_tower_frobenius() {
  TowerFrobenius t;
  const Fp2 xi(Fp::one(), Fp::one());
  const Fp2 g1 = xi.pow(limbs_div_small(limbs_sub_small<6>(Fp::kModulus, 1), 6));
  Fp2 g = Fp2::one();
  for (size_t k = 0; k < 12; ++k) {
    t.w_coeff[k] = g;
    t.v_coeff1[k] = g.square();
    t.v_coeff2[k] = t.v_coeff1[k].square();
    g = g.conjugate() * g1;
  }
  return t;
}

}  // namespace

const TowerFrobenius& tower_frobenius() {
  static const TowerFrobenius table = make_tower_frobenius();
  return table;
}

// t_i = a_i·b_i;
// c0 = t0 + ξ((a1 + a2)(b1 + b2) - t1 - t2)
// c1 = (a0 + a1)(b0 + b1) - t0 - t1 + ξ·t2
// c2 = (a0 + a2)(b0 + b2) - t0 - t2 + t1
Fp6 operator*(const Fp6& a, const Fp6& b) {
  Fp2 t0 = a.c0 * b.c0, t1 = a.c1 * b.c1, t2 = a.c2 * b.c2;
  Fp2 c0 = ((a.c1 + a.c2) * (b.c1 + b.c2) - t1 - t2).mul_by_nonresidue() + t0;
  Fp2 c1 = (a.c0 + a.c1) * (b.c0 + b.c1) - t0 - t1 + t2.mul_by_nonresidue();
  Fp2 c2 = (a.c0 + a.c2) * (b.c0 + b.c2) - t0 - t2 + t1;
  return {c0, c1, c2};
}

// s0 = a0^2, s1 = 2a0a1, s2 = (a0 - a1 + a2)^2, s3 = 2a1a2, s4 = a2^2;
// c0 = s0 + ξ·s3, c1 = s1 + ξ·s4, c2 = s1 + s2 + s3 - s0 - s4.
Fp6 Fp6::square() const {
  Fp2 s0 = c0.square();
  Fp2 s1 = (c0 * c1).dbl();
  Fp2 s2 = (c0 - c1 + c2).square();
  Fp2 s3 = (c1 * c2).dbl();
  Fp2 s4 = c2.square();
  return {s0 + s3.mul_by_nonresidue(), s1 + s4.mul_by_nonresidue(), s1 + s2 + s3 - s0 - s4};
}

// A = a0^2 - ξ·a1·a2, B = ξ·a2^2 - a0·a1, C = a1^2 - a0·a2,
// N = a0·A + ξ(a2·B + a1·C) in Fp2; inverse = (A, B, C)/N.
Fp6 Fp6::inverse() const {
  Fp2 a = c0.square() - (c1 * c2).mul_by_nonresidue();
  Fp2 b = c2.square().mul_by_nonresidue() - c0 * c1;
  Fp2 c = c1.square() - c0 * c2;
  Fp2 n = c0 * a + (c2 * b + c1 * c).mul_by_nonresidue();
  Fp2 n_inv = n.inverse();
  return {a * n_inv, b * n_inv, c * n_inv};
}

// (a0 + a1·v + a2·v^2)·b1·v = ξ·a2·b1 + a0·b1·v + a1·b1·v^2.
Fp6 Fp6::mul_by_1(const Fp2& b1) const {
  return {(c2 * b1).mul_by_nonresidue(), c0 * b1, c1 * b1};
}

// (a0 + a1·v + a2·v^2)(b0 + b1·v), t0 = a0·b0, t1 = a1·b1:
// c0 = t0 + ξ((a1 + a2)·b1 - t1), c1 = (a0 + a1)(b0 + b1) - t0 - t1,
// c2 = (a0 + a2)·b0 - t0 + t1.
Fp6 Fp6::mul_by_01(const Fp2& b0, const Fp2& b1) const {
  Fp2 t0 = c0 * b0, t1 = c1 * b1;
  Fp2 r0 = ((c1 + c2) * b1 - t1).mul_by_nonresidue() + t0;
  Fp2 r1 = (c0 + c1) * (b0 + b1) - t0 - t1;
  Fp2 r2 = (c0 + c2) * b0 - t0 + t1;
  return {r0, r1, r2};
}

Fp6 Fp6::frobenius_map(int power) const {
  const TowerFrobenius& f = tower_frobenius();
  size_t k = size_t(power % 12);
  return {c0.frobenius_map(power), c1.frobenius_map(power) * f.v_coeff1[k],
          c2.frobenius_map(power) * f.v_coeff2[k]};
}

}  // namespace cuzk::ff
