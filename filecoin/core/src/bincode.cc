#include "cuzk/filecoin/bincode.h"

#include <cstring>
#include <string>

namespace cuzk::filecoin {

namespace {

enum class Domain { kSha256, kPoseidon };

// A cursor over the input that names the field and offset of a failure.
class Reader {
 public:
  Reader(ByteSpan in, const char* what) : in_(in), what_(what) {}

  Status error(const std::string& field, const std::string& msg) const {
    return invalid_argument(std::string(what_) + ": offset " + std::to_string(pos_) + ": " + field + ": " + msg);
  }
  Status u32(const std::string& field, uint32_t* v) {
    if (left() < 4) return error(field, "truncated (u32)");
    *v = load_u32le(in_.data() + pos_);
    pos_ += 4;
    return ok_status();
  }
  Status u64(const std::string& field, uint64_t* v) {
    if (left() < 8) return error(field, "truncated (u64)");
    *v = load_u64le(in_.data() + pos_);
    pos_ += 8;
    return ok_status();
  }
  Status node(const std::string& field, Domain d, Node* n) {
    if (left() < kNodeBytes) return error(field, "truncated (32-byte node)");
    std::memcpy(n->data(), in_.data() + pos_, kNodeBytes);
    if (d == Domain::kPoseidon && !fr_from_node(*n).ok()) return error(field, "not a field element");
    pos_ += kNodeBytes;
    return ok_status();
  }
  // A Vec length, bounded by what the rest of the input can hold.
  Status length(const std::string& field, size_t min_element_bytes, uint64_t* n) {
    RETURN_IF_ERROR(u64(field + ".len", n));
    if (*n > left() / min_element_bytes)
      return error(field, "length " + std::to_string(*n) + " exceeds the " + std::to_string(left()) + " bytes left");
    return ok_status();
  }
  Status finish() const {
    if (left()) return error("(end)", std::to_string(left()) + " trailing bytes");
    return ok_status();
  }

 private:
  size_t left() const { return in_.size() - pos_; }

  ByteSpan in_;
  const char* what_;
  size_t pos_ = 0;
};

std::string at(const std::string& field, uint64_t i) { return field + "[" + std::to_string(i) + "]"; }

Status read_nodes(Reader& r, const std::string& field, Domain d, std::vector<Node>* out) {
  uint64_t n = 0;
  RETURN_IF_ERROR(r.length(field, kNodeBytes, &n));
  out->resize(n);
  for (uint64_t i = 0; i < n; ++i) RETURN_IF_ERROR(r.node(at(field, i), d, &(*out)[i]));
  return ok_status();
}

Status read_path(Reader& r, const std::string& field, Domain d, std::vector<PathElement>* out) {
  uint64_t n = 0;
  RETURN_IF_ERROR(r.length(field, 16, &n));
  out->resize(n);
  for (uint64_t i = 0; i < n; ++i) {
    PathElement& e = (*out)[i];
    RETURN_IF_ERROR(read_nodes(r, at(field, i) + ".hashes", d, &e.hashes));
    RETURN_IF_ERROR(r.u64(at(field, i) + ".index", &e.index));
  }
  return ok_status();
}

Status read_merkle_proof(Reader& r, const std::string& field, Domain d, MerkleProof* p) {
  uint32_t variant = 0;
  RETURN_IF_ERROR(r.u32(field + ".data", &variant));
  switch (variant) {
    case 0:
      p->kind = MerkleProof::Kind::kSingle;
      RETURN_IF_ERROR(r.node(field + ".Single.root", d, &p->root));
      RETURN_IF_ERROR(r.node(field + ".Single.leaf", d, &p->leaf));
      return read_path(r, field + ".Single.path.path", d, &p->base);
    case 1:
      p->kind = MerkleProof::Kind::kSub;
      RETURN_IF_ERROR(read_path(r, field + ".Sub.base_proof.path", d, &p->base));
      RETURN_IF_ERROR(read_path(r, field + ".Sub.sub_proof.path", d, &p->sub));
      RETURN_IF_ERROR(r.node(field + ".Sub.root", d, &p->root));
      return r.node(field + ".Sub.leaf", d, &p->leaf);
    case 2:
      p->kind = MerkleProof::Kind::kTop;
      RETURN_IF_ERROR(read_path(r, field + ".Top.base_proof.path", d, &p->base));
      RETURN_IF_ERROR(read_path(r, field + ".Top.sub_proof.path", d, &p->sub));
      RETURN_IF_ERROR(read_path(r, field + ".Top.top_proof.path", d, &p->top));
      RETURN_IF_ERROR(r.node(field + ".Top.root", d, &p->root));
      return r.node(field + ".Top.leaf", d, &p->leaf);
    default:
      return r.error(field + ".data", "unknown variant " + std::to_string(variant) + " (0 Single, 1 Sub, 2 Top)");
  }
}

// ---- writer ----

class Writer {
 public:
  void u32(uint32_t v) {
    uint8_t b[4];
    store_u32le(b, v);
    out_.insert(out_.end(), b, b + 4);
  }
  void u64(uint64_t v) {
    uint8_t b[8];
    store_u64le(b, v);
    out_.insert(out_.end(), b, b + 8);
  }
  void node(const Node& n) { out_.insert(out_.end(), n.begin(), n.end()); }
  void nodes(const std::vector<Node>& v) {
    u64(v.size());
    for (const Node& n : v) node(n);
  }
  void path(const std::vector<PathElement>& p) {
    u64(p.size());
    for (const PathElement& e : p) {
      nodes(e.hashes);
      u64(e.index);
    }
  }
  void merkle_proof(const MerkleProof& p) {
    switch (p.kind) {
      case MerkleProof::Kind::kSingle:
        u32(0);
        node(p.root);
        node(p.leaf);
        path(p.base);
        return;
      case MerkleProof::Kind::kSub:
        u32(1);
        path(p.base);
        path(p.sub);
        break;
      case MerkleProof::Kind::kTop:
        u32(2);
        path(p.base);
        path(p.sub);
        path(p.top);
        break;
    }
    node(p.root);
    node(p.leaf);
  }
  std::vector<uint8_t> take() { return std::move(out_); }

