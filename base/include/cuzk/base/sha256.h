// SHA-256 (FIPS 180-4), portable C++ (no SHA extensions; about 280 MB/s per
// core). Users: key-file content digests (io), Filecoin's sha254, SDR
// labels, tree D and challenge derivations (filecoin), and the constants of
// the SHA-256 circuit gadget (filecoin/cs).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "cuzk/base/bytes.h"

namespace cuzk {

using Sha256Digest = std::array<uint8_t, 32>;

// §4.2.2: K, the first 32 bits of the fractional parts of the cube roots of
// the first 64 primes.
inline constexpr std::array<uint32_t, 64> kSha256RoundConstants = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

// §5.3.3: H(0), the first 32 bits of the fractional parts of the square
// roots of the first 8 primes.
inline constexpr std::array<uint32_t, 8> kSha256InitialHash = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                                               0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

// Incremental hashing: any split of the input into update() calls gives the
// digest of the concatenation. Not thread-safe; copyable (a copy continues
// from the same state, which is how a common prefix is hashed once).
class Sha256 {
 public:
  using State = std::array<uint32_t, 8>;

  Sha256() { reset(); }
  void reset();
  Sha256& update(ByteSpan data);
  Sha256& update(const void* data, size_t bytes) {
    return update(ByteSpan(static_cast<const uint8_t*>(data), bytes));
  }
  // The digest of everything fed so far. The hasher is left as it was and
  // may be fed further (the padding is compressed on a copy of the state).
  Sha256Digest finish() const;

  // The compression function (§6.2.2) on one 64-byte block.
  static void compress(State& state, const uint8_t* block);

 private:
  State state_;
  uint8_t buffer_[64];
  size_t buffered_ = 0;
  uint64_t total_bytes_ = 0;
};

Sha256Digest sha256(ByteSpan data);

}  // namespace cuzk
