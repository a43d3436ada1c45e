// Proving the Filecoin circuits end to end on the CPU with INSECURE
// development keys: blank-circuit rows, a bellperson-layout key written as a
// .params file and read back with the synthesized density, a witness from a
// vanilla proof of a sector sealed in memory, a proof, and verification
// against the public inputs cuzk::filecoin computes from the public
// parameters alone (not from the witness).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>

#include "cuzk/base/random.h"
#include "cuzk/filecoin/cs/circuits.h"
#include "cuzk/filecoin/cs/vanilla_inputs.h"
#include "cuzk/filecoin/public_inputs.h"
#include "cuzk/filecoin/sdr.h"
#include "cuzk/filecoin/vanilla_produce.h"
#include "cuzk/groth16/prover.h"
#include "cuzk/groth16/setup.h"
#include "cuzk/groth16/verifier.h"
#include "cuzk/io/bellperson.h"
#include "cuzk/r1cs/precompiled.h"

namespace cuzk::filecoin::snark {
namespace {

SealedSector seal_2kib(TestRng& rng) {
  const SealProofInfo info = seal_proof_info(5).value();  // StackedDrg2KiBV1_1
  std::vector<uint8_t> data(2048);
  for (size_t i = 0; i < data.size(); ++i) data[i] = uint8_t(rng()) & (i % 32 == 31 ? 0x3f : 0xff);
  SealInputs in;
  in.sector_bytes = 2048;
  in.layers = info.layers;
  in.porep_id = info.porep_id;
  in.api = info.api;
  in.prover_id = node_from_fr(Fr::random(rng));
  in.ticket = node_from_fr(Fr::random(rng));
  in.sector_id = 3;
  return seal_sector(in, data).value();
}

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("cuzk_fcs_" + std::to_string(OsRng()()) + "_" + name)).string();
}

// Key for the blank circuit, through a .params file; proof; verification.
void prove_and_verify(const FilecoinCircuit& circuit, const PartitionInputs& inputs, const std::vector<Fr>& publics) {
  auto rows = build_circuit(circuit);
  ASSERT_TRUE(rows.ok()) << rows.status().to_string();
  groth16::DevSetupOptions so;
  so.layout = groth16::KeyLayout::kBellperson;
  so.seed = 7;
  auto pk = groth16::dev_setup(*rows, so);
  ASSERT_TRUE(pk.ok()) << pk.status().to_string();
  const std::string params = temp_path(circuit.name() + ".params");
  ASSERT_TRUE(io::write_params(params, *pk).ok());
  auto facts = circuit_facts(circuit);
  ASSERT_TRUE(facts.ok());
  io::ParamsReadOptions ro;
  ro.check_subgroup = false;
  auto read = io::read_params(params, facts->density, ro);
  std::filesystem::remove(params);
  ASSERT_TRUE(read.ok()) << read.status().to_string();

  auto w = generate_witness(circuit, inputs, nullptr);
  ASSERT_TRUE(w.ok()) << w.status().to_string();
  ASSERT_EQ(w->size(), rows->num_vars());
  auto backend = groth16::make_cpu_backend();
  auto proof = groth16::prove(*read, *rows, *w, groth16::Blinding::random(), *backend);
  ASSERT_TRUE(proof.ok()) << proof.status().to_string();
  auto ok = groth16::verify(read->vk, publics, *proof);
  ASSERT_TRUE(ok.ok()) << ok.status().to_string();
  EXPECT_TRUE(*ok) << circuit.name();
  std::vector<Fr> wrong = publics;
  wrong.back() += Fr::one();
  EXPECT_FALSE(*groth16::verify(read->vk, wrong, *proof));
}

// proving_key_counts (what `cuzk filecoin circuit --memory` sizes from) is
// what a setup of the circuit makes and what its precompiled rows take.
TEST(Prove, KeyCountsAreWhatTheSetupAndTheRowsFileHold) {
  // Window PoSt: a 2^15 domain, set up in about a second (Winning PoSt's
  // 2^17 takes eight and checks nothing more).
  for (CircuitKind kind : {CircuitKind::kWindowPost}) {
    auto circuit = FilecoinCircuit::create(kind, 2048);
    ASSERT_TRUE(circuit.ok());
    auto facts = circuit_facts(*circuit);
    ASSERT_TRUE(facts.ok()) << facts.status().to_string();
    const ProvingKeyCounts k = proving_key_counts(*facts);
    auto rows = build_circuit(*circuit);
    ASSERT_TRUE(rows.ok()) << rows.status().to_string();
    groth16::DevSetupOptions so;
    so.layout = groth16::KeyLayout::kBellperson;
    so.seed = 7 + OsRng()() % 1000;
    auto pk = groth16::dev_setup(*rows, so);
    ASSERT_TRUE(pk.ok()) << pk.status().to_string();
    EXPECT_EQ(k.lg_n, pk->lg_n) << circuit->name();
    EXPECT_EQ(k.n_h, pk->h.size()) << circuit->name();
    EXPECT_EQ(k.m_l, pk->l.size()) << circuit->name();
    EXPECT_EQ(k.m_a, pk->a.size()) << circuit->name();
    EXPECT_EQ(k.m_b, pk->b_g1.size()) << circuit->name();
    EXPECT_EQ(k.m_b, pk->b_g2.size()) << circuit->name();
    EXPECT_EQ(k.num_vars, rows->num_vars()) << circuit->name();
    EXPECT_EQ(k.num_inputs, uint64_t(pk->vk.ic.size())) << circuit->name();
    const std::string path = temp_path(circuit->name() + ".cuzkr1cs");
    ASSERT_TRUE(write_precompiled_circuit(*circuit, path).ok());
    auto header = r1cs::read_precompiled_header(path);
    const uint64_t file = std::filesystem::file_size(path);
    std::filesystem::remove(path);
    ASSERT_TRUE(header.ok()) << header.status().to_string();
    // The file: 128 header bytes, the terms and offsets (rows_bytes), the
    // coefficient table, and up to 63 bytes of padding before each section.
    const uint64_t known = k.rows_bytes + r1cs::kPrecompiledHeaderBytes + 32 * header->num_coeffs;
    EXPECT_GE(file, known) << circuit->name();
    EXPECT_LE(file, known + 3 * 63) << circuit->name();
  }
}

TEST(Prove, WindowPoSt2KiBWithADevKey) {
  TestRng rng(fresh_test_seed());
  const SealedSector a = seal_2kib(rng), b = seal_2kib(rng);
  const PoStProofInfo info = post_proof_info(10).value();  // StackedDrgWindow2KiBV1_2
  const Node randomness = node_from_fr(Fr::random(rng));
  const std::vector<FallbackPoStSectorProof> proofs = {produce_post_sector_proof(info, a, 20, randomness, 0),
                                                       produce_post_sector_proof(info, b, 21, randomness, 1)};
  auto part = post_partition_from_vanilla(info, proofs);
  ASSERT_TRUE(part.ok());
  const PoStSector pub[2] = {{20, a.comm_r}, {21, b.comm_r}};
  auto publics = window_post_public_inputs(info, randomness, pub, 0);
  ASSERT_TRUE(publics.ok());
  auto circuit = FilecoinCircuit::create(CircuitKind::kWindowPost, 2048);
  ASSERT_TRUE(circuit.ok());
  prove_and_verify(*circuit, *part, *publics);
}

}  // namespace
}  // namespace cuzk::filecoin::snark
