// The constraint-system core: bellperson / bellpepper-core semantics.
#include <gtest/gtest.h>

#include "cuzk/base/random.h"
#include "cuzk/filecoin/cs/recording_cs.h"
#include "cuzk/filecoin/cs/witness_cs.h"
#include "cuzk/r1cs/density.h"
#include "cuzk/r1cs/eval.h"

namespace cuzk::filecoin::snark {
namespace {

// bellpepper-core lc.rs test_add_simplify: adding aux i (i+1) times leaves
// one term per variable whose coefficient is the sum.
TEST(Lc, RepeatsMergeIntoOneTermPerVariable) {
  const int n = 5;
  Lc lc;
  for (int i = 0; i < n; ++i)
    for (int k = 0; k <= i; ++k) lc.add(Var::aux(uint64_t(i)), Fr::one());
  std::vector<LcTerm> terms(lc.terms().begin(), lc.terms().end());
  merge_terms(terms);
  ASSERT_EQ(terms.size(), size_t(n));
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(terms[size_t(i)].var, Var::aux(uint64_t(i)));
    EXPECT_EQ(terms[size_t(i)].coeff, Fr::from_uint(uint64_t(i) + 1));
  }
}

TEST(Lc, CancelledVariablesDisappearAndInputsComeFirst) {
  Lc lc;
  lc.add(Var::aux(3)).add(Var::input(2), Fr::from_uint(5)).sub(Var::aux(3)).add(Var::one());
  std::vector<LcTerm> terms(lc.terms().begin(), lc.terms().end());
  merge_terms(terms);
  ASSERT_EQ(terms.size(), 2u);
  EXPECT_EQ(terms[0].var, Var::one());
  EXPECT_EQ(terms[1].var, Var::input(2));
  EXPECT_EQ(terms[1].coeff, Fr::from_uint(5));
}

// Merging two merged combinations equals merging their concatenation
// (random variables with repeats and cancellations).
TEST(Lc, MergeSortedEqualsMergeOfTheConcatenation) {
  TestRng rng(fresh_test_seed());
  for (int round = 0; round < 200; ++round) {
    std::vector<LcTerm> a, b;
    for (int k = 0; k < int(rng() % 20); ++k) a.push_back({rng() % 3 ? Var::aux(rng() % 16) : Var::input(rng() % 4), Fr::from_uint(rng() % 3 + 1)});
    for (int k = 0; k < int(rng() % 20); ++k) b.push_back({rng() % 3 ? Var::aux(rng() % 16) : Var::input(rng() % 4), -Fr::from_uint(rng() % 3 + 1)});
    std::vector<LcTerm> all = a;
    all.insert(all.end(), b.begin(), b.end());
    merge_terms(all);
    merge_terms(a);
    merge_terms(b);
    merge_sorted_terms(a, b);
    ASSERT_EQ(a.size(), all.size());
    for (size_t i = 0; i < a.size(); ++i) {
      EXPECT_EQ(a[i].var, all[i].var);
      EXPECT_EQ(a[i].coeff, all[i].coeff);
    }
  }
}

TEST(Var, NumberingAndWitnessIndex) {
  EXPECT_TRUE(Var::one().is_input());
  EXPECT_EQ(Var::one().index(), 0u);
  EXPECT_EQ(Var::aux(7).witness_index(3), 10u);
  EXPECT_EQ(Var::input(2).witness_index(3), 2u);
  EXPECT_LT(Var::input(1000).order_key(), Var::aux(0).order_key());
}

// bellpepper-core test_cs.rs test_cs: a·b = product, then a wrong value, and
// a nested namespace path.
template <class CS>
Var mult(CS& cs, uint64_t a_value, uint64_t b_value, uint64_t product_value) {
  Scope<CS> ns(cs, Name("test1"));
  Scope<CS> ns2(cs, Name("test2"));
  Var a = cs.alloc(Name("a"), Fr::from_uint(a_value));
  Var b = cs.alloc(Name("b"), Fr::from_uint(b_value));
  Var p = cs.alloc(Name("product"), Fr::from_uint(product_value));
  cs.enforce(Name("mult"), [&](Lc& lc) { lc.add(a); }, [&](Lc& lc) { lc.add(b); }, [&](Lc& lc) { lc.add(p); });
  return p;
}

TEST(RecordingCs, NamesTheFirstViolatedRowWithItsPath) {
  RecordingCs good({.check = true});
  mult(good, 4, 10, 40);
  EXPECT_TRUE(good.satisfied().ok());
  EXPECT_EQ(good.num_constraints(), 1u);

  RecordingCs bad({.check = true});
  mult(bad, 4, 10, 40);
  mult(bad, 4, 10, 41);
  mult(bad, 4, 10, 42);
  Status s = bad.satisfied();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("constraint 1 (test1/test2/mult)"), std::string::npos) << s.message();
}

