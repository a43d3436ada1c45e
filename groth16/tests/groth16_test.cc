// End-to-end Groth16 on the CPU: dev setup → prove → verify in both key
// layouts, on synthetic circuits of awkward sizes, plus the ways a proof or
// a witness can be wrong. (Interoperability with snarkjs, which checks the
// prover against an independent implementation, lives in tests/interop.)
#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <string_view>

#include "cuzk/base/random.h"
#include "cuzk/base/sha256.h"
#include "cuzk/groth16/backend.h"
#include "cuzk/groth16/prover.h"
#include "cuzk/groth16/setup.h"
#include "cuzk/groth16/verifier.h"
#include "cuzk/r1cs/synthetic.h"

namespace cuzk::groth16 {
namespace {

uint64_t fresh_seed() { return cuzk::fresh_test_seed(); }

struct Fixture {
  r1cs::SyntheticCircuit sc;
  ProvingKey pk;
  r1cs::Circuit prove_circuit;
  CRule c_rule;
};

Fixture make(KeyLayout layout, uint64_t constraints, uint64_t publics, uint64_t aux, uint64_t seed) {
  Fixture f;
  r1cs::SyntheticParams p{.num_constraints = constraints, .num_public_inputs = publics, .num_aux = aux,
                          .zero_one_fraction = 0.7, .terms_per_lc = 2, .num_distinct_coeffs = 8, .seed = seed};
  auto sc = r1cs::generate_synthetic(p);
  EXPECT_TRUE(sc.ok()) << sc.status().to_string();
  f.sc = std::move(sc).value();
  auto pk = dev_setup(f.sc.circuit, {.layout = layout, .seed = seed ^ 0x5eed});
  EXPECT_TRUE(pk.ok()) << pk.status().to_string();
  f.pk = std::move(pk).value();
  if (layout == KeyLayout::kSnarkjs) {
    // A snarkjs key carries A and B with the input rows and no C.
    f.prove_circuit = append_input_rows(f.sc.circuit, /*keep_c=*/false).value();
    f.c_rule = CRule::kProductOfAB;
  } else {
    f.prove_circuit = f.sc.circuit;
    f.c_rule = CRule::kMatrix;
  }
  return f;
}

std::vector<Fr> public_inputs(const Fixture& f) {
  return std::vector<Fr>(f.sc.witness.begin() + 1, f.sc.witness.begin() + long(f.pk.num_inputs));
}

class Groth16Layouts : public ::testing::TestWithParam<KeyLayout> {};

TEST_P(Groth16Layouts, ProveAndVerifyAwkwardSizes) {
  uint64_t seed = fresh_seed();
  auto backend = make_cpu_backend();
  struct Shape { uint64_t m, pub, aux; };
  for (Shape s : {Shape{1, 0, 1}, Shape{5, 1, 4}, Shape{37, 3, 29}, Shape{300, 0, 250}, Shape{1000, 7, 1100}}) {
    SCOPED_TRACE("constraints " + std::to_string(s.m) + " public " + std::to_string(s.pub));
    Fixture f = make(GetParam(), s.m, s.pub, s.aux, seed + s.m);
    StageTimes times;
    auto proof = prove(f.pk, f.prove_circuit, f.sc.witness, Blinding::random(), *backend, {.c_rule = f.c_rule},
                       &times);
    ASSERT_TRUE(proof.ok()) << proof.status().to_string();
    std::vector<Fr> pub = public_inputs(f);
    PreparedVerifyingKey pvk(f.pk.vk);
    EXPECT_TRUE(pvk.verify(pub, *proof).value());

    // A changed public input, a tampered proof and a wrong input count fail.
    if (!pub.empty()) {
      std::vector<Fr> bad = pub;
      bad[0] += Fr::one();
      EXPECT_FALSE(pvk.verify(bad, *proof).value());
    }
    Proof tampered = *proof;
    tampered.c = (ec::G1Jacobian::from_affine(tampered.c) + ec::g1_generator()).to_affine();
    EXPECT_FALSE(pvk.verify(pub, tampered).value());
    Proof swapped = *proof;
    std::swap(swapped.a, swapped.c);
    EXPECT_FALSE(pvk.verify(pub, swapped).value());
    std::vector<Fr> longer = pub;
    longer.push_back(Fr::one());
    EXPECT_FALSE(pvk.verify(longer, *proof).ok());
  }
}

TEST_P(Groth16Layouts, ProofsAreRandomisedButAllVerify) {
  Fixture f = make(GetParam(), 64, 2, 70, fresh_seed());
  auto backend = make_cpu_backend();
  auto p1 = prove(f.pk, f.prove_circuit, f.sc.witness, Blinding::random(), *backend, {.c_rule = f.c_rule});
  auto p2 = prove(f.pk, f.prove_circuit, f.sc.witness, Blinding::random(), *backend, {.c_rule = f.c_rule});
  ASSERT_TRUE(p1.ok() && p2.ok());
  EXPECT_NE(p1->a, p2->a);
  EXPECT_TRUE(verify(f.pk.vk, public_inputs(f), *p1).value());
  EXPECT_TRUE(verify(f.pk.vk, public_inputs(f), *p2).value());
  // Fixed blinding gives a deterministic proof.
  Blinding fixed{Fr::from_uint(3), Fr::from_uint(5)};
  auto d1 = prove(f.pk, f.prove_circuit, f.sc.witness, fixed, *backend, {.c_rule = f.c_rule});
  auto d2 = prove(f.pk, f.prove_circuit, f.sc.witness, fixed, *backend, {.c_rule = f.c_rule});
  EXPECT_EQ(*d1, *d2);
}

INSTANTIATE_TEST_SUITE_P(Both, Groth16Layouts, ::testing::Values(KeyLayout::kBellperson, KeyLayout::kSnarkjs),
                         [](const auto& info) { return std::string(key_layout_name(info.param)); });

TEST(Groth16, UnsatisfiedWitnessNamesTheConstraint) {
  Fixture f = make(KeyLayout::kBellperson, 50, 1, 60, fresh_seed());
  auto backend = make_cpu_backend();
  std::vector<Fr> w = f.sc.witness;
  w.back() += Fr::one();
  auto proof = prove(f.pk, f.prove_circuit, w, Blinding::random(), *backend);
  ASSERT_FALSE(proof.ok());
  EXPECT_NE(proof.status().message().find("constraint"), std::string::npos) << proof.status().to_string();
}

TEST(Groth16, UnsatisfiedWitnessIsCaughtByTheHStepToo) {
  // Without the row check, bellperson's division by Z exposes the witness.
  Fixture f = make(KeyLayout::kBellperson, 50, 1, 60, fresh_seed());
  auto backend = make_cpu_backend();
  std::vector<Fr> w = f.sc.witness;
  w.back() += Fr::one();
  auto proof = prove(f.pk, f.prove_circuit, w, Blinding::random(), *backend, {.check_satisfied = false});
  ASSERT_FALSE(proof.ok());
  EXPECT_EQ(proof.status().code(), StatusCode::kFailedPrecondition) << proof.status().to_string();
}

TEST(Groth16, SnarkjsUnsatisfiedWitnessGivesAProofThatFails) {
  // A snarkjs key has no C, so the prover cannot see the violation; the
  // proof must then fail verification (callers self-verify).
  Fixture f = make(KeyLayout::kSnarkjs, 50, 1, 60, fresh_seed());
  auto backend = make_cpu_backend();
  std::vector<Fr> w = f.sc.witness;
  w.back() += Fr::one();
  auto proof = prove(f.pk, f.prove_circuit, w, Blinding::random(), *backend, {.c_rule = f.c_rule});
  ASSERT_TRUE(proof.ok());
  EXPECT_FALSE(verify(f.pk.vk, public_inputs(f), *proof).value());
}

TEST(Groth16, RejectsMismatchedShapes) {
  Fixture f = make(KeyLayout::kBellperson, 20, 1, 20, fresh_seed());
  auto backend = make_cpu_backend();
  std::vector<Fr> w = f.sc.witness;
  w.pop_back();
  EXPECT_EQ(prove(f.pk, f.prove_circuit, w, Blinding::random(), *backend).status().code(),
            StatusCode::kInvalidArgument);
  w = f.sc.witness;
  w[0] = Fr::from_uint(2);
  EXPECT_EQ(prove(f.pk, f.prove_circuit, w, Blinding::random(), *backend).status().code(),
            StatusCode::kInvalidArgument);
  ProvingKey broken = f.pk;
  broken.h.pop_back();
  EXPECT_FALSE(prove(broken, f.prove_circuit, f.sc.witness, Blinding::random(), *backend).ok());
}

}  // namespace
}  // namespace cuzk::groth16

