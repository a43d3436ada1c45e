// PoRep commit-phase-1 output as JSON (serde_json of filecoin-proofs-api's
// SealCommitPhase1Output), and the envelope Curio wraps it in for the daemon:
//   {"SectorNum": n, "Phase1Out": "<base64 of the C1 JSON>", "SectorSize": bytes}
//
// Nodes are arrays of 32 integers; merkle proofs {"data": {"Single"|"Sub"|
// "Top": {...}}}; vanilla_proofs {"<variant>": [[challenge proof…]…]} where
// the variant names the sector size's V1 proof (vanilla_seal_proof_variant:
// "StackedDrg2KiBV1" for every 2 KiB proof, as filecoin-proofs-api tags it).
// Unknown object keys are skipped (serde's default); a missing field, a wrong
// type, a Poseidon node >= r or nesting deeper than 64 is INVALID_ARGUMENT
// naming the field path and byte offset, e.g. "C1 output: offset 812:
// vanilla_proofs.StackedDrg2KiBV1_1[0][1].comm_r_last_proof.data.Single.leaf:
// not a field element".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "cuzk/base/status.h"
#include "cuzk/filecoin/vanilla.h"

namespace cuzk::filecoin {

StatusOr<SealCommitPhase1Output> parse_c1_output(std::string_view json);
std::string c1_output_to_json(const SealCommitPhase1Output& c1);

struct C1Envelope {
  int64_t sector_num = 0;
  uint64_t sector_size = 0;
  std::string phase1_out;  // the C1 JSON text
};

StatusOr<C1Envelope> parse_c1_envelope(std::string_view json);
std::string c1_envelope_to_json(const C1Envelope& e);

}  // namespace cuzk::filecoin
