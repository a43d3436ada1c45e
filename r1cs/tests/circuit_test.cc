// Circuit building, validation, matvec, satisfiability and density.
#include <gtest/gtest.h>

#include "cuzk/base/thread_pool.h"
#include "cuzk/r1cs/density.h"
#include "cuzk/r1cs/eval.h"
#include "test_util.h"

namespace cuzk::r1cs {
namespace {

using testing::eval_lincomb;
using testing::fresh_seed;
using testing::RawRow;

// Random rows with unsorted, repeated, cancelling and zero terms.
std::vector<RawRow> random_rows(TestRng& rng, uint64_t rows, uint64_t num_vars) {
  std::vector<Fr> consts = {Fr::one(), -Fr::one(), Fr::from_uint(2), Fr::random(rng), Fr::random(rng)};
  std::vector<RawRow> out(rows);
  for (auto& row : out) {
    for (auto& lc : row.lc) {
      const uint64_t k = rng() % 7;
      for (uint64_t t = 0; t < k; ++t) {
        const uint64_t var = rng() % num_vars;
        const uint64_t pick = rng() % 8;
        Fr c = pick < 5 ? consts[pick] : pick == 5 ? Fr::zero() : Fr::random(rng);
        lc.push_back({var, c});
        if (rng() % 10 == 0) lc.push_back({var, -c});  // cancels to zero
      }
    }
  }
  return out;
}

Circuit build(uint64_t ni, uint64_t na, const std::vector<RawRow>& rows) {
  CircuitBuilder b(ni, na);
  for (const auto& r : rows) EXPECT_TRUE(b.add_row(r.lc[0], r.lc[1], r.lc[2]).ok());
  auto c = std::move(b).build();
  EXPECT_TRUE(c.ok()) << c.status().to_string();
  return *c;
}

std::vector<Fr> random_witness(TestRng& rng, uint64_t n) {
  std::vector<Fr> w(n);
  w[0] = Fr::one();
  for (uint64_t i = 1; i < n; ++i) w[i] = (rng() % 3 == 0) ? Fr::from_uint(rng() & 1) : Fr::random(rng);
  return w;
}

TEST(Builder, NormalizesLinearCombinations) {
  CircuitBuilder b(2, 3);
  Fr x = Fr::from_uint(5);
  std::vector<LinTerm> a = {{4, x}, {1, Fr::one()}, {4, x}, {3, Fr::one()}, {3, -Fr::one()}, {2, Fr::zero()}};
  std::vector<LinTerm> bb = {{0, Fr::one()}};
  ASSERT_TRUE(b.add_row(a, bb, {}).ok());
  auto c = std::move(b).build();
  ASSERT_TRUE(c.ok()) << c.status().to_string();
  auto row = c->row(0, Matrix::kA);
  ASSERT_EQ(row.size(), 2u);  // var 1 (1) and var 4 (5+5); 3 cancelled, 2 zero
  EXPECT_EQ(row[0].var, 1u);
  EXPECT_EQ(c->coeff(row[0]), Fr::one());
  EXPECT_EQ(row[1].var, 4u);
  EXPECT_EQ(c->coeff(row[1]), Fr::from_uint(10));
  EXPECT_EQ(c->row(0, Matrix::kC).size(), 0u);
  EXPECT_EQ(c->coeffs().size(), 2u);  // 1 shared by A and B, 10
  EXPECT_EQ(c->num_nonzeros(Matrix::kA), 2u);
  EXPECT_EQ(c->num_nonzeros(Matrix::kB), 1u);
}

TEST(Builder, RejectsOutOfRangeVariable) {
  CircuitBuilder b(1, 2);
  std::vector<LinTerm> a = {{3, Fr::one()}};
  Status s = b.add_row({}, a, {});
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("row 0 B"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("var 3"), std::string::npos) << s.message();
}

TEST(Validate, CatchesEachDefect) {
  const Fr one = Fr::one();
  auto make = [&](std::vector<uint32_t> offsets, std::vector<Term> terms, std::vector<Fr> coeffs) {
    return Circuit::from_parts({1, 2, 1}, std::move(offsets), std::move(terms), std::move(coeffs));
  };
  EXPECT_TRUE(make({0, 1, 2, 2}, {{1, 0}, {2, 0}}, {one}).ok());
  auto expect_error = [](const StatusOr<Circuit>& c, const std::string& needle) {
    ASSERT_FALSE(c.ok());
    EXPECT_NE(c.status().message().find(needle), std::string::npos) << c.status().message();
  };
  expect_error(make({0, 1, 2}, {{1, 0}, {2, 0}}, {one}), "offsets has 3 entries");
  expect_error(make({0, 1, 2, 3}, {{1, 0}, {2, 0}}, {one}), "offsets end at 3");
  expect_error(make({0, 2, 1, 2}, {{1, 0}, {2, 0}}, {one}), "not monotone");
  expect_error(make({0, 1, 2, 2}, {{1, 0}, {3, 0}}, {one}), "var 3 >= num_vars 3");
  expect_error(make({0, 2, 2, 2}, {{2, 0}, {1, 0}}, {one}), "not strictly increasing");
  expect_error(make({0, 2, 2, 2}, {{1, 0}, {1, 0}}, {one}), "not strictly increasing");
  expect_error(make({0, 1, 2, 2}, {{1, 0}, {2, 1}}, {one}), "coefficient index 1");
  expect_error(make({0, 1, 2, 2}, {{1, 0}, {2, 0}}, {Fr::zero()}), "is zero");
  expect_error(make({0, 1, 2, 2}, {{1, 0}, {2, 0}}, {Fr::from_mont(Fr::kModulus)}), "not reduced");
  expect_error(Circuit::from_parts({0, 2, 0}, {0}, {}, {}), "ONE");
}

TEST(Eval, ComputeAbcMatchesNaiveEvaluation) {
  const uint64_t seed = fresh_seed();
  TestRng rng(seed);
  ThreadPool pool(3);
  for (uint64_t rows : {0ull, 1ull, 17ull, 5000ull, 20000ull}) {
    const uint64_t ni = 1 + rng() % 4, na = 1 + rng() % 300;
    auto raw = random_rows(rng, rows, ni + na);
    Circuit c = build(ni, na, raw);
    auto w = random_witness(rng, ni + na);
    std::vector<Fr> a(rows), b(rows), cc(rows);
    for (ThreadPool* p : {static_cast<ThreadPool*>(nullptr), &pool}) {
      ASSERT_TRUE(compute_abc(c, w, a, b, cc, p).ok());
      for (uint64_t i = 0; i < rows; ++i) {
        ASSERT_EQ(a[i], eval_lincomb(raw[i].lc[0], w)) << "row " << i;
        ASSERT_EQ(b[i], eval_lincomb(raw[i].lc[1], w)) << "row " << i;
        ASSERT_EQ(cc[i], eval_lincomb(raw[i].lc[2], w)) << "row " << i;
      }
    }
  }
}

TEST(Eval, ComputeAbcChecksSizes) {
  CircuitBuilder b(1, 1);
  ASSERT_TRUE(b.add_row({}, {}, {}).ok());
  Circuit c = *std::move(b).build();
  std::vector<Fr> w(2), one(1), none;
  EXPECT_EQ(compute_abc(c, w, none, one, one).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(compute_abc(c, one, one, one, one).code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(compute_abc(c, w, one, one, one).ok());
}

// x0·x1 = x2 style rows over a witness chosen to satisfy them; then one
// witness change breaks exactly the rows that use that variable.
TEST(Eval, IsSatisfiedNamesFirstViolatedConstraint) {
  const uint64_t seed = fresh_seed();
  TestRng rng(seed);
  ThreadPool pool(2);
  const uint64_t ni = 3, na = 20000, rows = 20000;
  std::vector<Fr> w = random_witness(rng, ni + na);
  CircuitBuilder builder(ni, na);
  std::vector<RawRow> raw(rows);
  for (uint64_t i = 0; i < rows; ++i) {  // row i defines var ni + i from earlier vars
    const uint64_t z = ni + i, x = rng() % z, y = rng() % z;
    Fr k = Fr::random(rng);
    raw[i].lc[0] = {{x, k}, {0, Fr::one()}};
    raw[i].lc[1] = {{y, Fr::one()}};
    raw[i].lc[2] = {{z, Fr::one()}};
    w[z] = (k * w[x] + Fr::one()) * w[y];
    ASSERT_TRUE(builder.add_row(raw[i].lc[0], raw[i].lc[1], raw[i].lc[2]).ok());
  }
  Circuit c = *std::move(builder).build();
  EXPECT_TRUE(is_satisfied(c, w).ok());
  EXPECT_TRUE(is_satisfied(c, w, &pool).ok());

  const uint64_t victim = ni + rng() % na;
  w[victim] += Fr::one();
  uint64_t expected = rows;  // the first row whose naive check fails
  for (uint64_t i = 0; i < rows && expected == rows; ++i) {
    if (eval_lincomb(raw[i].lc[0], w) * eval_lincomb(raw[i].lc[1], w) != eval_lincomb(raw[i].lc[2], w)) expected = i;
  }
  ASSERT_LE(expected, victim - ni);
  for (ThreadPool* p : {static_cast<ThreadPool*>(nullptr), &pool}) {
    Status s = is_satisfied(c, w, p);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(s.message().rfind("constraint " + std::to_string(expected) + " is not satisfied", 0), 0u)
        << s.message();
  }
  w[victim] -= Fr::one();
  w[0] = Fr::from_uint(2);
  EXPECT_NE(is_satisfied(c, w).message().find("not 1"), std::string::npos);
  w.pop_back();
  EXPECT_NE(is_satisfied(c, w).message().find("witness has"), std::string::npos);
}

// Hand-written: inputs {ONE, x1, x2}, aux {a0 .. a4} = vars 3 .. 7.
//   row 0: (x1 + a0)·(ONE) = a1
//   row 1: (a2)·(x2 + a2·0) = a3       (the zero term must not count)
//   row 2: (a4 − a4)·(a0) = 0          (cancels: a4 appears in no A row)
TEST(Density, HandWrittenCircuit) {
  const Fr one = Fr::one();
  CircuitBuilder b(3, 5);
  std::vector<LinTerm> a0 = {{1, one}, {3, one}}, b0 = {{0, one}}, c0 = {{4, one}};
  std::vector<LinTerm> a1 = {{5, one}}, b1 = {{2, one}, {5, Fr::zero()}}, c1 = {{6, one}};
  std::vector<LinTerm> a2 = {{7, one}, {7, -one}}, b2 = {{3, one}};
  ASSERT_TRUE(b.add_row(a0, b0, c0).ok());
  ASSERT_TRUE(b.add_row(a1, b1, c1).ok());
  ASSERT_TRUE(b.add_row(a2, b2, {}).ok());
  Circuit c = *std::move(b).build();

  DensityBitmaps with = compute_density(c, {.include_input_rows = true});
  EXPECT_EQ(with.a_input.bit_len, 3u);
  EXPECT_EQ(with.a_input.words, std::vector<uint64_t>{0b111});
  EXPECT_EQ(with.a_input.popcount, 3u);
  EXPECT_EQ(with.a_aux.bit_len, 5u);
  EXPECT_EQ(with.a_aux.words, std::vector<uint64_t>{0b00101});  // a0, a2
  EXPECT_EQ(with.a_aux.popcount, 2u);
  EXPECT_EQ(with.b_input.words, std::vector<uint64_t>{0b101});  // ONE, x2
  EXPECT_EQ(with.b_input.popcount, 2u);
  EXPECT_EQ(with.b_aux.words, std::vector<uint64_t>{0b00001});  // a0
  EXPECT_EQ(with.b_aux.popcount, 1u);

  DensityBitmaps without = compute_density(c, {.include_input_rows = false});
  EXPECT_EQ(without.a_input.words, std::vector<uint64_t>{0b010});  // x1 only
  EXPECT_EQ(without.a_input.popcount, 1u);
  EXPECT_EQ(without.a_aux, with.a_aux);
  EXPECT_EQ(without.b_input, with.b_input);
  EXPECT_EQ(without.b_aux, with.b_aux);
}

// Bits across word boundaries, against a set built from the raw rows.
TEST(Density, RandomCircuitMatchesReference) {
  TestRng rng(fresh_seed());
  ThreadPool pool(3);
  const uint64_t ni = 70, na = 1000;
  auto raw = random_rows(rng, 30000, ni + na);
  Circuit c = build(ni, na, raw);
  std::vector<Fr> sums[2];
  for (auto& s : sums) s.assign(ni + na, Fr::zero());
  std::vector<std::vector<bool>> seen(2, std::vector<bool>(ni + na, false));
  for (const auto& r : raw) {
    for (int m = 0; m < 2; ++m) {
      std::vector<Fr> row_sum(ni + na, Fr::zero());
      std::vector<uint64_t> vars;
      for (const auto& t : r.lc[m]) {
        row_sum[t.var] += t.coeff;
        vars.push_back(t.var);
      }
      for (uint64_t v : vars) seen[m][v] = seen[m][v] || !row_sum[v].is_zero();
    }
  }
  DensityBitmaps d = compute_density(c, {.include_input_rows = false}, &pool);
  for (uint64_t v = 0; v < ni + na; ++v) {
    const bool a_bit = v < ni ? d.a_input.test(v) : d.a_aux.test(v - ni);
    const bool b_bit = v < ni ? d.b_input.test(v) : d.b_aux.test(v - ni);
    ASSERT_EQ(a_bit, bool(seen[0][v])) << v;
    ASSERT_EQ(b_bit, bool(seen[1][v])) << v;
  }
  EXPECT_EQ(d.a_aux.words.size(), (na + 63) / 64);
  EXPECT_EQ(d.a_aux.words.back() >> (na % 64), 0u);  // unused high bits clear
}

}  // namespace
}  // namespace cuzk::r1cs
