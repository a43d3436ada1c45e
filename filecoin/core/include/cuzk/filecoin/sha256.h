// Filecoin's "sha254": the SHA-256 digest (base's) with the two most
// significant bits of its last byte cleared, so that the 32 bytes, read
// little-endian, are an integer below 2^254 < r and hence an Fr element.
// Tree D (comm_d), the SDR labels and the challenge derivations use them.
#pragma once

#include <array>
#include <cstdint>

#include "cuzk/base/bytes.h"
#include "cuzk/base/sha256.h"

namespace cuzk::filecoin {

using cuzk::Sha256;
using cuzk::sha256;
using cuzk::Sha256Digest;

// Clears the top two bits of byte 31 (rust-fil-proofs `trim_to_fr32`).
inline void trim_to_fr32(Sha256Digest& d) { d[31] &= 0x3f; }

// sha256(data) trimmed to 254 bits.
Sha256Digest sha254(ByteSpan data);
// sha254(a ‖ b): the node hash of tree D.
Sha256Digest sha254_pair(const std::array<uint8_t, 32>& a, const std::array<uint8_t, 32>& b);

}  // namespace cuzk::filecoin