// A development key is a function of its circuit and seed alone: the files
// the daemon and the tests cache are made again, by whatever code is current,
// and must come out the same. The digests below are of keys made by the setup
// as it was before its fixed-base multiplications changed (8-bit windows,
// one mixed addition per window, then a batch normalisation): any change to
// how points are computed must leave them as they are.
namespace cuzk::groth16 {
namespace {

void feed(Sha256& h, const ff::Fp& x) {
  const auto c = x.canonical();
  uint8_t b[sizeof c];
  for (size_t i = 0; i < c.size(); ++i)
    for (size_t j = 0; j < 8; ++j) b[8 * i + j] = uint8_t(c[i] >> (8 * j));
  h.update(b, sizeof b);
}
void feed(Sha256& h, const ff::Fp2& x) {
  feed(h, x.c0);
  feed(h, x.c1);
}
template <class P>
void feed(Sha256& h, const std::vector<P>& points) {
  for (const P& p : points) {
    feed(h, p.x);
    feed(h, p.y);
  }
}

// SHA-256 over every point of the key (coordinates canonical, limbs
// little-endian), in the order the key holds them.
std::string key_digest(const ProvingKey& pk) {
  Sha256 h;
  feed(h, std::vector<G1Affine>{pk.vk.alpha_g1, pk.vk.beta_g1, pk.vk.delta_g1});
  feed(h, std::vector<G2Affine>{pk.vk.beta_g2, pk.vk.gamma_g2, pk.vk.delta_g2});
  for (const std::vector<G1Affine>* v : {&pk.vk.ic, &pk.h, &pk.l, &pk.a, &pk.b_g1}) feed(h, *v);
  feed(h, pk.b_g2);
  std::string hex;
  for (uint8_t b : h.finish()) {
    static const char* kHex = "0123456789abcdef";
    hex += kHex[b >> 4];
    hex += kHex[b & 15];
  }
  return hex;
}

// More than one chunk of points per query (the setup works in chunks of
// 4096 points), on a pool of three threads so that chunks are split unevenly.
TEST(DevSetup, KeysOfAFixedSeedAreTheSameAsEver) {
  r1cs::SyntheticParams p{.num_constraints = 5000, .num_public_inputs = 3, .num_aux = 4600,
                          .zero_one_fraction = 0.7, .terms_per_lc = 2, .num_distinct_coeffs = 8, .seed = 2812};
  auto sc = r1cs::generate_synthetic(p);
  ASSERT_TRUE(sc.ok()) << sc.status().to_string();
  ThreadPool pool(3);
  struct Want { KeyLayout layout; const char* digest; };
  for (Want w : {Want{KeyLayout::kBellperson, "a658d56ad1e48bd92a9b3fbef9047ae8f13371b5012d0619b28107295df4a586"},
                 Want{KeyLayout::kSnarkjs, "74c010a421f548877be0c77a39cf2d95b37dd3f32ef84d71fa1137cf9824ac92"}}) {
    auto pk = dev_setup(sc->circuit, {.layout = w.layout, .seed = 28, .pool = &pool});
    ASSERT_TRUE(pk.ok()) << pk.status().to_string();
    EXPECT_EQ(key_digest(*pk), w.digest) << key_layout_name(w.layout);
  }
}

TEST(Groth16, CancellationStopsAtAStageBoundary) {
  Fixture f = make(KeyLayout::kBellperson, 40, 1, 40, fresh_seed());
  auto backend = make_cpu_backend();
  int polls = 0;
  ProveOptions options;
  options.cancelled = [&polls] { return ++polls >= 2; };  // let matvec pass, stop after staging
  auto proof = prove(f.pk, f.prove_circuit, f.sc.witness, Blinding::random(), *backend, options);
  ASSERT_FALSE(proof.ok());
  EXPECT_EQ(proof.status().code(), StatusCode::kCancelled);
  EXPECT_NE(proof.status().message().find("before the device stages"), std::string::npos)
      << proof.status().to_string();
  polls = 0;
  options.cancelled = [&polls] { return ++polls >= 3; };  // stop after H and the MSMs
  proof = prove(f.pk, f.prove_circuit, f.sc.witness, Blinding::random(), *backend, options);
  EXPECT_EQ(proof.status().code(), StatusCode::kCancelled);
  EXPECT_NE(proof.status().message().find("after the device stages"), std::string::npos)
      << proof.status().to_string();
}

}  // namespace
}  // namespace cuzk::groth16

