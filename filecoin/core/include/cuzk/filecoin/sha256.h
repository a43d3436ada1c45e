// SHA-256 (FIPS 180-4) and Filecoin's "sha254": the SHA-256 digest with the
// two most significant bits of its last byte cleared, so that the 32 bytes,
// read little-endian, are an integer below 2^254 < r and hence an Fr element.
// Tree D (comm_d), the SDR labels and the challenge derivations use them.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "cuzk/base/bytes.h"

namespace cuzk::filecoin {

using Sha256Digest = std::array<uint8_t, 32>;

// Incremental SHA-256. Not thread-safe; copyable (a copy continues from the
// same state, which is how a common prefix is hashed once).
class Sha256 {
 public:
  Sha256();
  Sha256& update(ByteSpan data);
  Sha256& update(const void* data, size_t bytes) {
    return update(ByteSpan(static_cast<const uint8_t*>(data), bytes));
  }
  // Pads, returns the digest and leaves the object in an unspecified state
  // (call reset() to reuse it).
  Sha256Digest finish();
  void reset();

  // The compression function on one 64-byte block (exposed for the label
  // kernels, which hash whole blocks).
  static void compress(uint32_t state[8], const uint8_t block[64]);

 private:
  uint32_t state_[8];
  uint8_t buffer_[64];
  size_t buffered_ = 0;
  uint64_t total_bytes_ = 0;
};

Sha256Digest sha256(ByteSpan data);

// Clears the top two bits of byte 31 (rust-fil-proofs `trim_to_fr32`).
inline void trim_to_fr32(Sha256Digest& d) { d[31] &= 0x3f; }

// sha256(data) trimmed to 254 bits.
Sha256Digest sha254(ByteSpan data);
// sha254(a ‖ b): the node hash of tree D.
Sha256Digest sha254_pair(const std::array<uint8_t, 32>& a, const std::array<uint8_t, 32>& b);

}  // namespace cuzk::filecoin
