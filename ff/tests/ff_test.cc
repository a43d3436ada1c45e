// Property tests for the fields, plus constants that formats.md quotes from
// independent implementations (blst, ffjavascript). Values from @noble/curves
// are checked by the differential tests in tests/vectors.
#include <gtest/gtest.h>

#include <random>

#include "cuzk/base/random.h"
#include "cuzk/ff/fp.h"
#include "cuzk/ff/fp2.h"
#include "cuzk/ff/fr.h"

namespace cuzk::ff {
namespace {

uint64_t fresh_seed() { return cuzk::fresh_test_seed(); }

template <class F>
class FieldTest : public ::testing::Test {};
using FieldTypes = ::testing::Types<Fp, Fr>;
TYPED_TEST_SUITE(FieldTest, FieldTypes);

TYPED_TEST(FieldTest, RingAxioms) {
  using F = TypeParam;
  TestRng rng(fresh_seed());
  for (int i = 0; i < 200; ++i) {
    F a = F::random(rng), b = F::random(rng), c = F::random(rng);
    EXPECT_EQ(a + b, b + a);
    EXPECT_EQ((a + b) + c, a + (b + c));
    EXPECT_EQ(a * b, b * a);
    EXPECT_EQ((a * b) * c, a * (b * c));
    EXPECT_EQ(a * (b + c), a * b + a * c);
    EXPECT_EQ(a - a, F::zero());
    EXPECT_EQ(a + (-a), F::zero());
    EXPECT_EQ(a.dbl(), a + a);
    EXPECT_EQ(a.square(), a * a);
    EXPECT_EQ(a.half().dbl(), a);
    if (!a.is_zero()) {
      EXPECT_EQ(a * a.inverse(), F::one());
    }
  }
}

TYPED_TEST(FieldTest, EdgeValues) {
  using F = TypeParam;
  F pm1 = -F::one();  // p - 1
  EXPECT_EQ(pm1 + F::one(), F::zero());
  EXPECT_EQ(pm1 * pm1, F::one());
  EXPECT_EQ(F::zero().inverse(), F::zero());
  EXPECT_EQ(-F::zero(), F::zero());
  EXPECT_EQ(F::one().inverse(), F::one());
  EXPECT_EQ(pm1.inverse(), pm1);
  auto c = pm1.canonical();
  auto m = F::kModulus;
  m[0] -= 1;
  EXPECT_EQ(c, m);
}

TYPED_TEST(FieldTest, BatchInverseMatchesSingle) {
  using F = TypeParam;
  TestRng rng(fresh_seed());
  std::vector<F> xs(37);
  for (auto& x : xs) x = F::random(rng);
  xs[3] = F::zero();
  xs[36] = F::one();
  std::vector<F> ys = xs;
  F::batch_inverse(ys);
  for (size_t i = 0; i < xs.size(); ++i) EXPECT_EQ(ys[i], xs[i].inverse()) << i;
  std::vector<F> empty;
  F::batch_inverse(empty);
}

TYPED_TEST(FieldTest, SqrtAndLegendre) {
  using F = TypeParam;
  TestRng rng(fresh_seed());
  int non_squares = 0;
  for (int i = 0; i < 40; ++i) {
    F a = F::random(rng);
    F sq = a.square(), root;
    ASSERT_TRUE(sq.sqrt(&root));
    EXPECT_TRUE(root == a || root == -a);
    EXPECT_EQ(sq.legendre(), a.is_zero() ? 0 : 1);
    F b = F::random(rng), r2;
    bool ok = b.sqrt(&r2);
    EXPECT_EQ(ok, b.legendre() >= 0);
    if (ok) {
      EXPECT_EQ(r2.square(), b);
    }
    non_squares += !ok;
  }
  EXPECT_GT(non_squares, 0);
  F nr = F::from_uint(std::is_same_v<F, Fp> ? FpParams::kNonResidue : FrParams::kNonResidue), r;
  EXPECT_EQ(nr.legendre(), -1);
  EXPECT_FALSE(nr.sqrt(&r));
  EXPECT_EQ(F::zero().legendre(), 0);
}

TYPED_TEST(FieldTest, BytesAndDecimalRoundTrip) {
  using F = TypeParam;
  TestRng rng(fresh_seed());
  for (int i = 0; i < 50; ++i) {
    F a = F::random(rng);
    uint8_t be[F::kBytes], le[F::kBytes];
    a.to_bytes_be(be);
    a.to_bytes_le(le);
    EXPECT_EQ(F::from_bytes_be(be).value(), a);
    EXPECT_EQ(F::from_bytes_le(le).value(), a);
    EXPECT_EQ(F::from_decimal(a.to_decimal()).value(), a);
  }
  // p itself and all-ones are rejected; wrong length too.
  uint8_t p_le[F::kBytes];
  for (int i = 0; i < F::kLimbs; ++i)
    for (int j = 0; j < 8; ++j) p_le[8 * i + j] = uint8_t(F::kModulus[i] >> (8 * j));
  EXPECT_FALSE(F::from_bytes_le(p_le).ok());
  std::vector<uint8_t> ones(F::kBytes, 0xff);
  EXPECT_FALSE(F::from_bytes_be(ones).ok());
  EXPECT_FALSE(F::from_bytes_be(std::span<const uint8_t>(ones.data(), 5)).ok());
  EXPECT_FALSE(F::from_decimal("").ok());
  EXPECT_FALSE(F::from_decimal("12a").ok());
  EXPECT_FALSE(F::from_decimal("-1").ok());
  EXPECT_EQ(F::from_decimal("0").value(), F::zero());
  EXPECT_EQ(F::from_decimal("000123").value(), F::from_uint(123));
  std::string p_dec = (-F::one()).to_decimal();
  p_dec.back() += 1;  // p - 1 ends in an even digit < 9 for both moduli
  EXPECT_FALSE(F::from_decimal(p_dec).ok());
  EXPECT_FALSE(F::from_decimal(std::string(200, '9')).ok());
}

TEST(Fr, MontgomeryOneMatchesBlstBytes) {
  // formats.md: Fr one in Montgomery form, little-endian bytes.
  const uint8_t expected[32] = {0xfe, 0xff, 0xff, 0xff, 0x01, 0x00, 0x00, 0x00, 0x02, 0x48, 0x03,
                                0x00, 0xfa, 0xb7, 0x84, 0x58, 0xf5, 0x4f, 0xbc, 0xec, 0xef, 0x4f,
                                0x8c, 0x99, 0x6f, 0x05, 0xc5, 0xac, 0x59, 0xb1, 0x24, 0x18};
  EXPECT_EQ(std::memcmp(Fr::one().mont().data(), expected, 32), 0);
}

TEST(Fr, RootsOfUnityBothConventions) {
  // Values from formats.md (bellperson/sppark and ffjavascript tables).
  EXPECT_EQ(root_of_unity(32, RootConvention::kBellperson).to_hex(),
            "16a2a19edfe81f20d09b681922c813b4b63683508c2280b93829971f439f0d2b");
  EXPECT_EQ(root_of_unity(32, RootConvention::kSnarkjs).to_hex(),
            "0212d79e5b416b6f0fd56dc8d168d6c0c4024ff270b3e0941b788f500b912f1f");
  EXPECT_EQ(root_of_unity(27, RootConvention::kBellperson).to_hex(),
            "23397a9300f8f98bece8ea224f31d25db94f1101b1d7a628e2d0a7869f0319ed");
  EXPECT_EQ(root_of_unity(27, RootConvention::kSnarkjs).to_hex(),
            "350fe98d37b7a1144307987fe64cfc70ac96c38ff010ea74eb162203fd88f133");
  EXPECT_EQ(root_of_unity(3, RootConvention::kBellperson).to_hex(),
            "345766f603fa66e78c0625cd70d77ce2b38b21c28713b7007228fd3397743f7a");
  EXPECT_EQ(root_of_unity(3, RootConvention::kSnarkjs).to_hex(),
            "3f96405d25a31660a733b23a98ca5b22a032824078eaa4fe8dd702cb688bc087");
  for (auto c : {RootConvention::kBellperson, RootConvention::kSnarkjs}) {
    for (int k = 0; k <= 32; ++k) {
      Fr w = root_of_unity(k, c);
      Fr x = w;
      for (int i = 0; i < k; ++i) x = x.square();
      EXPECT_TRUE(x.is_one()) << k;  // order divides 2^k
      if (k > 0) {
        Fr y = w;
        for (int i = 0; i < k - 1; ++i) y = y.square();
        EXPECT_EQ(y, -Fr::one()) << k;  // and is exactly 2^k
      }
    }
    EXPECT_EQ(root_of_unity(2, c), root_of_unity(2, RootConvention::kBellperson));  // agree for n <= 4
  }
}

TEST(Fp2, FieldAxiomsAndSqrt) {
  TestRng rng(fresh_seed());
  Fp2 u(Fp::zero(), Fp::one());
  EXPECT_EQ(u.square(), -Fp2::one());
  for (int i = 0; i < 50; ++i) {
    Fp2 a = Fp2::random(rng), b = Fp2::random(rng), c = Fp2::random(rng);
    EXPECT_EQ(a * (b + c), a * b + a * c);
    EXPECT_EQ((a * b) * c, a * (b * c));
    EXPECT_EQ(a.square(), a * a);
    EXPECT_EQ(a * a.inverse(), Fp2::one());
    EXPECT_EQ(a.mul_by_nonresidue(), a * Fp2(Fp::one(), Fp::one()));
    // Frobenius is the p-power map.
    EXPECT_EQ(a.frobenius_map(1), a.pow(Fp::kModulus));
    EXPECT_EQ(a.frobenius_map(2), a);
    Fp2 root;
    ASSERT_TRUE(a.square().sqrt(&root));
    EXPECT_TRUE(root == a || root == -a);
  }
  int fails = 0;
  for (int i = 0; i < 20; ++i) {
    Fp2 a = Fp2::random(rng), r;
    if (!a.sqrt(&r)) {
      ++fails;
    } else {
      EXPECT_EQ(r.square(), a);
    }
  }
  EXPECT_GT(fails, 0);
  Fp2 r;
  ASSERT_TRUE(Fp2(-Fp::one(), Fp::zero()).sqrt(&r));  // -1 = u^2: the alpha == -1 branch
  EXPECT_EQ(r.square(), -Fp2::one());
}

}  // namespace
}  // namespace cuzk::ff

