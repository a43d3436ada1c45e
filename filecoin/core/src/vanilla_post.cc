// Fallback PoSt vanilla proofs: verification (storage-proofs-post
// fallback/vanilla.rs, FallbackPoSt::verify) and production from a sealed
// sector held in memory.
#include <string>

#include "cuzk/filecoin/public_inputs.h"
#include "cuzk/filecoin/sdr.h"
#include "cuzk/filecoin/vanilla.h"
#include "cuzk/filecoin/vanilla_produce.h"

namespace cuzk::filecoin {

Status verify_post_sector_proof(const PoStProofInfo& info, const Node& randomness, const FallbackPoStSectorProof& p,
                                uint64_t sector_index) {
  const std::string sector = "sector " + std::to_string(p.sector_id);
  if (p.sectors.empty()) return invalid_argument(sector + ": vanilla_proof has no sectors");
  const PoStProofInfo shape = post_vanilla_shape(info);
  const auto challenges = post_sector_leaf_challenges(shape, randomness, p.sector_id, sector_index);
  const size_t path_len = expected_path_length(info.shape, info.nodes());
  for (size_t s = 0; s < p.sectors.size(); ++s) {
    const PoStSectorProof& sp = p.sectors[s];
    const std::string where = sector + ": sectors[" + std::to_string(s) + "]";
    if (sp.inclusion_proofs.size() != challenges.size())
      return invalid_argument(where + ": " + std::to_string(sp.inclusion_proofs.size()) + " inclusion proofs, expected " +
                              std::to_string(challenges.size()) +
                              (info.kind == PoStKind::kWinning ? " (a Winning PoSt vanilla proof opens all 66 challenges "
                                                                 "of its sector: WINNING_POST_CHALLENGE_COUNT)"
                                                               : ""));
    const Node comm_r_last = sp.inclusion_proofs[0].root;
    if (compute_comm_r(sp.comm_c, comm_r_last) != p.comm_r)
      return invalid_argument(where + ": H(comm_c, comm_r_last) != comm_r");
    if (sp.comm_r_last != comm_r_last) return invalid_argument(where + ": comm_r_last differs from the proofs' root");
    for (size_t n = 0; n < challenges.size(); ++n) {
      const MerkleProof& m = sp.inclusion_proofs[n];
      const std::string at = where + ": inclusion_proofs[" + std::to_string(n) + "]";
      if (m.root != comm_r_last) return invalid_argument(at + ": root != comm_r_last");
      if (m.path().size() != path_len)
        return invalid_argument(at + ": path of " + std::to_string(m.path().size()) + " levels, expected " +
                                std::to_string(path_len));
      if (m.path_index() != challenges[n])
        return invalid_argument(at + ": proves leaf " + std::to_string(m.path_index()) + ", the challenge is leaf " +
                                std::to_string(challenges[n]));
      Status st = verify_merkle_proof(TreeHash::kPoseidon, m);
      if (!st.ok()) return st.with_context(at);
    }
  }
  return ok_status();
}

FallbackPoStSectorProof produce_post_sector_proof(const PoStProofInfo& info, const SealedSector& s, uint64_t sector_id,
                                                  const Node& randomness, uint64_t sector_index) {
  FallbackPoStSectorProof p;
  p.sector_id = sector_id;
  p.comm_r = s.comm_r;
  PoStSectorProof sp;
  for (uint64_t leaf : post_sector_leaf_challenges(post_vanilla_shape(info), randomness, sector_id, sector_index))
    sp.inclusion_proofs.push_back(s.tree_r_last.proof(leaf));
  sp.comm_c = s.comm_c;
  sp.comm_r_last = s.comm_r_last;
  p.sectors.push_back(std::move(sp));
  return p;
}

}  // namespace cuzk::filecoin
