// From vanilla proofs (cuzk::filecoin, vanilla.h) to circuit inputs, as
// rust-fil-proofs' CompoundProof::circuit builds its circuits:
//   PoRep     StackedCompound::circuit + Proof::from(vanilla)
//   PoSt      FallbackPoStCompound::circuit over filecoin-proofs'
//             single_partition_vanilla_proofs (Window: the partition's sector
//             proofs, the last repeated up to sector_count; Winning: the one
//             sector's openings unrolled into one "sector" each)
//   SnapDeals EmptySectorUpdateCompound::circuit (PublicInputs::new,
//             PrivateInputs::new)
// Every commitment and node is checked to be a field element; shape
// mismatches are reported with the field's name.
#pragma once

#include <cstdint>
#include <span>

#include "cuzk/base/status.h"
#include "cuzk/filecoin/cs/porep.h"
#include "cuzk/filecoin/cs/post.h"
#include "cuzk/filecoin/cs/update.h"
#include "cuzk/filecoin/proof_types.h"
#include "cuzk/filecoin/vanilla.h"

namespace cuzk::filecoin::snark {

PorepConfig porep_config_for(const SealProofInfo& info);
PostConfig post_config_for(const PoStProofInfo& info);
// INVALID_ARGUMENT for a sector size SnapDeals does not support.
StatusOr<UpdateConfig> update_config_for(const UpdateProofInfo& info);

// Partition k of a C1 output. Errors: INVALID_ARGUMENT naming the partition,
// challenge and field (k out of range, inconsistent comm_c / comm_r_last,
// shapes, values that are not field elements).
StatusOr<PorepPartition> porep_partition_from_c1(const SealProofInfo& info, const SealCommitPhase1Output& c1, uint64_t k);

// A Window PoSt partition from the vanilla proofs of its sectors, in order
// (1 ≤ count ≤ sector_count), or the Winning PoSt circuit from the one
// sector's proof.
StatusOr<PostPartition> post_partition_from_vanilla(const PoStProofInfo& info,
                                                    std::span<const FallbackPoStSectorProof> proofs);

// SnapDeals partition k with the h filecoin-proofs encodes with (info.h).
StatusOr<UpdatePartition> update_partition_from_vanilla(const UpdateProofInfo& info, uint64_t k,
                                                        const Node& comm_r_old, const Node& comm_d_new,
                                                        const Node& comm_r_new, const SnapPartitionProof& proof);

}  // namespace cuzk::filecoin::snark
