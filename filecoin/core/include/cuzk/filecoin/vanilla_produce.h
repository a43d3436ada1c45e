// Vanilla proofs made from sectors sealed in memory (sdr.h), as rust-fil-proofs'
// provers make them: the inputs tests and `cuzk filecoin` commands need
// without a Filecoin node. Sizes that fit in memory only (2 KiB, 8 MiB, …).
#pragma once

#include <cstdint>
#include <vector>

#include "cuzk/base/bytes.h"
#include "cuzk/base/status.h"
#include "cuzk/filecoin/proof_types.h"
#include "cuzk/filecoin/sdr.h"
#include "cuzk/filecoin/vanilla.h"

namespace cuzk::filecoin {

// seal_commit_phase1: every partition's challenge proofs for `seed`.
// REQUIRES: `sealed` was sealed with info's sector size, layers, porep_id.
SealCommitPhase1Output produce_seal_commit_phase1(const SealProofInfo& info, const SealedSector& sealed,
                                                  const Node& seed, const Node& ticket);

// generate_single_vanilla_proof for the sector at position sector_index of
// the PoSt (Window: partition·sector_count + i; Winning: 0), with the
// challenges of generate_fallback_sector_challenges (post_vanilla_shape:
// Winning PoSt opens 66 leaves).
FallbackPoStSectorProof produce_post_sector_proof(const PoStProofInfo& info, const SealedSector& sealed,
                                                  uint64_t sector_id, const Node& randomness, uint64_t sector_index);

// A SnapDeals update of a sealed sector: new data encoded into its replica
// (replica_new = replica + data_new · rho(node >> (log2(nodes) − h))).
struct SnapUpdate {
  Node comm_d_new{}, comm_r_new{};
  std::vector<Node> replica_new;
  MerkleTree tree_d_new;
  ShapedTree tree_r_new;
};
// INVALID_ARGUMENT for a size mismatch or a data node that is not a field
// element.
StatusOr<SnapUpdate> snap_encode(const UpdateProofInfo& info, const SealedSector& old_sector, ByteSpan new_data);
// The partition proof of partition k. REQUIRES: k < info.partitions.
SnapPartitionProof produce_snap_partition_proof(const UpdateProofInfo& info, const SealedSector& old_sector,
                                                const SnapUpdate& update, uint64_t k);

}  // namespace cuzk::filecoin
