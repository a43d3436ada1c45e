// Vanilla proofs: what Curio sends the daemon for each Filecoin proof kind,
// with rust-fil-proofs' field names and meaning.
//
//   PoRep     SealCommitPhase1Output (filecoin-proofs-api): per partition, per
//             challenge, the tree D / tree R-last / tree C openings, the
//             labelling and encoding preimages; plus comm_r, comm_d,
//             replica_id, seed, ticket. Wire: JSON (c1_json.h).
//   PoSt      FallbackPoStSectorProof: a sector's id, comm_r and per
//             challenge a tree R-last opening, with comm_c and comm_r_last.
//             Wire: bincode (bincode.h).
//   SnapDeals PartitionProof (storage-proofs-update): comm_c, the partition's
//             apex leaves of tree D new, per challenge the tree R old, tree D
//             new and tree R new openings. Wire: bincode.
//
// verify_* replicate the reference's vanilla verifiers (ProofScheme::verify)
// and say which check failed, naming the partition / challenge / field.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cuzk/base/status.h"
#include "cuzk/filecoin/merkle.h"
#include "cuzk/filecoin/node.h"
#include "cuzk/filecoin/proof_types.h"

namespace cuzk::filecoin {

// ---- PoRep ----

struct ColumnProof {
  uint32_t index = 0;       // the node
  std::vector<Node> rows;   // its label in every layer
  MerkleProof inclusion_proof;  // tree C, leaf = column hash
  friend bool operator==(const ColumnProof&, const ColumnProof&) = default;
};

// The label preimage of (layer_index, node): the 37 parent labels in order.
// The encoding proof has the same shape (the last layer's key).
struct LabelingProof {
  std::vector<Node> parents;
  uint32_t layer_index = 0;
  uint64_t node = 0;
  friend bool operator==(const LabelingProof&, const LabelingProof&) = default;
};

struct ReplicaColumnProof {
  ColumnProof c_x;
  std::vector<ColumnProof> drg_parents;  // 6
  std::vector<ColumnProof> exp_parents;  // 8
  friend bool operator==(const ReplicaColumnProof&, const ReplicaColumnProof&) = default;
};

struct PoRepChallengeProof {
  MerkleProof comm_d_proof;       // comm_d_proofs: tree D
  MerkleProof comm_r_last_proof;  // tree R-last
  ReplicaColumnProof replica_column_proofs;
  std::vector<LabelingProof> labeling_proofs;  // layers 1..L
  LabelingProof encoding_proof;
  friend bool operator==(const PoRepChallengeProof&, const PoRepChallengeProof&) = default;
};

struct SealCommitPhase1Output {
  std::string registered_proof;  // e.g. "StackedDrg2KiBV1_1"
  std::vector<std::vector<PoRepChallengeProof>> vanilla_proofs;  // [partition][challenge]
  Node comm_r{}, comm_d{}, replica_id{}, seed{}, ticket{};
  friend bool operator==(const SealCommitPhase1Output&, const SealCommitPhase1Output&) = default;
};

// StackedDrg::verify_all_partitions: per partition, comm_r = H(comm_c,
// comm_r_last) of its first proof, the challenges of that partition, and for
// every challenge the openings, columns, labels and encoding.
Status verify_porep_vanilla(const SealProofInfo& info, const SealCommitPhase1Output& c1);

// ---- PoSt ----

struct PoStSectorProof {
  std::vector<MerkleProof> inclusion_proofs;  // tree R-last, one per challenge
  Node comm_c{}, comm_r_last{};
  friend bool operator==(const PoStSectorProof&, const PoStSectorProof&) = default;
};

struct FallbackPoStSectorProof {
  uint64_t sector_id = 0;
  Node comm_r{};
  std::vector<PoStSectorProof> sectors;  // vanilla_proof.sectors (one for a single sector)
  friend bool operator==(const FallbackPoStSectorProof&, const FallbackPoStSectorProof&) = default;
};

// FallbackPoSt::verify for one sector at position sector_index of the proof
// (partition·sector_count + i; Winning: 0): comm_r = H(comm_c, comm_r_last),
// the challenge count of the vanilla shape (post_vanilla_shape: 10 for
// Window, 66 for Winning), and every opening proves its challenged leaf under
// comm_r_last with the shape's path length.
Status verify_post_sector_proof(const PoStProofInfo& info, const Node& randomness, const FallbackPoStSectorProof& p,
                                uint64_t sector_index);

// ---- SnapDeals ----

struct SnapChallengeProof {
  MerkleProof proof_r_old, proof_d_new, proof_r_new;
  friend bool operator==(const SnapChallengeProof&, const SnapChallengeProof&) = default;
};

struct SnapPartitionProof {
  Node comm_c{};
  std::vector<Node> apex_leafs;
  std::vector<SnapChallengeProof> challenge_proofs;
  friend bool operator==(const SnapPartitionProof&, const SnapPartitionProof&) = default;
};

// EmptySectorUpdate::verify for partition k.
Status verify_snap_partition(const UpdateProofInfo& info, uint64_t k, uint64_t h, const Node& comm_r_old,
                             const Node& comm_d_new, const Node& comm_r_new, const SnapPartitionProof& p);

}  // namespace cuzk::filecoin