// The backend conformance cases (backend_conformance.h) on the CPU backend:
// against itself as the oracle they check that lanes reuse their inputs
// correctly and that every case's proof verifies.
#include "backend_conformance.h"

namespace cuzk::groth16 {
namespace {

TEST(CpuBackendConformance, StandardCases) {
  auto cpu = make_cpu_backend();
  auto oracle = make_cpu_backend();
  for (const conformance::Case& c : conformance::standard_cases(10, cuzk::fresh_test_seed()))
    conformance::expect_matches_oracle(*cpu, *oracle, c);
}

TEST(CpuBackendConformance, RowsMadeByTheLaneNameTheBrokenConstraint) {
  auto cpu = make_cpu_backend();
  const uint64_t seed = cuzk::fresh_test_seed();
  conformance::Case c = conformance::synthetic(KeyLayout::kBellperson, 300, 2, 280, 0.8, seed);
  for (uint64_t k = 0; k < 4; ++k) conformance::expect_unsatisfied_named(*cpu, c, seed + k);
}

TEST(CpuBackendConformance, LaneRejectsMismatchedInputs) {
  auto cpu = make_cpu_backend();
  conformance::Case c = conformance::synthetic(KeyLayout::kBellperson, 20, 1, 20, 0.5, cuzk::fresh_test_seed());
  auto key = cpu->attach(c.pk).value();
  auto lane = cpu->make_lane().value();
  std::vector<Fr> short_rows(c.pk.domain_size() - 1);
  std::vector<Fr> rows(c.pk.domain_size());
  Status s = lane->stage(key, {short_rows, rows, rows, c.witness});
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << s.to_string();
  EXPECT_EQ(lane->run().status().code(), StatusCode::kFailedPrecondition);
  // No rows, and a key attached without its circuit: nothing can make them.
  s = lane->stage(key, {{}, {}, {}, c.witness});
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << s.to_string();
  // A circuit that is not the key's is refused at attach.
  conformance::Case other = conformance::synthetic(KeyLayout::kBellperson, 20, 2, 21, 0.5, cuzk::fresh_test_seed());
  AttachOptions ao;
  ao.circuit = &other.prove_circuit;
  EXPECT_EQ(cpu->attach(c.pk, ao).status().code(), StatusCode::kFailedPrecondition);
}

// A lane whose proof was cancelled stops at its next stage boundary (the
// worker is then free), and proves the next proof as usual.
TEST(CpuBackendConformance, LaneStopsBetweenStagesOnceCancelled) {
  auto cpu = make_cpu_backend();
  conformance::Case c = conformance::synthetic(KeyLayout::kBellperson, 40, 2, 40, 0.5, cuzk::fresh_test_seed());
  AttachOptions ao;
  ao.circuit = &c.prove_circuit;
  auto key = cpu->attach(c.pk, ao).value();
  auto lane = cpu->make_lane().value();
  std::atomic<int> polls{0};
  ProofInputs in{{}, {}, {}, c.witness};
  in.cancelled = [&polls] { return ++polls > 2; };  // before H, after H, then cancelled
  ASSERT_TRUE(lane->stage(key, in).ok());
  auto r = lane->run();
  EXPECT_EQ(r.status().code(), StatusCode::kCancelled) << r.status().to_string();
  EXPECT_NE(r.status().message().find("after msm_h"), std::string::npos) << r.status().message();
  EXPECT_EQ(lane->times().get("msm_l"), 0.0);
  in.cancelled = nullptr;
  ASSERT_TRUE(lane->stage(key, in).ok());
  EXPECT_TRUE(lane->run().ok());
}

// The seam names each fallback once, and the CPU backend says what it is
// through its capabilities (the engine never reads a backend's name).
TEST(BackendSeam, FallbacksHaveDistinctNamesAndTheCpuSaysWhatItIs) {
  std::set<std::string_view> names;
  for (Fallback f : kAllFallbacks) {
    const std::string_view n = fallback_name(f);
    EXPECT_NE(n, "unknown");
    EXPECT_TRUE(names.insert(n).second) << n;
  }
  EXPECT_EQ(names.size(), 6u);
  const BackendCaps cpu = make_cpu_backend()->caps();
  EXPECT_FALSE(cpu.keeps_keys);
  EXPECT_FALSE(cpu.uploads_inputs);
  EXPECT_FALSE(cpu.can_make_rows);
  EXPECT_FALSE(cpu.device_timed);
}

// Stages that ran beside the others are shown but not summed: the lane's
// total is its main stream's, and a query's whole is its own parts.
TEST(BackendSeam, StagesBesideTheOthersAreNotSummed) {
  LaneTimes t;
  t.stages_ms = {{"upload", 4}, {"h", 10}, {"msm_h", 20}, {"beside.msm_l.ones", 15}, {"beside.msm_l.tail", 3},
                 {"msm_a.ones", 2}, {"msm_a.tail", 1}};
  EXPECT_TRUE(t.overlapped());
  EXPECT_DOUBLE_EQ(t.total_ms(), 37);
  EXPECT_DOUBLE_EQ(t.get("msm_l"), 0);
  EXPECT_DOUBLE_EQ(t.get("beside.msm_l"), 18);
  EXPECT_DOUBLE_EQ(t.get("msm_a"), 3);
  t.stages_ms.erase(t.stages_ms.begin() + 3, t.stages_ms.begin() + 5);
  EXPECT_FALSE(t.overlapped());
  EXPECT_DOUBLE_EQ(t.total_ms(), 37);
}

}  // namespace
}  // namespace cuzk::groth16
