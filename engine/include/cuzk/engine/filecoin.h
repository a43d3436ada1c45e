// Requests of the Filecoin kinds (POREP_SEAL_COMMIT, SNAP_DEALS_UPDATE,
// WINDOW_POST_PARTITION, WINNING_POST) as Curio sends them (docs/api.md,
// SubmitProofRequest), and their decoding into per-partition circuit inputs
// with the public inputs each partition's proof must verify against.
//
//   kind        vanilla proof(s)                              partitions
//   PoRep       vanilla_proof: Curio's C1 envelope (JSON
//               {SectorNum, Phase1Out: base64 C1 JSON,
//               SectorSize}) or the C1 JSON itself            the seal proof's (10 for 32 GiB)
//   SnapDeals   vanilla_proofs: one PartitionProof (bincode)
//               per partition, in order; comm_r_old,
//               comm_r_new, comm_d_new (32 bytes each)         one per vanilla proof
//   WindowPoSt  vanilla_proofs: FallbackPoStSectorProof
//               (bincode) of each sector of the partition,
//               randomness, partition_index                     1
//   WinningPoSt vanilla_proofs: the one sector's proof,
//               randomness                                      1
// The registered proof (registered_proof) names the sector size and API
// version; sector_size, when set, must agree with it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cuzk/base/status.h"
#include "cuzk/base/thread_pool.h"
#include "cuzk/engine/types.h"
#include "cuzk/ff/fr.h"
#include "cuzk/r1cs/circuit.h"

namespace cuzk::engine {

struct FilecoinRequest {
  uint64_t sector_size = 0;
  uint64_t registered_proof = 0;
  std::string vanilla_proof;
  std::vector<std::string> vanilla_proofs;
  uint64_t sector_number = 0;
  uint64_t miner_id = 0;
  std::string randomness;
  uint32_t partition_index = 0;
  std::string comm_r_old, comm_r_new, comm_d_new;
};

bool is_filecoin_kind(ProofKind kind);

// The circuit kind name (CircuitSpec::filecoin.kind) serving a proof kind.
std::string_view filecoin_circuit_kind(ProofKind kind);

// A decoded request. Holds the partitions' inputs until each is synthesized.
class FilecoinWork {
 public:
  virtual ~FilecoinWork() = default;
  // The sector size of the circuit the proofs need.
  virtual uint64_t sector_bytes() const = 0;
  virtual size_t partitions() const = 0;
  // Partition k's witness w = (1, inputs, aux) for the circuit, sections of
  // the synthesis on `pool`; `shape` (the loaded circuit's) sizes the buffer.
  // Checks that the inputs the circuit allocates are public_inputs(k):
  // INVALID_ARGUMENT otherwise (the vanilla proof answers other challenges
  // than the public parameters give). Thread-safe.
  virtual StatusOr<std::vector<ff::Fr>> witness(size_t k, ThreadPool* pool, const r1cs::CircuitShape& shape) const = 0;
  // Partition k's public inputs (ONE excluded), computed from the public
  // parameters alone (rust-fil-proofs' generate_public_inputs).
  virtual const std::vector<ff::Fr>& public_inputs(size_t k) const = 0;
  // Diagnosis: synthesizes partition k keeping every value and checking
  // every row; INVALID_ARGUMENT naming the first violated row with its
  // namespace path, or the first public input that differs. Slow (minutes and
  // 4+ GB at 32 GiB).
  virtual Status check(size_t k) const = 0;
};

// The request's own values that enter the public inputs, checked as the
// reference checks them (as_safe_commitment): the PoSt kinds' randomness and
// SnapDeals' commitments are 32 bytes and below the scalar field's modulus r.
// One rule for every kind, applied at submit. Errors: INVALID_ARGUMENT naming
// the field.
Status check_filecoin_fields(ProofKind kind, const FilecoinRequest& request);

// Decodes the vanilla proof(s) and derives every partition's public inputs.
// Errors: INVALID_ARGUMENT naming the field (unknown registered proof, a
// sector size that disagrees with it, malformed or truncated vanilla proof,
// commitments that are not field elements, wrong counts, a partition index
// out of range).
StatusOr<std::shared_ptr<const FilecoinWork>> decode_filecoin_request(ProofKind kind, const FilecoinRequest& request);

}  // namespace cuzk::engine