TEST(RecordingCs, CountsNonZerosAfterMergingAndTracksDensityAsTheProver) {
  RecordingCs cs;
  Var x = cs.alloc(Name("x"), Fr::zero());
  Var y = cs.alloc(Name("y"), Fr::zero());
  Var in = cs.alloc_input(Name("in"), Fr::zero());
  // A: 2x (x twice) + y - y (cancels) ; B: in + ONE ; C: x
  cs.enforce(
      Name("r"), [&](Lc& lc) { lc.add(x).add(x).add(y).sub(y); }, [&](Lc& lc) { lc.add(in).add(Var::one()); },
      [&](Lc& lc) { lc.add(x); });
  // A: empty; B: y; C: in
  cs.enforce(Name("s"), [&](Lc&) {}, [&](Lc& lc) { lc.add(y); }, [&](Lc& lc) { lc.add(in); });
  EXPECT_EQ(cs.counts().nonzeros, (std::array<uint64_t, 3>{1, 3, 2}));
  EXPECT_EQ(cs.num_inputs(), 2u);
  EXPECT_EQ(cs.num_aux(), 2u);
  r1cs::DensityBitmaps d = cs.density();
  EXPECT_EQ(d.a_aux.popcount, 1u);  // x only: y cancelled
  EXPECT_TRUE(d.a_aux.test(0));
  EXPECT_EQ(d.b_input.popcount, 2u);  // ONE and in
  EXPECT_EQ(d.b_aux.popcount, 1u);    // y
  EXPECT_TRUE(d.b_aux.test(1));
  EXPECT_EQ(d.a_input.popcount, 2u);  // the per-input rows
}

// A random program of allocations and rows with repeats and cancellations,
// run on both back ends: the recorded circuit holds for the witness, its
// density is what the r1cs layer computes from the rows, and a changed aux
// value breaks it.
template <class CS>
void random_program(CS& cs, uint64_t seed) {
  TestRng rng(seed);
  std::vector<Var> vars{Var::one()};
  std::vector<Fr> values{Fr::one()};
  for (int step = 0; step < 300; ++step) {
    const Fr v = Fr::random(rng);
    const bool input = rng() % 8 == 0;
    Var fresh = input ? cs.alloc_input(Name("in ", step), v) : cs.alloc(Name("aux ", step), v);
    vars.push_back(fresh);
    values.push_back(v);
    // fresh·(x + x − y + y) = product, with product allocated afterwards
    const size_t xi = rng() % vars.size(), yi = rng() % vars.size();
    const Fr prod = v * (values[xi] + values[xi]);
    Var p = cs.alloc(Name("p ", step), prod);
    vars.push_back(p);
    values.push_back(prod);
    cs.enforce(
        Name("row ", step), [&](Lc& lc) { lc.add(fresh); },
        [&](Lc& lc) { lc.add(vars[xi]).add(vars[xi]).sub(vars[yi]).add(vars[yi]); }, [&](Lc& lc) { lc.add(p); });
  }
}

TEST(Backends, RecordedRowsHoldForTheWitnessAndDensityMatchesTheRows) {
  const uint64_t seed = fresh_test_seed();
  WitnessCs shape;
  random_program(shape, seed);
  std::vector<Fr> w = std::move(shape).take_witness();

  WitnessCs witness_cs;
  random_program(witness_cs, seed);
  const uint64_t num_inputs = witness_cs.num_inputs();
  r1cs::CircuitBuilder builder(num_inputs, witness_cs.num_aux());
  RecordingCs rec({.sink = &builder, .num_inputs = num_inputs, .check = true});
  random_program(rec, seed);
  ASSERT_TRUE(rec.status().ok()) << rec.status().to_string();
  ASSERT_TRUE(rec.satisfied().ok());
  EXPECT_EQ(rec.num_constraints(), witness_cs.num_constraints());

  auto circuit = std::move(builder).build();
  ASSERT_TRUE(circuit.ok()) << circuit.status().to_string();
  ASSERT_EQ(w.size(), circuit->num_vars());
  EXPECT_TRUE(r1cs::is_satisfied(*circuit, w).ok());
  EXPECT_EQ(circuit->num_nonzeros(r1cs::Matrix::kA), rec.counts().nonzeros[0]);
  EXPECT_EQ(circuit->num_nonzeros(r1cs::Matrix::kB), rec.counts().nonzeros[1]);
  EXPECT_EQ(circuit->num_nonzeros(r1cs::Matrix::kC), rec.counts().nonzeros[2]);

  r1cs::DensityBitmaps expect = r1cs::compute_density(*circuit);
  r1cs::DensityBitmaps got = rec.density();
  EXPECT_EQ(got.a_input, expect.a_input);
  EXPECT_EQ(got.a_aux, expect.a_aux);
  EXPECT_EQ(got.b_input, expect.b_input);
  EXPECT_EQ(got.b_aux, expect.b_aux);

  w[num_inputs + 1] += Fr::one();  // the first product
  EXPECT_FALSE(r1cs::is_satisfied(*circuit, w).ok());
}

TEST(WitnessCs, TakesTheBufferWhenTheShapeWasKnown) {
  WitnessCs cs({.expected_inputs = 2, .expected_aux = 1});
  cs.alloc(Name("a"), Fr::from_uint(9));
  cs.alloc_input(Name("x"), Fr::from_uint(5));
  std::vector<Fr> w = std::move(cs).take_witness();
  ASSERT_EQ(w.size(), 3u);
  EXPECT_EQ(w[0], Fr::one());
  EXPECT_EQ(w[1], Fr::from_uint(5));
  EXPECT_EQ(w[2], Fr::from_uint(9));

  WitnessCs grown;
  grown.alloc(Name("a"), Fr::from_uint(9));
  grown.alloc_input(Name("x"), Fr::from_uint(5));
  EXPECT_EQ(std::move(grown).take_witness(), w);
}

TEST(RecordingCs, AnInputBeyondTheSinksCountIsAnError) {
  r1cs::CircuitBuilder builder(1, 0);
  RecordingCs cs({.sink = &builder, .num_inputs = 1});
  cs.alloc_input(Name("extra"), Fr::one());
  EXPECT_FALSE(cs.status().ok());
}

}  // namespace
}  // namespace cuzk::filecoin::snark
