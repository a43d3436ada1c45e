#include "cuzk/filecoin/public_inputs.h"

#include <gtest/gtest.h>

#include "cuzk/base/random.h"
#include "cuzk/filecoin/challenges.h"
#include "test_util.h"

namespace cuzk::filecoin {
namespace {

// filecoin-proofs constants.rs / parameters.rs and rust-filecoin-proofs-api
// registry.rs: partitions, layers and challenges per registered seal proof.
TEST(ProofTypes, SealParameters) {
  auto p = seal_proof_info(8).value();  // StackedDrg32GiBV1_1
  EXPECT_EQ(p.name, "StackedDrg32GiBV1_1");
  EXPECT_EQ(p.sector_bytes, uint64_t(32) << 30);
  EXPECT_EQ(p.api, ApiVersion::kV1_1_0);
  EXPECT_EQ(p.layers, 11);
  EXPECT_EQ(p.partitions, 10);
  EXPECT_EQ(p.challenges_per_partition, 18);  // ceil(176 / 10)
  EXPECT_EQ(p.shape, (TreeShape{8, 8, 0}));
  EXPECT_EQ(p.porep_id[0], 8);
  auto small = seal_proof_info("StackedDrg2KiBV1").value();
  EXPECT_EQ(small.registered_proof, 0u);
  EXPECT_EQ(small.api, ApiVersion::kV1_0_0);
  EXPECT_EQ(small.layers, 2);
  EXPECT_EQ(small.partitions, 1);
  EXPECT_EQ(small.challenges_per_partition, 2);
  auto ni = seal_proof_info(18).value();
  EXPECT_EQ(ni.feature, PoRepFeature::kNonInteractive);
  EXPECT_EQ(ni.partitions, 126);
  EXPECT_EQ(ni.challenges_per_partition, 18);  // ceil(2253 / 126)
  EXPECT_EQ(seal_proof_info(15).value().partitions, 13);
  EXPECT_EQ(seal_proof_info(15).value().challenges_per_partition, 2);
  EXPECT_EQ(seal_proof_info(14).value().feature, PoRepFeature::kSynthetic);
  EXPECT_EQ(seal_proof_info(9).value().shape, (TreeShape{8, 8, 2}));
  EXPECT_FALSE(seal_proof_info(20).ok());
  EXPECT_FALSE(seal_proof_info("StackedDrg1KiBV1").ok());
}

TEST(ProofTypes, PoStAndUpdateParameters) {
  auto w = post_proof_info("StackedDrgWindow32GiBV1_2").value();
  EXPECT_EQ(w.registered_proof, 13u);
  EXPECT_EQ(w.api, ApiVersion::kV1_2_0);
  EXPECT_EQ(w.sector_count, 2349);
  EXPECT_EQ(w.challenge_count, 10);
  EXPECT_EQ(post_proof_info(9).value().sector_count, 2300);
  auto win = post_proof_info(3).value();
  EXPECT_EQ(win.kind, PoStKind::kWinning);
  EXPECT_EQ(win.sector_count, 66);
  EXPECT_EQ(win.challenge_count, 1);
  auto u = update_proof_info(3).value();
  EXPECT_EQ(u.partitions, 16);
  EXPECT_EQ(u.challenges_per_partition, 86);
  EXPECT_EQ(u.h, 10u);
  EXPECT_EQ(update_proof_info(0).value().partitions, 1);
}

// The layout of a PoRep partition's inputs.
TEST(PublicInputs, PoRepLayout) {
  TestRng rng(fresh_test_seed());
  const SealProofInfo info = seal_proof_info(5).value();  // StackedDrg2KiBV1_1
  const Node replica_id = node_from_fr(Fr::random(rng)), comm_d = node_from_fr(Fr::random(rng));
  const Node comm_r = node_from_fr(Fr::random(rng)), seed = node_from_fr(Fr::random(rng));
  auto in = porep_public_inputs(info, replica_id, comm_d, comm_r, seed, 0).value();
  ASSERT_EQ(in.size(), 3u + 18u * 2u);
  EXPECT_EQ(in[0], fr_from_node(replica_id).value());
  EXPECT_EQ(in[1], fr_from_node(comm_d).value());
  EXPECT_EQ(in[2], fr_from_node(comm_r).value());
  const auto challenges = porep_interactive_challenges(64, replica_id, seed, 2, 0);
  auto graph = StackedGraph::create(64, info.porep_id, info.api).value();
  for (size_t i = 0; i < 2; ++i) {
    const Fr* row = &in[3 + 18 * i];
    const Fr c = Fr::from_uint(challenges[i]);
    EXPECT_EQ(row[0], c);
    const auto parents = graph.parents(uint32_t(challenges[i]));
    for (int j = 0; j < 14; ++j) EXPECT_EQ(row[1 + j], Fr::from_uint(parents[size_t(j)]));
    EXPECT_EQ(row[15], c);
    EXPECT_EQ(row[16], c);
    EXPECT_EQ(row[17], c);
  }
  EXPECT_FALSE(porep_public_inputs(info, replica_id, comm_d, comm_r, seed, 1).ok());
  Node bad;
  bad.fill(0xff);
  auto err = porep_public_inputs(info, replica_id, bad, comm_r, seed, 0);
  ASSERT_FALSE(err.ok());
  EXPECT_NE(err.status().message().find("comm_d"), std::string::npos);
  // 32 GiB: 3 + 18·18 = 327 inputs (328 with ONE).
  EXPECT_EQ(porep_public_inputs(seal_proof_info(8).value(), replica_id, comm_d, comm_r, seed, 9).value().size(), 327u);
}

TEST(PublicInputs, PoStLayoutAndPadding) {
  TestRng rng(fresh_test_seed());
  const PoStProofInfo info = post_proof_info(10).value();  // StackedDrgWindow2KiBV1_2: 2 sectors
  const Node randomness = node_from_fr(Fr::random(rng));
  const std::vector<PoStSector> sectors = {{7, node_from_fr(Fr::random(rng))}, {9, node_from_fr(Fr::random(rng))},
                                           {11, node_from_fr(Fr::random(rng))}};
  auto p0 = window_post_public_inputs(info, randomness, sectors, 0).value();
  ASSERT_EQ(p0.size(), 22u);
  EXPECT_EQ(p0[0], fr_from_node(sectors[0].comm_r).value());
  EXPECT_EQ(p0[1], Fr::from_uint(post_leaf_challenge(64, randomness, 7, 0)));
  EXPECT_EQ(p0[11], fr_from_node(sectors[1].comm_r).value());
  auto p1 = window_post_public_inputs(info, randomness, sectors, 1).value();
  ASSERT_EQ(p1.size(), 22u);
  EXPECT_EQ(std::vector<Fr>(p1.begin(), p1.begin() + 11), std::vector<Fr>(p1.begin() + 11, p1.end()));
  EXPECT_FALSE(window_post_public_inputs(info, randomness, sectors, 2).ok());

  // Winning: 66 copies, each with its own challenge index (API 1.0.0).
  const PoStProofInfo win = post_proof_info(0).value();
  auto w = winning_post_public_inputs(win, randomness, sectors[0]).value();
  ASSERT_EQ(w.size(), 132u);
  for (uint64_t i = 0; i < 66; ++i) {
    EXPECT_EQ(w[2 * i], fr_from_node(sectors[0].comm_r).value());
    EXPECT_EQ(w[2 * i + 1], Fr::from_uint(post_leaf_challenge(64, randomness, 7, i)));
  }
}

TEST(PublicInputs, SnapLayout) {
  TestRng rng(fresh_test_seed());
  const UpdateProofInfo info = update_proof_info(3).value();  // 32 GiB: 16 partitions
  const Node a = node_from_fr(Fr::random(rng)), b = node_from_fr(Fr::random(rng)), c = node_from_fr(Fr::random(rng));
  auto in = snap_public_inputs(info, 5, 10, a, b, c).value();
  ASSERT_EQ(in.size(), 4u);
  EXPECT_EQ(in[0], Fr::from_uint(5 | (8 << 4)));  // h = 10 is hs[3]
  EXPECT_EQ(in[3], fr_from_node(c).value());
  EXPECT_FALSE(snap_public_inputs(info, 16, 10, a, b, c).ok());
  EXPECT_FALSE(snap_public_inputs(info, 0, 6, a, b, c).ok());
}

}  // namespace
}  // namespace cuzk::filecoin
