// The SnapDeals partition circuit: rust-fil-proofs' EmptySectorUpdateCircuit
// (storage-proofs-update circuit.rs and gadgets.rs). It proves that
// comm_r_new commits to the old replica re-encoded with the new data:
// label_r_new = label_r_old + label_d_new·rho for challenges it derives
// itself from comm_r_new and the partition, with rho = H(phi, high bits of
// the challenge), phi = H(comm_d_new, comm_r_old).
//
// Public inputs: k_and_h_select (the partition k | h_select << bits(k)),
// comm_r_old, comm_d_new, comm_r_new. A 32 GiB partition: 81,049,499 rows.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "cuzk/base/status.h"
#include "cuzk/filecoin/cs/por.h"
#include "cuzk/filecoin/merkle.h"

namespace cuzk::filecoin::snark {

struct UpdateConfig {
  uint64_t sector_bytes = 0;
  TreeShape tree_r;
  int challenge_count = 0;     // per partition: 10 up to 16 MiB, else 86
  int challenge_bit_len = 0;   // log2(nodes)
  int partition_count = 0;     // 1, 2, 4 or 16
  int partition_bit_len = 0;
  int apex_leaf_count = 0;     // 8 up to 8 KiB, else 128
  int apex_leaf_bit_len = 0;
  std::array<int, 6> hs{};     // the allowed h: all 1 up to 32 KiB, else 7..12
  uint64_t nodes() const { return sector_bytes / 32; }
};

// storage-proofs-update's PublicParams::from_sector_size and constants.rs
// (sizes 1, 2, 4, 8, 16, 32 KiB, 8 and 16 MiB, 512 MiB, 32 and 64 GiB).
// INVALID_ARGUMENT for another size.
StatusOr<UpdateConfig> update_config(uint64_t sector_bytes);

// k | (2^index_of(h in hs)) << partition_bit_len. INVALID_ARGUMENT when k or
// h is not allowed for the sector size.
StatusOr<Fr> update_k_and_h_select(const UpdateConfig& config, uint64_t k, int h);

// One challenge's three Merkle proofs as sibling lists, leaf level first:
// tree R-old and R-new (the tree R shape: 7 siblings per base level, then sub
// and top), tree D-new (binary: 1 sibling per level, challenge_bit_len levels).
struct UpdateChallenge {
  Fr leaf_r_old, leaf_d_new, leaf_r_new;
  std::vector<std::vector<Fr>> path_r_old;
  std::vector<std::vector<Fr>> path_d_new;
  std::vector<std::vector<Fr>> path_r_new;
};

struct UpdatePartition {
  Fr k_and_h_select, comm_r_old, comm_d_new, comm_r_new;  // public
  Fr comm_c, root_r_old, root_r_new;                      // private
  std::vector<Fr> apex_leafs;                             // apex_leaf_count
  std::vector<UpdateChallenge> challenges;                // challenge_count
};

UpdatePartition blank_update_partition(const UpdateConfig& config);
// INVALID_ARGUMENT naming the first problem: counts and path lengths, a k or
// h_select the sector size does not allow, partition paths that differ
// between challenges.
Status check_update_partition(const UpdateConfig& config, const UpdatePartition& partition);

// REQUIRES: check_update_partition OK. Records an INVALID_ARGUMENT with
// cs.fail when a challenge's leaf_r_new differs from the re-encoding.
// Instantiated for WitnessCs and RecordingCs.
template <class CS>
void synthesize_update(CS& cs, const UpdateConfig& config, const UpdatePartition& partition);

}  // namespace cuzk::filecoin::snark
