// MSM tests: every result is compared with the naive Σ k_i·P_i built from the
// ec layer's scalar multiplication (an independent double-and-add), plus
// algebraic identities for edge cases. Inputs are fresh random each run.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "cuzk/base/random.h"
#include "cuzk/base/thread_pool.h"
#include "cuzk/ec/curves.h"
#include "cuzk/msm/msm.h"
#include "cuzk/msm/plan.h"
#include "cuzk/msm/split.h"
#include "../src/field_ops.h"

namespace cuzk::msm {
namespace {

using ff::Fr;

uint64_t fresh_seed() { return cuzk::fresh_test_seed(); }

template <class C>
ec::Affine<C> random_point(TestRng& rng) {
  return ec::mul(ec::Affine<C>::generator(), Fr::random(rng)).to_affine();
}

template <class C>
std::vector<ec::Affine<C>> random_points(TestRng& rng, size_t n) {
  std::vector<ec::Affine<C>> v(n);
  for (auto& p : v) p = random_point<C>(rng);
  return v;
}

std::vector<Fr> random_scalars(TestRng& rng, size_t n) {
  std::vector<Fr> v(n);
  for (auto& s : v) s = Fr::random(rng);
  return v;
}

// The reference: Σ k_i·P_i with one scalar multiplication per term.
template <class C>
ec::Jacobian<C> naive_msm(std::span<const ec::Affine<C>> bases, std::span<const Fr> scalars) {
  ec::Jacobian<C> acc = ec::Jacobian<C>::identity();
  for (size_t i = 0; i < bases.size(); ++i) acc += ec::mul(bases[i], scalars[i]);
  return acc;
}

template <class C>
ec::Jacobian<C> run_msm(const std::vector<ec::Affine<C>>& bases, const std::vector<Fr>& scalars,
                        const MsmOptions& options = {}) {
  return msm<C>(bases, scalars, options);
}

template <class C>
class MsmTest : public ::testing::Test {};
using Curves = ::testing::Types<ec::G1Curve, ec::G2Curve>;
TYPED_TEST_SUITE(MsmTest, Curves);

TYPED_TEST(MsmTest, MatchesNaiveAtOddSizes) {
  using C = TypeParam;
  TestRng rng(fresh_seed());
  for (size_t n : {0, 1, 2, 3, 17, 100, 1000}) {
    auto bases = random_points<C>(rng, n);
    auto scalars = random_scalars(rng, n);
    EXPECT_TRUE(run_msm<C>(bases, scalars) == naive_msm<C>(bases, scalars)) << "n=" << n;
  }
}

TYPED_TEST(MsmTest, CanonicalOverloadMatches) {
  using C = TypeParam;
  TestRng rng(fresh_seed());
  auto bases = random_points<C>(rng, 57);
  auto scalars = random_scalars(rng, 57);
  std::vector<ff::Limbs<4>> limbs(scalars.size());
  for (size_t i = 0; i < scalars.size(); ++i) limbs[i] = scalars[i].canonical();
  EXPECT_TRUE(msm<C>(bases, limbs) == naive_msm<C>(bases, scalars));
}

TYPED_TEST(MsmTest, ZeroOneAndMinusOne) {
  using C = TypeParam;
  TestRng rng(fresh_seed());
  const size_t n = 77;
  auto bases = random_points<C>(rng, n);
  ec::Jacobian<C> plain = ec::Jacobian<C>::identity();
  for (const auto& p : bases) plain += p;
  EXPECT_TRUE(run_msm<C>(bases, std::vector<Fr>(n, Fr::zero())).is_infinity());
  EXPECT_TRUE(run_msm<C>(bases, std::vector<Fr>(n, Fr::one())) == plain);
  EXPECT_TRUE(run_msm<C>(bases, std::vector<Fr>(n, -Fr::one())) == -plain);  // r − 1
  // A single non-zero scalar among zeros.
  std::vector<Fr> one_hot(n, Fr::zero());
  one_hot[41] = Fr::random(rng);
  EXPECT_TRUE(run_msm<C>(bases, one_hot) == ec::mul(bases[41], one_hot[41]));
}

TYPED_TEST(MsmTest, RepeatedBasesAndOpposites) {
  using C = TypeParam;
  TestRng rng(fresh_seed());
  const ec::Affine<C> p = random_point<C>(rng);
  // The same point many times: buckets see P + P.
  std::vector<ec::Affine<C>> same(300, p);
  auto scalars = random_scalars(rng, same.size());
  Fr total = Fr::zero();
  for (const Fr& s : scalars) total += s;
  EXPECT_TRUE(run_msm<C>(same, scalars) == ec::mul(p, total));
  // Equal small scalars put P and −P in one bucket; they cancel, Q remains.
  const ec::Affine<C> q = random_point<C>(rng);
  std::vector<ec::Affine<C>> mixed = {p, -p, q, p, -p, -p, p};
  std::vector<Fr> fives(mixed.size(), Fr::from_uint(5));
  EXPECT_TRUE(run_msm<C>(mixed, fives) == ec::mul(q, Fr::from_uint(5)));
  // Many copies of ±P with random scalars (and repeats of each scalar).
  std::vector<ec::Affine<C>> pm(200);
  std::vector<Fr> ks(200);
  for (size_t i = 0; i < pm.size(); ++i) {
    pm[i] = (rng() & 1) ? p : -p;
    ks[i] = (i % 3 == 0) ? Fr::from_uint(rng() % 8) : Fr::random(rng);
  }
  EXPECT_TRUE(run_msm<C>(pm, ks) == naive_msm<C>(pm, ks));
}

// With c = 1 (one bucket, digits ±1 with probability 1/2) the first level
// holds ~n/4 pairs, more than one inversion batch (2048 for G1, 1024 for G2),
// with doublings, cancellations and infinities between ordinary additions.
TYPED_TEST(MsmTest, LevelsSpanningSeveralBatches) {
  using C = TypeParam;
  TestRng rng(fresh_seed());
  const size_t n = sizeof(ec::Affine<C>) <= 96 ? 10000 : 4500;
  auto bases = random_points<C>(rng, 64);
  while (bases.size() < n) {
    const ec::Affine<C> p = bases[rng() % 64];
    const uint64_t u = rng() % 8;
    bases.push_back(u == 0 ? -p : u == 1 ? ec::Affine<C>::identity() : p);
  }
  auto scalars = random_scalars(rng, n);
  for (size_t i = 0; i < n; i += 11) scalars[i] = Fr::from_uint(rng() % 4);
  MsmOptions options;
  options.window_bits = 1;
  EXPECT_TRUE(run_msm<C>(bases, scalars, options) == naive_msm<C>(bases, scalars));
}

TYPED_TEST(MsmTest, InfinityBasesAreSkipped) {
  using C = TypeParam;
  TestRng rng(fresh_seed());
  auto bases = random_points<C>(rng, 150);
  auto scalars = random_scalars(rng, bases.size());
  for (size_t i = 0; i < bases.size(); i += 7) bases[i] = ec::Affine<C>::identity();
  EXPECT_TRUE(run_msm<C>(bases, scalars) == naive_msm<C>(bases, scalars));
  std::vector<ec::Affine<C>> all_inf(40, ec::Affine<C>::identity());
  EXPECT_TRUE(run_msm<C>(all_inf, random_scalars(rng, 40)).is_infinity());
}

TYPED_TEST(MsmTest, EveryWindowSizeAgrees) {
  using C = TypeParam;
  TestRng rng(fresh_seed());
  auto bases = random_points<C>(rng, 150);
  auto scalars = random_scalars(rng, bases.size());
  scalars[3] = -Fr::one();
  scalars[4] = Fr::one();
  bases[5] = bases[6];
  const ec::Jacobian<C> expected = naive_msm<C>(bases, scalars);
  for (int c = 1; c <= 16; ++c) {
    MsmOptions options;
    options.window_bits = c;
    EXPECT_TRUE(run_msm<C>(bases, scalars, options) == expected) << "c=" << c;
  }
}

// Dense bucket sets large enough for the two-level bucket reduction (2^8
// buckets and up, even and odd log2), with every bucket hit several times,
// plus repeated bases, opposite scalars and infinity among the bases.
TYPED_TEST(MsmTest, DenseBucketsMatchNaive) {
  using C = TypeParam;
  TestRng rng(fresh_seed());
  auto bases = random_points<C>(rng, 3000);
  auto scalars = random_scalars(rng, bases.size());
  bases[10] = bases[11];
  scalars[12] = -scalars[13];
  bases[12] = bases[13];
  bases[14] = ec::Affine<C>::identity();
  const ec::Jacobian<C> expected = naive_msm<C>(bases, scalars);
  for (int c : {9, 10, 11}) {
    MsmOptions options;
    options.window_bits = c;
    EXPECT_TRUE(run_msm<C>(bases, scalars, options) == expected) << "c=" << c;
  }
}

// Scalars below 2^bits get ⌈(bits + 1)/c⌉ windows: the top digit's carry
// (a scalar of all ones up to bit bits − 1) must still land in a window.
TYPED_TEST(MsmTest, ShortScalarsMatchNaive) {
  using C = TypeParam;
  TestRng rng(fresh_seed());
  auto bases = random_points<C>(rng, 90);
  bases[3] = bases[4];
  bases[5] = ec::Affine<C>::identity();
  bases[6] = -bases[7];
  for (int bits : {1, 2, 17, 30, 64, 65, 127, 128, 200}) {
    std::vector<Fr> scalars(bases.size());
    for (size_t i = 0; i < scalars.size(); ++i) {
      ff::Limbs<4> k = Fr::random(rng).canonical();
      for (int b = bits; b < 256; ++b) k[size_t(b / 64)] &= ~(uint64_t(1) << (b % 64));
      if (i % 5 == 0) {  // all ones below 2^bits
        k = {};
        for (int b = 0; b < bits; ++b) k[size_t(b / 64)] |= uint64_t(1) << (b % 64);
      }
      scalars[i] = i % 7 == 1 ? Fr::zero() : Fr::from_canonical_unchecked(k);
    }
    const ec::Jacobian<C> expected = naive_msm<C>(bases, scalars);
    for (int c : {0, 1, 4, 9, 13, 16}) {
      MsmOptions options;
      options.window_bits = c;
      EXPECT_TRUE(run_msm<C>(bases, scalars, options) == expected) << "bits=" << bits << " c=" << c;
    }
  }
}

TYPED_TEST(MsmTest, ThreadCountsAgree) {
  using C = TypeParam;
  TestRng rng(fresh_seed());
  auto bases = random_points<C>(rng, 700);
  auto scalars = random_scalars(rng, bases.size());
  const ec::Jacobian<C> expected = naive_msm<C>(bases, scalars);
  for (unsigned threads : {1u, 3u, 12u}) {
    ThreadPool pool(threads);
    for (int c : {0, 9, 16}) {
      MsmOptions options{&pool, c};
      EXPECT_TRUE(run_msm<C>(bases, scalars, options) == expected)
          << "threads=" << threads << " plan: " << plan_for(bases.size(), options).to_string();
    }
  }
}

TYPED_TEST(MsmTest, SplitMatchesMsm) {
  using C = TypeParam;
  TestRng rng(fresh_seed());
  const size_t n = 1500;
  auto bases = random_points<C>(rng, n);
  std::vector<Fr> scalars(n);
  for (auto& s : scalars) {
    const uint64_t u = rng() % 20;  // 45% zeros, 45% ones, 10% random
    s = u < 9 ? Fr::zero() : u < 18 ? Fr::one() : Fr::random(rng);
  }
  bases[10] = ec::Affine<C>::identity();
  const ec::Jacobian<C> expected = naive_msm<C>(bases, scalars);
  EXPECT_TRUE(run_msm<C>(bases, scalars) == expected);
  EXPECT_TRUE(split_msm<C>(bases, scalars) == expected);
  ThreadPool pool(3);
  EXPECT_TRUE(split_msm<C>(bases, scalars, MsmOptions{&pool, 0}) == expected);
}

TYPED_TEST(MsmTest, BatchAddMatchesNaiveSum) {
  using C = TypeParam;
  TestRng rng(fresh_seed());
  for (size_t n : {0, 1, 63, 64, 65, 3000}) {
    auto bases = random_points<C>(rng, std::min<size_t>(n, 40));
    while (bases.size() < n) bases.push_back(bases[rng() % bases.size()]);  // repeats
    for (size_t i = 0; i + 1 < n; i += 97) bases[i + 1] = -bases[i];      // opposites
    if (n > 5) bases[5] = ec::Affine<C>::identity();
    std::vector<uint64_t> bitmap((n + 63) / 64 + 1, 0);
    ec::Jacobian<C> expected = ec::Jacobian<C>::identity();
    for (size_t i = 0; i < n; ++i) {
      if (rng() % 3 == 0) continue;
      bitmap[i / 64] |= uint64_t(1) << (i % 64);
      expected += bases[i];
    }
    bitmap.back() = ~uint64_t(0);  // bits past the end are ignored
    ThreadPool pool(3);
    EXPECT_TRUE(batch_add<C>(bases, bitmap) == expected) << "n=" << n;
    EXPECT_TRUE(batch_add<C>(bases, bitmap, MsmOptions{&pool, 0}) == expected) << "n=" << n;
  }
}

// The kernels' branch-free neg_if against MontField's negation, on random
// values and on 0, 1, p − 1 in every position.
template <class F>
void expect_field_ops_match(TestRng& rng, const std::vector<F>& edges) {
  std::vector<F> values = edges;
  for (int i = 0; i < 200; ++i) values.push_back(F::random(rng));
  for (const F& a : values) {
    EXPECT_TRUE(detail::neg_if(a, false) == a);
    EXPECT_TRUE(detail::neg_if(a, true) == -a);
    EXPECT_TRUE(detail::neg_if(a, true) + a == F::zero());
  }
}

TEST(MsmFieldOpsTest, BranchFreeOpsMatchFieldOperators) {
  TestRng rng(fresh_seed());
  const ff::Fp one = ff::Fp::one(), zero = ff::Fp::zero(), minus_one = -ff::Fp::one();
  expect_field_ops_match<ff::Fp>(rng, {zero, one, minus_one});
  std::vector<ff::Fp2> edges;
  for (const ff::Fp& c0 : {zero, one, minus_one}) {
    for (const ff::Fp& c1 : {zero, one, minus_one}) edges.push_back(ff::Fp2(c0, c1));
  }
  expect_field_ops_match<ff::Fp2>(rng, edges);
}

TEST(MsmPlanTest, SignedDigitsRecomposeTheScalar) {
  TestRng rng(fresh_seed());
  // 0, 1, r − 1 and 2^255 − 1 (the largest scalar the digit rule allows).
  std::vector<ff::Limbs<4>> ks = {
      {0, 0, 0, 0}, {1, 0, 0, 0}, (-Fr::one()).canonical(), {~0ull, ~0ull, ~0ull, ~0ull >> 1}};
  for (int i = 0; i < 50; ++i) ks.push_back(Fr::random(rng).canonical());
  for (const auto& k : ks) {
    for (int c = 1; c <= kMaxWindowBits; ++c) {
      // Σ d_w·2^(w·c) in 5-limb two's complement must equal k.
      ff::Limbs<5> acc{};
      for (int w = 0; w < num_windows_for(c); ++w) {
        const int32_t d = signed_digit(k, w, c);
        ASSERT_LE(std::abs(d), 1 << (c - 1));
        ff::Limbs<5> term{};
        const int bit = w * c;
        const uint64_t mag = uint64_t(std::abs(d));
        term[size_t(bit / 64)] = mag << (bit % 64);
        if (bit % 64 && bit / 64 + 1 < 5) term[size_t(bit / 64) + 1] = mag >> (64 - bit % 64);
        if (d < 0) {
          ff::limbs_sub<5>(acc, term);
        } else {
          ff::limbs_add<5>(acc, term);
        }
      }
      EXPECT_EQ(acc, (ff::Limbs<5>{k[0], k[1], k[2], k[3], 0})) << "c=" << c;
    }
  }
}

TEST(MsmPlanTest, PlansAreConsistent) {
  for (size_t n : {size_t(0), size_t(1), size_t(100), size_t(1) << 16, size_t(1) << 20}) {
    for (unsigned t : {1u, 2u, 16u, 64u}) {
      const MsmPlan plan = make_plan(n, t);
      EXPECT_GE(plan.window_bits, 1);
      EXPECT_LE(plan.window_bits, kMaxWindowBits);
      EXPECT_GE(plan.num_windows * plan.window_bits, 256);
      EXPECT_EQ(plan.num_buckets, size_t(1) << (plan.window_bits - 1));
      EXPECT_GE(plan.point_ranges, 1u);
      EXPECT_GE(plan.chunk_points, 1u);
    }
  }
  EXPECT_EQ(make_plan(1000, 2, 7).window_bits, 7);
  // Short scalars: windows up to bit `bits` (and its carry) only.
  EXPECT_EQ(make_plan(1000, 2, 10, 30).num_windows, 4);
  EXPECT_EQ(make_plan(1000, 2, 10, 29).num_windows, 3);
  EXPECT_EQ(make_plan(1000, 2, 11, 128).num_windows, 12);
  EXPECT_EQ(make_plan(1000, 2, 4, 0).num_windows, 1);
  EXPECT_EQ(make_plan(1000, 2, 11).num_windows, 24);
}

TEST(MsmPlanTest, MaxScalarBits) {
  std::vector<ff::Limbs<4>> ks;
  EXPECT_EQ(max_scalar_bits(ks), 0);
  ks.push_back({0, 0, 0, 0});
  EXPECT_EQ(max_scalar_bits(ks), 0);
  ks.push_back({1, 0, 0, 0});
  EXPECT_EQ(max_scalar_bits(ks), 1);
  ks.push_back({(1u << 30) - 1, 0, 0, 0});
  EXPECT_EQ(max_scalar_bits(ks), 30);
  ks.push_back({0, 1, 0, 0});
  EXPECT_EQ(max_scalar_bits(ks), 65);
  ks.push_back((-Fr::one()).canonical());
  EXPECT_EQ(max_scalar_bits(ks), 255);
}

TEST(MsmSplitTest, ClassifyAndDensity) {
  TestRng rng(fresh_seed());
  const size_t n = 40000;
  std::vector<Fr> scalars(n);
  for (auto& s : scalars) {
    const uint64_t u = rng() % 4;
    s = u == 0 ? Fr::zero() : u == 1 ? Fr::one() : u == 2 ? Fr::from_uint(2) : Fr::random(rng);
  }
  const SplitScalars split = classify(scalars);
  ASSERT_EQ(split.size, n);
  size_t ones = 0, zeros = 0, t = 0;
  for (size_t i = 0; i < n; ++i) {
    const bool bit = (split.ones[i / 64] >> (i % 64)) & 1;
    EXPECT_EQ(bit, scalars[i] == Fr::one());
    ones += scalars[i] == Fr::one();
    zeros += scalars[i].is_zero();
    if (!scalars[i].is_zero() && scalars[i] != Fr::one()) {
      ASSERT_LT(t, split.tail_positions.size());
      EXPECT_EQ(split.tail_positions[t], i);
      EXPECT_EQ(split.tail_scalars[t], scalars[i].canonical());
      ++t;
    }
  }
  EXPECT_EQ(t, split.tail_positions.size());
  EXPECT_EQ(split.ones_count, ones);
  EXPECT_EQ(split.zeros_count, zeros);

  std::vector<uint64_t> density((n + 63) / 64);
  for (auto& w : density) w = rng();
  const size_t bit_count = n - 5;
  auto picked = gather_by_density(scalars, density, bit_count);
  std::vector<Fr> expected;
  for (size_t i = 0; i < bit_count; ++i) {
    if ((density[i / 64] >> (i % 64)) & 1) expected.push_back(scalars[i]);
  }
  EXPECT_EQ(picked, expected);
  EXPECT_EQ(count_density(density, bit_count), expected.size());
}

TEST(MsmSplitTest, DensityFilteredQueryMatchesFullQuery) {
  // Points present only for variables with their density bit set; the
  // filtered MSM equals the full MSM where absent points are infinity.
  TestRng rng(fresh_seed());
  const size_t vars = 300;
  auto scalars = random_scalars(rng, vars);
  std::vector<uint64_t> density((vars + 63) / 64);
  for (auto& w : density) w = rng();
  std::vector<ec::G1Affine> full(vars), filtered;
  for (size_t i = 0; i < vars; ++i) {
    if ((density[i / 64] >> (i % 64)) & 1) {
      full[i] = random_point<ec::G1Curve>(rng);
      filtered.push_back(full[i]);
    }
  }
  auto picked = gather_by_density(scalars, density, vars);
  ASSERT_EQ(picked.size(), filtered.size());
  EXPECT_TRUE(msm<ec::G1Curve>(filtered, picked) == naive_msm<ec::G1Curve>(full, scalars));
}

}  // namespace
}  // namespace cuzk::msm
