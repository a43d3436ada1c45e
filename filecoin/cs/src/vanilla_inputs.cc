#include "cuzk/filecoin/cs/vanilla_inputs.h"

#include <string>

namespace cuzk::filecoin::snark {
namespace {

// Collects the first error while converting nodes, naming the field.
class Converter {
 public:
  Fr fr(const Node& n, const std::string& what) {
    auto f = fr_from_node(n, what);
    if (f.ok()) return *f;
    if (status_.ok()) status_ = f.status();
    return Fr::zero();
  }
  std::vector<PathLevel> levels(const std::vector<PathElement>& path, const std::string& what) {
    std::vector<PathLevel> out;
    out.reserve(path.size());
    for (size_t l = 0; l < path.size(); ++l) {
      PathLevel level;
      level.index = path[l].index;
      for (size_t s = 0; s < path[l].hashes.size(); ++s) {
        level.siblings.push_back(fr(path[l].hashes[s], what + " level " + std::to_string(l) + " sibling " +
                                                           std::to_string(s)));
      }
      out.push_back(std::move(level));
    }
    return out;
  }
  AuthPath path(const MerkleProof& p, const std::string& what) {
    return AuthPath{levels(p.base, what), levels(p.sub, what + " (sub)"), levels(p.top, what + " (top)")};
  }
  // Sibling lists, base ‖ sub ‖ top (the update circuit's path form).
  std::vector<std::vector<Fr>> siblings(const MerkleProof& p, const std::string& what) {
    std::vector<std::vector<Fr>> out;
    for (const PathLevel& l : levels(p.path(), what)) out.push_back(l.siblings);
    return out;
  }
  const Status& status() const { return status_; }

