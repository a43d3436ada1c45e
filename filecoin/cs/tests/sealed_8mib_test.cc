// Satisfiability at 8 MiB: a sector sealed in memory by cuzk::filecoin, its
// C1 output (PoRep), Window and Winning PoSt proofs and a SnapDeals update
// (the first and the last of its four partitions) synthesize to witnesses
// that satisfy every row, with the public inputs computed from the public
// parameters. Slow (sealing 8 MiB and checking ~10 M rows per SnapDeals
// partition): CTest label "filecoin".
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "cuzk/base/random.h"
#include "cuzk/filecoin/cs/recording_cs.h"
#include "cuzk/filecoin/cs/vanilla_inputs.h"
#include "cuzk/filecoin/public_inputs.h"
#include "cuzk/filecoin/sdr.h"
#include "cuzk/filecoin/vanilla_produce.h"

namespace cuzk::filecoin::snark {
namespace {

template <class Synth>
void expect_satisfied(const char* what, Synth synth, const std::vector<Fr>& publics) {
  const auto t = std::chrono::steady_clock::now();
  RecordingCs cs({.check = true});
  synth(cs);
  ASSERT_TRUE(cs.status().ok()) << what << ": " << cs.status().to_string();
  EXPECT_TRUE(cs.satisfied().ok()) << what << ": " << cs.satisfied().message();
  ASSERT_EQ(cs.num_inputs(), publics.size() + 1) << what;
  for (size_t i = 0; i < publics.size(); ++i) EXPECT_EQ(cs.value(Var::input(i + 1)), publics[i]) << what << " " << i;
  std::printf("%s: %lu rows satisfied (%.1f s)\n", what, cs.num_constraints(),
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count());
}

TEST(Sealed8MiB, PoRepPoStAndSnapDealsAreSatisfied) {
  TestRng rng(fresh_test_seed());
  const SealProofInfo seal = seal_proof_info(6).value();  // StackedDrg8MiBV1_1
  ASSERT_EQ(seal.sector_bytes, uint64_t(8) << 20);
  std::vector<uint8_t> data(seal.sector_bytes);
  for (size_t i = 0; i < data.size(); ++i) data[i] = uint8_t(rng()) & (i % 32 == 31 ? 0x3f : 0xff);
  SealInputs in{seal.sector_bytes, seal.layers, seal.porep_id, seal.api, node_from_fr(Fr::random(rng)), 77,
                node_from_fr(Fr::random(rng))};
  auto t = std::chrono::steady_clock::now();
  const SealedSector sector = seal_sector(in, data).value();
  std::printf("sealed 8 MiB in %.1f s\n", std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count());

  const Node seed = node_from_fr(Fr::random(rng));
  const SealCommitPhase1Output c1 = produce_seal_commit_phase1(seal, sector, seed, in.ticket);
  auto porep = porep_partition_from_c1(seal, c1, 0);
  ASSERT_TRUE(porep.ok()) << porep.status().to_string();
  expect_satisfied("porep-8MiB", [&](auto& cs) { synthesize_porep(cs, porep_config_for(seal), *porep); },
                   porep_public_inputs(seal, c1.replica_id, c1.comm_d, c1.comm_r, seed, 0).value());

  const Node randomness = node_from_fr(Fr::random(rng));
  const PoStProofInfo window = post_proof_info(11).value();  // StackedDrgWindow8MiBV1_2
  const FallbackPoStSectorProof wp = produce_post_sector_proof(window, sector, 77, randomness, 0);
  auto wpart = post_partition_from_vanilla(window, std::span(&wp, 1));
  ASSERT_TRUE(wpart.ok()) << wpart.status().to_string();
  const PoStSector pub{77, sector.comm_r};
  expect_satisfied("window-post-8MiB", [&](auto& cs) { synthesize_post(cs, post_config_for(window), *wpart); },
                   window_post_public_inputs(window, randomness, std::span(&pub, 1), 0).value());

  const UpdateProofInfo update = update_proof_info(1).value();  // StackedDrg8MiBV1
  ASSERT_EQ(update.sector_bytes, seal.sector_bytes);
  std::vector<uint8_t> new_data(seal.sector_bytes);
  for (size_t i = 0; i < new_data.size(); ++i) new_data[i] = uint8_t(rng()) & (i % 32 == 31 ? 0x3f : 0xff);
  const SnapUpdate u = snap_encode(update, sector, new_data).value();
  auto config = update_config_for(update);
  ASSERT_TRUE(config.ok());
  // The first and the last partition: the partition index enters the
  // challenges and the public inputs; the partitions between add ~18 s each
  // on two cores and nothing the two ends do not check.
  for (uint64_t k : {uint64_t(0), uint64_t(update.partitions) - 1}) {
    const SnapPartitionProof proof = produce_snap_partition_proof(update, sector, u, k);
    auto part = update_partition_from_vanilla(update, k, sector.comm_r, u.comm_d_new, u.comm_r_new, proof);
    ASSERT_TRUE(part.ok()) << part.status().to_string();
    expect_satisfied("snap-deals-8MiB", [&](auto& cs) { synthesize_update(cs, *config, *part); },
                     snap_public_inputs(update, k, update.h, sector.comm_r, u.comm_d_new, u.comm_r_new).value());
  }
}

}  // namespace
}  // namespace cuzk::filecoin::snark
