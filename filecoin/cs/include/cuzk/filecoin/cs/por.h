// Merkle inclusion (proof of retrievability) in the circuit, as
// rust-fil-proofs' storage-proofs-core gadgets/por.rs builds it, for binary
// SHA-254 trees (tree D) and Poseidon trees of shape base-sub-top (tree C,
// tree R-last), with the two hashers' circuits of filecoin-hashers.
#pragma once

#include <span>
#include <vector>

#include "cuzk/filecoin/cs/insertion.h"
#include "cuzk/filecoin/cs/num.h"
#include "cuzk/filecoin/cs/poseidon.h"
#include "cuzk/filecoin/cs/sha256.h"
#include "cuzk/filecoin/merkle.h"

namespace cuzk::filecoin::snark {

enum class TreeHasher { kSha256, kPoseidon };

// One level of a path: the arity − 1 siblings and the position (< arity) of
// the running hash among them.
struct PathLevel {
  std::vector<Fr> siblings;
  uint64_t index = 0;
};

// rust-fil-proofs' AuthPath: base levels, then at most one sub and one top
// level (their arities may differ from the base's).
struct AuthPath {
  std::vector<PathLevel> base;
  std::vector<PathLevel> sub;
  std::vector<PathLevel> top;
};

// rust-fil-proofs' Root: an allocated number, or a value to allocate.
struct Root {
  bool is_var = false;
  AllocatedNum num;  // is_var
  Fr value;          // !is_var
  static Root var(const AllocatedNum& n) { return {true, n, Fr::zero()}; }
  static Root val(const Fr& v) { return {false, AllocatedNum{}, v}; }
};

template <class CS>
AllocatedNum root_allocated(CS& cs, Name name, const Root& r) {
  return r.is_var ? r.num : alloc_num(cs, name, r.value);
}

namespace por_detail {

// Bits of a 255-bit number, padded to 256 and laid out byte by byte with the
// most significant bit first (the sha256 hasher's leaf encoding).
inline void append_le_bytes_msb_first(std::vector<Boolean>& out, std::vector<Boolean> bits) {
  while (bits.size() % 8 != 0) bits.push_back(Boolean::constant(false));
  for (size_t i = 0; i < bits.size(); i += 8)
    for (size_t k = 0; k < 8; ++k) out.push_back(bits[i + 7 - k]);
}

// Sha256Function::hash_circuit: SHA-256, bytes' bits reversed back to
// little-endian, the first 254 packed ("pack_le").
template <class CS>
AllocatedNum sha256_hash_to_num(CS& cs, std::span<const Boolean> bits) {
  const std::vector<Boolean> be = sha256(cs, Name("hash"), bits);
  std::vector<Boolean> le;
  le.reserve(kFrCapacity);
  for (size_t i = 0; i < be.size() && le.size() < kFrCapacity; i += 8)
    for (size_t k = 0; k < 8 && le.size() < kFrCapacity; ++k) le.push_back(be[i + 7 - k]);
  return pack_bits(cs, Name("pack_le"), le);
}

}  // namespace por_detail

// The node hash of a tree over `leaves` (hash_multi_leaf_circuit): Poseidon
// of arity leaves.size() with the MerkleTree tag, or SHA-256 of the leaves'
// bits (each "i_num_into_bits").
template <class CS>
AllocatedNum hash_multi_leaf(CS& cs, Name name, TreeHasher h, std::span<const AllocatedNum> leaves) {
  if (h == TreeHasher::kPoseidon) return poseidon_hash(cs, name, leaves, poseidon_constants(int(leaves.size())));
  Scope<CS> ns(cs, name);
  std::vector<Boolean> bits;
  bits.reserve(leaves.size() * 256);
  for (size_t i = 0; i < leaves.size(); ++i) {
    por_detail::append_le_bytes_msb_first(bits, to_bits_le(cs, Name("", int64_t(i), "_num_into_bits"), leaves[i]));
  }
  return por_detail::sha256_hash_to_num(cs, bits);
}

// H(a, b) (hash2_circuit): Poseidon arity 2, or SHA-256 of a's and b's bits
// ("a_bits", "b_bits").
template <class CS>
AllocatedNum hash2(CS& cs, Name name, TreeHasher h, const AllocatedNum& a, const AllocatedNum& b) {
  const AllocatedNum pair[2] = {a, b};
  if (h == TreeHasher::kPoseidon) return poseidon_hash(cs, name, pair, poseidon_constants(2));
  Scope<CS> ns(cs, name);
  std::vector<Boolean> a_bits = to_bits_le(cs, Name("a_bits"), a);
  std::vector<Boolean> b_bits = to_bits_le(cs, Name("b_bits"), b);
  std::vector<Boolean> bits;
  bits.reserve(512);
  por_detail::append_le_bytes_msb_first(bits, std::move(a_bits));
  por_detail::append_le_bytes_msb_first(bits, std::move(b_bits));
  return por_detail::sha256_hash_to_num(cs, bits);
}

// Ascends `levels` from `cur` (SubPath::synthesize): per level "merkle tree
// hash i" the index bits, the siblings, the insertion and the node hash.
// Appends the index bits to `bits`; returns the subtree root.
template <class CS>
AllocatedNum ascend(CS& cs, Name name, TreeHasher h, std::span<const PathLevel> levels, AllocatedNum cur,
                    std::vector<Boolean>& bits) {
  if (levels.empty()) return cur;
  Scope<CS> ns(cs, name);
  for (size_t i = 0; i < levels.size(); ++i) {
    Scope<CS> level(cs, Name("merkle tree hash ", int64_t(i)));
    const size_t arity = levels[i].siblings.size() + 1;
    std::vector<Boolean> index_bits;
    for (size_t k = 0; (size_t(1) << k) < arity; ++k) {
      index_bits.push_back(Boolean(alloc_bit(cs, Name("index bit ", int64_t(k)), (levels[i].index >> k) & 1)));
    }
    bits.insert(bits.end(), index_bits.begin(), index_bits.end());
    std::vector<AllocatedNum> siblings;
    siblings.reserve(arity - 1);
    for (size_t k = 0; k + 1 < arity; ++k) {
      siblings.push_back(alloc_num(cs, Name("path element ", int64_t(k)), levels[i].siblings[k]));
    }
    const std::vector<AllocatedNum> inserted = insert(cs, cur, index_bits, siblings);
    cur = hash_multi_leaf(cs, Name("computation of commitment hash"), h, inserted);
  }
  return cur;
}

// PoRCircuit::synthesize: the leaf `value` is in the tree of root `root`
// along `path`; the path's index bits become public inputs ("path"); the
// root is public too unless private_root.
// REQUIRES: every level's arity is a power of two.
template <class CS>
void por(CS& cs, Name name, TreeHasher h, const Root& value, const AuthPath& path, const Root& root,
         bool private_root) {
  Scope<CS> ns(cs, name);
  const AllocatedNum leaf = root_allocated(cs, Name("value"), value);
  std::vector<Boolean> bits;
  AllocatedNum cur = ascend(cs, Name("base"), h, path.base, leaf, bits);
  cur = ascend(cs, Name("sub"), h, path.sub, cur, bits);
  cur = ascend(cs, Name("top"), h, path.top, cur, bits);
  pack_into_inputs(cs, Name("path"), bits);
  const AllocatedNum rt = root_allocated(cs, Name("root_value"), root);
  cs.enforce(
      Name("enforce root is correct"), [&](Lc& lc) { lc.add(cur.var); }, [&](Lc& lc) { lc.add(Var::one()); },
      [&](Lc& lc) { lc.add(rt.var); });
  if (!private_root) inputize(cs, Name("root"), rt);
}

// por_no_challenge_input: the challenge bits are given (little-endian, the
// concatenated insertion indices of the levels); `path` holds each level's
// siblings, base levels first, then the sub and top level when `shape` has
// them. Per level "merkle proof insert (height=h)" and "merkle proof hash
// (height=h)"; finally computed_root·ONE = root.
// REQUIRES: the bits and levels agree with the shape.
template <class CS>
void por_no_challenge_input(CS& cs, Name name, TreeHasher h, const TreeShape& shape,
                            std::span<const AllocatedBit> challenge_bits, const AllocatedNum& leaf,
                            const std::vector<std::vector<AllocatedNum>>& path, const AllocatedNum& root) {
  Scope<CS> ns(cs, name);
  const size_t extra = shape.top ? 2 : shape.sub ? 1 : 0;
  const size_t base_levels = path.size() - extra;
  AllocatedNum cur = leaf;
  size_t bit = 0;
  for (size_t height = 0; height < path.size(); ++height) {
    const size_t arity = height < base_levels ? size_t(shape.base) : height == base_levels ? size_t(shape.sub)
                                                                                           : size_t(shape.top);
    std::vector<Boolean> index;
    for (size_t k = 1; k < arity; k <<= 1) index.push_back(Boolean(challenge_bits[bit++]));
    std::vector<AllocatedNum> preimage;
    {
      Scope<CS> ins(cs, Name("merkle proof insert (height=", int64_t(height), ")"));
      preimage = insert(cs, cur, index, path[height]);
    }
    cur = hash_multi_leaf(cs, Name("merkle proof hash (height=", int64_t(height), ")"), h, preimage);
  }
  cs.enforce(
      Name("calculated root == provided root"), [&](Lc& lc) { lc.add(cur.var); },
      [&](Lc& lc) { lc.add(Var::one()); }, [&](Lc& lc) { lc.add(root.var); });
}

// The public inputs por() allocates for a challenged leaf with a private
// root: the packed index bits, i.e. the leaf index itself
// (PoRCompound::generate_public_inputs).
inline Fr por_public_input(uint64_t challenge) { return Fr::from_uint(challenge); }

}  // namespace cuzk::filecoin::snark
