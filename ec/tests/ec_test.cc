// Property tests of the G1/G2 arithmetic with fresh random inputs each run:
// group laws, agreement of the three point forms, scalar multiplication against
// a naive double-and-add, subgroup checks against the definition [r]P = O, and
// the endomorphism constants re-derived from their definitions. Values from
// @noble/curves are checked in ec_noble_test.cc.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "cuzk/base/random.h"
#include "cuzk/ec/curves.h"
#include "cuzk/ec/fixed_base.h"

namespace cuzk::ec {
namespace {

uint64_t fresh_seed() { return cuzk::fresh_test_seed(); }

template <class C>
Affine<C> random_point(TestRng& rng) {
  return mul(Affine<C>::generator(), ff::Fr::random(rng)).to_affine();
}

// The same point with a random Z (Jacobian) or random ZZ = t^2, ZZZ = t^3 (XYZZ),
// so that comparisons and additions see non-normalised inputs.
template <class C>
Jacobian<C> scrambled_jacobian(const Affine<C>& a, TestRng& rng) {
  using F = typename C::Field;
  if (a.is_infinity()) return Jacobian<C>::identity();
  F z = F::random(rng);
  F z2 = z.square();
  return Jacobian<C>{a.x * z2, a.y * z2 * z, z};
}
template <class C>
Xyzz<C> scrambled_xyzz(const Affine<C>& a, TestRng& rng) {
  using F = typename C::Field;
  if (a.is_infinity()) return Xyzz<C>::identity();
  F t = F::random(rng);
  F zz = t.square();
  F zzz = zz * t;
  return Xyzz<C>{a.x * zz, a.y * zzz, zz, zzz};
}

// Reference [k]P: right-to-left double-and-add over the bits of k, using only
// affine-input mixed additions and doublings (a different order of operations
// from the windowed multiplication).
template <class C>
Jacobian<C> naive_mul(const Affine<C>& p, const ff::Limbs<4>& k) {
  Jacobian<C> acc = Jacobian<C>::identity();
  Jacobian<C> base = Jacobian<C>::from_affine(p);
  for (int i = 0; i < 256; ++i) {
    if (ff::limbs_bit<4>(k, i)) acc = base + acc;
    base = base.dbl();
  }
  return acc;
}

template <class C>
class CurveTest : public ::testing::Test {};
using Curves = ::testing::Types<G1Curve, G2Curve>;
TYPED_TEST_SUITE(CurveTest, Curves);

TYPED_TEST(CurveTest, GeneratorIsOnCurveAndNotInfinity) {
  using C = TypeParam;
  auto g = Affine<C>::generator();
  EXPECT_TRUE(g.is_on_curve());
  EXPECT_FALSE(g.is_infinity());
  EXPECT_TRUE(Affine<C>::identity().is_infinity());
  EXPECT_TRUE(Affine<C>::identity().is_on_curve());
  EXPECT_TRUE(Jacobian<C>::identity().is_infinity());
  EXPECT_TRUE(Xyzz<C>::identity().is_infinity());
  Affine<C> bad{g.x, g.y + C::Field::one()};
  EXPECT_FALSE(bad.is_on_curve());
  TestRng rng(fresh_seed());
  EXPECT_TRUE(scrambled_jacobian(g, rng).is_on_curve());
  EXPECT_FALSE(scrambled_jacobian(bad, rng).is_on_curve());
}

TYPED_TEST(CurveTest, GroupLaws) {
  using C = TypeParam;
  using J = Jacobian<C>;
  TestRng rng(fresh_seed());
  for (int i = 0; i < 20; ++i) {
    auto pa = random_point<C>(rng), qa = random_point<C>(rng), ra = random_point<C>(rng);
    J p = scrambled_jacobian(pa, rng), q = scrambled_jacobian(qa, rng), r = scrambled_jacobian(ra, rng);
    EXPECT_EQ((p + q) + r, p + (q + r));
    EXPECT_EQ(p + q, q + p);
    EXPECT_EQ(p + J::identity(), p);
    EXPECT_EQ(J::identity() + p, p);
    EXPECT_TRUE((p + (-p)).is_infinity());
    EXPECT_TRUE((p - p).is_infinity());
    EXPECT_EQ(p + p, p.dbl());
    EXPECT_EQ(p.dbl() + p, p + p.dbl());
    EXPECT_EQ((p + q) - q, p);
    EXPECT_TRUE((p + q).is_on_curve());
    EXPECT_TRUE(p.dbl().is_on_curve());
    EXPECT_NE(p, q);
    EXPECT_NE(p, -p);
  }
  EXPECT_TRUE(J::identity().dbl().is_infinity());
  EXPECT_TRUE((J::identity() + J::identity()).is_infinity());
}

TYPED_TEST(CurveTest, MixedAdditionSpecialCases) {
  using C = TypeParam;
  using J = Jacobian<C>;
  TestRng rng(fresh_seed());
  for (int i = 0; i < 10; ++i) {
    auto pa = random_point<C>(rng), qa = random_point<C>(rng);
    J p = scrambled_jacobian(pa, rng);
    EXPECT_EQ(p + qa, p + J::from_affine(qa));
    EXPECT_EQ(p + pa, p.dbl());                 // P + P
    EXPECT_TRUE((p + (-pa)).is_infinity());      // P + (−P)
    EXPECT_EQ(p + Affine<C>::identity(), p);     // P + O
    EXPECT_EQ(J::identity() + pa, pa);           // O + P
    EXPECT_EQ(p - qa, p - J::from_affine(qa));
  }
}

TYPED_TEST(CurveTest, XyzzAgreesWithJacobian) {
  using C = TypeParam;
  using J = Jacobian<C>;
  using X = Xyzz<C>;
  TestRng rng(fresh_seed());
  for (int i = 0; i < 20; ++i) {
    auto pa = random_point<C>(rng), qa = random_point<C>(rng);
    X p = scrambled_xyzz(pa, rng), q = scrambled_xyzz(qa, rng);
    J pj = scrambled_jacobian(pa, rng), qj = scrambled_jacobian(qa, rng);
    EXPECT_TRUE(p == pa);
    EXPECT_TRUE(p == pj);
    EXPECT_TRUE(p.to_jacobian() == pj);
    EXPECT_EQ(X::from_jacobian(pj), p);
    EXPECT_EQ(p.to_affine(), pa);
    X mixed = p;
    mixed += qa;
    EXPECT_TRUE(mixed == pj + qj);
    EXPECT_TRUE(p + q == pj + qa);
    EXPECT_EQ(mixed, p + q);
    EXPECT_TRUE(p.dbl() == pj.dbl());
    EXPECT_TRUE(p + p == pj.dbl());
    X twice = p;
    twice += pa;  // P + P through the mixed addition
    EXPECT_TRUE(twice == pj.dbl());
    X cancel = p;
    cancel += -pa;  // P + (−P)
    EXPECT_TRUE(cancel.is_infinity());
    cancel -= qa;  // O + (−Q)
    EXPECT_TRUE(cancel == -qa);
    X same = p;
    same += Affine<C>::identity();
    EXPECT_EQ(same, p);
    EXPECT_TRUE((p + (-p)).is_infinity());
    EXPECT_EQ(p + X::identity(), p);
    EXPECT_EQ(X::identity() + p, p);
    EXPECT_TRUE(X::dbl_affine(pa) == pj.dbl());
    EXPECT_FALSE(p == qa);
    EXPECT_FALSE(p == -pa);
  }
  EXPECT_TRUE(X::identity().dbl().is_infinity());
  EXPECT_TRUE(X::identity().to_jacobian().is_infinity());
  EXPECT_TRUE(X::identity().to_affine().is_infinity());
}

TYPED_TEST(CurveTest, ScalarMultiplication) {
  using C = TypeParam;
  using J = Jacobian<C>;
  TestRng rng(fresh_seed());
  const ff::Fr r_minus_1 = -ff::Fr::one();
  for (int i = 0; i < 5; ++i) {
    auto pa = random_point<C>(rng);
    J p = J::from_affine(pa);
    EXPECT_TRUE(mul(p, ff::Fr::zero()).is_infinity());
    EXPECT_EQ(mul(p, ff::Fr::one()), p);
    EXPECT_EQ(mul(p, ff::Fr::from_uint(2)), p.dbl());
    EXPECT_EQ(mul(p, r_minus_1), -p);
    EXPECT_TRUE(mul(pa, std::span<const uint64_t>(kGroupOrder)).is_infinity());
    ff::Fr a = ff::Fr::random(rng), b = ff::Fr::random(rng);
    EXPECT_EQ(mul(p, a + b), mul(p, a) + mul(p, b));
    EXPECT_EQ(mul(p, a * b), mul(mul(p, a), b));
    EXPECT_EQ(mul(pa, a), naive_mul(pa, a.canonical()));
    // Raw limbs are not reduced: k + r gives the same point, k = r + r too.
    ff::Limbs<5> k_plus_r{};
    auto kc = a.canonical();
    uint64_t carry = 0;
    for (int j = 0; j < 4; ++j) k_plus_r[size_t(j)] = ff::adc(kc[size_t(j)], kGroupOrder[size_t(j)], carry);
    k_plus_r[4] = carry;
    EXPECT_EQ(mul(p, std::span<const uint64_t>(k_plus_r)), mul(p, a));
    uint64_t small = rng();
    uint64_t limb[1] = {small};
    EXPECT_EQ(mul_u64(p, small), mul(p, std::span<const uint64_t>(limb)));
    EXPECT_EQ(mul_u64(pa, small), mul(p, ff::Fr::from_uint(small)));
  }
  EXPECT_TRUE(mul(J::identity(), ff::Fr::from_uint(5)).is_infinity());
  EXPECT_TRUE(mul(J::generator(), std::span<const uint64_t>()).is_infinity());
}

TYPED_TEST(CurveTest, BatchNormalizeMatchesToAffine) {
  using C = TypeParam;
  TestRng rng(fresh_seed());
  std::vector<Jacobian<C>> js;
  std::vector<Xyzz<C>> xs;
  for (int i = 0; i < 17; ++i) {
    auto a = (i % 5 == 2) ? Affine<C>::identity() : random_point<C>(rng);
    js.push_back(scrambled_jacobian(a, rng));
    xs.push_back(scrambled_xyzz(a, rng));
  }
  auto ja = batch_normalize<C>(std::span<const Jacobian<C>>(js));
  auto xa = batch_normalize<C>(std::span<const Xyzz<C>>(xs));
  ASSERT_EQ(ja.size(), js.size());
  for (size_t i = 0; i < js.size(); ++i) {
    EXPECT_EQ(ja[i], js[i].to_affine()) << i;
    EXPECT_EQ(xa[i], xs[i].to_affine()) << i;
    EXPECT_EQ(ja[i], xa[i]) << i;
  }
  EXPECT_TRUE(ja[2].is_infinity());
  std::vector<Jacobian<C>> empty;
  EXPECT_TRUE(batch_normalize<C>(std::span<const Jacobian<C>>(empty)).empty());
}

// The fixed-base table against the windowed multiplication (scalar_mul.h)
// on the edge scalars (digits 0 and 2^12 − 1 in every window, the top window
// alone, r − 1), and against running sums on a batch longer than the table's
// internal batch of 4096: k_i = a + i·b, so [k_i]P = [k_(i−1)]P + [b]P, with
// zeros and repeats among them.
TYPED_TEST(CurveTest, FixedBaseTableMatchesScalarMultiplication) {
  using C = TypeParam;
  using J = Jacobian<C>;
  TestRng rng(fresh_seed());
  const Affine<C> p = random_point<C>(rng);
  const FixedBaseTable<C> table(p);
  auto from_limbs = [](ff::Limbs<4> l) { return ff::Fr::from_canonical_unchecked(l); };
  std::vector<ff::Fr> edge = {ff::Fr::zero(), ff::Fr::one(), ff::Fr::from_uint(2), ff::Fr::from_uint(4095),
                              ff::Fr::from_uint(4096), -ff::Fr::one(), -ff::Fr::from_uint(2),
                              from_limbs({0, 0, 0, uint64_t(1) << 60}),                     // 2^252
                              from_limbs({~0ull, ~0ull, ~0ull, (uint64_t(1) << 60) - 1}),  // 2^252 − 1
                              ff::Fr::random(rng)};
  std::vector<Affine<C>> got(edge.size());
  table.mul_batch(edge, got);
  for (size_t i = 0; i < edge.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(J::from_affine(got[i]), mul(p, edge[i]));
    EXPECT_EQ(table.mul(edge[i]), mul(p, edge[i]));
    EXPECT_TRUE(got[i].is_on_curve());
  }
  EXPECT_TRUE(got[0].is_infinity());

  const ff::Fr a = ff::Fr::random(rng), b = ff::Fr::random(rng);
  const size_t n = 4096 + 45;
  std::vector<ff::Fr> k(n);
  k[0] = a;
  for (size_t i = 1; i < n; ++i) k[i] = k[i - 1] + b;
  const J bp = mul(p, b);
  std::vector<J> want(n);
  want[0] = mul(p, a);
  for (size_t i = 1; i < n; ++i) want[i] = want[i - 1] + bp;
  for (size_t i : {size_t(7), size_t(4095), size_t(4096)}) {  // zeros, one at each side of the batch boundary
    k[i] = ff::Fr::zero();
    want[i] = J::identity();
  }
  k[100] = k[99];  // a repeat
  want[100] = want[99];
  got.assign(n, Affine<C>{});
  table.mul_batch(k, got);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(J::from_affine(got[i]), want[i]) << i;
}

TYPED_TEST(CurveTest, SubgroupCheckMatchesDefinition) {
  using C = TypeParam;
  TestRng rng(fresh_seed());
  for (int i = 0; i < 8; ++i) {
    auto in = random_point<C>(rng);
    EXPECT_TRUE(in_subgroup(in));
    EXPECT_TRUE(in_subgroup_slow(in));
    auto out = random_curve_point<C>(rng);
    ASSERT_TRUE(out.is_on_curve());
    EXPECT_FALSE(in_subgroup_slow(out));
    EXPECT_FALSE(in_subgroup(out));
    // Cofactor clearing maps it into the subgroup.
    auto cleared = clear_cofactor(Jacobian<C>::from_affine(out)).to_affine();
    EXPECT_TRUE(in_subgroup_slow(cleared));
    EXPECT_TRUE(in_subgroup(cleared));
    EXPECT_FALSE(cleared.is_infinity());
    // A subgroup point plus a non-subgroup point is outside.
    auto mixed = (Jacobian<C>::from_affine(in) + out).to_affine();
    EXPECT_FALSE(in_subgroup(mixed));
    EXPECT_FALSE(in_subgroup_slow(mixed));
  }
  EXPECT_TRUE(in_subgroup(Affine<C>::identity()));
  EXPECT_TRUE(validate(Affine<C>::generator()).ok());
}

TEST(G1, CofactorOfCurveOrder) {
  // [h1·r]P = O for every curve point; [r]P ≠ O and [h1]P ≠ O in general.
  TestRng rng(fresh_seed());
  for (int i = 0; i < 4; ++i) {
    auto p = random_curve_point<G1Curve>(rng);
    auto hp = mul(p, std::span<const uint64_t>(kG1Cofactor));
    EXPECT_FALSE(hp.is_infinity());
    EXPECT_TRUE(in_subgroup_slow(hp.to_affine()));
    EXPECT_TRUE(in_subgroup(hp.to_affine()));
    // The effective cofactor 1 − x = 0xd201000000010001.
    const uint64_t heff[1] = {0xd201000000010001};
    EXPECT_EQ(clear_cofactor(G1Jacobian::from_affine(p)), mul(p, std::span<const uint64_t>(heff)));
  }
}

TEST(G2, ClearCofactorIsEffectiveCofactor) {
  // h_eff of RFC 9380 §8.8.2 (independent of the ψ-based formula).
  const uint64_t heff[10] = {0xe8020005aaa95551, 0x59894c0adebbf6b4, 0xe954cbc06689f6a3, 0x2ec0ec69d7477c1a,
                             0x6d82bf015d1212b0, 0x329c2f178731db95, 0x9986ff031508ffe1, 0x88e2a8e9145ad768,
                             0x584c6a0ea91b3528, 0x0bc69f08f2ee75b3};
  TestRng rng(fresh_seed());
  for (int i = 0; i < 3; ++i) {
    auto p = random_curve_point<G2Curve>(rng);
    EXPECT_EQ(clear_cofactor(G2Jacobian::from_affine(p)), mul(p, std::span<const uint64_t>(heff)));
  }
}

// −x² mod r and x mod r as scalars (x = −|x|).
ff::Fr bls_x() { return -ff::Fr::from_uint(ff::kBlsX); }

TEST(G1, EndomorphismConstant) {
  ff::Fp beta = kG1Beta;
  EXPECT_FALSE(beta.is_one());
  EXPECT_TRUE((beta.square() * beta).is_one());
  ff::Fr lambda = -(bls_x().square());
  EXPECT_EQ(mul(g1_generator(), lambda), g1_phi(g1_generator()));
  TestRng rng(fresh_seed());
  auto p = random_g1(rng);
  EXPECT_EQ(mul(p, lambda), g1_phi(p));
}

TEST(G2, PsiConstants) {
  // kPsiX = 1/(1+u)^((p−1)/3), kPsiY = 1/(1+u)^((p−1)/2).
  ff::Fp2 xi(ff::Fp::one(), ff::Fp::one());
  auto pm1 = ff::limbs_sub_small<6>(ff::Fp::kModulus, 1);
  auto half = ff::limbs_shr1<6>(pm1);
  // (p − 1)/3 by long division of the limbs.
  ff::Limbs<6> third{};
  ff::u128 rem = 0;
  for (int i = 5; i >= 0; --i) {
    ff::u128 cur = (rem << 64) | pm1[size_t(i)];
    third[size_t(i)] = uint64_t(cur / 3);
    rem = cur % 3;
  }
  ASSERT_EQ(uint64_t(rem), 0u);
  EXPECT_EQ(xi.pow(third).inverse(), kG2PsiX);
  EXPECT_EQ(xi.pow(half).inverse(), kG2PsiY);
  EXPECT_EQ(ff::Fp2(kG2Psi2X, ff::Fp::zero()), kG2PsiX * kG2PsiX.conjugate());
  // ψ acts as [x] on G2; ψ² = ψ∘ψ; the affine and Jacobian forms agree.
  EXPECT_EQ(mul(g2_generator(), bls_x()), g2_psi(g2_generator()));
  TestRng rng(fresh_seed());
  auto p = random_curve_point<G2Curve>(rng);
  G2Jacobian pj = scrambled_jacobian(p, rng);
  EXPECT_EQ(g2_psi(pj), g2_psi(p));
  EXPECT_EQ(g2_psi2(pj), g2_psi(g2_psi(pj)));
  EXPECT_TRUE(g2_psi(p).is_on_curve());
}

TEST(Layout, AffineIsTwoCoordinatesOfMontgomeryLimbs) {
  G1Affine g = g1_generator();
  uint64_t limbs[12];
  std::memcpy(limbs, &g, sizeof g);
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(limbs[i], g.x.mont()[i]);
    EXPECT_EQ(limbs[6 + i], g.y.mont()[i]);
  }
  G1Affine zero = g;
  const uint8_t zeros[sizeof(G1Affine)] = {};
  std::memcpy(&zero, zeros, sizeof zero);  // all-zero bytes are the point at infinity
  EXPECT_TRUE(zero.is_infinity());
}

}  // namespace
}  // namespace cuzk::ec
