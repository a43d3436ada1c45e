#include "cuzk/filecoin/challenges.h"

#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "cuzk/base/random.h"
#include "test_util.h"

namespace cuzk::filecoin {
namespace {

using ff::Fr;

// rand_xorshift 0.3 XorShiftRng (Marsaglia's xorshift128), seeded as
// SeedableRng::from_seed does, and blstrs' Scalar::random on top of it: the
// generator rust-fil-proofs' hard-coded tests draw their inputs from.
class XorShiftRng {
 public:
  explicit XorShiftRng(const std::array<uint8_t, 16>& seed) {
    for (int i = 0; i < 4; ++i) s_[i] = load_u32le(seed.data() + 4 * i);
  }
  uint32_t next_u32() {
    const uint32_t t = s_[0] ^ (s_[0] << 11);
    s_[0] = s_[1];
    s_[1] = s_[2];
    s_[2] = s_[3];
    s_[3] = s_[3] ^ (s_[3] >> 19) ^ (t ^ (t >> 8));
    return s_[3];
  }
  uint64_t next_u64() {
    const uint64_t lo = next_u32();
    return (uint64_t(next_u32()) << 32) | lo;
  }
  Fr random_fr() {
    for (;;) {
      Fr::Repr limbs;
      for (auto& l : limbs) l = next_u64();
      limbs[3] &= ~uint64_t(0) >> 1;
      Fr f;
      if (Fr::from_canonical(limbs, &f)) return f;
    }
  }

