// Satisfiability from real vanilla proofs: sectors sealed in memory by
// cuzk::filecoin (whose SDR, trees and vanilla provers reproduce
// rust-fil-proofs' known answers), their C1 output, PoSt and SnapDeals
// proofs, turned into circuit inputs. Every row must hold, the inputs the
// circuit allocates must be the public inputs cuzk::filecoin computes from
// the public parameters alone, and a tampered proof must break a named row.
#include <gtest/gtest.h>

#include "cuzk/base/random.h"
#include "cuzk/filecoin/cs/recording_cs.h"
#include "cuzk/filecoin/cs/vanilla_inputs.h"
#include "cuzk/filecoin/cs/witness_cs.h"
#include "cuzk/filecoin/public_inputs.h"
#include "cuzk/filecoin/sdr.h"
#include "cuzk/filecoin/vanilla_produce.h"

namespace cuzk::filecoin::snark {
namespace {

struct Sealed {
  SealProofInfo info;
  SealedSector sector;
};

Sealed seal_random(TestRng& rng, uint64_t registered_proof) {
  Sealed s{seal_proof_info(registered_proof).value(), {}};
  std::vector<uint8_t> data(s.info.sector_bytes);
  for (size_t i = 0; i < data.size(); ++i) data[i] = uint8_t(rng()) & (i % 32 == 31 ? 0x3f : 0xff);
  SealInputs in;
  in.sector_bytes = s.info.sector_bytes;
  in.layers = s.info.layers;
  in.porep_id = s.info.porep_id;
  in.api = s.info.api;
  in.prover_id = node_from_fr(Fr::random(rng));
  in.ticket = node_from_fr(Fr::random(rng));
  in.sector_id = rng() % 1000;
  s.sector = seal_sector(in, data).value();
  return s;
}

// The circuit's inputs without ONE, read back from a checking synthesis.
std::vector<Fr> circuit_inputs(const RecordingCs& cs) {
  std::vector<Fr> v;
  for (uint64_t i = 1; i < cs.num_inputs(); ++i) v.push_back(cs.value(Var::input(i)));
  return v;
}

template <class Synth>
void expect_satisfied_with_inputs(Synth synth, const std::vector<Fr>& expected_inputs) {
  RecordingCs cs({.check = true});
  synth(cs);
  ASSERT_TRUE(cs.status().ok()) << cs.status().to_string();
  EXPECT_TRUE(cs.satisfied().ok()) << cs.satisfied().message();
  const std::vector<Fr> got = circuit_inputs(cs);
  ASSERT_EQ(got.size(), expected_inputs.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], expected_inputs[i]) << "public input " << i;
  WitnessCs w;
  synth(w);
  EXPECT_EQ(w.num_aux(), cs.num_aux());
  for (uint64_t j = 0; j < w.num_aux(); j += 997) ASSERT_EQ(w.value(Var::aux(j)), cs.value(Var::aux(j))) << j;
}

TEST(VanillaCircuits, PoRep2KiBFromC1IsSatisfiedAndTamperingIsNamed) {
  TestRng rng(fresh_test_seed());
  const Sealed s = seal_random(rng, 5);  // StackedDrg2KiBV1_1
  const Node seed = node_from_fr(Fr::random(rng));
  const SealCommitPhase1Output c1 = produce_seal_commit_phase1(s.info, s.sector, seed, Node{});
  const PorepConfig config = porep_config_for(s.info);
  auto p = porep_partition_from_c1(s.info, c1, 0);
  ASSERT_TRUE(p.ok()) << p.status().to_string();
  auto inputs = porep_public_inputs(s.info, c1.replica_id, c1.comm_d, c1.comm_r, seed, 0);
  ASSERT_TRUE(inputs.ok());
  expect_satisfied_with_inputs([&](auto& cs) { synthesize_porep(cs, config, *p); }, *inputs);

  SealCommitPhase1Output bad = c1;
  bad.vanilla_proofs[0][1].replica_column_proofs.exp_parents[5].rows[1][0] ^= 1;
  auto bp = porep_partition_from_c1(s.info, bad, 0);
  ASSERT_TRUE(bp.ok());
  RecordingCs cs({.check = true});
  synthesize_porep(cs, config, *bp);
  const std::string m = cs.satisfied().message();
  EXPECT_NE(m.find("challenge_1/exp_parent_5_inclusion"), std::string::npos) << m;

  EXPECT_FALSE(porep_partition_from_c1(s.info, c1, 1).ok());
  bad = c1;
  bad.vanilla_proofs[0][0].comm_r_last_proof.root[0] ^= 1;
  EXPECT_NE(porep_partition_from_c1(s.info, bad, 0).status().message().find("inconsistent comm_r_last"),
            std::string::npos);
}

TEST(VanillaCircuits, WindowAndWinningPoSt2KiB) {
  TestRng rng(fresh_test_seed());
  const Sealed a = seal_random(rng, 5), b = seal_random(rng, 5);
  const Node randomness = node_from_fr(Fr::random(rng));
  const PoStProofInfo window = post_proof_info(10).value();  // StackedDrgWindow2KiBV1_2
  std::vector<FallbackPoStSectorProof> proofs = {produce_post_sector_proof(window, a.sector, 11, randomness, 0),
                                                 produce_post_sector_proof(window, b.sector, 12, randomness, 1)};
  auto part = post_partition_from_vanilla(window, proofs);
  ASSERT_TRUE(part.ok()) << part.status().to_string();
  const PoStSector pub[2] = {{11, a.sector.comm_r}, {12, b.sector.comm_r}};
  auto inputs = window_post_public_inputs(window, randomness, pub, 0);
  ASSERT_TRUE(inputs.ok());
  expect_satisfied_with_inputs([&](auto& cs) { synthesize_post(cs, post_config_for(window), *part); }, *inputs);

  // One sector in a partition of two: the last sector is repeated.
  auto one = post_partition_from_vanilla(window, std::span(proofs).first(1));
  ASSERT_TRUE(one.ok());
  auto one_inputs = window_post_public_inputs(window, randomness, std::span(pub).first(1), 0);
  ASSERT_TRUE(one_inputs.ok());
  expect_satisfied_with_inputs([&](auto& cs) { synthesize_post(cs, post_config_for(window), *one); }, *one_inputs);

  const PoStProofInfo winning = post_proof_info(0).value();  // StackedDrgWinning2KiBV1
  // The sector's vanilla proof holds all 66 openings (filecoin-proofs'
  // generate_fallback_sector_challenges with its PoStConfig: one sector, 66
  // challenges); the circuit's setup turns them into 66 one-challenge sectors.
  PoStProofInfo one_sector = winning;
  one_sector.sector_count = 1;
  one_sector.challenge_count = 66;
  const FallbackPoStSectorProof wp = produce_post_sector_proof(one_sector, a.sector, 11, randomness, 0);
  ASSERT_EQ(wp.sectors[0].inclusion_proofs.size(), 66u);
  auto wpart = post_partition_from_vanilla(winning, std::span(&wp, 1));
  ASSERT_TRUE(wpart.ok()) << wpart.status().to_string();
  auto winputs = winning_post_public_inputs(winning, randomness, pub[0]);
  ASSERT_TRUE(winputs.ok());
  expect_satisfied_with_inputs([&](auto& cs) { synthesize_post(cs, post_config_for(winning), *wpart); }, *winputs);
  // The Winning info itself makes the same 66 openings (post_vanilla_shape).
  EXPECT_EQ(produce_post_sector_proof(winning, a.sector, 11, randomness, 0), wp);
  // A proof with fewer openings used to be padded by repeating its last one,
  // a circuit whose inputs could never match: refused, saying why.
  FallbackPoStSectorProof short_proof = wp;
  short_proof.sectors[0].inclusion_proofs.resize(1);
  auto refused = post_partition_from_vanilla(winning, std::span(&short_proof, 1));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(refused.status().message().find("has 1 openings; Winning PoSt needs 66"), std::string::npos)
      << refused.status().message();
}

TEST(VanillaCircuits, SnapDeals2KiB) {
  TestRng rng(fresh_test_seed());
  const Sealed s = seal_random(rng, 5);
  const UpdateProofInfo info = update_proof_info(0).value();  // StackedDrg2KiBV1
  std::vector<uint8_t> data(2048);
  for (size_t i = 0; i < data.size(); ++i) data[i] = uint8_t(rng()) & (i % 32 == 31 ? 0x3f : 0xff);
  auto u = snap_encode(info, s.sector, data);
  ASSERT_TRUE(u.ok());
  const SnapPartitionProof proof = produce_snap_partition_proof(info, s.sector, *u, 0);
  auto part = update_partition_from_vanilla(info, 0, s.sector.comm_r, u->comm_d_new, u->comm_r_new, proof);
  ASSERT_TRUE(part.ok()) << part.status().to_string();
  auto inputs = snap_public_inputs(info, 0, info.h, s.sector.comm_r, u->comm_d_new, u->comm_r_new);
  ASSERT_TRUE(inputs.ok());
  auto config = update_config_for(info);
  ASSERT_TRUE(config.ok());
  expect_satisfied_with_inputs([&](auto& cs) { synthesize_update(cs, *config, *part); }, *inputs);

  SnapPartitionProof bad = proof;
  bad.challenge_proofs[4].proof_r_new.leaf = node_from_fr(Fr::random(rng));
  auto bp = update_partition_from_vanilla(info, 0, s.sector.comm_r, u->comm_d_new, u->comm_r_new, bad);
  ASSERT_TRUE(bp.ok());
  WitnessCs w;
  synthesize_update(w, *config, *bp);
  EXPECT_NE(w.status().message().find("challenge 4: leaf_r_new"), std::string::npos) << w.status().message();
}

}  // namespace
}  // namespace cuzk::filecoin::snark