 private:
  std::vector<uint8_t> out_;
};

}  // namespace

StatusOr<FallbackPoStSectorProof> decode_post_sector_proof(ByteSpan bytes) {
  Reader r(bytes, "FallbackPoStSectorProof");
  FallbackPoStSectorProof p;
  RETURN_IF_ERROR(r.u64("sector_id", &p.sector_id));
  RETURN_IF_ERROR(r.node("comm_r", Domain::kPoseidon, &p.comm_r));
  uint64_t n = 0;
  RETURN_IF_ERROR(r.length("vanilla_proof.sectors", 72, &n));
  p.sectors.resize(n);
  for (uint64_t s = 0; s < n; ++s) {
    PoStSectorProof& sp = p.sectors[s];
    const std::string f = at("vanilla_proof.sectors", s);
    uint64_t m = 0;
    RETURN_IF_ERROR(r.length(f + ".inclusion_proofs", 4 + 64, &m));
    sp.inclusion_proofs.resize(m);
    for (uint64_t i = 0; i < m; ++i)
      RETURN_IF_ERROR(read_merkle_proof(r, at(f + ".inclusion_proofs", i), Domain::kPoseidon, &sp.inclusion_proofs[i]));
    RETURN_IF_ERROR(r.node(f + ".comm_c", Domain::kPoseidon, &sp.comm_c));
    RETURN_IF_ERROR(r.node(f + ".comm_r_last", Domain::kPoseidon, &sp.comm_r_last));
  }
  RETURN_IF_ERROR(r.finish());
  return p;
}

std::vector<uint8_t> encode_post_sector_proof(const FallbackPoStSectorProof& p) {
  Writer w;
  w.u64(p.sector_id);
  w.node(p.comm_r);
  w.u64(p.sectors.size());
  for (const PoStSectorProof& sp : p.sectors) {
    w.u64(sp.inclusion_proofs.size());
    for (const MerkleProof& m : sp.inclusion_proofs) w.merkle_proof(m);
    w.node(sp.comm_c);
    w.node(sp.comm_r_last);
  }
  return w.take();
}

StatusOr<SnapPartitionProof> decode_snap_partition_proof(ByteSpan bytes) {
  Reader r(bytes, "PartitionProof");
  SnapPartitionProof p;
  RETURN_IF_ERROR(r.node("comm_c", Domain::kPoseidon, &p.comm_c));
  RETURN_IF_ERROR(read_nodes(r, "apex_leafs", Domain::kSha256, &p.apex_leafs));
  uint64_t n = 0;
  RETURN_IF_ERROR(r.length("challenge_proofs", 3 * (4 + 64), &n));
  p.challenge_proofs.resize(n);
  for (uint64_t i = 0; i < n; ++i) {
    SnapChallengeProof& c = p.challenge_proofs[i];
    const std::string f = at("challenge_proofs", i);
    RETURN_IF_ERROR(read_merkle_proof(r, f + ".proof_r_old", Domain::kPoseidon, &c.proof_r_old));
    RETURN_IF_ERROR(read_merkle_proof(r, f + ".proof_d_new", Domain::kSha256, &c.proof_d_new));
    RETURN_IF_ERROR(read_merkle_proof(r, f + ".proof_r_new", Domain::kPoseidon, &c.proof_r_new));
  }
  RETURN_IF_ERROR(r.finish());
  return p;
}

std::vector<uint8_t> encode_snap_partition_proof(const SnapPartitionProof& p) {
  Writer w;
  w.node(p.comm_c);
  w.nodes(p.apex_leafs);
  w.u64(p.challenge_proofs.size());
  for (const SnapChallengeProof& c : p.challenge_proofs) {
    w.merkle_proof(c.proof_r_old);
    w.merkle_proof(c.proof_d_new);
    w.merkle_proof(c.proof_r_new);
  }
  return w.take();
}

}  // namespace cuzk::filecoin
