// Challenge derivation, as rust-fil-proofs computes it.
//
// PoRep (storage-proofs-porep stacked/vanilla/challenges.rs), challenge j =
// challenges_per_partition·k + i of partition k, as a node in [1, nodes):
//   interactive:      1 + LE256(sha256(replica_id ‖ seed ‖ le32(j))) mod (nodes − 1)
//   non-interactive:  the same over sha256("filecoin.io|PoRep|1|NonInteractive|1"
//                     ‖ replica_id ‖ comm_r ‖ le32(j))
//   synthetic:        min(nodes, 2^18) synthetic challenges from a ChaCha20
//                     keystream (key BLAKE2b-256 keyed "…|Synthetic|1|Generation"
//                     of replica_id ‖ comm_r), 32 bytes each; partition
//                     challenges pick among them with a second keystream
//                     (keyed "…|Selection" of replica_id ‖ seed), 4 bytes each.
// PoSt (storage-proofs-post fallback/vanilla.rs):
//   sector n of a set of len: LE64(sha256(prover_id ‖ randomness ‖ le64(n))) mod len
//   leaf of a sector:         LE64(sha256(randomness ‖ le64(sector_id) ‖ le64(index))) mod nodes
//   index:                    API 1.2: n; before: sector_index·challenge_count + n
// SnapDeals (storage-proofs-update challenges.rs, vanilla.rs): see below.
#pragma once

#include <cstdint>
#include <vector>

#include "cuzk/filecoin/node.h"
#include "cuzk/filecoin/sdr_graph.h"

namespace cuzk::filecoin {

// ---- PoRep ----
// REQUIRES (all three): 2 <= sector_nodes < 2^32.
std::vector<uint64_t> porep_interactive_challenges(uint64_t sector_nodes, const Node& replica_id, const Node& seed,
                                                   uint64_t challenges_per_partition, uint64_t k);
std::vector<uint64_t> porep_ni_challenges(uint64_t sector_nodes, const Node& replica_id, const Node& comm_r,
                                          uint64_t challenges_per_partition, uint64_t k);

class SynthChallenges {
 public:
  // num_synth: min(sector_nodes, 2^18) in production (default_count()).
  SynthChallenges(uint64_t sector_nodes, const Node& replica_id, const Node& comm_r, uint64_t num_synth);
  static uint64_t default_count(uint64_t sector_nodes);
  uint64_t count() const { return num_synth_; }
  // The i-th synthetic challenge. REQUIRES: i < count().
  uint64_t synth_challenge(uint64_t i) const;
  // The synthetic-challenge indexes selected for partition k, and the
  // challenges they select.
  std::vector<uint64_t> partition_indexes(uint64_t challenges_per_partition, const Node& seed, uint64_t k) const;
  std::vector<uint64_t> partition_challenges(uint64_t challenges_per_partition, const Node& seed, uint64_t k) const;

 private:
  uint64_t sector_nodes_, num_synth_;
  Node replica_id_;
  std::array<uint8_t, 32> gen_key_;
};

// ---- PoSt ----
uint64_t post_sector_challenge(const Node& randomness, uint64_t n, uint64_t sector_set_len, const Node& prover_id);
uint64_t post_challenge_index(ApiVersion api, uint64_t sector_index, uint64_t challenge_count, uint64_t n);
uint64_t post_leaf_challenge(uint64_t sector_nodes, const Node& randomness, uint64_t sector_id,
                             uint64_t challenge_index);

// The prover id of miner f0<id>: its ID address payload (uvarint(id)),
// zero-padded to 32 bytes.
Node prover_id_from_miner_id(uint64_t miner_id);

// ---- SnapDeals (EmptySectorUpdate) ----
// Constants by sector size in nodes (storage-proofs-update constants.rs).
uint64_t snap_partition_count(uint64_t sector_nodes);  // 1, 2, 4 or 16
uint64_t snap_challenge_count(uint64_t sector_nodes);  // per partition: 10 or 86
std::array<uint64_t, 6> snap_hs(uint64_t sector_nodes);
uint64_t snap_h_default(uint64_t sector_nodes);  // hs[3]
// 2^index of h in hs; 0 if h is not allowed.
uint64_t snap_h_select(uint64_t sector_nodes, uint64_t h);
uint64_t snap_apex_leaf_count(uint64_t sector_nodes);

// Challenges of partition k: each takes log2(nodes/partitions) bits of
// digest = Poseidon-2_gen_randomness(comm_r_new, digest_index) (little-endian
// bit order, floor(254 / bits) challenges per digest, digests numbered
// across partitions), with k in the high bits. REQUIRES: k <
// snap_partition_count(sector_nodes), sector_nodes a power of two.
std::vector<uint32_t> snap_challenges(uint64_t sector_nodes, const Node& comm_r_new, uint64_t k);

// phi = Poseidon-2_gen_randomness(comm_d_new, comm_r_old);
// rho(high) = Poseidon-2_gen_randomness(phi, high).
Node snap_phi(const Node& comm_d_new, const Node& comm_r_old);
Node snap_rho(const Node& phi, uint32_t high);

}  // namespace cuzk::filecoin
