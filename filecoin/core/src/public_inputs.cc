#include "cuzk/filecoin/public_inputs.h"

#include <string>

#include "cuzk/filecoin/challenges.h"

namespace cuzk::filecoin {

std::vector<uint64_t> porep_partition_challenges(const SealProofInfo& info, const Node& replica_id,
                                                 const Node& comm_r, const Node& seed, uint64_t k) {
  const uint64_t per = uint64_t(info.challenges_per_partition);
  switch (info.feature) {
    case PoRepFeature::kInteractive:
      return porep_interactive_challenges(info.nodes(), replica_id, seed, per, k);
    case PoRepFeature::kNonInteractive:
      return porep_ni_challenges(info.nodes(), replica_id, comm_r, per, k);
    case PoRepFeature::kSynthetic:
      return SynthChallenges(info.nodes(), replica_id, comm_r, SynthChallenges::default_count(info.nodes()))
          .partition_challenges(per, seed, k);
  }
  return {};
}

std::vector<Fr> porep_public_inputs_for(const StackedGraph& graph, const Fr& replica_id, const Fr& comm_d,
                                        const Fr& comm_r, std::span<const uint64_t> challenges) {
  std::vector<Fr> in = {replica_id, comm_d, comm_r};
  in.reserve(3 + 18 * challenges.size());
  for (uint64_t c : challenges) {
    const Fr fc = Fr::from_uint(c);
    in.push_back(fc);  // tree D
    for (uint32_t p : graph.parents(uint32_t(c))) in.push_back(Fr::from_uint(p));
    in.push_back(fc);  // the challenge
    in.push_back(fc);  // tree R-last
    in.push_back(fc);  // tree C
  }
  return in;
}

StatusOr<std::vector<Fr>> porep_public_inputs(const SealProofInfo& info, const Node& replica_id, const Node& comm_d,
                                              const Node& comm_r, const Node& seed, uint64_t k) {
  if (k >= uint64_t(info.partitions))
    return invalid_argument("partition " + std::to_string(k) + " of " + std::string(info.name) + " (" +
                            std::to_string(info.partitions) + " partitions)");
  ASSIGN_OR_RETURN(Fr rid, fr_from_node(replica_id, "replica_id"));
  ASSIGN_OR_RETURN(Fr cd, fr_from_node(comm_d, "comm_d"));
  ASSIGN_OR_RETURN(Fr cr, fr_from_node(comm_r, "comm_r"));
  ASSIGN_OR_RETURN(StackedGraph graph, StackedGraph::create(info.nodes(), info.porep_id, info.api));
  const auto challenges = porep_partition_challenges(info, replica_id, comm_r, seed, k);
  return porep_public_inputs_for(graph, rid, cd, cr, challenges);
}

std::vector<uint64_t> post_sector_leaf_challenges(const PoStProofInfo& info, const Node& randomness,
                                                  uint64_t sector_id, uint64_t sector_index) {
  std::vector<uint64_t> out;
  for (uint64_t n = 0; n < uint64_t(info.challenge_count); ++n) {
    const uint64_t index = post_challenge_index(info.api, sector_index, uint64_t(info.challenge_count), n);
    out.push_back(post_leaf_challenge(info.nodes(), randomness, sector_id, index));
  }
  return out;
}

namespace {

Status append_sector(const PoStProofInfo& info, const Node& randomness, const PoStSector& s, uint64_t sector_index,
                     std::vector<Fr>* in) {
  ASSIGN_OR_RETURN(Fr comm_r, fr_from_node(s.comm_r, "comm_r of sector " + std::to_string(s.sector_id)));
  in->push_back(comm_r);
  for (uint64_t leaf : post_sector_leaf_challenges(info, randomness, s.sector_id, sector_index))
    in->push_back(Fr::from_uint(leaf));
  return ok_status();
}

}  // namespace

StatusOr<std::vector<Fr>> window_post_public_inputs(const PoStProofInfo& info, const Node& randomness,
                                                    std::span<const PoStSector> sectors, uint64_t k) {
  RETURN_IF_ERROR(fr_from_node(randomness, "randomness").status());
  const uint64_t per = uint64_t(info.sector_count);
  const uint64_t first = k * per;
  if (first >= sectors.size())
    return invalid_argument("PoSt partition " + std::to_string(k) + " has no sectors (" +
                            std::to_string(sectors.size()) + " sectors, " + std::to_string(per) + " per partition)");
  const uint64_t end = std::min<uint64_t>(sectors.size(), first + per);
  std::vector<Fr> in;
  for (uint64_t i = first; i < end; ++i) RETURN_IF_ERROR(append_sector(info, randomness, sectors[i], i, &in));
  const size_t per_sector = 1 + size_t(info.challenge_count);
  while (in.size() < per_sector * per) {
    const std::vector<Fr> last(in.end() - std::ptrdiff_t(per_sector), in.end());
    in.insert(in.end(), last.begin(), last.end());
  }
  return in;
}

StatusOr<std::vector<Fr>> winning_post_public_inputs(const PoStProofInfo& info, const Node& randomness,
                                                     const PoStSector& sector) {
  if (info.kind != PoStKind::kWinning) return invalid_argument(std::string(info.name) + " is not a Winning PoSt");
  std::vector<PoStSector> copies(size_t(info.sector_count), sector);
  return window_post_public_inputs(info, randomness, copies, 0);
}

StatusOr<std::vector<Fr>> snap_public_inputs(const UpdateProofInfo& info, uint64_t k, uint64_t h,
                                             const Node& comm_r_old, const Node& comm_d_new, const Node& comm_r_new) {
  const uint64_t nodes = info.nodes();
  if (k >= uint64_t(info.partitions))
    return invalid_argument("SnapDeals partition " + std::to_string(k) + " of " + std::to_string(info.partitions));
  const uint64_t h_select = snap_h_select(nodes, h);
  if (!h_select) return invalid_argument("h = " + std::to_string(h) + " is not allowed for " + std::string(info.name));
  const int partition_bits = __builtin_ctzll(uint64_t(info.partitions));
  std::vector<Fr> in = {Fr::from_uint(k | (h_select << partition_bits))};
  ASSIGN_OR_RETURN(Fr a, fr_from_node(comm_r_old, "comm_r_old"));
  ASSIGN_OR_RETURN(Fr b, fr_from_node(comm_d_new, "comm_d_new"));
  ASSIGN_OR_RETURN(Fr c, fr_from_node(comm_r_new, "comm_r_new"));
  in.insert(in.end(), {a, b, c});
  return in;
}

}  // namespace cuzk::filecoin
