// The ZCash point encoding (zkcrypto, blst, blstrs, bellperson; formats.md §2):
// big-endian canonical coordinates, Fp2 written c1 first, then c0, and three
// flag bits in the top of byte 0:
//   0x80  compressed (x only)     0x40  point at infinity (all other bits zero)
//   0x20  sort: y is the lexicographically larger root (y > (p−1)/2; for Fp2
//         decided by c1, and by c0 when c1 = 0); only on compressed points.
//
//   G1: 48 bytes compressed, 96 uncompressed;  G2: 96 compressed, 192 uncompressed.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "cuzk/base/bytes.h"
#include "cuzk/base/status.h"
#include "cuzk/ec/curves.h"

namespace cuzk::ec {

inline constexpr size_t kG1CompressedBytes = 48;
inline constexpr size_t kG1UncompressedBytes = 96;
inline constexpr size_t kG2CompressedBytes = 96;
inline constexpr size_t kG2UncompressedBytes = 192;

// Encoders. REQUIRES: p on the curve (any point the decoders or the
// arithmetic produce); infinity is written with the infinity flag.
std::array<uint8_t, kG1CompressedBytes> g1_to_zcash_compressed(const G1Affine& p);
std::array<uint8_t, kG1UncompressedBytes> g1_to_zcash_uncompressed(const G1Affine& p);
std::array<uint8_t, kG2CompressedBytes> g2_to_zcash_compressed(const G2Affine& p);
std::array<uint8_t, kG2UncompressedBytes> g2_to_zcash_uncompressed(const G2Affine& p);

// Decoders for either size; the compression flag must match the length.
// Each rejection is INVALID_ARGUMENT with its own message:
//   wrong length; compression flag not matching the length; sort flag on an
//   uncompressed encoding; sort flag on the point at infinity; infinity flag
//   with any other bit set; a coordinate >= p; x with no point on the curve
//   (x^3 + b has no square root); (x, y) not on the curve; not in the
//   prime-order subgroup (unless check == kSkip; on-curve is always checked).
StatusOr<G1Affine> g1_from_zcash(ByteSpan bytes, SubgroupCheck check = SubgroupCheck::kCheck);
StatusOr<G2Affine> g2_from_zcash(ByteSpan bytes, SubgroupCheck check = SubgroupCheck::kCheck);

// Whether y is the larger of {y, −y} in the ZCash sense (the 0x20 flag).
bool zcash_sort_flag(const ff::Fp& y);
bool zcash_sort_flag(const ff::Fp2& y);

}  // namespace cuzk::ec
