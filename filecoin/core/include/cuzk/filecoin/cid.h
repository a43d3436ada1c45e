// Filecoin commitment CIDs (go-fil-commcid): CIDv1 with codec
// fil-commitment-unsealed (0xf101, multihash sha2-256-trunc254-padded 0x1012)
// for comm_d / piece commitments and fil-commitment-sealed (0xf102,
// multihash poseidon-bls12_381-a2-fc1 0xb401) for comm_r, in multibase
// base32 (lower case, prefix 'b'): "baga6ea4sea…" and "bagboea4b5abc…".
#pragma once

#include <string>
#include <string_view>

#include "cuzk/base/status.h"
#include "cuzk/filecoin/node.h"

namespace cuzk::filecoin {

enum class CommitmentKind { kUnsealed, kSealed };

std::string commitment_to_cid(CommitmentKind kind, const Node& commitment);
// INVALID_ARGUMENT for another multibase, a malformed CID, or a codec or
// multihash other than `kind`'s.
StatusOr<Node> commitment_from_cid(CommitmentKind kind, std::string_view cid);

}  // namespace cuzk::filecoin
