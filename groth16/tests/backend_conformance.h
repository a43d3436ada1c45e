// Cases every prover backend must pass (ggml's test-backend-ops is the
// model): each case proves with the backend under test and with the oracle
// (the CPU backend) under the same r and s and requires identical proofs;
// cases with an honest key also require the proof to verify. Included by the
// CPU test (groth16_test) and by the CUDA test (groth16_cuda_test, label gpu).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "cuzk/base/random.h"
#include "cuzk/groth16/backend.h"
#include "cuzk/groth16/prover.h"
#include "cuzk/groth16/setup.h"
#include "cuzk/groth16/verifier.h"
#include "cuzk/r1cs/circuit.h"
#include "cuzk/r1cs/eval.h"
#include "cuzk/r1cs/synthetic.h"

namespace cuzk::groth16::conformance {

struct Case {
  std::string name;
  r1cs::Circuit circuit;     // the circuit's own rows
  std::vector<Fr> witness;
  ProvingKey pk;
  r1cs::Circuit prove_circuit;
  CRule c_rule = CRule::kMatrix;
  bool honest_key = true;    // false when key points were replaced (no verification)
};

inline Case finish(std::string name, r1cs::Circuit circuit, std::vector<Fr> witness, KeyLayout layout, uint64_t seed) {
  Case c;
  c.name = std::move(name);
  auto pk = dev_setup(circuit, {.layout = layout, .seed = seed});
  EXPECT_TRUE(pk.ok()) << c.name << ": " << pk.status().to_string();
  if (pk.ok()) c.pk = std::move(pk).value();
  if (layout == KeyLayout::kSnarkjs) {
    c.prove_circuit = append_input_rows(circuit, /*keep_c=*/false).value();
    c.c_rule = CRule::kProductOfAB;
  } else {
    c.prove_circuit = circuit;
  }
  c.circuit = std::move(circuit);
  c.witness = std::move(witness);
  return c;
}

// A synthetic circuit (r1cs/synthetic.h) with the given 0/1 share of aux values.
inline Case synthetic(KeyLayout layout, uint64_t constraints, uint64_t publics, uint64_t aux, double zero_one,
                      uint64_t seed) {
  r1cs::SyntheticParams p{.num_constraints = constraints, .num_public_inputs = publics, .num_aux = aux,
                          .zero_one_fraction = zero_one, .terms_per_lc = 2, .num_distinct_coeffs = 8, .seed = seed};
  auto sc = r1cs::generate_synthetic(p);
  EXPECT_TRUE(sc.ok()) << sc.status().to_string();
  return finish("synthetic m=" + std::to_string(constraints) + " pub=" + std::to_string(publics) +
                    " aux=" + std::to_string(aux) + " 01=" + std::to_string(zero_one),
                std::move(sc->circuit), std::move(sc->witness), layout, seed ^ 0x5eed);
}

// Rows x_i · x_j = x_k over the aux variables, satisfied by all-zero or
// all-one aux (value 0 or 1), plus rows in·ONE = in binding each input.
inline Case uniform(KeyLayout layout, uint64_t constraints, uint64_t publics, uint64_t aux, int value, uint64_t seed) {
  const uint64_t inputs = publics + 1;
  r1cs::CircuitBuilder b(inputs, aux);
  TestRng rng(seed);
  std::vector<Fr> w(inputs + aux, value ? Fr::one() : Fr::zero());
  w[0] = Fr::one();
  for (uint64_t i = 1; i < inputs; ++i) w[i] = Fr::random(rng);
  for (uint64_t i = 1; i < inputs; ++i) {
    r1cs::LinTerm x{i, Fr::one()}, one{0, Fr::one()};
    EXPECT_TRUE(b.add_row({&x, 1}, {&one, 1}, {&x, 1}).ok());
  }
  for (uint64_t r = 0; r < constraints && aux > 0; ++r) {
    // x runs over every aux variable (constraints >= aux), so none is unconstrained.
    r1cs::LinTerm x{inputs + r % aux, Fr::one()}, y{inputs + rng() % aux, Fr::one()}, z{inputs + rng() % aux, Fr::one()};
    EXPECT_TRUE(b.add_row({&x, 1}, {&y, 1}, {&z, 1}).ok());
  }
  auto circuit = std::move(b).build();
  EXPECT_TRUE(circuit.ok()) << circuit.status().to_string();
  return finish(std::string("all-") + (value ? "one" : "zero") + " aux, m=" + std::to_string(constraints),
                std::move(circuit).value(), std::move(w), layout, seed);
}

// Inputs only (no aux: the L query is empty): x·y = z over the public inputs.
inline Case inputs_only(KeyLayout layout, uint64_t seed) {
  r1cs::CircuitBuilder b(4, 0);
  TestRng rng(seed);
  std::vector<Fr> w{Fr::one(), Fr::random(rng), Fr::random(rng), Fr::zero()};
  w[3] = w[1] * w[2];
  r1cs::LinTerm x{1, Fr::one()}, y{2, Fr::one()}, z{3, Fr::one()};
  EXPECT_TRUE(b.add_row({&x, 1}, {&y, 1}, {&z, 1}).ok());
  auto circuit = std::move(b).build();
  EXPECT_TRUE(circuit.ok()) << circuit.status().to_string();
  return finish("inputs only", std::move(circuit).value(), std::move(w), layout, seed);
}

// Replaces some points of every query by the point at infinity (the proof no
// longer verifies, but every backend must still agree).
inline void add_infinities(Case& c, uint64_t seed) {
  TestRng rng(seed);
  auto hit = [&](auto& v) {
    for (size_t k = 0; k < 3 && !v.empty(); ++k) v[rng() % v.size()] = {};
    if (!v.empty()) v[0] = {};
  };
  hit(c.pk.h), hit(c.pk.l), hit(c.pk.a), hit(c.pk.b_g1), hit(c.pk.b_g2);
  c.honest_key = false;
  c.name += " with points at infinity";
}

// The key attached with its circuit: when the backend keeps it, the lane
// makes a, b, c from the witness alone (on its device), checking the rows
// first for CRule::kMatrix, and the proof equals the oracle's from host rows.
inline void expect_rows_on_lane_match(Backend& backend, Lane& lane, Lane& olane,
                                      const std::shared_ptr<const AttachedKey>& okey, const Case& c) {
  AttachOptions ao;
  ao.circuit = &c.prove_circuit;
  ao.c_rule = c.c_rule;
  auto key = backend.attach(c.pk, ao);
  ASSERT_TRUE(key.ok()) << key.status().to_string();
  if (!(*key)->computes_rows()) return;  // a streamed key keeps no circuit
  const Blinding bl = Blinding::random();
  ProveOptions po{.c_rule = c.c_rule};
  for (int round = 0; round < 2; ++round) {
    ProofInputs in{{}, {}, {}, c.witness};
    in.check_rows = c.c_rule == CRule::kMatrix;
    auto proof = prove_on_lane(*key, in, bl, lane, po);
    ASSERT_TRUE(proof.ok()) << proof.status().to_string();
    RowValues rows = compute_rows(c.pk, c.prove_circuit, c.witness, po).value();
    auto expect = prove_on_lane(okey, {rows.a, rows.b, rows.c, c.witness}, bl, olane, po);
    ASSERT_TRUE(expect.ok()) << expect.status().to_string();
    EXPECT_TRUE(*proof == *expect) << "rows made by the lane, round " << round << ": the proof differs from the oracle's";
    EXPECT_GT(lane.times().get("matvec"), -1.0);
  }
}

// A witness that breaks some rows, proved with rows made by the lane: the
// lane names the first broken row as r1cs::is_satisfied does (INVALID_ARGUMENT).
inline void expect_unsatisfied_named(Backend& backend, const Case& c, uint64_t seed) {
  SCOPED_TRACE(c.name + " (broken witness) on " + std::string(backend.name()));
  ASSERT_EQ(c.c_rule, CRule::kMatrix);
  AttachOptions ao;
  ao.circuit = &c.prove_circuit;
  ao.c_rule = c.c_rule;
  auto key = backend.attach(c.pk, ao);
  ASSERT_TRUE(key.ok()) << key.status().to_string();
  ASSERT_TRUE((*key)->computes_rows());
  auto lane = backend.make_lane();
  ASSERT_TRUE(lane.ok());
  TestRng rng(seed);
  std::vector<Fr> w = c.witness;
  const uint64_t var = c.pk.num_inputs + rng() % c.pk.num_aux;
  w[var] += Fr::one();
  Status host = r1cs::is_satisfied(c.circuit, w);
  ProofInputs in{{}, {}, {}, w};
  in.check_rows = true;
  auto proof = prove_on_lane(*key, in, Blinding::random(), **lane, {});
  if (host.ok()) {
    EXPECT_TRUE(proof.ok()) << proof.status().to_string();  // the variable was in no row
    return;
  }
  ASSERT_FALSE(proof.ok());
  EXPECT_EQ(proof.status().code(), StatusCode::kInvalidArgument) << proof.status().to_string();
  const std::string head = host.message().substr(0, host.message().find(" is not satisfied"));
  EXPECT_NE(proof.status().message().find(head + " is not satisfied"), std::string::npos)
      << proof.status().message() << " / host: " << host.message();
  // The lane is still usable.
  ProofInputs good{{}, {}, {}, c.witness};
  good.check_rows = true;
  EXPECT_TRUE(prove_on_lane(*key, good, Blinding::random(), **lane, {}).ok());
}

// Proves `c` twice with each backend (the lanes are reused: a second proof
// on the same buffers must be as right as the first) and compares.
inline void expect_matches_oracle(Backend& backend, Backend& oracle, const Case& c) {
  SCOPED_TRACE(c.name + " on " + std::string(backend.name()));
  // The rows check below attaches the key again, once this one is gone
  // (two streamed CUDA keys of one host key share its pinning: that is
  // CudaProverStreamed.TwoBackendsStreamOneHostKey's to check).
  auto key = std::make_optional(backend.attach(c.pk));
  ASSERT_TRUE(key->ok()) << key->status().to_string();
  auto lane = backend.make_lane();
  ASSERT_TRUE(lane.ok()) << lane.status().to_string();
  auto okey = oracle.attach(c.pk);
  ASSERT_TRUE(okey.ok()) << okey.status().to_string();
  auto olane = oracle.make_lane();
  ASSERT_TRUE(olane.ok()) << olane.status().to_string();
  PreparedVerifyingKey pvk(c.pk.vk);
  const std::vector<Fr> pub(c.witness.begin() + 1, c.witness.begin() + long(c.pk.num_inputs));
  for (int round = 0; round < 2; ++round) {
    const Blinding bl = Blinding::random();
    ProveOptions po{.c_rule = c.c_rule};
    const uint64_t n = c.pk.domain_size();
    auto ha = backend.allocate_inputs(n), hb = backend.allocate_inputs(n), hc = backend.allocate_inputs(n);
    ASSERT_TRUE(ha.ok() && hb.ok() && hc.ok());
    ASSERT_TRUE(compute_rows_into(c.pk, c.prove_circuit, c.witness, ha->span(), hb->span(), hc->span(), po).ok());
    StageTimes t;
    auto proof = prove_on_lane(**key, {ha->span(), hb->span(), hc->span(), c.witness}, bl, **lane, po, &t);
    ASSERT_TRUE(proof.ok()) << proof.status().to_string();
    RowValues rows = compute_rows(c.pk, c.prove_circuit, c.witness, po).value();
    auto expect = prove_on_lane(*okey, {rows.a, rows.b, rows.c, c.witness}, bl, **olane, po);
    ASSERT_TRUE(expect.ok()) << expect.status().to_string();
    EXPECT_TRUE(*proof == *expect) << "round " << round << ": the proof differs from the oracle's";
    if (c.honest_key) {
      EXPECT_TRUE(pvk.verify(pub, *proof).value()) << "round " << round;
    }
  }
  key.reset();
  expect_rows_on_lane_match(backend, **lane, **olane, *okey, c);
}

// The cases up to a domain of 2^max_lg for both layouts.
inline std::vector<Case> standard_cases(int max_lg, uint64_t seed) {
  std::vector<Case> cases;
  for (KeyLayout layout : {KeyLayout::kBellperson, KeyLayout::kSnarkjs}) {
    // Domains 2^1 (1 row + 1 input) up to 2^max_lg, with row counts that are
    // not powers of two.
    cases.push_back(synthetic(layout, 1, 0, 1, 0.5, seed + 1));
    for (int lg = 2; lg <= max_lg; lg += (lg < 8 ? 1 : 3)) {
      const uint64_t rows = std::max<uint64_t>(1, (uint64_t(3) << (lg - 2)) - 1);
      cases.push_back(synthetic(layout, rows, 3, rows, 0.8, seed + uint64_t(lg)));
    }
    cases.push_back(synthetic(layout, 700, 2, 650, 0.0, seed + 100));  // no 0/1 aux value
    cases.push_back(uniform(layout, 500, 2, 300, 0, seed + 101));       // all-zero aux
    cases.push_back(uniform(layout, 500, 2, 300, 1, seed + 102));       // all-one aux
    cases.push_back(inputs_only(layout, seed + 103));
    Case inf = synthetic(layout, 900, 2, 800, 0.8, seed + 104);
    add_infinities(inf, seed + 105);
    cases.push_back(std::move(inf));
  }
  return cases;
}

}  // namespace cuzk::groth16::conformance