namespace cuzk::filecoin::snark {
namespace {

// The circuits' own tables agree with cuzk::filecoin's registered proofs.
TEST(VanillaCircuits, ConfigsAgreeWithTheRegisteredProofs) {
  for (uint64_t id = 0; id < 64; ++id) {
    auto seal = seal_proof_info(id);
    if (seal.ok()) {
      auto c = porep_config(seal->sector_bytes);
      ASSERT_TRUE(c.ok()) << seal->name;
      const PorepConfig f = porep_config_for(*seal);
      if (seal->feature != PoRepFeature::kNonInteractive) {
        EXPECT_EQ(c->challenges_per_partition, f.challenges_per_partition) << seal->name;
        EXPECT_EQ(c->partitions, f.partitions) << seal->name;
      }
      EXPECT_EQ(c->layers, f.layers) << seal->name;
      EXPECT_EQ(c->tree_r, f.tree_r) << seal->name;
    }
    auto post = post_proof_info(id);
    if (post.ok()) {
      auto c = post_config(post->kind == PoStKind::kWinning ? PostKind::kWinning : PostKind::kWindow, post->sector_bytes);
      ASSERT_TRUE(c.ok()) << post->name;
      EXPECT_EQ(c->sector_count, post->sector_count) << post->name;
      EXPECT_EQ(c->challenge_count, post->challenge_count) << post->name;
      EXPECT_EQ(c->tree_r, post->shape) << post->name;
    }
    auto upd = update_proof_info(id);
    if (upd.ok()) {
      auto c = update_config_for(*upd);
      ASSERT_TRUE(c.ok()) << upd->name;
      EXPECT_EQ(c->partition_count, upd->partitions) << upd->name;
      EXPECT_EQ(c->challenge_count, upd->challenges_per_partition) << upd->name;
      EXPECT_EQ(c->tree_r, upd->shape) << upd->name;
    }
  }
}

}  // namespace
}  // namespace cuzk::filecoin::snark

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "cuzk/filecoin/bincode.h"

