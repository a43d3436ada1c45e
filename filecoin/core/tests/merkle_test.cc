#include "cuzk/filecoin/merkle.h"

#include <gtest/gtest.h>

#include <vector>

#include "cuzk/base/random.h"
#include "cuzk/filecoin/cid.h"
#include "cuzk/filecoin/pieces.h"
#include "cuzk/filecoin/poseidon.h"
#include "cuzk/filecoin/sha256.h"
#include "test_util.h"

namespace cuzk::filecoin {
namespace {

// Curio lib/proof/treed_build_test.go, expect32Null: the first node of every
// level of the tree D of an all-zero 32 GiB sector, i.e. the zero-piece
// commitments of 64 B, 128 B, …, 32 GiB.
const char* const kZeroCommitments[] = {
    "f5a5fd42d16a20302798ef6ed309979b43003d2320d9f0e8ea9831a92759fb0b",  // 64 B
    "3731bb99ac689f66eef5973e4a94da188f4ddcae580724fc6f3fd60dfd488333",
    "642a607ef886b004bf2c1978463ae1d4693ac0f410eb2d1b7a47fe205e5e750f",
    "57a2381a28652bf47f6bef7aca679be4aede5871ab5cf3eb2c08114488cb8526",
    "1f7ac9595510e09ea41c460b176430bb322cd6fb412ec57cb17d989a4310372f",
    "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833",  // 2 KiB
    "08c47b38ee13bc43f41b915c0eed9911a26086b3ed62401bf9d58b8d19dff624",
    "b2e47bfb11facd941f62af5c750f3ea5cc4df517d5c4f16db2b4d77baec1a32f",
    "f9226160c8f927bfdcc418cdf203493146008eaefb7d02194d5e548189005108",
    "2c1a964bb90b59ebfe0f6da29ad65ae3e417724a8f7c11745a40cac1e5e74011",
    "fee378cef16404b199ede0b13e11b624ff9d784fbbed878d83297e795e024f02",
    "8e9e2403fa884cf6237f60df25f83ee40dca9ed879eb6f6352d15084f5ad0d3f",
    "752d9693fa167524395476e317a98580f00947afb7a30540d625a9291cc12a07",
    "7022f60f7ef6adfa17117a52619e30cea82c68075adf1c667786ec506eef2d19",
    "d99887b973573a96e11393645236c17b1f4c7034d723c7a99f709bb4da61162b",
    "d0b530dbb0b4f25c5d2f2a28dfee808b53412a02931f18c499f5a254086b1326",
    "84c0421ba0685a01bf795a2344064fe424bd52a9d24377b394ff4c4b4568e811",  // 2 MiB
    "65f29e5d98d246c38b388cfc06db1f6b021303c5a289000bdce832a9c3ec421c",
    "a2247508285850965b7e334b3127b0c042b1d046dc54402137627cd8799ce13a",
    "dafdab6da9364453c26d33726b9fefe343be8f81649ec009aad3faff50617508",  // 16 MiB
    "d941d5e0d6314a995c33ffbd4fbe69118d73d4e5fd2cd31f0f7c86ebdd14e706",
    "514c435c3d04d349a5365fbd59ffc713629111785991c1a3c53af22079741a2f",
    "ad06853969d37d34ff08e09f56930a4ad19a89def60cbfee7e1d3381c1e71c37",
    "39560e7b13a93b07a243fd2720ffa7cb3e1d2e505ab3629e79f46313512cda06",
    "ccc3c012f5b05e811a2bbfdd0f6833b84275b47bf229c0052a82484f3c1a5b3d",
    "7df29b69773199e8f2b40b77919d048509eed768e2c7297b1f1437034fc3c62c",  // 1 GiB
    "66ce05a3667552cf45c02bcc4e8392919bdeac35de2ff56271848e9f7b675107",
    "d8610218425ab5e95b1ca6239d29a2e420d706a96f373e2f9c9a91d759d19b01",
    "6d364b1ef846441a5a4a68862314acc0a46f016717e53443e839eedf83c2853c",
    "077e5fde35c50a9303a55009e3498a4ebedff39c42b710b730d8ec7ac7afa63e",  // 32 GiB
};

TEST(PieceCommitments, ZeroPiecesMatchCurioNullTree) {
  uint64_t size = 64;
  for (const char* hex : kZeroCommitments) {
    EXPECT_EQ(node_to_hex(zero_piece_commitment(size).value()), hex) << size << " bytes";
    size *= 2;
  }
  EXPECT_EQ(zero_piece_commitment(32).value(), Node{});
  EXPECT_FALSE(zero_piece_commitment(96).ok());
  EXPECT_FALSE(zero_piece_commitment(16).ok());
}

// rust-fil-proofs filecoin-proofs/tests/pieces.rs, test_compute_comm_d_empty.
TEST(PieceCommitments, EmptyCommD) {
  const Node want_2k = {252, 126, 146, 130, 150, 229, 22, 250, 173, 233, 134, 178, 143, 146, 212, 74,
                        79,  36,  185, 53,  72,  82,  35, 55,  106, 121, 144, 39,  188, 24,  248, 51};
  EXPECT_EQ(empty_sector_comm_d(2048).value(), want_2k);
  EXPECT_EQ(node_to_hex(compute_comm_d(128, {}).value()),
            "3731bb99ac689f66eef5973e4a94da188f4ddcae580724fc6f3fd60dfd488333");
}

// The piece stacking cases of rust-fil-proofs filecoin-proofs/tests/pieces.rs
// (test_verify_simple_pieces, test_verify_padded_pieces), on fresh random
// commitments.
TEST(PieceCommitments, PieceStacking) {
  TestRng rng(fresh_test_seed());
  auto rnd = [&] {
    Node n;
    for (auto& b : n) b = uint8_t(rng());
    n[31] &= 0x3f;
    return n;
  };
  const Node a = rnd(), b = rnd(), c = rnd(), d = rnd();
  const Node e = sha254_pair(a, b), f = sha254_pair(c, d), g = sha254_pair(e, f);
  auto p = [](Node n, uint64_t size) { return PieceInfo{n, size}; };
  const uint64_t sector = 4 * 128;
  EXPECT_EQ(compute_comm_d(sector, std::vector{p(a, 128), p(b, 128), p(c, 128), p(d, 128)}).value(), g);
  EXPECT_EQ(compute_comm_d(sector, std::vector{p(e, 256), p(c, 128), p(d, 128)}).value(), g);
  EXPECT_EQ(compute_comm_d(sector, std::vector{p(e, 256), p(f, 256)}).value(), g);
  EXPECT_EQ(compute_comm_d(sector, std::vector{p(a, 128), p(b, 128), p(f, 256)}).value(), g);
  EXPECT_EQ(compute_comm_d(sector, std::vector{p(g, 512)}).value(), g);

  // A(1) B(4) C(2) D(8) in a 32-unit sector, padded as the reference lays out.
  Node one, two, three, four;
  one.fill(1), two.fill(2), three.fill(3), four.fill(4);
  const Node z1 = zero_piece_commitment(128).value(), z2 = zero_piece_commitment(256).value();
  const Node z4 = zero_piece_commitment(512).value(), z8 = zero_piece_commitment(1024).value();
  const Node l8a = sha254_pair(sha254_pair(sha254_pair(one, z1), z2), two);
  const Node l8b = sha254_pair(sha254_pair(three, z2), z4);
  const Node want = sha254_pair(sha254_pair(l8a, l8b), sha254_pair(four, z8));
  EXPECT_EQ(compute_comm_d(32 * 128, std::vector{p(one, 128), p(two, 512), p(three, 256), p(four, 1024)}).value(), want);

  EXPECT_FALSE(compute_comm_d(sector, std::vector{p(a, 100)}).ok());
  EXPECT_FALSE(compute_comm_d(sector, std::vector{p(a, 512), p(b, 128)}).ok());
}

// rust-fil-proofs fr32/src/reader.rs, test_simple_127: 127 bytes of 0xff.
TEST(PieceCommitments, Fr32Padding) {
  std::vector<uint8_t> ones(127, 0xff);
  auto padded = fr32_pad(ones).value();
  ASSERT_EQ(padded.size(), 128u);
  for (int i = 0; i < 31; ++i) EXPECT_EQ(padded[size_t(i)], 0xff);
  EXPECT_EQ(padded[31], 0x3f);
  EXPECT_EQ(padded[32], 0xff);
  for (int k = 0; k < 4; ++k) EXPECT_EQ(padded[size_t(32 * k + 31)], 0x3f);
  TestRng rng(fresh_test_seed());
  std::vector<uint8_t> data(127 * 5);
  for (auto& x : data) x = uint8_t(rng());
  EXPECT_EQ(fr32_unpad(fr32_pad(data).value()).value(), data);
  EXPECT_FALSE(fr32_pad(std::vector<uint8_t>(128)).ok());
}

// Curio lib/proof/treed_build_test.go, Test2K and Test8MiB(Unpad): comm_d of a
// sector whose first byte is 1, as the unsealed-commitment CID, and the first
// two nodes of every level of the 8 MiB tree (expectD8M).
TEST(TreeD, Curio2KiB) {
  std::vector<uint8_t> data(2048, 0);
  data[0] = 1;
  auto tree = build_tree_d(data);
  ASSERT_TRUE(tree.ok());
  EXPECT_EQ(commitment_to_cid(CommitmentKind::kUnsealed, tree->root()),
            "baga6ea4seaqovgk4kr4eoifujh6jfmdqvw3m6zrvyjqzu6s6abkketui6jjoydi");
  EXPECT_EQ(commitment_from_cid(CommitmentKind::kUnsealed, commitment_to_cid(CommitmentKind::kUnsealed, tree->root()))
                .value(),
            tree->root());
}

TEST(TreeD, Curio8MiB) {
  std::vector<uint8_t> unpadded((8u << 20) / 128 * 127, 0);
  unpadded[0] = 1;
  auto data = fr32_pad(unpadded).value();
  ASSERT_EQ(data.size(), 8u << 20);
  auto tree = build_tree_d(data);
  ASSERT_TRUE(tree.ok());
  EXPECT_EQ(commitment_to_cid(CommitmentKind::kUnsealed, tree->root()),
            "baga6ea4seaqcgqckrcapts6hea44xbqugwocqneekvyp5fizbo6u3e2biluckla");
  const char* first_nodes[] = {
      "16abab341fb7f370e27e4dadcf81766dd0dfd0ae64469477bb2cf6614938b22f",
      "0dd6dae41c2f75550129594fb644e4a842cfafb316a2d59321e388fe84a1ec2f",
      "11b1c4800521d5e5834adeb3707c74159ff337b096163c9431167340e7b1171d",
      "ec6925559bcc52840a22385b2b6b35b45014500428f459fec123010fe7ef181c",
  };
  for (int l = 1; l <= 4; ++l) {
    EXPECT_EQ(node_to_hex(tree->level(l)[0]), first_nodes[l - 1]) << "level " << l;
    // The second node of each level is the zero commitment of that level.
    EXPECT_EQ(node_to_hex(tree->level(l)[1]), node_to_hex(zero_piece_commitment(uint64_t(32) << l).value()));
  }
  EXPECT_EQ(node_to_hex(tree->root()), "23404a8880f9cbc72039cb8614359c2834845570fe95190bbd4d934142e8252c");
}

std::vector<Node> random_leaves(TestRng& rng, size_t n) {
  std::vector<Node> v(n);
  for (auto& x : v) x = node_from_fr(Fr::random(rng));
  return v;
}

TEST(TreeD, ProofsVerifyAndTamperingIsCaught) {
  TestRng rng(fresh_test_seed());
  std::vector<uint8_t> data(2048);
  for (auto& b : data) b = uint8_t(rng());
  auto tree = build_tree_d(data).value();
  for (uint64_t leaf : {uint64_t(0), uint64_t(1), uint64_t(37), uint64_t(63)}) {
    MerkleProof p = tree_d_proof(tree, leaf);
    EXPECT_EQ(p.base.size(), 6u);
    EXPECT_EQ(p.path_index(), leaf);
    EXPECT_TRUE(verify_merkle_proof(TreeHash::kSha254, p).ok());
    p.base[3].hashes[0][5] ^= 1;
    EXPECT_FALSE(verify_merkle_proof(TreeHash::kSha254, p).ok());
  }
}

// Curio lib/proof/tree_r_last_comm.go (CommRLastFromTreeRLastRoots): the
// compound roots are Poseidon-8 of 8 base roots, and for 16 base trees
// Poseidon-2 of two Poseidon-8 roots.
TEST(ShapedTree, ShapesAndRoots) {
  TestRng rng(fresh_test_seed());
  EXPECT_EQ(tree_r_shape(2048).value(), (TreeShape{8, 0, 0}));
  EXPECT_EQ(tree_r_shape(uint64_t(32) << 30).value(), (TreeShape{8, 8, 0}));
  EXPECT_EQ(tree_r_shape(uint64_t(64) << 30).value(), (TreeShape{8, 8, 2}));
  EXPECT_FALSE(tree_r_shape(3000).ok());

  auto check = [&](uint64_t sector_bytes) {
    const TreeShape shape = tree_r_shape(sector_bytes).value();
    auto leaves = random_leaves(rng, sector_bytes / 32);
    auto tree = ShapedTree::build(shape, leaves).value();
    std::vector<Node> base_roots;
    for (int i = 0; i < shape.base_count(); ++i) base_roots.push_back(tree.base_tree(size_t(i)).root());
    Node want = base_roots[0];
    if (shape.sub && !shape.top) want = hash_tree_node(TreeHash::kPoseidon, base_roots).value();
    if (shape.top) {
      std::vector<Node> subs;
      for (int s = 0; s < shape.top; ++s)
        subs.push_back(hash_tree_node(TreeHash::kPoseidon, std::span(base_roots).subspan(size_t(s * shape.sub), size_t(shape.sub))).value());
      want = hash_tree_node(TreeHash::kPoseidon, subs).value();
    }
    EXPECT_EQ(tree.root(), want) << tree_shape_name(shape);
    for (int i = 0; i < 6; ++i) {
      const uint64_t leaf = rng() % tree.leaf_count();
      MerkleProof p = tree.proof(leaf);
      EXPECT_EQ(p.leaf, leaves[size_t(leaf)]);
      EXPECT_EQ(p.path_index(), leaf) << tree_shape_name(shape);
      EXPECT_TRUE(verify_merkle_proof(TreeHash::kPoseidon, p).ok()) << tree_shape_name(shape);
      MerkleProof bad = p;
      bad.leaf = node_from_fr(Fr::random(rng));
      EXPECT_FALSE(verify_merkle_proof(TreeHash::kPoseidon, bad).ok());
      bad = p;
      bad.base[0].index = 8;
      EXPECT_FALSE(verify_merkle_proof(TreeHash::kPoseidon, bad).ok());
    }
  };
  check(2048);       // 8-0-0
  check(4096);       // 8-2-0
  check(16 << 10);   // 8-8-0
  check(32 << 10);   // 8-8-2
}

TEST(ShapedTree, RejectsBadLeafCounts) {
  EXPECT_FALSE(ShapedTree::build(TreeShape{8, 0, 0}, std::vector<Node>(63)).ok());
  EXPECT_FALSE(ShapedTree::build(TreeShape{8, 8, 0}, std::vector<Node>(72)).ok());
  EXPECT_FALSE(MerkleTree::build(TreeHash::kPoseidon, 3, std::vector<Node>(9)).ok());
}

TEST(Cid, SealedRoundTripAndErrors) {
  // Curio lib/proof/testgolden/postpub.json: a sealed CID.
  const char* cid = "bagboea4b5abcbx3jccdohrttzfneleehcpkmle4oltwuh4q3rcf5tpdodaoj6mtl";
  auto comm_r = commitment_from_cid(CommitmentKind::kSealed, cid);
  ASSERT_TRUE(comm_r.ok()) << comm_r.status().to_string();
  EXPECT_EQ(commitment_to_cid(CommitmentKind::kSealed, *comm_r), cid);
  EXPECT_FALSE(commitment_from_cid(CommitmentKind::kUnsealed, cid).ok());
  EXPECT_FALSE(commitment_from_cid(CommitmentKind::kSealed, "zabc").ok());
  EXPECT_FALSE(commitment_from_cid(CommitmentKind::kSealed, "bagboea4b5abc").ok());
}

}  // namespace
}  // namespace cuzk::filecoin
