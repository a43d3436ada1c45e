// Merkle trees as rust-fil-proofs builds them, and their inclusion proofs.
//
//   tree D       binary, sha254 (comm_d)
//   tree C       Poseidon, shape by sector size, over the column hashes (comm_c)
//   tree R-last  Poseidon, same shape, over the last layer's encoded replica (comm_r_last)
//
// A shape is base-sub-top: `base_count` base trees of arity `base` over equal
// slices of the leaves; with a sub arity, groups of `sub` base roots hash to
// a sub root; with a top arity, the `top` sub roots hash to the root
// (8-0-0 for 2 KiB/8 MiB/512 MiB, 8-8-0 for 32 GiB, 8-8-2 for 64 GiB).
//
// An inclusion proof is rust-fil-proofs' MerkleProof: the leaf, the root and
// the path from leaf to root, one element per level; an element holds the
// arity − 1 sibling hashes of that level in order and the index (in
// [0, arity)) at which the running hash is inserted among them. The proof is
// Single (base path only), Sub (+ one sub element) or Top (+ one sub and one
// top element), which is also how it is serialised.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "cuzk/base/bytes.h"
#include "cuzk/base/status.h"
#include "cuzk/filecoin/node.h"

namespace cuzk::filecoin {

enum class TreeHash {
  kSha254,    // node = sha254(child_0 ‖ … ‖ child_{k-1})
  kPoseidon,  // node = Poseidon_k(child_0, …, child_{k-1}), MerkleTree tag 2^k − 1
};

// The parent of `children` (k = children.size(): 2 for sha254 trees; 2, 4, 8,
// 11, 16, 24, 36 for Poseidon). Poseidon children are field elements (see
// fr_from_node_trusted). INVALID_ARGUMENT for an unsupported k.
StatusOr<Node> hash_tree_node(TreeHash hash, std::span<const Node> children);

struct PathElement {
  std::vector<Node> hashes;  // arity − 1 siblings
  uint64_t index = 0;        // position of the running hash, < arity
  friend bool operator==(const PathElement&, const PathElement&) = default;
};

struct MerkleProof {
  enum class Kind { kSingle, kSub, kTop };
  Kind kind = Kind::kSingle;
  std::vector<PathElement> base;  // leaf level first
  std::vector<PathElement> sub;   // one element for kSub and kTop, else empty
  std::vector<PathElement> top;   // one element for kTop, else empty
  Node root{};
  Node leaf{};

  // base ‖ sub ‖ top, as rust-fil-proofs' path().
  std::vector<PathElement> path() const;
  // The leaf's index: Σ index_l · Π_{j<l} arity_j over the path.
  uint64_t path_index() const;
  friend bool operator==(const MerkleProof&, const MerkleProof&) = default;
};

// The root the path gives from the leaf; INVALID_ARGUMENT (naming the level)
// for an index ≥ arity or an unsupported arity.
StatusOr<Node> merkle_path_root(TreeHash hash, const Node& leaf, std::span<const PathElement> path);
// OK iff the path from `leaf` reproduces `root`; INVALID_ARGUMENT saying what
// differs otherwise.
Status verify_merkle_proof(TreeHash hash, const MerkleProof& proof);

// One complete tree held in memory, every level kept.
class MerkleTree {
 public:
  // REQUIRES nothing; INVALID_ARGUMENT unless leaves.size() is a power of
  // `arity` (≥ 1) and the arity is supported.
  static StatusOr<MerkleTree> build(TreeHash hash, int arity, std::vector<Node> leaves);

  const Node& root() const { return levels_.back()[0]; }
  size_t leaf_count() const { return levels_[0].size(); }
  int arity() const { return arity_; }
  // Level 0 is the leaves; level height() is the root.
  int height() const { return int(levels_.size()) - 1; }
  const std::vector<Node>& level(int l) const { return levels_[size_t(l)]; }
  // REQUIRES: leaf < leaf_count().
  std::vector<PathElement> path(uint64_t leaf) const;

 private:
  TreeHash hash_ = TreeHash::kSha254;
  int arity_ = 2;
  std::vector<std::vector<Node>> levels_;
};

struct TreeShape {
  int base = 8;
  int sub = 0;  // 0: none
  int top = 0;  // 0: none (REQUIRES sub > 0 when set)
  int base_count() const { return (sub ? sub : 1) * (top ? top : 1); }
  friend bool operator==(const TreeShape&, const TreeShape&) = default;
};

// filecoin-proofs' sector shapes: 2 KiB, 8 MiB, 512 MiB: 8-0-0; 4 KiB,
// 16 MiB, 1 GiB: 8-2-0; 16 KiB, 32 GiB: 8-8-0; 32 KiB, 64 GiB: 8-8-2.
// INVALID_ARGUMENT for another size.
StatusOr<TreeShape> tree_r_shape(uint64_t sector_bytes);
std::string tree_shape_name(const TreeShape& s);  // "8-8-0"
// The number of path elements of an inclusion proof in a tree of this shape
// over `leaves` leaves: log_base(leaves per base tree), plus one for a sub
// and one for a top level (rust-fil-proofs compound_path_length).
size_t expected_path_length(const TreeShape& shape, uint64_t leaves);

// Tree C / tree R-last: a Poseidon tree of a given shape.
class ShapedTree {
 public:
  // INVALID_ARGUMENT unless the leaves split into base_count() equal
  // power-of-`base` slices.
  static StatusOr<ShapedTree> build(const TreeShape& shape, std::vector<Node> leaves);

  const Node& root() const { return root_; }
  const TreeShape& shape() const { return shape_; }
  uint64_t leaf_count() const { return leaf_count_; }
  const Node& leaf(uint64_t i) const;
  const MerkleTree& base_tree(size_t i) const { return base_[i]; }
  // REQUIRES: leaf < leaf_count().
  MerkleProof proof(uint64_t leaf) const;

 private:
  TreeShape shape_;
  uint64_t leaf_count_ = 0;
  std::vector<MerkleTree> base_;
  std::vector<Node> sub_roots_;  // one per sub tree (kTop), or empty
  Node root_{};
};

// Tree D over the sector's (fr32-padded) bytes: 32-byte leaves, binary sha254.
StatusOr<MerkleTree> build_tree_d(ByteSpan sector_bytes);
MerkleProof tree_d_proof(const MerkleTree& tree_d, uint64_t leaf);

}  // namespace cuzk::filecoin
