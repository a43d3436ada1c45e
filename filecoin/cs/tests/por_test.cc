// Poseidon and PoR gadgets: row counts from neptune (circuit.rs
// test_poseidon_hash) and rust-fil-proofs (storage-proofs-core
// tests/por_circuit.rs, storage-proofs-porep stacked/circuit/hash.rs); values
// against cuzk::filecoin's native Poseidon and trees (themselves checked
// against neptune's and Curio's known answers).
#include <gtest/gtest.h>

#include "cuzk/filecoin/cs/por.h"
#include "cuzk/filecoin/cs/recording_cs.h"
#include "cuzk/filecoin/cs/witness_cs.h"
#include "test_util.h"

namespace cuzk::filecoin::snark {
namespace {

using testing::auth_path_of;
using testing::random_leaves;

struct PoseidonCase {
  int arity;
  uint64_t rows;
};
// neptune test_poseidon_hash (Standard: U2 311, U8 505); rust-fil-proofs
// test_hash_single_column_circuit (U11: 598).
constexpr PoseidonCase kPoseidonCases[] = {{2, 311}, {8, 505}, {11, 598}};

TEST(Poseidon, RowsAndValueMatchTheReferenceAndTheNativeHash) {
  TestRng rng(fresh_test_seed());
  for (const PoseidonCase& pc : kPoseidonCases) {
    RecordingCs cs({.check = true});
    std::vector<AllocatedNum> pre;
    std::vector<Fr> values;
    for (int i = 0; i < pc.arity; ++i) {
      values.push_back(Fr::random(rng));
      pre.push_back(alloc_num(cs, Name("x ", i), values.back()));
    }
    const AllocatedNum out = poseidon_hash(cs, Name("hash"), pre, poseidon_constants(pc.arity));
    EXPECT_TRUE(cs.satisfied().ok()) << cs.satisfied().message();
    EXPECT_EQ(cs.num_constraints(), pc.rows) << "arity " << pc.arity;
    EXPECT_EQ(out.value, poseidon_hash(poseidon_constants(pc.arity), values)) << "arity " << pc.arity;
    WitnessCs w;
    std::vector<AllocatedNum> pre2;
    for (int i = 0; i < pc.arity; ++i) pre2.push_back(alloc_num(w, Name("x ", i), values[size_t(i)]));
    EXPECT_EQ(poseidon_hash(w, Name("hash"), pre2, poseidon_constants(pc.arity)).value, out.value);
    EXPECT_EQ(w.num_aux(), cs.num_aux());
  }
}

TEST(Poseidon, GenRandomnessTagChangesTheHash) {
  RecordingCs cs({.check = true});
  const AllocatedNum a = alloc_num(cs, Name("a"), Fr::from_uint(1));
  const AllocatedNum b = alloc_num(cs, Name("b"), Fr::from_uint(2));
  const AllocatedNum pair[2] = {a, b};
  const AllocatedNum h = poseidon_hash(cs, Name("phi"), pair, poseidon_gen_randomness_constants());
  const Fr vals[2] = {a.value, b.value};
  EXPECT_EQ(h.value, poseidon_hash(poseidon_gen_randomness_constants(), vals));
  EXPECT_NE(h.value, poseidon_hash(poseidon_constants(2), vals));
  EXPECT_TRUE(cs.satisfied().ok());
  EXPECT_EQ(cs.num_constraints(), 311u);
}

struct PorCase {
  const char* name;
  TreeShape shape;  // sub = top = 0 for a plain base tree
  TreeHasher hasher;
  uint64_t inputs;
  uint64_t rows;
};
// storage-proofs-core tests/por_circuit.rs test_por_circuit_* (public root,
// 64 leaves per base tree).
constexpr PorCase kPorCases[] = {
    {"sha256_base_2", {2, 0, 0}, TreeHasher::kSha256, 3, 272'295},
    {"poseidon_base_2", {2, 0, 0}, TreeHasher::kPoseidon, 3, 1'887},
    {"poseidon_base_4", {4, 0, 0}, TreeHasher::kPoseidon, 3, 1'164},
    {"poseidon_base_8", {8, 0, 0}, TreeHasher::kPoseidon, 3, 1'063},
    {"poseidon_sub_8_2", {8, 2, 0}, TreeHasher::kPoseidon, 3, 1'377},
    {"poseidon_top_8_4_2", {8, 4, 2}, TreeHasher::kPoseidon, 3, 1'764},
    {"poseidon_sub_8_8", {8, 8, 0}, TreeHasher::kPoseidon, 3, 1'593},
    {"poseidon_top_8_8_2", {8, 8, 2}, TreeHasher::kPoseidon, 3, 1'907},
    {"poseidon_top_8_2_4", {8, 2, 4}, TreeHasher::kPoseidon, 3, 1'764},
};

MerkleProof proof_for(const PorCase& pc, const std::vector<Node>& leaves, uint64_t challenge) {
  if (pc.shape.sub == 0) {
    auto tree = MerkleTree::build(pc.hasher == TreeHasher::kSha256 ? TreeHash::kSha254 : TreeHash::kPoseidon,
                                  pc.shape.base, leaves);
    EXPECT_TRUE(tree.ok()) << tree.status().to_string();
    MerkleProof p;
    p.base = tree->path(challenge);
    p.root = tree->root();
    p.leaf = leaves[challenge];
    return p;
  }
  auto tree = ShapedTree::build(pc.shape, leaves);
  EXPECT_TRUE(tree.ok()) << tree.status().to_string();
  return tree->proof(challenge);
}

TEST(Por, RowsInputsAndSatisfactionMatchTheReference) {
  TestRng rng(fresh_test_seed());
  for (const PorCase& pc : kPorCases) {
    const size_t leaves_n = 64 * size_t(pc.shape.base_count());
    const std::vector<Node> leaves = random_leaves(rng, leaves_n);
    const uint64_t challenge = rng() % leaves_n;
    const MerkleProof p = proof_for(pc, leaves, challenge);
    RecordingCs cs({.check = true});
    por(cs, Name("por"), pc.hasher, Root::val(fr_from_node_trusted(p.leaf)), auth_path_of(p),
        Root::val(fr_from_node_trusted(p.root)), false);
    EXPECT_TRUE(cs.satisfied().ok()) << pc.name << ": " << cs.satisfied().message();
    EXPECT_EQ(cs.num_inputs(), pc.inputs) << pc.name;
    EXPECT_EQ(cs.num_constraints(), pc.rows) << pc.name;
    // The packed path is the challenge; the root follows it.
    EXPECT_EQ(cs.value(Var::input(1)), por_public_input(challenge)) << pc.name;
    EXPECT_EQ(cs.value(Var::input(2)), fr_from_node_trusted(p.root)) << pc.name;

    // A wrong root breaks "enforce root is correct".
    RecordingCs bad({.check = true});
    por(bad, Name("por"), pc.hasher, Root::val(fr_from_node_trusted(p.leaf)), auth_path_of(p),
        Root::val(fr_from_node_trusted(p.root) + Fr::one()), false);
    EXPECT_NE(bad.satisfied().message().find("por/enforce root is correct"), std::string::npos) << pc.name;
  }
}

// test_por_circuit_poseidon_base_*_private_root: one input fewer, one row fewer.
TEST(Por, PrivateRoot) {
  const std::pair<int, uint64_t> cases[] = {{2, 1'886}, {4, 1'163}, {8, 1'062}};
  TestRng rng(fresh_test_seed());
  for (auto [arity, rows] : cases) {
    const std::vector<Node> leaves = random_leaves(rng, 64);
    auto tree = MerkleTree::build(TreeHash::kPoseidon, arity, leaves);
    ASSERT_TRUE(tree.ok());
    const uint64_t c = rng() % 64;
    RecordingCs cs({.check = true});
    AuthPath path{testing::levels_of(tree->path(c)), {}, {}};
    por(cs, Name("por"), TreeHasher::kPoseidon, Root::val(fr_from_node_trusted(leaves[c])), path,
        Root::val(fr_from_node_trusted(tree->root())), true);
    EXPECT_TRUE(cs.satisfied().ok());
    EXPECT_EQ(cs.num_inputs(), 2u);
    EXPECT_EQ(cs.num_constraints(), rows) << arity;
  }
}

}  // namespace
}  // namespace cuzk::filecoin::snark
