// The synthetic generator: satisfiable, covers every aux variable, and
// follows the requested 0/1 share.
#include <gtest/gtest.h>

#include "cuzk/base/thread_pool.h"
#include "cuzk/r1cs/density.h"
#include "cuzk/r1cs/eval.h"
#include "cuzk/r1cs/synthetic.h"
#include "cuzk/r1cs/witness_stats.h"
#include "test_util.h"

namespace cuzk::r1cs {
namespace {

using testing::fresh_seed;

// Every aux variable appears in some row of A, B or C.
uint64_t unused_aux(const Circuit& c) {
  std::vector<bool> used(c.num_aux(), false);
  for (const Term& t : c.terms()) {
    if (t.var >= c.num_inputs()) used[t.var - c.num_inputs()] = true;
  }
  return uint64_t(std::count(used.begin(), used.end(), false));
}

TEST(Synthetic, SatisfiableAndCoveringForManyShapes) {
  const uint64_t seed = fresh_seed();
  ThreadPool pool(2);
  struct Shape { uint64_t m, pub, aux; double p01; uint32_t t; };
  const Shape shapes[] = {{1, 0, 1, 0.5, 1}, {2000, 3, 2000, 0.9, 2}, {2000, 10, 1500, 0.7, 3},
                          {1000, 1, 5000, 0.8, 2}, {3000, 2, 3100, 0.0, 4}, {3000, 2, 2900, 1.0, 1}};
  for (const Shape& s : shapes) {
    SyntheticParams p{s.m, s.pub, s.aux, s.p01, s.t, 16, seed};
    auto g = generate_synthetic(p);
    ASSERT_TRUE(g.ok()) << g.status().to_string();
    EXPECT_EQ(g->circuit.num_constraints(), s.m);
    EXPECT_EQ(g->circuit.num_inputs(), 1 + s.pub);
    EXPECT_EQ(g->circuit.num_aux(), s.aux);
    EXPECT_TRUE(is_satisfied(g->circuit, g->witness, &pool).ok()) << s.m << " " << s.aux;
    EXPECT_EQ(unused_aux(g->circuit), 0u) << s.m << " " << s.aux;
    EXPECT_EQ(g->stats.bit_rows + g->stats.product_rows + g->stats.check_rows, s.m);
  }
}

TEST(Synthetic, ZeroOneFractionRoughlyAsAsked) {
  const uint64_t seed = fresh_seed();
  for (double p01 : {0.0, 0.3, 0.9}) {
    SyntheticParams p;
    p.num_constraints = 40000;
    p.num_aux = 40500;
    p.zero_one_fraction = p01;
    p.seed = seed;
    auto g = generate_synthetic(p);
    ASSERT_TRUE(g.ok());
    uint64_t bits = 0;
    for (uint64_t j = g->circuit.num_inputs(); j < g->witness.size(); ++j) {
      bits += (g->witness[j].is_zero() || g->witness[j].is_one()) ? 1 : 0;
    }
    EXPECT_EQ(bits, g->stats.zero_one_aux);
    const double share = double(bits) / double(p.num_aux);
    EXPECT_NEAR(share, p01, 0.02) << "asked " << p01;
    // ±1, 2^j, the pool and the sums of repeated variables: a small table.
    EXPECT_LT(g->circuit.coeffs().size(), 1000u);
    EXPECT_GT(g->circuit.num_nonzeros(), 100000u);
  }
}

TEST(Synthetic, TermsPerLcAndDeterminism) {
  const uint64_t seed = fresh_seed();
  SyntheticParams p;
  p.num_constraints = 20000;
  p.num_aux = 20000;
  p.zero_one_fraction = 0.0;  // product rows only
  p.terms_per_lc = 3;
  p.seed = seed;
  auto g = generate_synthetic(p);
  ASSERT_TRUE(g.ok());
  // A and B have mean 3 sampled terms (a few merge or cancel), C has z + mean 2.
  const double a = double(g->circuit.num_nonzeros(Matrix::kA)) / double(p.num_constraints);
  const double c = double(g->circuit.num_nonzeros(Matrix::kC)) / double(p.num_constraints);
  EXPECT_NEAR(a, 3.0, 0.15);
  EXPECT_NEAR(c, 3.0, 0.15);
  auto again = generate_synthetic(p);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->witness, g->witness);
  EXPECT_TRUE(std::equal(g->circuit.terms().begin(), g->circuit.terms().end(), again->circuit.terms().begin()));
}

TEST(Synthetic, RejectsBadParameters) {
  SyntheticParams p;
  p.zero_one_fraction = 1.5;
  EXPECT_EQ(generate_synthetic(p).status().code(), StatusCode::kInvalidArgument);
  p = SyntheticParams{};
  p.terms_per_lc = 0;
  EXPECT_EQ(generate_synthetic(p).status().code(), StatusCode::kInvalidArgument);
  p = SyntheticParams{};
  p.num_constraints = 0;
  EXPECT_EQ(generate_synthetic(p).status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace cuzk::r1cs

namespace cuzk::r1cs {
namespace {

// The PoRep-shaped generator: satisfiable, with the densities it promises
// (the A-aux count exactly; B close, since its spread is corrected for the
// overlap with the variables left out of A), and with the value shares of a
// real PoRep partition's witness by query (docs/perf.md §6: L zeros 50.6%,
// ones 46.5%, tail 2.9%; A tail 2.2%; B tail 8.0%), counted as the GPU
// prover's 0/1 split sees them.
TEST(PorepShape, SatisfiableWithThePromisedDensities) {
  const uint64_t seed = cuzk::fresh_test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (int lg : {10, 14}) {
    SCOPED_TRACE("lg " + std::to_string(lg));
    auto sc = generate_porep_shaped(lg, seed);
    ASSERT_TRUE(sc.ok()) << sc.status().to_string();
    const PorepShape s = porep_shape(lg);
    EXPECT_EQ(sc->circuit.num_constraints() + sc->circuit.num_inputs(), s.rows);
    EXPECT_EQ(sc->circuit.num_aux(), s.num_aux);
    EXPECT_LE(s.rows, uint64_t(1) << lg);
    ASSERT_TRUE(is_satisfied(sc->circuit, sc->witness).ok());
    DensityBitmaps d = compute_density(sc->circuit, {.include_input_rows = true});
    EXPECT_EQ(d.a_aux.popcount, s.a_aux);
    EXPECT_EQ(d.b_input.popcount, 1u);  // ONE only
    EXPECT_NEAR(double(d.b_aux.popcount), double(s.b_aux), 0.01 * double(s.b_aux) + 2);

    auto q = classify_query_values(d, sc->witness, s.num_inputs);
    ASSERT_TRUE(q.ok()) << q.status().to_string();
    EXPECT_EQ(sc->stats.zero_one_aux, q->l.zeros + q->l.ones);
    // ≈ 2.9% of aux is tail; wide enough for lg 10's 963 aux values.
    const double zero_one = double(sc->stats.zero_one_aux) / double(s.num_aux);
    EXPECT_GT(zero_one, 0.95);
    EXPECT_LT(zero_one, 0.995);
    // A without the inputs: below lg 20 the public inputs are 1/64 of the
    // domain (a real partition has a few hundred at most), all random, so
    // they would add ≈ 1.6 points to A's tail.
    DensityBitmaps aux_a = d;
    aux_a.a_input = Bitmap(s.num_inputs);
    auto qa = classify_query_values(aux_a, sc->witness, s.num_inputs);
    ASSERT_TRUE(qa.ok()) << qa.status().to_string();
    EXPECT_EQ(qa->a.positions, s.a_aux);
    EXPECT_EQ(q->a.tail() - qa->a.tail(), s.num_inputs - 1);  // ONE is 1, the others random
    if (lg < 14) continue;  // lg 10 has ≈ 250 B variables: too few for the shares
    auto share = [](uint64_t x, const ValueClasses& v) { return double(x) / double(v.positions); };
    EXPECT_EQ(q->l.positions, s.num_aux);
    EXPECT_GE(share(q->l.tail(), q->l), 0.020);
    EXPECT_LE(share(q->l.tail(), q->l), 0.040);
    EXPECT_GE(share(q->l.zeros, q->l), 0.40);
    EXPECT_LE(share(q->l.zeros, q->l), 0.60);
    EXPECT_GE(share(q->l.ones, q->l), 0.40);
    EXPECT_LE(share(q->l.ones, q->l), 0.60);
    EXPECT_GE(share(qa->a.tail(), qa->a), 0.015);
    EXPECT_LE(share(qa->a.tail(), qa->a), 0.040);
    EXPECT_GE(share(q->b.tail(), q->b), 0.05);
    EXPECT_LE(share(q->b.tail(), q->b), 0.11);
  }
  // The exact partition figures at 2^27.
  const PorepShape p = porep_shape(27);
  EXPECT_EQ(p.rows, 130'278'869u);
  EXPECT_EQ(p.num_inputs, 328u);
  EXPECT_EQ(p.num_aux, 130'169'893u);
}

}  // namespace
}  // namespace cuzk::r1cs