 private:
  Status status_;
};

std::string challenge_name(uint64_t k, size_t i, const char* field) {
  return "partition " + std::to_string(k) + " challenge " + std::to_string(i) + " " + field;
}

ColumnOpening column(Converter& cv, const ColumnProof& p, const std::string& what) {
  ColumnOpening c;
  for (size_t r = 0; r < p.rows.size(); ++r) c.rows.push_back(cv.fr(p.rows[r], what + " row " + std::to_string(r)));
  c.path = cv.path(p.inclusion_proof, what + " path");
  return c;
}

PorepChallenge porep_challenge(Converter& cv, const PoRepChallengeProof& p, uint64_t k, size_t i) {
  PorepChallenge ch;
  // Proof::from(vanilla): the challenge is the first labelling proof's node.
  ch.challenge = p.labeling_proofs.empty() ? 0 : p.labeling_proofs[0].node;
  ch.data_leaf = cv.fr(p.comm_d_proof.leaf, challenge_name(k, i, "comm_d_proofs.leaf"));
  ch.comm_d_path = cv.path(p.comm_d_proof, challenge_name(k, i, "comm_d_proofs"));
  ch.comm_r_last_path = cv.path(p.comm_r_last_proof, challenge_name(k, i, "comm_r_last_proof"));
  const ReplicaColumnProof& rc = p.replica_column_proofs;
  ch.comm_c_path = cv.path(rc.c_x.inclusion_proof, challenge_name(k, i, "c_x.inclusion_proof"));
  for (size_t j = 0; j < rc.drg_parents.size(); ++j)
    ch.drg_parents.push_back(column(cv, rc.drg_parents[j], challenge_name(k, i, "drg_parents") + "[" + std::to_string(j) + "]"));
  for (size_t j = 0; j < rc.exp_parents.size(); ++j)
    ch.exp_parents.push_back(column(cv, rc.exp_parents[j], challenge_name(k, i, "exp_parents") + "[" + std::to_string(j) + "]"));
  return ch;
}

PostSector post_sector(Converter& cv, const Node& comm_r, const PoStSectorProof& s,
                       std::span<const MerkleProof> openings, const std::string& what) {
  PostSector out;
  out.comm_r = cv.fr(comm_r, what + " comm_r");
  out.comm_c = cv.fr(s.comm_c, what + " comm_c");
  out.comm_r_last = cv.fr(s.comm_r_last, what + " comm_r_last");
  for (size_t c = 0; c < openings.size(); ++c) {
    const std::string w = what + " inclusion_proofs[" + std::to_string(c) + "]";
    out.leaves.push_back(cv.fr(openings[c].leaf, w + ".leaf"));
    out.paths.push_back(cv.path(openings[c], w));
  }
  return out;
}

}  // namespace

PorepConfig porep_config_for(const SealProofInfo& info) {
  PorepConfig c;
  c.sector_bytes = info.sector_bytes;
  c.layers = info.layers;
  c.challenges_per_partition = info.challenges_per_partition;
  c.partitions = info.partitions;
  c.tree_r = info.shape;
  return c;
}

PostConfig post_config_for(const PoStProofInfo& info) {
  PostConfig c;
  c.kind = info.kind == PoStKind::kWinning ? PostKind::kWinning : PostKind::kWindow;
  c.sector_bytes = info.sector_bytes;
  c.sector_count = info.sector_count;
  c.challenge_count = info.challenge_count;
  c.tree_r = info.shape;
  return c;
}

StatusOr<UpdateConfig> update_config_for(const UpdateProofInfo& info) { return update_config(info.sector_bytes); }

StatusOr<PorepPartition> porep_partition_from_c1(const SealProofInfo& info, const SealCommitPhase1Output& c1,
                                                 uint64_t k) {
  if (k >= c1.vanilla_proofs.size()) {
    return invalid_argument("partition " + std::to_string(k) + " of a C1 output with " +
                            std::to_string(c1.vanilla_proofs.size()) + " partitions");
  }
  const std::vector<PoRepChallengeProof>& proofs = c1.vanilla_proofs[k];
  if (proofs.empty()) return invalid_argument("partition " + std::to_string(k) + " has no challenge proofs");
  // StackedCompound::circuit: every proof of the partition has the same
  // comm_r_last and comm_c (the roots of its openings).
  const Node comm_r_last = proofs[0].comm_r_last_proof.root;
  const Node comm_c = proofs[0].replica_column_proofs.c_x.inclusion_proof.root;
  for (size_t i = 0; i < proofs.size(); ++i) {
    if (proofs[i].comm_r_last_proof.root != comm_r_last)
      return invalid_argument(challenge_name(k, i, "comm_r_last_proof") + ": inconsistent comm_r_last");
    if (proofs[i].replica_column_proofs.c_x.inclusion_proof.root != comm_c)
      return invalid_argument(challenge_name(k, i, "c_x.inclusion_proof") + ": inconsistent comm_c");
  }
  Converter cv;
  PorepPartition p;
  p.replica_id = cv.fr(c1.replica_id, "replica_id");
  p.comm_d = cv.fr(c1.comm_d, "comm_d");
  p.comm_r = cv.fr(c1.comm_r, "comm_r");
  p.comm_r_last = cv.fr(comm_r_last, "comm_r_last");
  p.comm_c = cv.fr(comm_c, "comm_c");
  for (size_t i = 0; i < proofs.size(); ++i) p.challenges.push_back(porep_challenge(cv, proofs[i], k, i));
  RETURN_IF_ERROR(cv.status());
  RETURN_IF_ERROR(check_porep_partition(porep_config_for(info), p).with_context("partition " + std::to_string(k)));
  return p;
}

StatusOr<PostPartition> post_partition_from_vanilla(const PoStProofInfo& info,
                                                    std::span<const FallbackPoStSectorProof> proofs) {
  const PostConfig config = post_config_for(info);
  Converter cv;
  PostPartition p;
  if (info.kind == PoStKind::kWinning) {
    if (proofs.size() != 1 || proofs[0].sectors.size() != 1)
      return invalid_argument("a Winning PoSt takes the vanilla proof of exactly one sector");
    const PoStSectorProof& s = proofs[0].sectors[0];
    // single_partition_vanilla_proofs would pad a short proof by repeating
    // its last opening, which cannot prove the other challenges: refused.
    const size_t want = size_t(post_vanilla_shape(info).challenge_count);
    if (s.inclusion_proofs.size() != want) {
      return invalid_argument("the Winning PoSt vanilla proof of sector " + std::to_string(proofs[0].sector_id) +
                              " has " + std::to_string(s.inclusion_proofs.size()) + " openings; Winning PoSt needs " +
                              std::to_string(want) +
                              " (WINNING_POST_CHALLENGE_COUNT: generate_fallback_sector_challenges gives the one "
                              "sector 66 challenges)");
    }
    for (size_t c = 0; c < s.inclusion_proofs.size(); ++c) {
      p.sectors.push_back(post_sector(cv, proofs[0].comm_r, s, std::span(&s.inclusion_proofs[c], 1),
                                      "sector proof challenge " + std::to_string(c)));
    }
  } else {
    if (proofs.empty() || proofs.size() > size_t(config.sector_count)) {
      return invalid_argument(std::to_string(proofs.size()) + " sector proofs for a partition of " +
                              std::to_string(config.sector_count) + " sectors");
    }
    for (size_t i = 0; i < proofs.size(); ++i) {
      const std::string w = "sector proof " + std::to_string(i) + " (sector " + std::to_string(proofs[i].sector_id) + ")";
      if (proofs[i].sectors.size() != 1) return invalid_argument(w + ": vanilla_proof.sectors must hold one sector");
      const PoStSectorProof& s = proofs[i].sectors[0];
      p.sectors.push_back(post_sector(cv, proofs[i].comm_r, s, s.inclusion_proofs, w));
    }
  }
  RETURN_IF_ERROR(cv.status());
  while (!p.sectors.empty() && p.sectors.size() < size_t(config.sector_count)) p.sectors.push_back(p.sectors.back());
  RETURN_IF_ERROR(check_post_partition(config, p));
  return p;
}

StatusOr<UpdatePartition> update_partition_from_vanilla(const UpdateProofInfo& info, uint64_t k,
                                                        const Node& comm_r_old, const Node& comm_d_new,
                                                        const Node& comm_r_new, const SnapPartitionProof& proof) {
  ASSIGN_OR_RETURN(UpdateConfig config, update_config_for(info));
  ASSIGN_OR_RETURN(Fr khs, update_k_and_h_select(config, k, int(info.h)));
  if (proof.challenge_proofs.empty()) return invalid_argument("the partition proof has no challenge proofs");
  Converter cv;
  UpdatePartition p;
  p.k_and_h_select = khs;
  p.comm_r_old = cv.fr(comm_r_old, "comm_r_old");
  p.comm_d_new = cv.fr(comm_d_new, "comm_d_new");
  p.comm_r_new = cv.fr(comm_r_new, "comm_r_new");
  p.comm_c = cv.fr(proof.comm_c, "comm_c");
  // PrivateInputs::new: the roots come from the first challenge's openings.
  p.root_r_old = cv.fr(proof.challenge_proofs[0].proof_r_old.root, "challenge_proofs[0].proof_r_old.root");
  p.root_r_new = cv.fr(proof.challenge_proofs[0].proof_r_new.root, "challenge_proofs[0].proof_r_new.root");
  for (size_t i = 0; i < proof.apex_leafs.size(); ++i)
    p.apex_leafs.push_back(cv.fr(proof.apex_leafs[i], "apex_leafs[" + std::to_string(i) + "]"));
  for (size_t i = 0; i < proof.challenge_proofs.size(); ++i) {
    const SnapChallengeProof& c = proof.challenge_proofs[i];
    const std::string w = "challenge_proofs[" + std::to_string(i) + "]";
    UpdateChallenge ch;
    ch.leaf_r_old = cv.fr(c.proof_r_old.leaf, w + ".proof_r_old.leaf");
    ch.leaf_d_new = cv.fr(c.proof_d_new.leaf, w + ".proof_d_new.leaf");
    ch.leaf_r_new = cv.fr(c.proof_r_new.leaf, w + ".proof_r_new.leaf");
    ch.path_r_old = cv.siblings(c.proof_r_old, w + ".proof_r_old");
    ch.path_d_new = cv.siblings(c.proof_d_new, w + ".proof_d_new");
    ch.path_r_new = cv.siblings(c.proof_r_new, w + ".proof_r_new");
    p.challenges.push_back(std::move(ch));
  }
  RETURN_IF_ERROR(cv.status());
  RETURN_IF_ERROR(check_update_partition(config, p));
  return p;
}

}  // namespace cuzk::filecoin::snark
