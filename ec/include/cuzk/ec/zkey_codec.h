// The snarkjs .zkey point encoding ("LEM", formats.md §5): every Fp is 48 bytes,
// little-endian Montgomery (value·2^384 mod p); G1 = x ‖ y (96 bytes), G2 =
// x.c0 ‖ x.c1 ‖ y.c0 ‖ y.c1 (192 bytes); the point at infinity is all zeros.
// These are exactly the in-memory bytes of G1Affine / G2Affine on a
// little-endian machine, so bulk readers may copy and then call validate().
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "cuzk/base/bytes.h"
#include "cuzk/base/status.h"
#include "cuzk/ec/curves.h"

namespace cuzk::ec {

inline constexpr size_t kG1ZkeyBytes = 96;
inline constexpr size_t kG2ZkeyBytes = 192;

std::array<uint8_t, kG1ZkeyBytes> g1_to_zkey(const G1Affine& p);
std::array<uint8_t, kG2ZkeyBytes> g2_to_zkey(const G2Affine& p);

// Decoders: INVALID_ARGUMENT for a wrong length, a coordinate whose Montgomery
// value is >= p, (x, y) not on the curve, or (with kCheck) a point outside the
// prime-order subgroup. All-zero bytes decode to the point at infinity.
StatusOr<G1Affine> g1_from_zkey(ByteSpan bytes, SubgroupCheck check = SubgroupCheck::kCheck);
StatusOr<G2Affine> g2_from_zkey(ByteSpan bytes, SubgroupCheck check = SubgroupCheck::kCheck);

}  // namespace cuzk::ec