namespace cuzk::ff {
namespace {

// The dispatching multiplication (ADX kernels where the CPU has them) against
// the portable CIOS loop, on edge values and random ones: 0, 1, ±1, ±2, the
// smallest Montgomery value, 1/2, and the largest one, p − 1 in Montgomery form.
template <class F>
void expect_fast_mul_matches_portable() {
  TestRng rng(fresh_seed());
  typename F::Repr small{};
  small[0] = 1;
  typename F::Repr top = F::kModulus;
  top[0] -= 1;
  std::vector<F> vals = {F::zero(), F::one(), -F::one(), F::from_uint(2), -F::from_uint(2),
                         F::from_mont(small), F::one().half(), F::from_mont(top)};
  for (int i = 0; i < 40; ++i) vals.push_back(F::random(rng));
  for (const F& x : vals)
    for (const F& y : vals) ASSERT_EQ(F::mont_mul(x.mont(), y.mont()), F::mont_mul_portable(x.mont(), y.mont()));
  for (int i = 0; i < 200000; ++i) {
    F x = F::random(rng), y = F::random(rng);
    ASSERT_EQ(F::mont_mul(x.mont(), y.mont()), F::mont_mul_portable(x.mont(), y.mont()));
  }
}

TEST(Fp, FastMultiplicationMatchesPortable) { expect_fast_mul_matches_portable<Fp>(); }
TEST(Fr, FastMultiplicationMatchesPortable) { expect_fast_mul_matches_portable<Fr>(); }

}  // namespace
}  // namespace cuzk::ff
