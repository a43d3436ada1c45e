// PoRep vanilla proofs: verification (storage-proofs-porep stacked/vanilla
// proof_scheme.rs verify_all_partitions, params.rs Proof::verify) and
// production from a sector sealed in memory (prove_layers_generate).
#include <string>

#include "cuzk/filecoin/public_inputs.h"
#include "cuzk/filecoin/sha256.h"
#include "cuzk/filecoin/vanilla.h"
#include "cuzk/filecoin/vanilla_produce.h"

namespace cuzk::filecoin {

namespace {

// sha254(replica_id ‖ be32(layer) ‖ be64(node) ‖ 0^20 ‖ parents…): the
// labelling proof's create_label and the encoding proof's create_key.
Node label_from_proof(const Node& replica_id, const LabelingProof& p) {
  uint8_t header[32] = {};
  store_u32be(header, p.layer_index);
  store_u64be(header + 4, p.node);
  Sha256 h;
  h.update(replica_id.data(), 32).update(header, sizeof(header));
  for (const Node& parent : p.parents) h.update(parent.data(), parent.size());
  Sha256Digest d = h.finish();
  trim_to_fr32(d);
  return d;
}

Status check_opening(const MerkleProof& m, TreeHash hash, uint64_t leaf, const Node& root, const std::string& what) {
  if (m.root != root) return invalid_argument(what + ": root does not match");
  if (m.path_index() != leaf)
    return invalid_argument(what + ": proves node " + std::to_string(m.path_index()) + ", expected " +
                            std::to_string(leaf));
  Status st = verify_merkle_proof(hash, m);
  return st.ok() ? st : st.with_context(what);
}

Status check_column(const ColumnProof& c, uint64_t node, const Node& comm_c, int layers, const std::string& what) {
  if (c.index != node)
    return invalid_argument(what + ": column of node " + std::to_string(c.index) + ", expected " + std::to_string(node));
  if (c.rows.size() != size_t(layers))
    return invalid_argument(what + ": " + std::to_string(c.rows.size()) + " rows, expected " + std::to_string(layers));
  ASSIGN_OR_RETURN(Node h, column_hash(c.rows));
  if (c.inclusion_proof.leaf != h) return invalid_argument(what + ": tree C leaf is not the column's hash");
  return check_opening(c.inclusion_proof, TreeHash::kPoseidon, node, comm_c, what + ".inclusion_proof");
}

// The labelling preimage the parent columns imply (Proof::from_parts).
std::vector<Node> expected_parents(const ReplicaColumnProof& rcp, int layer) {
  std::vector<Node> p;
  for (int slot : label_parent_slots(layer == 1)) {
    p.push_back(slot < kDrgDegree ? rcp.drg_parents[size_t(slot)].rows[size_t(layer - 1)]
                                  : rcp.exp_parents[size_t(slot - kDrgDegree)].rows[size_t(layer - 2)]);
  }
  return p;
}

Status check_label(const Node& replica_id, const LabelingProof& p, const ReplicaColumnProof& rcp, int layer,
                   uint64_t node, const std::string& what) {
  if (p.layer_index != uint32_t(layer) || p.node != node)
    return invalid_argument(what + ": labels layer " + std::to_string(p.layer_index) + " node " + std::to_string(p.node) +
                            ", expected layer " + std::to_string(layer) + " node " + std::to_string(node));
  if (p.parents != expected_parents(rcp, layer)) return invalid_argument(what + ": parents differ from the parent columns");
  if (label_from_proof(replica_id, p) != rcp.c_x.rows[size_t(layer - 1)])
    return invalid_argument(what + ": label does not hash to the column's row");
  return ok_status();
}

Status check_challenge(const SealProofInfo& info, const StackedGraph& graph, const SealCommitPhase1Output& c1,
                       const PoRepChallengeProof& p, uint64_t c, const Node& comm_c, const Node& comm_r_last,
                       const std::string& where) {
  RETURN_IF_ERROR(check_opening(p.comm_d_proof, TreeHash::kSha254, c, c1.comm_d, where + ".comm_d_proofs"));
  RETURN_IF_ERROR(check_opening(p.comm_r_last_proof, TreeHash::kPoseidon, c, comm_r_last, where + ".comm_r_last_proof"));
  const ReplicaColumnProof& rcp = p.replica_column_proofs;
  const std::string cols = where + ".replica_column_proofs";
  RETURN_IF_ERROR(check_column(rcp.c_x, c, comm_c, info.layers, cols + ".c_x"));
  if (rcp.drg_parents.size() != kDrgDegree || rcp.exp_parents.size() != kExpanderDegree)
    return invalid_argument(cols + ": expected 6 DRG and 8 expander parent columns");
  const auto parents = graph.parents(uint32_t(c));
  for (int i = 0; i < kParentCount; ++i) {
    const bool drg = i < kDrgDegree;
    const ColumnProof& col = drg ? rcp.drg_parents[size_t(i)] : rcp.exp_parents[size_t(i - kDrgDegree)];
    const std::string what = cols + (drg ? ".drg_parents[" + std::to_string(i) : ".exp_parents[" + std::to_string(i - kDrgDegree)) + "]";
    RETURN_IF_ERROR(check_column(col, parents[size_t(i)], comm_c, info.layers, what));
  }
  if (p.labeling_proofs.size() != size_t(info.layers))
    return invalid_argument(where + ": " + std::to_string(p.labeling_proofs.size()) + " labeling proofs, expected " +
                            std::to_string(info.layers));
  for (int l = 1; l <= info.layers; ++l)
    RETURN_IF_ERROR(check_label(c1.replica_id, p.labeling_proofs[size_t(l - 1)], rcp, l, c,
                                where + ".labeling_proofs[" + std::to_string(l - 1) + "]"));
  const Node key = label_from_proof(c1.replica_id, p.encoding_proof);
  if (encode_node(key, p.comm_d_proof.leaf) != p.comm_r_last_proof.leaf)
    return invalid_argument(where + ".encoding_proof: key + data != the replica node");
  return ok_status();
}

}  // namespace

Status verify_porep_vanilla(const SealProofInfo& info, const SealCommitPhase1Output& c1) {
  if (c1.registered_proof != info.name)
    return invalid_argument("registered_proof " + c1.registered_proof + " is not " + std::string(info.name));
  if (c1.vanilla_proofs.size() != size_t(info.partitions))
    return invalid_argument("vanilla_proofs: " + std::to_string(c1.vanilla_proofs.size()) + " partitions, expected " +
                            std::to_string(info.partitions));
  RETURN_IF_ERROR(fr_from_node(c1.replica_id, "replica_id").status());
  ASSIGN_OR_RETURN(StackedGraph graph, StackedGraph::create(info.nodes(), info.porep_id, info.api));
  for (size_t k = 0; k < c1.vanilla_proofs.size(); ++k) {
    const auto& proofs = c1.vanilla_proofs[k];
    const std::string part = "vanilla_proofs[" + std::to_string(k) + "]";
    const auto challenges = porep_partition_challenges(info, c1.replica_id, c1.comm_r, c1.seed, k);
    if (proofs.size() != challenges.size())
      return invalid_argument(part + ": " + std::to_string(proofs.size()) + " challenge proofs, expected " +
                              std::to_string(challenges.size()));
    const Node comm_c = proofs[0].replica_column_proofs.c_x.inclusion_proof.root;
    const Node comm_r_last = proofs[0].comm_r_last_proof.root;
    if (compute_comm_r(comm_c, comm_r_last) != c1.comm_r) return invalid_argument(part + ": H(comm_c, comm_r_last) != comm_r");
    for (size_t i = 0; i < proofs.size(); ++i)
      RETURN_IF_ERROR(check_challenge(info, graph, c1, proofs[i], challenges[i], comm_c, comm_r_last,
                                      part + "[" + std::to_string(i) + "] (node " + std::to_string(challenges[i]) + ")"));
  }
  return ok_status();
}

namespace {

ColumnProof column_proof(const SealedSector& s, uint64_t node) {
  ColumnProof c;
  c.index = uint32_t(node);
  for (const auto& layer : s.labels) c.rows.push_back(layer[node]);
  c.inclusion_proof = s.tree_c.proof(node);
  return c;
}

PoRepChallengeProof challenge_proof(const StackedGraph& graph, const SealedSector& s, uint64_t c) {
  PoRepChallengeProof p;
  p.comm_d_proof = tree_d_proof(s.tree_d, c);
  p.comm_r_last_proof = s.tree_r_last.proof(c);
  ReplicaColumnProof& rcp = p.replica_column_proofs;
  rcp.c_x = column_proof(s, c);
  const auto parents = graph.parents(uint32_t(c));
  for (int i = 0; i < kParentCount; ++i)
    (i < kDrgDegree ? rcp.drg_parents : rcp.exp_parents).push_back(column_proof(s, parents[size_t(i)]));
  for (int l = 1; l <= int(s.labels.size()); ++l) {
    LabelingProof lp;
    lp.layer_index = uint32_t(l);
    lp.node = c;
    lp.parents = expected_parents(rcp, l);
    p.labeling_proofs.push_back(std::move(lp));
  }
  p.encoding_proof = p.labeling_proofs.back();
  return p;
}

}  // namespace

SealCommitPhase1Output produce_seal_commit_phase1(const SealProofInfo& info, const SealedSector& sealed,
                                                  const Node& seed, const Node& ticket) {
  SealCommitPhase1Output c1;
  c1.registered_proof = std::string(info.name);
  c1.comm_r = sealed.comm_r;
  c1.comm_d = sealed.comm_d;
  c1.replica_id = sealed.replica_id;
  c1.seed = seed;
  c1.ticket = ticket;
  const StackedGraph graph = StackedGraph::create(info.nodes(), info.porep_id, info.api).value();
  for (uint64_t k = 0; k < uint64_t(info.partitions); ++k) {
    std::vector<PoRepChallengeProof> part;
    for (uint64_t c : porep_partition_challenges(info, sealed.replica_id, sealed.comm_r, seed, k))
      part.push_back(challenge_proof(graph, sealed, c));
    c1.vanilla_proofs.push_back(std::move(part));
  }
  return c1;
}

}  // namespace cuzk::filecoin
