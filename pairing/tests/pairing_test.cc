// Algebraic tests of the pairing: bilinearity with fresh random scalars,
// degenerate inputs, non-degeneracy and order r, products of pairings, the
// prepared-G2 path, and the final exponentiation against a plain
// exponentiation by the integer exponent (derived here with schoolbook
// big-integer arithmetic). Exact values from @noble/curves are compared in
// pairing_noble_test.cc.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <vector>

#include "cuzk/base/random.h"
#include "cuzk/ec/curves.h"
#include "cuzk/pairing/pairing.h"

namespace cuzk::pairing {
namespace {

using ec::G1Affine;
using ec::G2Affine;
using ff::Fr;
using Pair = std::pair<G1Affine, G2Affine>;

uint64_t fresh_seed() { return cuzk::fresh_test_seed(); }

G1Affine g1_mul(const Fr& k) { return ec::mul(ec::g1_generator(), k).to_affine(); }
G2Affine g2_mul(const Fr& k) { return ec::mul(ec::g2_generator(), k).to_affine(); }

Gt gt_pow(const Gt& x, const Fr& k) { return x.pow(k.canonical()); }

TEST(Pairing, Bilinearity) {
  TestRng rng(fresh_seed());
  const Gt e = pairing(ec::g1_generator(), ec::g2_generator());
  for (int i = 0; i < 4; ++i) {
    Fr a = Fr::random(rng), b = Fr::random(rng);
    G1Affine pa = g1_mul(a);
    G2Affine qb = g2_mul(b);
    EXPECT_EQ(pairing(pa, qb), gt_pow(e, a * b));
    EXPECT_EQ(pairing(pa, ec::g2_generator()), pairing(ec::g1_generator(), g2_mul(a)));
    // Linearity in each argument: e(P1 + P2, Q) = e(P1, Q)·e(P2, Q).
    G1Affine p2 = g1_mul(b);
    G1Affine sum = (ec::G1Jacobian::from_affine(pa) + p2).to_affine();
    EXPECT_EQ(pairing(sum, qb), pairing(pa, qb) * pairing(p2, qb));
  }
}

TEST(Pairing, InfinityGivesOne) {
  TestRng rng(fresh_seed());
  G1Affine p = ec::random_g1(rng);
  G2Affine q = ec::random_g2(rng);
  EXPECT_TRUE(pairing(p, G2Affine::identity()).is_one());
  EXPECT_TRUE(pairing(G1Affine::identity(), q).is_one());
  EXPECT_TRUE(pairing(G1Affine::identity(), G2Affine::identity()).is_one());
  EXPECT_TRUE(multi_miller_loop(std::span<const Pair>()).is_one());
  EXPECT_TRUE(pairing_product_is_one(std::span<const Pair>()));
  G2Prepared inf(G2Affine::identity());
  EXPECT_TRUE(inf.is_infinity());
}

TEST(Pairing, NonDegenerateOfOrderR) {
  const Gt e = pairing(ec::g1_generator(), ec::g2_generator());
  EXPECT_FALSE(e.is_one());
  EXPECT_TRUE(e.pow(ec::kGroupOrder).is_one());
  EXPECT_EQ(e * e.conjugate(), Gt::one());  // unitary: in the cyclotomic subgroup
}

TEST(Pairing, NegationInverts) {
  TestRng rng(fresh_seed());
  G1Affine p = ec::random_g1(rng);
  G2Affine q = ec::random_g2(rng);
  Gt e = pairing(p, q);
  EXPECT_EQ(pairing(-p, q), e.inverse());
  EXPECT_EQ(pairing(p, -q), e.inverse());
  EXPECT_EQ(pairing(-p, -q), e);
}

TEST(Pairing, ProductChecks) {
  TestRng rng(fresh_seed());
  Fr a = Fr::random(rng);
  G1Affine p = ec::random_g1(rng);
  G2Affine q = ec::random_g2(rng);
  G1Affine ap = ec::mul(p, a).to_affine();
  G2Affine aq = ec::mul(q, a).to_affine();
  const Pair good[] = {{ap, q}, {-p, aq}};
  EXPECT_TRUE(pairing_product_is_one(good));
  const Pair bad[] = {{ap, q}, {p, aq}};
  EXPECT_FALSE(pairing_product_is_one(bad));
  // Pairs with infinity are skipped.
  const Pair with_inf[] = {{G1Affine::identity(), q}, {ap, q}, {p, G2Affine::identity()}, {-p, aq}};
  EXPECT_TRUE(pairing_product_is_one(with_inf));
  EXPECT_EQ(multi_miller_loop(with_inf), multi_miller_loop(good));
}

// A Groth16-shaped equation e(A, B) = e(α, β)·e(L, γ)·e(C, δ) with random
// discrete logs, checked as e(A, B)·e(-α, β)·e(-L, γ)·e(-C, δ) = 1, with and
// without prepared G2 points.
TEST(Pairing, Groth16ShapedRelation) {
  TestRng rng(fresh_seed());
  Fr al = Fr::random(rng), be = Fr::random(rng), ga = Fr::random(rng), de = Fr::random(rng);
  Fr l = Fr::random(rng), c = Fr::random(rng), b = Fr::random(rng);
  Fr a = (al * be + l * ga + c * de) * b.inverse();
  G2Affine beta = g2_mul(be), gamma = g2_mul(ga), delta = g2_mul(de);
  std::vector<Pair> pairs = {
      {g1_mul(a), g2_mul(b)}, {-g1_mul(al), beta}, {-g1_mul(l), gamma}, {-g1_mul(c), delta}};
  EXPECT_TRUE(pairing_product_is_one(pairs));
  G2Prepared pb(pairs[0].second), pbeta(beta), pgamma(gamma), pdelta(delta);
  std::vector<std::pair<G1Affine, const G2Prepared*>> prepared = {
      {pairs[0].first, &pb}, {pairs[1].first, &pbeta}, {pairs[2].first, &pgamma}, {pairs[3].first, &pdelta}};
  EXPECT_TRUE(pairing_product_is_one(prepared));
  EXPECT_EQ(multi_miller_loop(prepared), multi_miller_loop(pairs));
  // A wrong C fails both ways.
  pairs[3].first = -g1_mul(c + Fr::one());
  prepared[3].first = pairs[3].first;
  EXPECT_FALSE(pairing_product_is_one(pairs));
  EXPECT_FALSE(pairing_product_is_one(prepared));
}

TEST(Pairing, PointsOutsideTheSubgroupDoNotCrash) {
  TestRng rng(fresh_seed());
  G1Affine p = ec::random_curve_point<ec::G1Curve>(rng);
  G2Affine q = ec::random_curve_point<ec::G2Curve>(rng);
  ASSERT_TRUE(p.is_on_curve() && q.is_on_curve());
  (void)pairing(p, q);
  (void)pairing(ec::g1_generator(), q);
}

// Non-negative big integers as little-endian 64-bit limbs.
using Big = std::vector<uint64_t>;

Big big(std::span<const uint64_t> limbs) { return Big(limbs.begin(), limbs.end()); }

Big big_mul(const Big& a, const Big& b) {
  Big r(a.size() + b.size(), 0);
  for (size_t i = 0; i < a.size(); ++i) {
    uint64_t carry = 0;
    for (size_t j = 0; j < b.size(); ++j) r[i + j] = ff::mac(r[i + j], a[i], b[j], carry);
    for (size_t k = i + b.size(); carry; ++k) {  // carry is a whole limb here, not a bit
      ff::u128 t = ff::u128(r[k]) + carry;
      r[k] = uint64_t(t);
      carry = uint64_t(t >> 64);
    }
  }
  while (!r.empty() && r.back() == 0) r.pop_back();
  return r;
}

Big big_add(Big a, const Big& b) {
  a.resize(std::max(a.size(), b.size()) + 1, 0);
  uint64_t carry = 0;
  for (size_t i = 0; i < a.size(); ++i) a[i] = ff::adc(a[i], i < b.size() ? b[i] : 0, carry);
  while (!a.empty() && a.back() == 0) a.pop_back();
  return a;
}

// REQUIRES: a >= b.
Big big_sub(Big a, const Big& b) {
  uint64_t borrow = 0;
  for (size_t i = 0; i < a.size(); ++i) a[i] = ff::sbb(a[i], i < b.size() ? b[i] : 0, borrow);
  while (!a.empty() && a.back() == 0) a.pop_back();
  return a;
}

// Division by a single limb; REQUIRES: exact.
Big big_div_small(const Big& a, uint64_t d) {
  Big q(a.size(), 0);
  ff::u128 rem = 0;
  for (size_t i = a.size(); i-- > 0;) {
    ff::u128 cur = (rem << 64) | a[i];
    q[i] = uint64_t(cur / d);
    rem = cur % d;
  }
  EXPECT_EQ(uint64_t(rem), 0u);
  while (!q.empty() && q.back() == 0) q.pop_back();
  return q;
}

Gt pow_big(const Gt& x, const Big& e) {
  Gt r = Gt::one();
  for (size_t i = e.size() * 64; i-- > 0;) {
    r = r.square();
    if ((e[i / 64] >> (i % 64)) & 1) r *= x;
  }
  return r;
}

// Checks the identity behind the hard part, 3(p^4 - p^2 + 1) = r·h with
// h = (x - 1)^2 (x + p)(x^2 + p^2 - 1) + 3, then compares
// final_exponentiation(f) with f^((p^6 - 1)(p^2 + 1)·h) computed by plain
// square-and-multiply, and shows that the result is the cube of the
// "textbook" f^((p^12 - 1)/r).
TEST(FinalExponentiation, EqualsPlainExponentiation) {
  const Big p = big(ff::Fp::kModulus), r = big(ec::kGroupOrder), one = {1}, three = {3};
  const Big ax = {ff::kBlsX};  // |x|; x = -|x|
  const Big p2 = big_mul(p, p), x2 = big_mul(ax, ax);
  const Big phi12 = big_add(big_sub(big_mul(p2, p2), p2), one);  // p^4 - p^2 + 1
  Big h = big_mul(big_add(ax, one), big_add(ax, one));           // (x - 1)^2
  h = big_mul(h, big_sub(p, ax));                                 // (x + p)
  h = big_mul(h, big_sub(big_add(x2, p2), one));                  // (x^2 + p^2 - 1)
  h = big_add(h, three);
  ASSERT_EQ(big_mul(r, h), big_mul(three, phi12));

  TestRng rng(fresh_seed());
  Gt f = Gt::random(rng);
  Gt m = f.conjugate() * f.inverse();  // f^(p^6 - 1): conjugation is the p^6-power map
  Gt p6 = f;
  for (int i = 0; i < 6; ++i) p6 = p6.pow(ff::Fp::kModulus);
  ASSERT_EQ(p6, f.conjugate());
  m = m.pow(ff::Fp::kModulus).pow(ff::Fp::kModulus) * m;  // ^(p^2 + 1)
  Gt expected = pow_big(m, h);
  EXPECT_EQ(final_exponentiation(f), expected);
  Gt textbook = pow_big(m, big_div_small(h, 3));
  EXPECT_NE(textbook, expected);
  EXPECT_EQ(textbook * textbook * textbook, expected);
  EXPECT_TRUE(final_exponentiation(Gt::zero()).is_zero());
  EXPECT_TRUE(final_exponentiation(Gt::one()).is_one());
}

// A rough timing for the log; benchmarks live elsewhere.
TEST(Pairing, RoughTiming) {
  TestRng rng(fresh_seed());
  G1Affine p = ec::random_g1(rng);
  G2Affine q = ec::random_g2(rng);
  G2Prepared prepared(q);
  const std::pair<G1Affine, const G2Prepared*> pp[] = {{p, &prepared}};
  constexpr int kReps = 20;
  auto time_us = [&](auto&& fn) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < kReps; ++i) fn();
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / kReps;
  };
  Gt sink = Gt::one();
  double full = time_us([&] { sink *= pairing(p, q); });
  double ml = time_us([&] { sink *= multi_miller_loop(pp); });
  double fe = time_us([&] { sink = final_exponentiation(sink); });
  std::printf("pairing %.0f us (prepared Miller loop %.0f us, final exponentiation %.0f us)\n", full, ml, fe);
  EXPECT_FALSE(sink.is_zero());
}

}  // namespace
}  // namespace cuzk::pairing
