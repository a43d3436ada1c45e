// Registered proof types and their parameters, as rust-filecoin-proofs-api
// (registry.rs) and filecoin-proofs (constants.rs, parameters.rs) define
// them. The numeric ids are Filecoin's: go-state-types abi.RegisteredSealProof
// / RegisteredPoStProof / RegisteredUpdateProof, which are also the index of
// the Rust enums and (for seal proofs) REGISTERED_PROOF_IDS, the first eight
// bytes (le) of the porep_id.
#pragma once

#include <cstdint>
#include <string_view>

#include "cuzk/base/status.h"
#include "cuzk/filecoin/merkle.h"
#include "cuzk/filecoin/sdr_graph.h"

namespace cuzk::filecoin {

enum class PoRepFeature { kInteractive, kSynthetic, kNonInteractive };

struct SealProofInfo {
  uint64_t registered_proof = 0;
  std::string_view name;  // "StackedDrg32GiBV1_1"
  uint64_t sector_bytes = 0;
  ApiVersion api = ApiVersion::kV1_1_0;
  PoRepFeature feature = PoRepFeature::kInteractive;
  PoRepId porep_id{};
  int layers = 0;                    // 2 (test sizes) or 11
  int partitions = 0;                // 1 or 10 (interactive); 13 or 126 (NI)
  int challenges_per_partition = 0;  // ceil(minimum challenges / partitions)
  TreeShape shape;
  uint64_t nodes() const { return sector_bytes / 32; }
};

// INVALID_ARGUMENT naming the value for an unknown id / name.
StatusOr<SealProofInfo> seal_proof_info(uint64_t registered_proof);
StatusOr<SealProofInfo> seal_proof_info(std::string_view name);

// The variant of filecoin-proofs-api's VanillaSealProof that carries this
// proof's vanilla proofs in a C1 output: one per sector size, named after the
// V1 proof of that size ("StackedDrg32GiBV1" also for StackedDrg32GiBV1_1).
std::string_view vanilla_seal_proof_variant(const SealProofInfo& info);

enum class PoStKind { kWinning, kWindow };

struct PoStProofInfo {
  uint64_t registered_proof = 0;
  std::string_view name;  // "StackedDrgWindow32GiBV1_2"
  uint64_t sector_bytes = 0;
  ApiVersion api = ApiVersion::kV1_0_0;
  PoStKind kind = PoStKind::kWindow;
  // The circuit's shape (fallback::SetupParams): Winning PoSt proves its one
  // sector as 66 "sectors" of one challenge; Window PoSt proves up to
  // sector_count sectors per partition with 10 challenges each.
  int sector_count = 0;
  int challenge_count = 0;
  TreeShape shape;
  uint64_t nodes() const { return sector_bytes / 32; }
};

StatusOr<PoStProofInfo> post_proof_info(uint64_t registered_proof);
StatusOr<PoStProofInfo> post_proof_info(std::string_view name);

// The shape a sector's vanilla proof has (filecoin-proofs' PoStConfig, which
// generate_fallback_sector_challenges and generate_single_vanilla_proof use):
// Window PoSt as the circuit; Winning PoSt one sector with all
// WINNING_POST_CHALLENGE_COUNT = 66 challenges (WINNING_POST_SECTOR_COUNT = 1,
// filecoin-proofs/src/constants.rs), which winning_post_setup_params divides
// into the circuit's 66 one-challenge sectors and
// single_partition_vanilla_proofs unrolls. The challenge of opening n is then
// the one of circuit sector n (API 1.0: index sector_index·count + n).
PoStProofInfo post_vanilla_shape(const PoStProofInfo& info);

struct UpdateProofInfo {
  uint64_t registered_proof = 0;
  std::string_view name;  // "StackedDrg32GiBV1"
  uint64_t sector_bytes = 0;
  int partitions = 0;
  int challenges_per_partition = 0;
  uint64_t h = 0;  // the h filecoin-proofs encodes with (h_default)
  TreeShape shape;
  uint64_t nodes() const { return sector_bytes / 32; }
};

StatusOr<UpdateProofInfo> update_proof_info(uint64_t registered_proof);
StatusOr<UpdateProofInfo> update_proof_info(std::string_view name);

}  // namespace cuzk::filecoin
