// The FP64 base-field product (ff/fp48.h) against ff::Fp, on the host with
// the rounding mode switched around its round-toward-zero fused
// multiply-adds (this file is built with -frounding-math). Fresh random
// operands every run, canonical and lazy (in [p, 2p)).
#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>
#include <cstring>

#include "cuzk/base/random.h"
#include "cuzk/ff/fp.h"
#include "cuzk/ff/fp48.h"
#include "cuzk/ff/fr.h"

namespace cuzk::ff {
namespace {

// The round-toward-zero steps floor on purpose; every other operation of the
// product must be exact, which the tests check with the inexact flag (these
// steps leave it as they found it).
struct HostOps {
  static double fma_rz(double x, double y, double z) {
    const bool was_inexact = std::fetestexcept(FE_INEXACT) != 0;
    std::fesetround(FE_TOWARDZERO);
    const double r = std::fma(x, y, z);
    std::fesetround(FE_TONEAREST);
    if (!was_inexact) std::feclearexcept(FE_INEXACT);
    return r;
  }
  static double fma(double x, double y, double z) { return std::fma(x, y, z); }
};

// The limbs sliced from 64-bit words, bit by bit: the reference the
// header's 32-bit slicing (the device's) and the products are checked with.
template <class S = fp48::FpShape>
fp48::Limbs<S::kLimbs> from_words(const uint64_t* w) {
  fp48::Limbs<S::kLimbs> e;
  for (int i = 0; i < S::kLimbs; ++i) e.v[i] = double(fp48::limb48<S>(w, i));
  return e;
}
template <class S = fp48::FpShape>
void to_words(const fp48::Limbs<S::kLimbs>& e, uint64_t* w) {
  for (int k = 0; k < S::kWords; ++k) w[k] = 0;
  for (int i = 0; i < S::kLimbs; ++i) {
    const uint64_t x = uint64_t(e.v[i]);
    const int bit = 48 * i, word = bit / 64, shift = bit % 64;
    if (word >= S::kWords) continue;
    w[word] |= x << shift;
    if (shift > 16 && word + 1 < S::kWords) w[word + 1] |= x >> (64 - shift);
  }
}

using Words = Fp::Repr;

// Montgomery words, as the field keeps them.
template <class F>
typename F::Repr words_of(const F& x) {
  return x.mont();
}

// w + m (w < m: the lazy twin of the same residue, below 2m).
template <class F>
typename F::Repr plus_modulus(typename F::Repr w) {
  limbs_add<F::kLimbs>(w, F::kModulus);
  return w;
}

// w − m where w ≥ m: one subtraction, which brings a value below 2m below m.
template <class F>
typename F::Repr less_modulus_once(typename F::Repr w) {
  if (limbs_geq<F::kLimbs>(w, F::kModulus)) limbs_sub<F::kLimbs>(w, F::kModulus);
  return w;
}

// The product's result as words, checked to be limbs below 2^48 and below 2p,
// then reduced below p.
Words product(const Words& a, const Words& b) {
  const fp48::Elem x = from_words(a.data()), y = from_words(b.data());
  fp48::Elem r;
  std::feclearexcept(FE_INEXACT);
  fp48::mont_mul<HostOps, fp48::FpShape>(r, x, y);
  EXPECT_FALSE(std::fetestexcept(FE_INEXACT)) << "a step of the product rounded";
  for (double v : r.v) {
    EXPECT_GE(v, 0.0);
    EXPECT_LT(v, fp48::kTwo48);
    EXPECT_EQ(v, std::floor(v));
  }
  Words w;
  to_words(r, w.data());
  w = less_modulus_once<Fp>(w);
  EXPECT_FALSE((limbs_geq<Fp::kLimbs>(w, Fp::kModulus))) << "output not below 2p";
  return w;
}

TEST(Fp48, HostRoundingTowardZeroIsInEffect) {
  const double one_ulp = std::ldexp(1.0, -52);
  const double x = 1 + one_ulp, y = 1 - std::ldexp(1.0, -53), z = std::ldexp(1.0, -53);
  // x·y + z = 1 + 2^-52 − 2^-105: to nearest 1 + 2^-52, toward zero 1.
  std::feclearexcept(FE_INEXACT);
  EXPECT_EQ(HostOps::fma_rz(x, y, z), 1.0);
  EXPECT_FALSE(std::fetestexcept(FE_INEXACT));  // fma_rz leaves the flag as it found it
  EXPECT_EQ(HostOps::fma(x, y, z), 1 + one_ulp);
  EXPECT_TRUE(std::fetestexcept(FE_INEXACT));  // so that the products' exactness checks can fail
}

TEST(Fp48, LimbProductSplitIsExact) {
  TestRng rng(fresh_test_seed());
  for (int i = 0; i < 200000; ++i) {
    uint64_t a = rng() & fp48::kMask48, b = rng() & fp48::kMask48;
    if (i < 4) a = i & 1 ? fp48::kMask48 : 0, b = i & 2 ? fp48::kMask48 : 1;
    const double ai = double(a) * fp48::kTwoMinus48;
    const double hi = fp48::floor_product<HostOps>(ai, double(b));
    const double lo = HostOps::fma(ai, double(b), -hi);
    const unsigned __int128 ab = (unsigned __int128)a * b;
    ASSERT_EQ(uint64_t(hi), uint64_t(ab >> 48)) << a << " " << b;
    ASSERT_EQ(uint64_t(lo * fp48::kTwo48), uint64_t(ab) & fp48::kMask48) << a << " " << b;
  }
}

TEST(Fp48, WordsRoundTrip) {
  TestRng rng(fresh_test_seed());
  for (int i = 0; i < 1000; ++i) {
    const Words w = plus_modulus<Fp>(words_of(Fp::random(rng)));
    Words back;
    to_words(from_words(w.data()), back.data());
    ASSERT_EQ(back, w);
  }
}

// The 32-bit word slicing the device uses (from_words32 / to_words32, with
// the bit-pattern conversions the device does with its intrinsics) against the
// 64-bit one, for Fp (12 words) and Fr (8), canonical and lazy.
TEST(Fp48, ThirtyTwoBitWordsSliceAsTheSixtyFourBitOnes) {
  TestRng rng(fresh_test_seed());
  for (int i = 0; i < 2000; ++i) {
    const Words w = i & 1 ? plus_modulus<Fp>(words_of(Fp::random(rng))) : words_of(Fp::random(rng));
    uint32_t w32[12];
    std::memcpy(w32, w.data(), sizeof w32);
    const fp48::Elem a = from_words<fp48::FpShape>(w.data()), b = fp48::from_words32<fp48::FpShape>(w32);
    for (int k = 0; k < fp48::kLimbs; ++k) ASSERT_EQ(a.v[k], b.v[k]) << i << " limb " << k;
    uint32_t back[12];
    fp48::to_words32<fp48::FpShape>(a, back);
    ASSERT_EQ(std::memcmp(back, w32, sizeof back), 0) << i;
  }
  for (int i = 0; i < 2000; ++i) {
    Fr::Repr w = Fr::random(rng).mont();
    if (i & 1) w[3] |= uint64_t(1) << 63;  // any value below 2^256 slices the same
    uint32_t w32[8];
    std::memcpy(w32, w.data(), sizeof w32);
    const fp48::FrElem a = from_words<fp48::FrShape>(w.data()), b = fp48::from_words32<fp48::FrShape>(w32);
    for (int k = 0; k < fp48::FrShape::kLimbs; ++k) ASSERT_EQ(a.v[k], b.v[k]) << i << " limb " << k;
    uint32_t back[8];
    fp48::to_words32<fp48::FrShape>(a, back);
    ASSERT_EQ(std::memcmp(back, w32, sizeof back), 0) << i;
  }
}

TEST(Fp48, MontgomeryProductMatchesFp) {
  TestRng rng(fresh_test_seed());
  const Fp edge[] = {Fp::zero(), Fp::one(), -Fp::one(), Fp::from_uint(2), -Fp::from_uint(2),
                     Fp::from_mont(Fp::Repr{1, 0, 0, 0, 0, 0})};
  std::vector<std::pair<Fp, Fp>> cases;
  for (const Fp& a : edge)
    for (const Fp& b : edge) cases.emplace_back(a, b);
  for (int i = 0; i < 20000; ++i) cases.emplace_back(Fp::random(rng), Fp::random(rng));

  for (size_t i = 0; i < cases.size(); ++i) {
    const auto& [a, b] = cases[i];
    const Words want = words_of(a * b);
    // Canonical and lazy operands: the same residues.
    const Words wa = i & 1 ? plus_modulus<Fp>(words_of(a)) : words_of(a);
    const Words wb = i & 2 ? plus_modulus<Fp>(words_of(b)) : words_of(b);
    ASSERT_EQ(product(wa, wb), want) << "case " << i;
  }
  // The largest operand, 2p − 1 (p − 1 taken lazily): every column at its fullest.
  Words pm1 = Fp::kModulus;
  pm1[0] -= 1;  // p is odd
  const Fp big = Fp::from_mont(pm1);
  ASSERT_EQ(product(plus_modulus<Fp>(pm1), plus_modulus<Fp>(pm1)), words_of(big * big));
  ASSERT_EQ(product(plus_modulus<Fp>(pm1), pm1), words_of(big * big));
}

// Lazy outputs (below 2p) fed back in, as a kernel's chain would.
TEST(Fp48, ChainedLazyProductsMatchFp) {
  TestRng rng(fresh_test_seed());
  const Fp y = Fp::random(rng);
  Fp x = Fp::random(rng);
  const Words wy = words_of(y);
  fp48::Elem e = from_words(words_of(x).data());
  const fp48::Elem ey = from_words(wy.data());
  for (int i = 0; i < 2000; ++i) {
    fp48::mont_mul<HostOps, fp48::FpShape>(e, e, ey);
    x = x * y;
  }
  Words w;
  to_words(e, w.data());
  EXPECT_EQ(less_modulus_once<Fp>(w), words_of(x));
}

// Fr over 6 limbs (R = 2^288): a·b·2^-288, i.e. ff::Fr's product once one
// factor is taken times 2^32; canonical and lazy operands, exact throughout.
TEST(Fp48, FrProductMatchesFrWithAFactorTakenTimes2To32) {
  using FrWords = Fr::Repr;
  TestRng rng(fresh_test_seed());
  const Fr two32 = Fr::from_uint(uint64_t(1) << 32);
  std::vector<std::pair<Fr, Fr>> cases = {{Fr::zero(), Fr::one()}, {Fr::one(), Fr::one()}, {-Fr::one(), -Fr::one()}};
  for (int i = 0; i < 20000; ++i) cases.emplace_back(Fr::random(rng), Fr::random(rng));
  for (size_t i = 0; i < cases.size(); ++i) {
    const auto& [a, b] = cases[i];
    const FrWords wa = i & 1 ? plus_modulus<Fr>(words_of(a)) : words_of(a);
    const FrWords wb = i & 2 ? plus_modulus<Fr>(words_of(b * two32)) : words_of(b * two32);
    fp48::FrElem r;
    std::feclearexcept(FE_INEXACT);
    fp48::mont_mul<HostOps, fp48::FrShape>(r, from_words<fp48::FrShape>(wa.data()),
                                          from_words<fp48::FrShape>(wb.data()));
    ASSERT_FALSE(std::fetestexcept(FE_INEXACT)) << "a step rounded, case " << i;
    for (double v : r.v) ASSERT_TRUE(v >= 0 && v < fp48::kTwo48 && v == std::floor(v)) << "case " << i;
    FrWords got;
    to_words<fp48::FrShape>(r, got.data());
    ASSERT_EQ(less_modulus_once<Fr>(got), words_of(a * b)) << "case " << i;
  }
}

}  // namespace
}  // namespace cuzk::ff
