// SnapDeals (EmptySectorUpdate) vanilla proofs: the update encoding, partition
// proofs and their verification (storage-proofs-update vanilla.rs).
#include <algorithm>
#include <map>
#include <string>

#include "cuzk/filecoin/challenges.h"
#include "cuzk/filecoin/sha256.h"
#include "cuzk/filecoin/vanilla.h"
#include "cuzk/filecoin/vanilla_produce.h"

namespace cuzk::filecoin {

using ff::Fr;

namespace {

int log2_exact(uint64_t v) { return __builtin_ctzll(v); }

// The height of the apex leaves in tree D new: log2(nodes) − log2(partitions)
// − log2(apex leaves per partition).
int apex_leafs_height(uint64_t nodes) {
  return log2_exact(nodes) - log2_exact(snap_partition_count(nodes)) - log2_exact(snap_apex_leaf_count(nodes));
}

Status check_openings(const SnapChallengeProof& p, uint32_t c, const Node& root_r_old, const Node& comm_d_new,
                      const Node& root_r_new, const std::string& where) {
  const MerkleProof* proofs[3] = {&p.proof_r_old, &p.proof_d_new, &p.proof_r_new};
  const char* names[3] = {"proof_r_old", "proof_d_new", "proof_r_new"};
  const Node* roots[3] = {&root_r_old, &comm_d_new, &root_r_new};
  for (int i = 0; i < 3; ++i) {
    const std::string what = where + "." + names[i];
    if (proofs[i]->path_index() != c)
      return invalid_argument(what + ": proves node " + std::to_string(proofs[i]->path_index()) + ", expected " +
                              std::to_string(c));
    if (proofs[i]->root != *roots[i]) return invalid_argument(what + ": root does not match");
    Status st = verify_merkle_proof(i == 1 ? TreeHash::kSha254 : TreeHash::kPoseidon, *proofs[i]);
    if (!st.ok()) return st.with_context(what);
  }
  return ok_status();
}

std::vector<std::vector<Node>> apex_tree(const std::vector<Node>& leafs) {
  std::vector<std::vector<Node>> rows = {leafs};
  while (rows.back().size() > 1) {
    std::vector<Node> up;
    for (size_t i = 0; i + 1 < rows.back().size(); i += 2) up.push_back(sha254_pair(rows.back()[i], rows.back()[i + 1]));
    rows.push_back(std::move(up));
  }
  return rows;
}

}  // namespace

Status verify_snap_partition(const UpdateProofInfo& info, uint64_t k, uint64_t h, const Node& comm_r_old,
                             const Node& comm_d_new, const Node& comm_r_new, const SnapPartitionProof& p) {
  const uint64_t nodes = info.nodes();
  if (k >= uint64_t(info.partitions)) return invalid_argument("partition index " + std::to_string(k) + " out of range");
  if (!snap_h_select(nodes, h)) return invalid_argument("h = " + std::to_string(h) + " is not allowed for this sector size");
  if (p.apex_leafs.size() != snap_apex_leaf_count(nodes))
    return invalid_argument("apex_leafs: " + std::to_string(p.apex_leafs.size()) + ", expected " +
                            std::to_string(snap_apex_leaf_count(nodes)));
  if (p.challenge_proofs.size() != uint64_t(info.challenges_per_partition))
    return invalid_argument("challenge_proofs: " + std::to_string(p.challenge_proofs.size()) + ", expected " +
                            std::to_string(info.challenges_per_partition));
  const Node root_r_old = p.challenge_proofs[0].proof_r_old.root;
  const Node root_r_new = p.challenge_proofs[0].proof_r_new.root;
  if (compute_comm_r(p.comm_c, root_r_old) != comm_r_old) return invalid_argument("H(comm_c, root_r_old) != comm_r_old");
  if (compute_comm_r(p.comm_c, root_r_new) != comm_r_new) return invalid_argument("H(comm_c, root_r_new) != comm_r_new");
  const Node phi = snap_phi(comm_d_new, comm_r_old);
  const auto challenges = snap_challenges(nodes, comm_r_new, k);
  const int shift = log2_exact(nodes) - int(h);
  const auto apex = apex_tree(p.apex_leafs);
  const size_t apex_height = size_t(apex_leafs_height(nodes)), apex_bits = size_t(log2_exact(snap_apex_leaf_count(nodes)));
  for (size_t i = 0; i < challenges.size(); ++i) {
    const SnapChallengeProof& cp = p.challenge_proofs[i];
    const std::string where = "challenge_proofs[" + std::to_string(i) + "] (node " + std::to_string(challenges[i]) + ")";
    RETURN_IF_ERROR(check_openings(cp, challenges[i], root_r_old, comm_d_new, root_r_new, where));
    ASSIGN_OR_RETURN(Fr data, fr_from_node(cp.proof_d_new.leaf, where + ".proof_d_new.leaf"));
    const Fr rho = fr_from_node_trusted(snap_rho(phi, challenges[i] >> shift));
    if (node_from_fr(fr_from_node_trusted(cp.proof_r_old.leaf) + data * rho) != cp.proof_r_new.leaf)
      return invalid_argument(where + ": the new replica node is not old + data·rho");
    const auto path = cp.proof_d_new.path();
    if (path.size() != size_t(log2_exact(nodes)))
      return invalid_argument(where + ".proof_d_new: path of " + std::to_string(path.size()) + " levels, expected " +
                              std::to_string(log2_exact(nodes)));
    for (size_t j = 0; j < apex_bits; ++j) {
      const Node& sibling = path[apex_height + j].hashes[0];
      if (std::find(apex[j].begin(), apex[j].end(), sibling) == apex[j].end())
        return invalid_argument(where + ": tree D path leaves the partition's apex tree at level " + std::to_string(j));
    }
  }
  return ok_status();
}

StatusOr<SnapUpdate> snap_encode(const UpdateProofInfo& info, const SealedSector& old_sector, ByteSpan new_data) {
  const uint64_t nodes = info.nodes();
  if (new_data.size() != info.sector_bytes || old_sector.replica.size() != nodes)
    return invalid_argument("SnapDeals update: data and sector are not both " + std::to_string(info.sector_bytes) + " bytes");
  SnapUpdate u;
  ASSIGN_OR_RETURN(u.tree_d_new, build_tree_d(new_data));
  u.comm_d_new = u.tree_d_new.root();
  const Node phi = snap_phi(u.comm_d_new, old_sector.comm_r);
  const int shift = log2_exact(nodes) - int(info.h);
  std::map<uint64_t, Fr> rhos;
  u.replica_new.resize(nodes);
  for (uint64_t v = 0; v < nodes; ++v) {
    ASSIGN_OR_RETURN(Fr d, fr_from_node(u.tree_d_new.level(0)[v], "new data node " + std::to_string(v)));
    const uint64_t high = v >> shift;
    auto it = rhos.find(high);
    if (it == rhos.end()) it = rhos.emplace(high, fr_from_node_trusted(snap_rho(phi, uint32_t(high)))).first;
    u.replica_new[v] = node_from_fr(fr_from_node_trusted(old_sector.replica[v]) + d * it->second);
  }
  ASSIGN_OR_RETURN(u.tree_r_new, ShapedTree::build(info.shape, u.replica_new));
  u.comm_r_new = compute_comm_r(old_sector.comm_c, u.tree_r_new.root());
  return u;
}

SnapPartitionProof produce_snap_partition_proof(const UpdateProofInfo& info, const SealedSector& old_sector,
                                                const SnapUpdate& update, uint64_t k) {
  const uint64_t nodes = info.nodes();
  SnapPartitionProof p;
  p.comm_c = old_sector.comm_c;
  const auto& row = update.tree_d_new.level(apex_leafs_height(nodes));
  const uint64_t apex = snap_apex_leaf_count(nodes);
  p.apex_leafs.assign(row.begin() + std::ptrdiff_t(k * apex), row.begin() + std::ptrdiff_t((k + 1) * apex));
  for (uint32_t c : snap_challenges(nodes, update.comm_r_new, k)) {
    SnapChallengeProof cp;
    cp.proof_r_old = old_sector.tree_r_last.proof(c);
    cp.proof_d_new = tree_d_proof(update.tree_d_new, c);
    cp.proof_r_new = update.tree_r_new.proof(c);
    p.challenge_proofs.push_back(std::move(cp));
  }
  return p;
}

}  // namespace cuzk::filecoin
