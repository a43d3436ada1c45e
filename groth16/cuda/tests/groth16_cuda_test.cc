// The CUDA prover against the CPU backend, bit for bit (label gpu): the
// backend conformance cases with the key resident on the device and streamed
// from pinned host memory, larger domains, and the errors a lane reports.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>

#include "../../tests/backend_conformance.h"
#include "../src/cuda_internal.h"
#include "cuzk/base/random.h"
#include "cuzk/gpu/buffer.h"
#include "cuzk/gpu/device.h"
#include "cuzk/groth16/cuda/cuda_backend.h"
#include "cuzk/groth16/cuda/cuda_setup.h"

namespace cuzk::groth16 {
namespace {

#define SKIP_WITHOUT_GPU()                                                      \
  do {                                                                          \
    if (!gpu::device_available()) GTEST_SKIP() << gpu::device_unavailable_reason(); \
  } while (0)

std::unique_ptr<Backend> cuda_backend(cuda::Placement placement, uint64_t limit = 0) {
  auto b = cuda::make_cuda_backend({.device = 0, .vram_limit_bytes = limit, .placement = placement});
  EXPECT_TRUE(b.ok()) << b.status().to_string();
  return b.ok() ? std::move(b).value() : nullptr;
}

class CudaProver : public ::testing::TestWithParam<cuda::Placement> {};

TEST_P(CudaProver, StandardCasesMatchCpu) {
  SKIP_WITHOUT_GPU();
  auto gpu = cuda_backend(GetParam());
  ASSERT_NE(gpu, nullptr);
  auto cpu = make_cpu_backend();
  for (const conformance::Case& c : conformance::standard_cases(14, cuzk::fresh_test_seed()))
    conformance::expect_matches_oracle(*gpu, *cpu, c);
}

// A synthetic circuit of 2^lg − 1000 − lg rows (90% of aux 0/1) with a key
// made by the device's fixed-base multiplication (checked against the CPU's
// in DevSetupOnDevice below), so that 2^22 takes seconds.
conformance::Case device_keyed_case(int lg, KeyLayout layout, uint64_t seed) {
  const uint64_t rows = (uint64_t(1) << lg) - 1000 - uint64_t(lg);
  r1cs::SyntheticParams p{.num_constraints = rows, .num_public_inputs = 8, .num_aux = rows,
                          .zero_one_fraction = 0.9, .terms_per_lc = 2, .num_distinct_coeffs = 8, .seed = seed + uint64_t(lg)};
  auto sc = r1cs::generate_synthetic(p);
  EXPECT_TRUE(sc.ok());
  DevSetupOptions o{.layout = layout, .seed = seed};
  EXPECT_TRUE(cuda::use_device_fixed_base(&o).ok());
  conformance::Case c;
  c.name = "synthetic 2^" + std::to_string(lg);
  c.pk = dev_setup(sc->circuit, o).value();
  c.prove_circuit = layout == KeyLayout::kSnarkjs ? append_input_rows(sc->circuit, false).value() : sc->circuit;
  c.c_rule = layout == KeyLayout::kSnarkjs ? CRule::kProductOfAB : CRule::kMatrix;
  c.circuit = std::move(sc->circuit);
  c.witness = std::move(sc->witness);
  return c;
}

TEST_P(CudaProver, LargeDomainsMatchCpu) {
  SKIP_WITHOUT_GPU();
  auto gpu = cuda_backend(GetParam());
  ASSERT_NE(gpu, nullptr);
  auto cpu = make_cpu_backend();
  const uint64_t seed = cuzk::fresh_test_seed();
  for (int lg : {17, 20, 22})
    conformance::expect_matches_oracle(*gpu, *cpu,
                                       device_keyed_case(lg, lg == 20 ? KeyLayout::kSnarkjs : KeyLayout::kBellperson, seed));
}

// The resident plan's L, A, B1 and B2 side by side on four streams (their
// workspaces carved from the H MSM's, which at 2^17 holds them), and in turn
// on one stream when forced (CudaFaults::serial_queries), their ones summed
// over the bitmap and by pair rounds over their lists (OnesSum), and by the
// bitmap when the pair rounds are asked for without room for them
// (CudaFaults::no_ones_room): the stages each way, and proofs equal to the
// CPU's, bit for bit.
TEST(CudaProverResident, QueriesSideBySideOrInTurnMatchCpu) {
  SKIP_WITHOUT_GPU();
  const conformance::Case c = device_keyed_case(17, KeyLayout::kBellperson, cuzk::fresh_test_seed());
  PreparedVerifyingKey pvk(c.pk.vk);
  const std::vector<Fr> pub(c.witness.begin() + 1, c.witness.begin() + long(c.pk.num_inputs));
  auto cpu = make_cpu_backend();
  struct Run {
    bool serial, pairs, no_room;
  };
  for (const Run run : {Run{false, false, false}, Run{true, false, false}, Run{false, true, false},
                        Run{true, true, false}, Run{false, true, true}, Run{true, true, true}}) {
    const bool by_pairs = run.pairs && !run.no_room;
    SCOPED_TRACE(std::string(run.serial ? "in turn" : "side by side") + (run.pairs ? ", pair rounds asked" : "") +
                 (run.no_room ? ", no room for them" : ""));
    auto made = cuda::make_cuda_backend({.device = 0,
                                         .placement = cuda::Placement::kResident,
                                         .faults = {.serial_queries = run.serial, .no_ones_room = run.no_room},
                                         .ones_sum = run.pairs ? cuda::OnesSum::kPairRounds : cuda::OnesSum::kBitmap});
    ASSERT_TRUE(made.ok()) << made.status().to_string();
    std::unique_ptr<Backend> gpu = std::move(made).value();
    auto key = gpu->attach(c.pk).value();
    auto lane = gpu->make_lane().value();
    RowValues rv = compute_rows(c.pk, c.prove_circuit, c.witness, {}).value();
    auto proof = prove_on_lane(key, {rv.a, rv.b, rv.c, c.witness}, Blinding::random(), *lane);
    ASSERT_TRUE(proof.ok()) << proof.status().to_string();
    EXPECT_TRUE(pvk.verify(pub, *proof).value());
    const LaneTimes& t = lane->times();
    std::vector<std::string> names;
    for (const auto& [name, ms] : t.stages_ms) {
      names.push_back(name);
      EXPECT_GE(ms, 0.0) << name;
    }
    std::vector<std::string> want = {"upload", "h", "classify", "msm_h"};
    const std::string ones = by_pairs ? ", ones by pair rounds" : "";
    if (run.serial) {
      EXPECT_EQ(t.plan, "resident" + ones);
      for (const char* q : {"msm_l", "msm_a", "msm_b1", "msm_b2"})
        for (const char* part : {".ones", ".tail"}) want.push_back(std::string(q) + part);
    } else {
      EXPECT_EQ(t.plan, "resident, queries side by side" + ones);
      want.push_back("msm_lab");
      for (const char* q : {"msm_l", "msm_a", "msm_b1", "msm_b2"})
        for (const char* part : {".ones", ".tail"}) want.push_back(std::string("beside.") + q + part);
      EXPECT_GT(t.get("beside.msm_l"), 0.0);
      EXPECT_NEAR(t.total_ms(), t.get("upload") + t.get("h") + t.get("classify") + t.get("msm_h") + t.get("msm_lab"),
                  1e-6);
    }
    EXPECT_EQ(names, want);
    conformance::expect_matches_oracle(*gpu, *cpu, c);
  }
}

TEST(DevSetupOnDevice, MatchesTheCpuSetup) {
  SKIP_WITHOUT_GPU();
  const uint64_t seed = cuzk::fresh_test_seed();
  for (KeyLayout layout : {KeyLayout::kBellperson, KeyLayout::kSnarkjs}) {
    r1cs::SyntheticParams p{.num_constraints = 3000, .num_public_inputs = 3, .num_aux = 3000,
                            .zero_one_fraction = 0.8, .terms_per_lc = 2, .num_distinct_coeffs = 8, .seed = seed};
    auto sc = r1cs::generate_synthetic(p).value();
    DevSetupOptions o{.layout = layout, .seed = seed};
    ProvingKey want = dev_setup(sc.circuit, o).value();
    ASSERT_TRUE(cuda::use_device_fixed_base(&o).ok());
    ProvingKey got = dev_setup(sc.circuit, o).value();
    EXPECT_TRUE(got.h == want.h && got.l == want.l && got.a == want.a && got.b_g1 == want.b_g1 &&
                got.b_g2 == want.b_g2);
  }
}

INSTANTIATE_TEST_SUITE_P(Placements, CudaProver,
                         ::testing::Values(cuda::Placement::kResident, cuda::Placement::kStreamed),
                         [](const auto& info) {
                           return std::string(info.param == cuda::Placement::kResident ? "Resident" : "Streamed");
                         });

// kAuto keeps a key resident when it fits and streams it otherwise: with a
// budget one byte short of the resident key itself, the key streams (a
// circuit with many more variables than rows, so that its points outweigh
// the streamed plan's workspace) and the proofs still match.
TEST(CudaProverPlacement, AutoStreamsWhenTheKeyDoesNotFit) {
  SKIP_WITHOUT_GPU();
  conformance::Case c = conformance::synthetic(KeyLayout::kBellperson, 4000, 2, 60000, 0.9, cuzk::fresh_test_seed());
  auto cpu = make_cpu_backend();
  auto roomy = cuda_backend(cuda::Placement::kAuto);
  uint64_t key_bytes = 0;
  {
    auto key = roomy->attach(c.pk);
    ASSERT_TRUE(key.ok()) << key.status().to_string();
    EXPECT_NE((*key)->placement().find("device-resident"), std::string::npos) << (*key)->placement();
    key_bytes = (*key)->device_bytes();
  }
  auto tight = cuda_backend(cuda::Placement::kAuto, key_bytes - 1);
  {
    auto skey = tight->attach(c.pk);
    ASSERT_TRUE(skey.ok()) << skey.status().to_string();
    EXPECT_NE((*skey)->placement().find("streamed"), std::string::npos) << (*skey)->placement();
  }
  conformance::expect_matches_oracle(*tight, *cpu, c);
  const DeviceMemory m = tight->device_memory();
  EXPECT_LE(m.peak_bytes, m.budget_bytes);
  // Resident on a budget far too small: a clear RESOURCE_EXHAUSTED.
  auto tiny = cuda_backend(cuda::Placement::kResident, uint64_t(1) << 20);
  auto rkey = tiny->attach(c.pk);
  EXPECT_EQ(rkey.status().code(), StatusCode::kResourceExhausted) << rkey.status().to_string();
}

TEST(CudaProverErrors, UnsatisfiedWitnessIsReportedAndTheLaneGoesOn) {
  SKIP_WITHOUT_GPU();
  auto gpu = cuda_backend(cuda::Placement::kAuto);
  conformance::Case c = conformance::synthetic(KeyLayout::kBellperson, 3000, 2, 3000, 0.8, cuzk::fresh_test_seed());
  auto key = gpu->attach(c.pk).value();
  auto lane = gpu->make_lane().value();
  RowValues rows = compute_rows(c.pk, c.prove_circuit, c.witness, {}).value();
  rows.c[17] += Fr::one();  // row 17 no longer holds: A·B − C is not divisible by Z
  auto bad = prove_on_lane(key, {rows.a, rows.b, rows.c, c.witness}, Blinding::random(), *lane);
  EXPECT_EQ(bad.status().code(), StatusCode::kFailedPrecondition) << bad.status().to_string();
  auto cpu = make_cpu_backend();
  conformance::expect_matches_oracle(*gpu, *cpu, c);
}

// Rows made on the device from the witness: a broken witness is named by
// its first broken constraint, as the host check names it, and the lane goes on.
TEST(CudaProverErrors, RowsMadeOnTheDeviceNameTheBrokenConstraint) {
  SKIP_WITHOUT_GPU();
  auto gpu = cuda_backend(cuda::Placement::kAuto);
  const uint64_t seed = cuzk::fresh_test_seed();
  conformance::Case c = conformance::synthetic(KeyLayout::kBellperson, 3000, 2, 2900, 0.8, seed);
  for (uint64_t k = 0; k < 4; ++k) conformance::expect_unsatisfied_named(*gpu, c, seed + k);
}

// A key kept resident with its circuit counts the circuit in its device
// bytes; under a budget with no room for the circuit the key stays resident
// without it, and the lanes take rows from the host.
TEST(CudaProverPlacement, CircuitKeptOnlyWhenItFits) {
  SKIP_WITHOUT_GPU();
  conformance::Case c = conformance::synthetic(KeyLayout::kBellperson, 4000, 2, 4000, 0.9, cuzk::fresh_test_seed());
  AttachOptions ao;
  ao.circuit = &c.prove_circuit;
  auto roomy = cuda_backend(cuda::Placement::kAuto);
  uint64_t plain = roomy->attach(c.pk).value()->device_bytes();
  auto with = roomy->attach(c.pk, ao).value();
  EXPECT_TRUE(with->computes_rows()) << with->placement();
  EXPECT_GT(with->device_bytes(), plain + c.prove_circuit.terms().size_bytes());
  ao.max_device_bytes = plain + 1024;
  auto capped = roomy->attach(c.pk, ao).value();
  EXPECT_FALSE(capped->computes_rows()) << capped->placement();
  EXPECT_NE(capped->placement().find("device-resident"), std::string::npos) << capped->placement();
  auto streamed = cuda_backend(cuda::Placement::kStreamed);
  ao.max_device_bytes = UINT64_MAX;
  auto skey = streamed->attach(c.pk, ao).value();
  EXPECT_FALSE(skey->computes_rows()) << skey->placement();
}

// Without room for a side buffer, the streamed plan runs the H MSM right
// after the H step, its batches in the b/c buffer, and only then uploads w
// there and classifies: the lane's stage times come in that order. The proof
// matches the CPU's.
TEST(CudaProverStreamed, HMsmBeforeTheWitnessUploadAndClassification) {
  SKIP_WITHOUT_GPU();
  auto made = cuda::make_cuda_backend(
      {.device = 0, .placement = cuda::Placement::kStreamed, .faults = {.no_side_room = true}});
  ASSERT_TRUE(made.ok()) << made.status().to_string();
  std::unique_ptr<Backend> gpu = std::move(made).value();
  conformance::Case c = conformance::synthetic(KeyLayout::kBellperson, 3000, 2, 3000, 0.8, cuzk::fresh_test_seed());
  auto key = gpu->attach(c.pk).value();
  EXPECT_NE(key->placement().find("streamed"), std::string::npos) << key->placement();
  auto lane = gpu->make_lane().value();
  RowValues rows = compute_rows(c.pk, c.prove_circuit, c.witness, {}).value();
  auto proof = prove_on_lane(key, {rows.a, rows.b, rows.c, c.witness}, Blinding::random(), *lane);
  ASSERT_TRUE(proof.ok()) << proof.status().to_string();
  const LaneTimes& t = lane->times();
  EXPECT_EQ(t.plan, "streamed");
  std::vector<std::string> names;
  for (const auto& [name, ms] : t.stages_ms) names.push_back(name);
  const std::vector<std::string> want = {"upload",      "h",           "msm_h",       "classify",
                                         "msm_l.ones",  "msm_l.tail",  "msm_a.ones",  "msm_a.tail",
                                         "msm_b1.ones", "msm_b1.tail", "msm_b2.ones", "msm_b2.tail"};
  EXPECT_EQ(names, want);
  auto cpu = make_cpu_backend();
  conformance::expect_matches_oracle(*gpu, *cpu, c);
}

// With room for a side buffer (this device), w goes there at stage and the
// classification, the batch additions and the tails run beside the H step
// and the H MSM ("beside." stages, left out of the lane's total); the proofs
// match the CPU's, for both layouts.
TEST(CudaProverStreamed, BatchAdditionsBesideTheHMsm) {
  SKIP_WITHOUT_GPU();
  auto gpu = cuda_backend(cuda::Placement::kStreamed);
  ASSERT_NE(gpu, nullptr);
  auto cpu = make_cpu_backend();
  const uint64_t seed = cuzk::fresh_test_seed();
  conformance::Case c = conformance::synthetic(KeyLayout::kBellperson, 3000, 2, 3000, 0.8, seed);
  auto key = gpu->attach(c.pk).value();
  auto lane = gpu->make_lane().value();
  RowValues rows = compute_rows(c.pk, c.prove_circuit, c.witness, {}).value();
  auto proof = prove_on_lane(key, {rows.a, rows.b, rows.c, c.witness}, Blinding::random(), *lane);
  ASSERT_TRUE(proof.ok()) << proof.status().to_string();
  const LaneTimes& t = lane->times();
  EXPECT_EQ(t.plan, "streamed, batch additions beside the H MSM");
  std::vector<std::string> names;
  double beside = 0, all = 0;
  for (const auto& [name, ms] : t.stages_ms) {
    names.push_back(name);
    all += ms;
    if (name.starts_with("beside.")) beside += ms;
  }
  const std::vector<std::string> want = {
      "upload",           "h",                 "msm_h",              "beside.classify",    "beside.msm_l.ones",
      "beside.msm_a.ones", "beside.msm_b1.ones", "beside.msm_b2.ones", "beside.msm_l.tail", "beside.msm_a.tail",
      "beside.msm_b1.tail", "beside.msm_b2.tail"};
  EXPECT_EQ(names, want);
  EXPECT_NEAR(t.total_ms(), all - beside, 1e-6);
  conformance::expect_matches_oracle(*gpu, *cpu, c);
  conformance::expect_matches_oracle(
      *gpu, *cpu, conformance::synthetic(KeyLayout::kSnarkjs, 5000, 3, 7000, 0.7, seed + 1));
}

// A cancelled proof stops at the lane's next host-synchronous boundary in
// every plan (resident; streamed with the batch additions beside the H MSM;
// streamed without room for that) with CANCELLED, and the lane proves the
// next proof, which verifies.
TEST(CudaProverCancel, EveryPlanStopsAtItsNextBoundaryAndGoesOn) {
  SKIP_WITHOUT_GPU();
  conformance::Case c = conformance::synthetic(KeyLayout::kBellperson, 3000, 2, 3000, 0.8, cuzk::fresh_test_seed());
  PreparedVerifyingKey pvk(c.pk.vk);
  const std::vector<Fr> pub(c.witness.begin() + 1, c.witness.begin() + long(c.pk.num_inputs));
  struct Plan {
    cuda::Placement placement;
    bool no_side_room;
    const char* name;
  };
  for (const Plan& plan : {Plan{cuda::Placement::kResident, false, "resident"},
                           Plan{cuda::Placement::kStreamed, false, "streamed, batch additions beside the H MSM"},
                           Plan{cuda::Placement::kStreamed, true, "streamed"}}) {
    SCOPED_TRACE(plan.name);
    auto made = cuda::make_cuda_backend(
        {.device = 0, .placement = plan.placement, .faults = {.no_side_room = plan.no_side_room}});
    ASSERT_TRUE(made.ok()) << made.status().to_string();
    std::unique_ptr<Backend> gpu = std::move(made).value();
    auto key = gpu->attach(c.pk).value();
    auto lane = gpu->make_lane().value();
    std::atomic<int> polls{0};
    RowValues rows = compute_rows(c.pk, c.prove_circuit, c.witness, {}).value();
    ProofInputs in{rows.a, rows.b, rows.c, c.witness};
    in.cancelled = [&polls] { return ++polls > 0; };
    ASSERT_TRUE(lane->stage(key, in).ok());
    auto r = lane->run();
    EXPECT_EQ(r.status().code(), StatusCode::kCancelled) << r.status().to_string();
    EXPECT_NE(r.status().message().find("proof cancelled"), std::string::npos) << r.status().message();
    EXPECT_EQ(lane->times().get("msm_l.tail") + lane->times().get("beside.msm_l.tail"), 0.0);
    RowValues again = compute_rows(c.pk, c.prove_circuit, c.witness, {}).value();
    auto proof = prove_on_lane(key, {again.a, again.b, again.c, c.witness}, Blinding::random(), *lane);
    ASSERT_TRUE(proof.ok()) << proof.status().to_string();
    if (plan.placement == cuda::Placement::kResident)  // in turn, or the queries side by side
      EXPECT_TRUE(lane->times().plan.starts_with(plan.name)) << lane->times().plan;
    else
      EXPECT_EQ(lane->times().plan, plan.name);
    EXPECT_TRUE(pvk.verify(pub, *proof).value());
  }
}

// With the H MSM first, the streamed plan checks h[n−1] (bellperson) before
// it: a witness that does not satisfy the circuit is reported, and the lane
// goes on.
TEST(CudaProverStreamed, UnsatisfiedWitnessIsReportedAndTheLaneGoesOn) {
  SKIP_WITHOUT_GPU();
  auto gpu = cuda_backend(cuda::Placement::kStreamed);
  ASSERT_NE(gpu, nullptr);
  conformance::Case c = conformance::synthetic(KeyLayout::kBellperson, 3000, 2, 3000, 0.8, cuzk::fresh_test_seed());
  auto key = gpu->attach(c.pk).value();
  auto lane = gpu->make_lane().value();
  RowValues rows = compute_rows(c.pk, c.prove_circuit, c.witness, {}).value();
  rows.c[17] += Fr::one();
  auto bad = prove_on_lane(key, {rows.a, rows.b, rows.c, c.witness}, Blinding::random(), *lane);
  EXPECT_EQ(bad.status().code(), StatusCode::kFailedPrecondition) << bad.status().to_string();
  RowValues good = compute_rows(c.pk, c.prove_circuit, c.witness, {}).value();
  EXPECT_TRUE(prove_on_lane(key, {good.a, good.b, good.c, c.witness}, Blinding::random(), *lane).ok());
}

// A key streamed from the host on two backends at once (as on two devices;
// here two backends of device 0) shares the pinning of the host key's
// arrays, which cudaHostRegister refuses to pin twice: both prove, and the
// one left proves after the other is gone. At 2^20 the H and L arrays
// (96 MiB each) are pinned in place rather than copied.
TEST(CudaProverStreamed, TwoBackendsStreamOneHostKey) {
  SKIP_WITHOUT_GPU();
  const uint64_t seed = cuzk::fresh_test_seed();
  const uint64_t rows_n = (uint64_t(1) << 20) - 1000;
  r1cs::SyntheticParams p{.num_constraints = rows_n, .num_public_inputs = 4, .num_aux = rows_n,
                          .zero_one_fraction = 0.9, .terms_per_lc = 2, .num_distinct_coeffs = 8, .seed = seed};
  auto sc = r1cs::generate_synthetic(p);
  ASSERT_TRUE(sc.ok());
  DevSetupOptions o{.layout = KeyLayout::kBellperson, .seed = seed};
  ASSERT_TRUE(cuda::use_device_fixed_base(&o).ok());
  const ProvingKey pk = dev_setup(sc->circuit, o).value();
  ASSERT_GE(pk.h.size() * sizeof(ec::G1Affine), size_t(64) << 20);
  auto one = cuda_backend(cuda::Placement::kStreamed), two = cuda_backend(cuda::Placement::kStreamed);
  ASSERT_TRUE(one && two);
  auto k1 = one->attach(pk);
  ASSERT_TRUE(k1.ok()) << k1.status().to_string();
  auto k2 = two->attach(pk);
  ASSERT_TRUE(k2.ok()) << k2.status().to_string();
  EXPECT_EQ(gpu::HostRegistration::holders(pk.h.data()), 2);
  auto l1 = one->make_lane().value(), l2 = two->make_lane().value();
  PreparedVerifyingKey pvk(pk.vk);
  const std::vector<Fr> pub(sc->witness.begin() + 1, sc->witness.begin() + long(pk.num_inputs));
  auto prove_verifies = [&](const std::shared_ptr<const AttachedKey>& key, Lane& lane) {
    RowValues rows = compute_rows(pk, sc->circuit, sc->witness, {}).value();  // a proof consumes them
    auto proof = prove_on_lane(key, {rows.a, rows.b, rows.c, sc->witness}, Blinding::random(), lane);
    return proof.ok() && pvk.verify(pub, *proof).value();
  };
  EXPECT_TRUE(prove_verifies(*k1, *l1));
  EXPECT_TRUE(prove_verifies(*k2, *l2));
  k1 = std::shared_ptr<const AttachedKey>();
  EXPECT_EQ(gpu::HostRegistration::holders(pk.h.data()), 1);
  EXPECT_TRUE(gpu::is_pinned_host_pointer(pk.h.data()));
  EXPECT_TRUE(prove_verifies(*k2, *l2));
  k2 = std::shared_ptr<const AttachedKey>();
  EXPECT_EQ(gpu::HostRegistration::holders(pk.h.data()), 0);
  EXPECT_FALSE(gpu::is_pinned_host_pointer(pk.h.data()));
}

// The streamed plan's sizes for a 2^27 PoRep partition (r1cs/src/porep_shape.cc)
// under a 16 GiB budget (an H200 with --vram-limit 16GiB) less the key's
// index lists: the H MSM's batches of 2^24 points take the b/c buffer
// (2^25 would need two slots of ~9.7 GB). Needs the device: the MSM
// workspace sizes come from CUB.
TEST(CudaStreamedSizes, PoRep27Under16GiB) {
  SKIP_WITHOUT_GPU();
  cuda::KeyShape s;
  s.lg_n = 27;
  s.n = uint64_t(1) << 27;
  s.n_h = s.n - 1;
  s.num_vars = 130170221;
  s.num_inputs = 328;
  s.m_l = 130169893;
  s.m_a = 129753620;
  s.m_b = 33100000;
  const uint64_t budget = uint64_t(16) << 30, key = (s.m_a + s.m_b) * 4 + 512;
  const cuda::StreamedSizes z = cuda::fit_streamed(s, budget - key);
  const cuda::InputSetBytes in = cuda::input_set_bytes(s, z);
  std::printf("2^27 under 16 GiB: H batch %zu, batch additions %zu, chunk %zu; a %.3f GB, bc %.3f GB, "
              "workspace %.3f GB, lane %.3f GB of %.3f GB\n",
              z.batch, z.add_batch, z.chunk, double(in.a) / 1e9, double(in.bc) / 1e9,
              double(cuda::workspace_bytes(s).total()) / 1e9, double(z.bytes) / 1e9, double(budget - key) / 1e9);
  EXPECT_EQ(z.batch, size_t(1) << 24);
  EXPECT_EQ(z.add_batch, size_t(1) << 24);
  EXPECT_EQ(z.chunk, size_t(1) << 22);
  EXPECT_GT(z.bytes, 0u);
  EXPECT_LE(z.bytes, budget - key);
}

}  // namespace
}  // namespace cuzk::groth16