 private:
  uint32_t s_[4];
};

// storage-proofs-core TEST_SEED.
constexpr std::array<uint8_t, 16> kTestSeed = {0x59, 0x62, 0xbe, 0x5d, 0x76, 0x3d, 0x31, 0x8d,
                                               0x17, 0xdb, 0x37, 0x32, 0x54, 0x06, 0xbc, 0xe5};

// rust-fil-proofs storage-proofs-update/src/challenges.rs,
// test_challenges_against_hardcoded: the first five challenges of partition k
// for comm_r_new = PoseidonDomain::random(XorShiftRng::from_seed(TEST_SEED)).
TEST(SnapChallenges, HardcodedVectors) {
  XorShiftRng rng(kTestSeed);
  const Node comm_r_new = node_from_fr(rng.random_fr());
  struct Case {
    uint64_t nodes, k;
    std::array<uint32_t, 5> want;
  };
  const uint64_t kib = 32, mib = 32 * 1024, gib = 32 * 1024 * 1024;
  const Case cases[] = {
      {1 * kib, 0, {21, 7, 3, 31, 0}},
      {2 * kib, 0, {53, 51, 56, 3, 0}},
      {4 * kib, 0, {117, 25, 62, 0, 72}},
      {8 * kib, 0, {245, 140, 15, 128, 28}},
      {16 * kib, 0, {245, 140, 15, 128, 28}},
      {16 * kib, 1, {286, 308, 493, 510, 508}},
      {32 * kib, 0, {245, 454, 3, 400, 193}},
      {32 * kib, 1, {542, 666, 955, 927, 911}},
      {8 * mib, 0, {36085, 32783, 44060, 10950, 3731}},
      {8 * mib, 1, {78878, 130797, 112892, 93994, 78379}},
      {16 * mib, 0, {101621, 16391, 109319, 25944, 41193}},
      {16 * mib, 1, {209950, 163702, 175679, 224741, 197410}},
      {512 * mib, 0, {1019125, 116736, 706220, 59698, 799498}},
      {512 * mib, 1, {2092548, 1213276, 1185483, 1164598, 1095197}},
      {512 * mib, 14, {15212432, 15665918, 15015423, 15012912, 15495223}},
      {512 * mib, 15, {16388544, 15794686, 16637142, 16319148, 16328348}},
      {32 * gib, 0, {1019125, 27985696, 15282860, 11586600, 44651330}},
      {32 * gib, 1, {109168525, 127316247, 80331041, 97065716, 72310052}},
      {32 * gib, 14, {990420169, 955146989, 968005601, 976863263, 944650706}},
      {32 * gib, 15, {1038629497, 1053983614, 1030421316, 1027373887, 1068685433}},
      {64 * gib, 0, {1019125, 13992848, 3820715, 18225541, 57316660}},
      {64 * gib, 1, {243386253, 197875851, 204632136, 171516766, 247789010}},
      {64 * gib, 14, {1997053129, 1920414070, 2003609080, 1900492803, 1963254685}},
      {64 * gib, 15, {2045262457, 2036941247, 2136653521, 2091356007, 2147167623}},
  };
  for (const Case& c : cases) {
    const auto got = snap_challenges(c.nodes, comm_r_new, c.k);
    ASSERT_EQ(got.size(), snap_challenge_count(c.nodes));
    EXPECT_EQ(std::vector<uint32_t>(got.begin(), got.begin() + 5), std::vector<uint32_t>(c.want.begin(), c.want.end()))
        << c.nodes << " nodes, k = " << c.k;
    // storage-proofs-update test_challenge_bucketing: partition k's challenges
    // lie in the k-th slice of the sector.
    const uint64_t slice = c.nodes / snap_partition_count(c.nodes);
    for (uint32_t x : got) EXPECT_EQ(x / slice, c.k);
  }
}

// rust-fil-proofs storage-proofs-porep/src/stacked/vanilla/challenges.rs,
// test_synth_challenges_against_hardcoded.
TEST(PoRepChallenges, SynthHardcoded) {
  const Node replica_id = node_from_fr(Fr::from_uint(55)), comm_r = node_from_fr(Fr::from_uint(101));
  SynthChallenges synth(1 << 10, replica_id, comm_r, 21);
  const std::vector<uint64_t> want_synth = {178, 297, 869, 211, 875, 477, 94, 781, 124, 332, 856,
                                            801, 176, 692, 429, 691, 290, 204, 986, 210, 973};
  std::vector<uint64_t> got;
  for (uint64_t i = 0; i < 21; ++i) got.push_back(synth.synth_challenge(i));
  EXPECT_EQ(got, want_synth);
  Node rand;
  rand.fill(1);
  EXPECT_EQ(synth.partition_challenges(10, rand, 0),
            (std::vector<uint64_t>{176, 781, 801, 986, 290, 211, 692, 856, 986, 332}));
  EXPECT_EQ(SynthChallenges::default_count(uint64_t(1) << 30), uint64_t(1) << 18);
  EXPECT_EQ(SynthChallenges::default_count(64), 64u);
}

// challenges.rs challenge_partition_equivalence: partitions of n challenges
// give the challenges of one partition of partitions·n; every challenge is
// in [1, nodes).
TEST(PoRepChallenges, PartitionEquivalenceAndRange) {
  TestRng rng(fresh_test_seed());
  const Node replica_id = node_from_fr(Fr::random(rng)), seed = node_from_fr(Fr::random(rng));
  const uint64_t nodes = uint64_t(1) << 30;
  for (auto derive : {&porep_interactive_challenges, &porep_ni_challenges}) {
    const auto all = derive(nodes, replica_id, seed, 5 * 40, 0);
    std::vector<uint64_t> parts;
    for (uint64_t k = 0; k < 5; ++k) {
      const auto p = derive(nodes, replica_id, seed, 40, k);
      parts.insert(parts.end(), p.begin(), p.end());
    }
    EXPECT_EQ(all, parts);
    for (uint64_t c : all) {
      EXPECT_GE(c, 1u);
      EXPECT_LT(c, nodes);
    }
  }
  for (uint64_t c : porep_interactive_challenges(64, replica_id, seed, 200, 3)) {
    EXPECT_GE(c, 1u);
    EXPECT_LT(c, 64u);
  }
}

TEST(PoStChallenges, IndexRuleAndProverId) {
  EXPECT_EQ(post_challenge_index(ApiVersion::kV1_2_0, 7, 10, 3), 3u);
  EXPECT_EQ(post_challenge_index(ApiVersion::kV1_0_0, 7, 10, 3), 73u);
  // The ID address payload of f01000 is uvarint(1000) = e8 07.
  Node want{};
  want[0] = 0xe8;
  want[1] = 0x07;
  EXPECT_EQ(prover_id_from_miner_id(1000), want);
  EXPECT_EQ(prover_id_from_miner_id(5), Node{5});
}

TEST(SnapConstants, BySectorSize) {
  EXPECT_EQ(snap_partition_count(64), 1u);         // 2 KiB
  EXPECT_EQ(snap_partition_count(1 << 18), 4u);    // 8 MiB
  EXPECT_EQ(snap_partition_count(1u << 30), 16u);  // 32 GiB
  EXPECT_EQ(snap_challenge_count(1u << 30), 86u);
  EXPECT_EQ(snap_h_default(1u << 30), 10u);
  EXPECT_EQ(snap_h_default(64), 1u);
  EXPECT_EQ(snap_h_select(1u << 30, 10), 8u);
  EXPECT_EQ(snap_h_select(1u << 30, 3), 0u);
  EXPECT_EQ(snap_apex_leaf_count(1u << 30), 128u);
}

}  // namespace
}  // namespace cuzk::filecoin