namespace cuzk::filecoin::snark {
namespace {

// Curio's lib/proof/testgolden post.vproof: a WindowPoSt vanilla proof of
// sector 1 (32 GiB, StackedDrgWindow32GiBV1) for all-zero randomness. A
// 32 GiB partition repeats it up to 2349 sectors, all identical, so this
// test synthesizes the documented subset of one sector (the circuit's shape
// for 32 GiB with sector_count = 1): every row holds and the inputs are the
// ones rust-fil-proofs derives. `cuzk filecoin check` runs the full partition.
TEST(VanillaCircuits, CurioGolden32GiBWindowPoStSector) {
  const char* src = std::getenv("CUZK_SOURCE_DIR");
  ASSERT_NE(src, nullptr) << "run through ctest (CUZK_SOURCE_DIR)";
  std::ifstream in(std::string(src) + "/filecoin/core/testdata/curio/post.vproof", std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string bytes = ss.str();
  ASSERT_EQ(bytes.size(), 24960u) << "missing test data";
  auto proof = decode_post_sector_proof(ByteSpan(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
  ASSERT_TRUE(proof.ok()) << proof.status().to_string();
  PoStProofInfo info = post_proof_info(8).value();  // StackedDrgWindow32GiBV1
  info.sector_count = 1;
  auto part = post_partition_from_vanilla(info, std::span(&*proof, 1));
  ASSERT_TRUE(part.ok()) << part.status().to_string();
  const Node randomness{};
  const PoStSector pub{proof->sector_id, proof->comm_r};
  auto publics = window_post_public_inputs(info, randomness, std::span(&pub, 1), 0);
  ASSERT_TRUE(publics.ok());
  expect_satisfied_with_inputs([&](auto& cs) { synthesize_post(cs, post_config_for(info), *part); }, *publics);
  PostPartition bad = *part;
  bad.sectors[0].leaves[7] += Fr::one();
  RecordingCs cs({.check = true});
  synthesize_post(cs, post_config_for(info), bad);
  EXPECT_NE(cs.satisfied().message().find("sector_0/challenge_inclusion_7"), std::string::npos)
      << cs.satisfied().message();
}

}  // namespace
}  // namespace cuzk::filecoin::snark
