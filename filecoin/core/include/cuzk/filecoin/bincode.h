// bincode (1.x default options: little-endian, u64 lengths, u32 enum
// variant indexes, [u8; 32] without a length) of the PoSt and SnapDeals
// vanilla proofs, as rust-filecoin-proofs-api serialises them.
//
// Readers never allocate more than the input can hold (every length is
// checked against the bytes left), reject trailing bytes, and name the field
// and byte offset of the first problem, e.g.
//   "FallbackPoStSectorProof: offset 1234: vanilla_proof.sectors[0]
//    .inclusion_proofs[3].data: unknown variant 7".
// Poseidon-domain nodes must be field elements (sha256-domain ones are any
// 32 bytes).
#pragma once

#include <cstdint>
#include <vector>

#include "cuzk/base/bytes.h"
#include "cuzk/base/status.h"
#include "cuzk/filecoin/vanilla.h"

namespace cuzk::filecoin {

StatusOr<FallbackPoStSectorProof> decode_post_sector_proof(ByteSpan bytes);
std::vector<uint8_t> encode_post_sector_proof(const FallbackPoStSectorProof& p);

StatusOr<SnapPartitionProof> decode_snap_partition_proof(ByteSpan bytes);
std::vector<uint8_t> encode_snap_partition_proof(const SnapPartitionProof& p);

}  // namespace cuzk::filecoin
