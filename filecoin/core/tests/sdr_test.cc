#include "cuzk/filecoin/sdr.h"

#include <gtest/gtest.h>

#include <vector>

#include "cuzk/base/random.h"
#include "cuzk/filecoin/poseidon.h"
#include "test_util.h"

namespace cuzk::filecoin {
namespace {

using testing::fr_from_u64s;

// rust-fil-proofs storage-proofs-porep/tests/stacked_vanilla.rs,
// test_stacked_porep_generate_labels: 11 layers over 2 KiB and 4 KiB graphs,
// replica_id = [9; 32], and the last label of the last layer.
void check_last_label(uint64_t sector_bytes, const PoRepId& porep_id, ApiVersion api, std::array<uint64_t, 4> want) {
  const uint64_t nodes = sector_bytes / 32;
  auto graph = StackedGraph::create(nodes, porep_id, api).value();
  Node replica_id;
  replica_id.fill(9);
  const auto labels = generate_labels(graph, replica_id, 11);
  EXPECT_EQ(node_to_hex(labels[10][nodes - 1]), node_to_hex(node_from_fr(fr_from_u64s(want))))
      << sector_bytes << " bytes, API " << api_version_name(api);
}

TEST(Sdr, GenerateLabelsKnownAnswers) {
  PoRepId legacy{}, porep;
  porep.fill(123);
  check_last_label(2048, legacy, ApiVersion::kV1_0_0,
                   {0xd3faa96b9a0fba04, 0xea81a283d106485e, 0xe3d51b9afa5ac2b3, 0x0462f4f4f1a68d37});
  check_last_label(4096, legacy, ApiVersion::kV1_0_0,
                   {0x7e191e52c4a8da86, 0x5ae8a1c9e6fac148, 0xce239f3b88a894b8, 0x234c00d1dc1d53be});
  check_last_label(2048, porep, ApiVersion::kV1_1_0,
                   {0xabb3f38bb70defcf, 0x777a2e4d7769119f, 0x3448959d495490bc, 0x06021188c7a71cb5});
  check_last_label(4096, porep, ApiVersion::kV1_1_0,
                   {0x22ab81cf68c4676d, 0x7a77a82fc7c9c189, 0xc6c03d32c1e42d23, 0x0f777c18cc2c55bd});
  check_last_label(2048, porep, ApiVersion::kV1_2_0,
                   {0xabb3f38bb70defcf, 0x777a2e4d7769119f, 0x3448959d495490bc, 0x06021188c7a71cb5});
  check_last_label(4096, porep, ApiVersion::kV1_2_0,
                   {0x22ab81cf68c4676d, 0x7a77a82fc7c9c189, 0xc6c03d32c1e42d23, 0x0f777c18cc2c55bd});
}

TEST(Sdr, LabelParentSlots) {
  const auto first = label_parent_slots(true), later = label_parent_slots(false);
  for (int i = 0; i < 36; ++i) EXPECT_EQ(first[size_t(i)], i % 6);
  EXPECT_EQ(first[36], 0);
  for (int i = 0; i < 28; ++i) EXPECT_EQ(later[size_t(i)], i % 14);
  for (int i = 28; i < 36; ++i) EXPECT_EQ(later[size_t(i)], i - 28);
  EXPECT_EQ(later[36], 8);
}

std::vector<uint8_t> random_sector(TestRng& rng, size_t bytes) {
  std::vector<uint8_t> d(bytes);
  for (auto& b : d) b = uint8_t(rng());
  for (size_t i = 31; i < bytes; i += 32) d[i] &= 0x3f;  // fr32-padded data
  return d;
}

// A 2 KiB sector sealed end to end: the commitments compose as the
// reference composes them, the replica decodes back to the data, and every
// tree's inclusion proofs verify against its commitment.
TEST(Sdr, Seal2KiB) {
  TestRng rng(fresh_test_seed());
  SealInputs in;
  in.sector_bytes = 2048;
  in.layers = 2;
  store_u64le(in.porep_id.data(), 5);  // StackedDrg2KiBV1_1
  in.api = ApiVersion::kV1_1_0;
  in.prover_id = node_from_fr(Fr::random(rng));
  in.ticket = node_from_fr(Fr::random(rng));
  in.sector_id = rng();
  const auto data = random_sector(rng, 2048);
  auto sealed = seal_sector(in, data);
  ASSERT_TRUE(sealed.ok()) << sealed.status().to_string();
  const SealedSector& s = *sealed;
  EXPECT_EQ(s.comm_d, build_tree_d(data).value().root());
  EXPECT_EQ(s.replica_id, compute_replica_id(in.prover_id, in.sector_id, in.ticket, s.comm_d, in.porep_id));
  EXPECT_EQ(s.comm_r, node_from_fr(poseidon_hash2(fr_from_node(s.comm_c).value(), fr_from_node(s.comm_r_last).value())));
  ASSERT_EQ(s.replica.size(), 64u);
  for (uint64_t v = 0; v < 64; ++v) {
    Node d;
    std::copy(data.begin() + long(32 * v), data.begin() + long(32 * v + 32), d.begin());
    EXPECT_EQ(decode_node(s.labels[1][v], s.replica[v]), d);
    const Node col[2] = {s.labels[0][v], s.labels[1][v]};
    EXPECT_EQ(s.tree_c.leaf(v), column_hash(col).value());
  }
  for (uint64_t v : {uint64_t(0), uint64_t(17), uint64_t(63)}) {
    EXPECT_TRUE(verify_merkle_proof(TreeHash::kPoseidon, s.tree_c.proof(v)).ok());
    EXPECT_TRUE(verify_merkle_proof(TreeHash::kPoseidon, s.tree_r_last.proof(v)).ok());
    EXPECT_TRUE(verify_merkle_proof(TreeHash::kSha254, tree_d_proof(s.tree_d, v)).ok());
    EXPECT_EQ(s.tree_r_last.proof(v).root, s.comm_r_last);
  }
  // The sealed replica changes with the ticket.
  in.ticket = node_from_fr(Fr::random(rng));
  EXPECT_NE(seal_sector(in, data).value().comm_r, s.comm_r);
}

TEST(Sdr, SealRejectsBadInput) {
  SealInputs in;
  in.sector_bytes = 2048;
  in.layers = 2;
  std::vector<uint8_t> data(2048, 0);
  EXPECT_TRUE(seal_sector(in, data).ok());
  data[31] = 0xff;  // node 0 >= r
  auto r = seal_sector(in, data);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("offset 0"), std::string::npos) << r.status().message();
  data[31] = 0;
  in.layers = 3;
  EXPECT_FALSE(seal_sector(in, data).ok());
  in.layers = 2;
  EXPECT_FALSE(seal_sector(in, std::vector<uint8_t>(1024)).ok());
}

}  // namespace
}  // namespace cuzk::filecoin
