// The Groth16 public inputs of Filecoin's circuits (ONE excluded, the
// verifier's order), as rust-fil-proofs' CompoundProof::generate_public_inputs
// builds them.
//
// PoRep partition k (storage-proofs-porep stacked/circuit/proof.rs):
//   replica_id, comm_d, comm_r, then per challenge c of partition k:
//   c (tree D path), the 6 DRG parents' and 8 expander parents' indexes (tree
//   C paths), c (the challenge), c (tree R-last path), c (tree C path)
//   — 3 + 18·challenges inputs (327 for 32 GiB).
// Fallback PoSt partition k (storage-proofs-post fallback/compound.rs): per
//   sector of the partition, comm_r then its challenged leaves; a partition
//   with fewer sectors than sector_count repeats its last sector's inputs.
// SnapDeals partition k (storage-proofs-update circuit.rs):
//   k | h_select << log2(partitions), comm_r_old, comm_d_new, comm_r_new.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/base/status.h"
#include "cuzk/filecoin/node.h"
#include "cuzk/filecoin/proof_types.h"
#include "cuzk/filecoin/sdr_graph.h"

namespace cuzk::filecoin {

using ff::Fr;

// The PoRep challenges of partition k for the proof's feature (interactive:
// replica_id and seed; non-interactive: replica_id and comm_r; synthetic:
// both). REQUIRES: k < info.partitions.
std::vector<uint64_t> porep_partition_challenges(const SealProofInfo& info, const Node& replica_id,
                                                 const Node& comm_r, const Node& seed, uint64_t k);

// INVALID_ARGUMENT (naming the commitment) when replica_id, comm_d or comm_r
// is not a field element, or k is out of range.
StatusOr<std::vector<Fr>> porep_public_inputs(const SealProofInfo& info, const Node& replica_id, const Node& comm_d,
                                              const Node& comm_r, const Node& seed, uint64_t k);
// The same for explicit challenges over a given graph.
std::vector<Fr> porep_public_inputs_for(const StackedGraph& graph, const Fr& replica_id, const Fr& comm_d,
                                        const Fr& comm_r, std::span<const uint64_t> challenges);

struct PoStSector {
  uint64_t sector_id = 0;
  Node comm_r{};
};

// The challenged leaves of one sector: sector_index is its position across
// all partitions (partition·sector_count + i).
std::vector<uint64_t> post_sector_leaf_challenges(const PoStProofInfo& info, const Node& randomness,
                                                  uint64_t sector_id, uint64_t sector_index);

// Window PoSt partition k over `sectors` (all the proof's sectors, in the
// order the proof covers them: filecoin-proofs sorts them by sector id).
// INVALID_ARGUMENT for a bad randomness / comm_r or a partition with no
// sectors.
StatusOr<std::vector<Fr>> window_post_public_inputs(const PoStProofInfo& info, const Node& randomness,
                                                    std::span<const PoStSector> sectors, uint64_t k);
// Winning PoSt: the one challenged sector, repeated sector_count times.
StatusOr<std::vector<Fr>> winning_post_public_inputs(const PoStProofInfo& info, const Node& randomness,
                                                     const PoStSector& sector);

// INVALID_ARGUMENT for k or h outside the sector size's range, or a
// commitment that is not a field element.
StatusOr<std::vector<Fr>> snap_public_inputs(const UpdateProofInfo& info, uint64_t k, uint64_t h,
                                             const Node& comm_r_old, const Node& comm_d_new, const Node& comm_r_new);

}  // namespace cuzk::filecoin
