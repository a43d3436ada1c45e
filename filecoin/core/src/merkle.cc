#include "cuzk/filecoin/merkle.h"

#include <cstring>

#include "cuzk/filecoin/poseidon.h"
#include "cuzk/filecoin/sha256.h"

namespace cuzk::filecoin {

namespace {

bool is_power_of(uint64_t n, uint64_t base) {
  if (n == 0) return false;
  while (n % base == 0) n /= base;
  return n == 1;
}

Node hash_children_unchecked(TreeHash hash, std::span<const Node> children) {
  if (hash == TreeHash::kSha254) {
    Sha256 h;
    for (const Node& c : children) h.update(c.data(), c.size());
    Sha256Digest d = h.finish();
    trim_to_fr32(d);
    return d;
  }
  Fr in[36];
  for (size_t i = 0; i < children.size(); ++i) in[i] = fr_from_node_trusted(children[i]);
  return node_from_fr(poseidon_hash(poseidon_constants(int(children.size())), std::span<const Fr>(in, children.size())));
}

bool arity_ok(TreeHash hash, size_t k) {
  return hash == TreeHash::kSha254 ? k >= 2 : poseidon_arity_supported(int(k));
}

}  // namespace

StatusOr<Node> hash_tree_node(TreeHash hash, std::span<const Node> children) {
  if (!arity_ok(hash, children.size()))
    return invalid_argument("tree node of arity " + std::to_string(children.size()) + " is not supported");
  return hash_children_unchecked(hash, children);
}

std::vector<PathElement> MerkleProof::path() const {
  std::vector<PathElement> p = base;
  p.insert(p.end(), sub.begin(), sub.end());
  p.insert(p.end(), top.begin(), top.end());
  return p;
}

uint64_t MerkleProof::path_index() const {
  uint64_t index = 0, scale = 1;
  for (const PathElement& e : path()) {
    index += e.index * scale;
    scale *= e.hashes.size() + 1;
  }
  return index;
}

StatusOr<Node> merkle_path_root(TreeHash hash, const Node& leaf, std::span<const PathElement> path) {
  Node h = leaf;
  std::vector<Node> nodes;
  for (size_t level = 0; level < path.size(); ++level) {
    const PathElement& e = path[level];
    const size_t arity = e.hashes.size() + 1;
    if (!arity_ok(hash, arity))
      return invalid_argument("path level " + std::to_string(level) + ": arity " + std::to_string(arity) +
                              " is not supported");
    if (e.index >= arity)
      return invalid_argument("path level " + std::to_string(level) + ": index " + std::to_string(e.index) +
                              " is not below the arity " + std::to_string(arity));
    nodes = e.hashes;
    nodes.insert(nodes.begin() + std::ptrdiff_t(e.index), h);
    h = hash_children_unchecked(hash, nodes);
  }
  return h;
}

Status verify_merkle_proof(TreeHash hash, const MerkleProof& proof) {
  const size_t want_sub = proof.kind == MerkleProof::Kind::kSingle ? 0 : 1;
  const size_t want_top = proof.kind == MerkleProof::Kind::kTop ? 1 : 0;
  if (proof.sub.size() != want_sub || proof.top.size() != want_top)
    return invalid_argument("inclusion proof: sub/top path lengths do not match its kind");
  ASSIGN_OR_RETURN(Node root, merkle_path_root(hash, proof.leaf, proof.path()));
  if (root != proof.root)
    return invalid_argument("inclusion proof: path gives root " + node_to_hex(root) + ", proof says " +
                            node_to_hex(proof.root));
  return ok_status();
}

StatusOr<MerkleTree> MerkleTree::build(TreeHash hash, int arity, std::vector<Node> leaves) {
  if (arity < 2 || !arity_ok(hash, size_t(arity)))
    return invalid_argument("tree arity " + std::to_string(arity) + " is not supported");
  if (!is_power_of(leaves.size(), uint64_t(arity)))
    return invalid_argument("a tree of arity " + std::to_string(arity) + " needs a power of it as leaf count, got " +
                            std::to_string(leaves.size()));
  MerkleTree t;
  t.hash_ = hash;
  t.arity_ = arity;
  t.levels_.push_back(std::move(leaves));
  while (t.levels_.back().size() > 1) {
    const std::vector<Node>& below = t.levels_.back();
    std::vector<Node> above(below.size() / size_t(arity));
    for (size_t i = 0; i < above.size(); ++i)
      above[i] = hash_children_unchecked(hash, std::span<const Node>(below).subspan(i * size_t(arity), size_t(arity)));
    t.levels_.push_back(std::move(above));
  }
  return t;
}

std::vector<PathElement> MerkleTree::path(uint64_t leaf) const {
  std::vector<PathElement> p;
  uint64_t i = leaf;
  for (int l = 0; l < height(); ++l) {
    PathElement e;
    e.index = i % uint64_t(arity_);
    const uint64_t first = i - e.index;
    for (uint64_t j = 0; j < uint64_t(arity_); ++j)
      if (j != e.index) e.hashes.push_back(levels_[size_t(l)][first + j]);
    p.push_back(std::move(e));
    i /= uint64_t(arity_);
  }
  return p;
}

StatusOr<TreeShape> tree_r_shape(uint64_t sector_bytes) {
  switch (sector_bytes) {
    case uint64_t(2) << 10: case uint64_t(8) << 20: case uint64_t(512) << 20:
      return TreeShape{8, 0, 0};
    case uint64_t(4) << 10: case uint64_t(16) << 20: case uint64_t(1) << 30:
      return TreeShape{8, 2, 0};
    case uint64_t(16) << 10: case uint64_t(32) << 30:
      return TreeShape{8, 8, 0};
    case uint64_t(32) << 10: case uint64_t(64) << 30:
      return TreeShape{8, 8, 2};
    default:
      return invalid_argument("no tree shape for a sector of " + std::to_string(sector_bytes) + " bytes");
  }
}

std::string tree_shape_name(const TreeShape& s) {
  return std::to_string(s.base) + "-" + std::to_string(s.sub) + "-" + std::to_string(s.top);
}

size_t expected_path_length(const TreeShape& shape, uint64_t leaves) {
  uint64_t per_base = leaves / uint64_t(shape.base_count());
  size_t len = 0;
  while (per_base > 1) {
    per_base /= uint64_t(shape.base);
    ++len;
  }
  return len + (shape.sub ? 1 : 0) + (shape.top ? 1 : 0);
}

StatusOr<ShapedTree> ShapedTree::build(const TreeShape& shape, std::vector<Node> leaves) {
  const size_t count = size_t(shape.base_count());
  if (shape.top && !shape.sub) return invalid_argument("tree shape " + tree_shape_name(shape) + " has a top but no sub");
  if (leaves.empty() || leaves.size() % count)
    return invalid_argument(std::to_string(leaves.size()) + " leaves do not split into " + std::to_string(count) +
                            " base trees");
  ShapedTree t;
  t.shape_ = shape;
  t.leaf_count_ = leaves.size();
  const size_t per = leaves.size() / count;
  for (size_t b = 0; b < count; ++b) {
    std::vector<Node> slice(leaves.begin() + std::ptrdiff_t(b * per), leaves.begin() + std::ptrdiff_t((b + 1) * per));
    ASSIGN_OR_RETURN(MerkleTree base, MerkleTree::build(TreeHash::kPoseidon, shape.base, std::move(slice)));
    t.base_.push_back(std::move(base));
  }
  if (!shape.sub) {
    t.root_ = t.base_[0].root();
    return t;
  }
  std::vector<Node> roots;
  for (const MerkleTree& b : t.base_) roots.push_back(b.root());
  const size_t sub = size_t(shape.sub);
  for (size_t s = 0; s < roots.size() / sub; ++s) {
    ASSIGN_OR_RETURN(Node r, hash_tree_node(TreeHash::kPoseidon, std::span<const Node>(roots).subspan(s * sub, sub)));
    t.sub_roots_.push_back(r);
  }
  if (!shape.top) {
    t.root_ = t.sub_roots_[0];
    return t;
  }
  ASSIGN_OR_RETURN(t.root_, hash_tree_node(TreeHash::kPoseidon, t.sub_roots_));
  return t;
}

const Node& ShapedTree::leaf(uint64_t i) const {
  const uint64_t per = leaf_count_ / uint64_t(base_.size());
  return base_[size_t(i / per)].level(0)[size_t(i % per)];
}

namespace {

// The element of a level of `k` nodes where node `i` is the running hash.
PathElement sibling_element(std::span<const Node> level, uint64_t i) {
  PathElement e;
  e.index = i;
  for (uint64_t j = 0; j < level.size(); ++j)
    if (j != i) e.hashes.push_back(level[j]);
  return e;
}

}  // namespace

MerkleProof ShapedTree::proof(uint64_t leaf) const {
  const uint64_t per = leaf_count_ / uint64_t(base_.size());
  const uint64_t b = leaf / per;
  MerkleProof p;
  p.leaf = this->leaf(leaf);
  p.root = root_;
  p.base = base_[size_t(b)].path(leaf % per);
  if (!shape_.sub) return p;
  const uint64_t sub = uint64_t(shape_.sub);
  std::vector<Node> group;
  for (uint64_t j = 0; j < sub; ++j) group.push_back(base_[size_t(b / sub * sub + j)].root());
  p.sub.push_back(sibling_element(group, b % sub));
  p.kind = MerkleProof::Kind::kSub;
  if (!shape_.top) return p;
  p.top.push_back(sibling_element(sub_roots_, b / sub));
  p.kind = MerkleProof::Kind::kTop;
  return p;
}

StatusOr<MerkleTree> build_tree_d(ByteSpan sector_bytes) {
  if (sector_bytes.size() % kNodeBytes) return invalid_argument("sector data is not a whole number of 32-byte nodes");
  std::vector<Node> leaves(sector_bytes.size() / kNodeBytes);
  for (size_t i = 0; i < leaves.size(); ++i) std::memcpy(leaves[i].data(), sector_bytes.data() + i * kNodeBytes, kNodeBytes);
  return MerkleTree::build(TreeHash::kSha254, 2, std::move(leaves));
}

MerkleProof tree_d_proof(const MerkleTree& tree_d, uint64_t leaf) {
  MerkleProof p;
  p.leaf = tree_d.level(0)[size_t(leaf)];
  p.root = tree_d.root();
  p.base = tree_d.path(leaf);
  return p;
}

}  // namespace cuzk::filecoin
