// Property tests for Fp6 and Fp12: field axioms, inverses, the sparse
// products against full products, Frobenius maps against the p-power map
// computed by plain exponentiation, and cyclotomic squaring against squaring.
// Values from @noble/curves are compared in pairing/tests/pairing_noble_test.cc.
#include <gtest/gtest.h>

#include <cstdio>

#include "cuzk/base/random.h"
#include "cuzk/ff/fp12.h"
#include "cuzk/ff/fp6.h"

namespace cuzk::ff {
namespace {

uint64_t fresh_seed() { return cuzk::fresh_test_seed(); }

const Fp2 kXi(Fp::one(), Fp::one());

template <class F>
void expect_field_axioms(const F& a, const F& b, const F& c) {
  EXPECT_EQ(a + b, b + a);
  EXPECT_EQ((a + b) + c, a + (b + c));
  EXPECT_EQ(a * b, b * a);
  EXPECT_EQ((a * b) * c, a * (b * c));
  EXPECT_EQ(a * (b + c), a * b + a * c);
  EXPECT_EQ(a - b, a + (-b));
  EXPECT_EQ(a - a, F::zero());
  EXPECT_EQ(a * F::one(), a);
  EXPECT_EQ(a * F::zero(), F::zero());
  EXPECT_EQ(a.square(), a * a);
  EXPECT_EQ(a * a.inverse(), F::one());
  EXPECT_EQ((a * b).inverse(), a.inverse() * b.inverse());
}

TEST(Fp6, FieldAxiomsAndInverse) {
  TestRng rng(fresh_seed());
  for (int i = 0; i < 50; ++i) {
    expect_field_axioms(Fp6::random(rng), Fp6::random(rng), Fp6::random(rng));
  }
  EXPECT_EQ(Fp6::zero().inverse(), Fp6::zero());
  EXPECT_EQ(Fp6::one().inverse(), Fp6::one());
  // Elements with zero coefficients exercise other paths of the norm.
  Fp6 sparse(Fp2(), Fp2::random(rng), Fp2());
  EXPECT_EQ(sparse * sparse.inverse(), Fp6::one());
}

TEST(Fp6, NonResidueAndSparseProducts) {
  TestRng rng(fresh_seed());
  const Fp6 v(Fp2(), Fp2::one(), Fp2());
  EXPECT_EQ(v * v * v, Fp6(kXi, Fp2(), Fp2()));  // v^3 = ξ
  for (int i = 0; i < 30; ++i) {
    Fp6 a = Fp6::random(rng);
    Fp2 b0 = Fp2::random(rng), b1 = Fp2::random(rng);
    EXPECT_EQ(a.mul_by_nonresidue(), a * v);
    EXPECT_EQ(a.mul_by_fp2(b0), a * Fp6(b0, Fp2(), Fp2()));
    EXPECT_EQ(a.mul_by_1(b1), a * Fp6(Fp2(), b1, Fp2()));
    EXPECT_EQ(a.mul_by_01(b0, b1), a * Fp6(b0, b1, Fp2()));
  }
}

TEST(Fp6, FrobeniusIsThePPowerMap) {
  TestRng rng(fresh_seed());
  for (int i = 0; i < 5; ++i) {
    Fp6 a = Fp6::random(rng);
    Fp6 x = a;
    for (int k = 1; k <= 6; ++k) {
      x = x.pow(Fp::kModulus);  // a^(p^k)
      EXPECT_EQ(a.frobenius_map(k), x) << "k=" << k;
    }
    EXPECT_EQ(x, a);  // the map has order 6 on Fp6
    EXPECT_EQ(a.frobenius_map(0), a);
  }
}

TEST(Fp12, FieldAxiomsAndInverse) {
  TestRng rng(fresh_seed());
  for (int i = 0; i < 40; ++i) {
    expect_field_axioms(Fp12::random(rng), Fp12::random(rng), Fp12::random(rng));
  }
  EXPECT_EQ(Fp12::zero().inverse(), Fp12::zero());
  EXPECT_EQ(Fp12::one().inverse(), Fp12::one());
  const Fp12 w(Fp6(), Fp6::one());
  EXPECT_EQ(w.square(), Fp12(Fp6(Fp2(), Fp2::one(), Fp2()), Fp6()));  // w^2 = v
  Fp12 w6 = w.square().square() * w.square();
  EXPECT_EQ(w6, Fp12(Fp6(kXi, Fp2(), Fp2()), Fp6()));  // w^6 = ξ
}

TEST(Fp12, SparseLineProduct) {
  TestRng rng(fresh_seed());
  for (int i = 0; i < 30; ++i) {
    Fp12 a = Fp12::random(rng);
    Fp2 o0 = Fp2::random(rng), o1 = Fp2::random(rng), o4 = Fp2::random(rng);
    Fp12 line(Fp6(o0, o1, Fp2()), Fp6(Fp2(), o4, Fp2()));
    EXPECT_EQ(a.mul_by_014(o0, o1, o4), a * line);
  }
}

TEST(Fp12, FrobeniusIsThePPowerMap) {
  TestRng rng(fresh_seed());
  for (int i = 0; i < 3; ++i) {
    Fp12 a = Fp12::random(rng);
    Fp12 x = a;
    for (int k = 1; k <= 12; ++k) {
      x = x.pow(Fp::kModulus);  // a^(p^k) by plain exponentiation
      EXPECT_EQ(a.frobenius_map(k), x) << "k=" << k;
    }
    EXPECT_EQ(x, a);
    EXPECT_EQ(a.frobenius_map(12), a);
    EXPECT_EQ(a.frobenius_map(0), a);
    EXPECT_EQ(a.conjugate(), a.frobenius_map(6));
    EXPECT_EQ(a.frobenius_map(3).frobenius_map(4), a.frobenius_map(7));
  }
}

TEST(Fp12, FrobeniusCoefficients) {
  // Defining relations: (w_k)^6 = ξ^(p^k - 1), v_coeff1 = w_k^2, v_coeff2 = w_k^4.
  const TowerFrobenius& f = tower_frobenius();
  Fp2 xi_pk = kXi;  // ξ^(p^k)
  for (size_t k = 0; k < 12; ++k) {
    Fp2 w6 = f.w_coeff[k].square() * f.w_coeff[k].square() * f.w_coeff[k].square();
    EXPECT_EQ(w6 * kXi, xi_pk) << k;
    EXPECT_EQ(f.v_coeff1[k], f.w_coeff[k].square()) << k;
    EXPECT_EQ(f.v_coeff2[k], f.v_coeff1[k].square()) << k;
    xi_pk = xi_pk.frobenius_map(1);
  }
  EXPECT_TRUE(f.w_coeff[0].is_one());
  EXPECT_EQ(f.w_coeff[6], -Fp2::one());  // conjugation negates w
}

// x^((p^6 - 1)(p^2 + 1)): the easy part of the final exponentiation, which
// maps any non-zero x into the cyclotomic subgroup.
Fp12 to_cyclotomic(const Fp12& x) {
  Fp12 t = x.conjugate() * x.inverse();
  return t.frobenius_map(2) * t;
}

TEST(Fp12, CyclotomicSquareMatchesSquare) {
  TestRng rng(fresh_seed());
  for (int i = 0; i < 30; ++i) {
    Fp12 c = to_cyclotomic(Fp12::random(rng));
    EXPECT_EQ(c * c.conjugate(), Fp12::one());  // unitary
    EXPECT_EQ(c.cyclotomic_square(), c.square());
    EXPECT_EQ(c.cyclotomic_square().cyclotomic_square(), c.square().square());
    std::array<uint64_t, 2> e{rng(), rng()};
    EXPECT_EQ(c.cyclotomic_pow(e), c.pow(e));
  }
  EXPECT_EQ(Fp12::one().cyclotomic_square(), Fp12::one());
  EXPECT_EQ(Fp12::one().cyclotomic_pow(std::array<uint64_t, 1>{0}), Fp12::one());
  // A non-cyclotomic element is not squared correctly: the precondition matters.
  Fp12 a = Fp12::random(rng);
  EXPECT_NE(a.cyclotomic_square(), a.square());
}

TEST(Fp12, PowSmallExponents) {
  TestRng rng(fresh_seed());
  Fp12 a = Fp12::random(rng);
  EXPECT_EQ(a.pow(std::array<uint64_t, 1>{0}), Fp12::one());
  EXPECT_EQ(a.pow(std::array<uint64_t, 1>{1}), a);
  EXPECT_EQ(a.pow(std::array<uint64_t, 1>{5}), a.square().square() * a);
}

}  // namespace
}  // namespace cuzk::ff
