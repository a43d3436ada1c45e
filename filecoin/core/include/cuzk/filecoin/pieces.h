// Sector data commitments: fr32 padding, zero-piece and empty-sector comm_d,
// and comm_d of a sector from its pieces' commitments (filecoin-proofs
// pieces.rs: pieces are stacked left to right, padded with zero pieces to
// alignment and reduced pairwise with sha254).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/base/bytes.h"
#include "cuzk/base/status.h"
#include "cuzk/filecoin/node.h"

namespace cuzk::filecoin {

// fr32 padding: every 127 bytes (1016 bits, little-endian bit order) become
// four 32-byte nodes of 254 data bits and two zero bits. INVALID_ARGUMENT
// unless the size is a multiple of 127 (resp. 128 for unpadding).
StatusOr<std::vector<uint8_t>> fr32_pad(ByteSpan unpadded);
StatusOr<std::vector<uint8_t>> fr32_unpad(ByteSpan padded);

// The tree-D root of `padded_bytes` zero bytes: z(32) = 0, z(2s) =
// sha254(z(s) ‖ z(s)). INVALID_ARGUMENT unless a power of two >= 32 and
// <= 2^40.
StatusOr<Node> zero_piece_commitment(uint64_t padded_bytes);
// comm_d of an empty (committed-capacity) sector.
inline StatusOr<Node> empty_sector_comm_d(uint64_t sector_bytes) { return zero_piece_commitment(sector_bytes); }

struct PieceInfo {
  Node commitment{};
  uint64_t padded_bytes = 0;  // a power of two >= 128
};

// compute_comm_d: no pieces gives the empty-sector comm_d; otherwise every
// piece must be a power of two >= 128 bytes and together fit the sector.
// As in filecoin-proofs, reduction stops once one piece is left: pieces that
// end before the sector's second half give that piece's commitment, not one
// padded to the sector size (callers fill sectors with padding pieces).
StatusOr<Node> compute_comm_d(uint64_t sector_bytes, std::span<const PieceInfo> pieces);

}  // namespace cuzk::filecoin
