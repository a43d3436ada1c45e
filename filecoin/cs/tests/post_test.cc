// The Fallback PoSt circuit: shapes against rust-fil-proofs'
// storage-proofs-post tests/fallback_circuit.rs and filecoin-proofs'
// constants (constants.rs: "this gives 125,279,217 constraints"); values
// against trees built by cuzk::filecoin.
#include <gtest/gtest.h>

#include <cstdio>

#include "cuzk/filecoin/cs/post.h"
#include "cuzk/filecoin/cs/recording_cs.h"
#include "cuzk/filecoin/cs/witness_cs.h"
#include "test_util.h"

namespace cuzk::filecoin::snark {
namespace {

PostConfig test_config(TreeShape shape, int sectors) {
  PostConfig c;
  c.sector_bytes = 32 * 64 * uint64_t(shape.base_count());
  c.sector_count = sectors;
  c.challenge_count = 5;
  c.tree_r = shape;
  return c;
}

struct FallbackCase {
  const char* name;
  TreeShape shape;
  int sectors;
  uint64_t inputs;
  uint64_t rows;
};
// test_fallback_post_circuit_poseidon_*: 64 leaves per base tree, 5 challenges.
constexpr FallbackCase kFallback[] = {
    {"single_partition_base_8", {8, 0, 0}, 3, 19, 16'869},
    {"single_partition_sub_8_4", {8, 4, 0}, 3, 19, 22'674},
    {"single_partition_top_8_4_2", {8, 4, 2}, 3, 19, 27'384},
    {"two_partitions_base_8", {8, 0, 0}, 2, 13, 11'246},
};

TEST(Post, BlankShapesMatchTheReferenceTests) {
  for (const FallbackCase& fc : kFallback) {
    const PostConfig config = test_config(fc.shape, fc.sectors);
    const PostPartition blank = blank_post_partition(config);
    ASSERT_TRUE(check_post_partition(config, blank).ok());
    RecordingCs cs;
    synthesize_post(cs, config, blank);
    EXPECT_EQ(cs.num_inputs(), fc.inputs) << fc.name;
    EXPECT_EQ(cs.num_constraints(), fc.rows) << fc.name;
  }
}

// A partition over real trees holds, and its inputs are comm_r and the
// challenged indices (FallbackPoStCompound::generate_public_inputs).
TEST(Post, RealTreesSatisfyTheCircuitAndTamperingIsNamed) {
  TestRng rng(fresh_test_seed());
  const PostConfig config = test_config({8, 4, 0}, 2);
  PostPartition p;
  std::vector<uint64_t> challenges;
  for (int s = 0; s < config.sector_count; ++s) {
    auto tree = ShapedTree::build(config.tree_r, testing::random_leaves(rng, config.nodes()));
    ASSERT_TRUE(tree.ok());
    PostSector sector;
    sector.comm_r_last = fr_from_node_trusted(tree->root());
    sector.comm_c = Fr::random(rng);
    const Fr pair[2] = {sector.comm_c, sector.comm_r_last};
    sector.comm_r = poseidon_hash(poseidon_constants(2), pair);
    for (int k = 0; k < config.challenge_count; ++k) {
      const uint64_t c = rng() % config.nodes();
      challenges.push_back(c);
      const MerkleProof proof = tree->proof(c);
      sector.leaves.push_back(fr_from_node_trusted(proof.leaf));
      sector.paths.push_back(testing::auth_path_of(proof));
    }
    p.sectors.push_back(std::move(sector));
  }
  ASSERT_TRUE(check_post_partition(config, p).ok());
  RecordingCs cs({.check = true});
  synthesize_post(cs, config, p);
  EXPECT_TRUE(cs.satisfied().ok()) << cs.satisfied().message();
  uint64_t input = 1;
  for (int s = 0; s < config.sector_count; ++s) {
    EXPECT_EQ(cs.value(Var::input(input++)), p.sectors[size_t(s)].comm_r);
    for (int k = 0; k < config.challenge_count; ++k) {
      EXPECT_EQ(cs.value(Var::input(input++)), Fr::from_uint(challenges[size_t(s * config.challenge_count + k)]));
    }
  }
  p.sectors[1].leaves[3] += Fr::one();
  RecordingCs bad({.check = true});
  synthesize_post(bad, config, p);
  EXPECT_NE(bad.satisfied().message().find("sector_1/challenge_inclusion_3/enforce root is correct"),
            std::string::npos)
      << bad.satisfied().message();
}

TEST(Post, ErrorsNameTheSectorAndChallenge) {
  const PostConfig config = test_config({8, 0, 0}, 3);
  PostPartition p = blank_post_partition(config);
  p.sectors[2].paths[4].base.pop_back();
  const Status s = check_post_partition(config, p);
  EXPECT_NE(s.message().find("sector 2 challenge 4 path (base)"), std::string::npos) << s.message();
  p.sectors.pop_back();
  EXPECT_FALSE(check_post_partition(config, p).ok());
}

// filecoin-proofs constants.rs: WINDOW_POST_SECTOR_COUNT for 32 GiB "gives
// 125,279,217 constraints"; WinningPoSt (66 one-challenge sectors) 370,590;
// storage-proofs-post's bench test: 5 sectors of 32 GiB, 10 challenges,
// 266,665.
TEST(Post, Shapes32GiB) {
  auto window = post_config(PostKind::kWindow, uint64_t(32) << 30);
  auto winning = post_config(PostKind::kWinning, uint64_t(32) << 30);
  ASSERT_TRUE(window.ok() && winning.ok());
  EXPECT_EQ(window->sector_count, 2349);
  RecordingCs w({.replicate_sections = true});
  synthesize_post(w, *window, blank_post_partition(*window));
  ASSERT_TRUE(w.status().ok()) << w.status().to_string();
  RecordingCs win;
  synthesize_post(win, *winning, blank_post_partition(*winning));
  PostConfig bench = *window;
  bench.sector_count = 5;
  RecordingCs b;
  synthesize_post(b, bench, blank_post_partition(bench));
  std::printf("32 GiB WindowPoSt partition: %lu rows, %lu inputs, %lu aux; WinningPoSt: %lu rows, %lu inputs\n",
              w.num_constraints(), w.num_inputs(), w.num_aux(), win.num_constraints(), win.num_inputs());
  EXPECT_EQ(w.num_constraints(), 125'279'217u);
  EXPECT_EQ(w.num_inputs(), 1u + 2349u * 11u);
  EXPECT_EQ(win.num_constraints(), 370'590u);
  EXPECT_EQ(win.num_inputs(), 1u + 66u * 2u);
  EXPECT_EQ(b.num_constraints(), 266'665u);
}

}  // namespace
}  // namespace cuzk::filecoin::snark
