// ChaCha keystreams (D. J. Bernstein; RFC 8439 for the 20-round IETF form):
//   ChaCha8Rng   rand_chacha's ChaCha8Rng::from_seed(seed): 8 rounds, key =
//                seed, 64-bit block counter from 0, stream 0; next_u64()
//                returns two consecutive keystream words, low word first
//                (the DRG parent sampler draws from it);
//   ChaCha20Ietf 20 rounds, 32-bit counter, 96-bit nonce, byte-seekable
//                (synthetic PoRep challenges).
#pragma once

#include <array>
#include <cstdint>

#include "cuzk/base/bytes.h"

namespace cuzk::filecoin {

// One 64-byte ChaCha block of `rounds` rounds from the 16-word input state.
void chacha_block(const uint32_t input[16], int rounds, uint8_t out[64]);

class ChaCha8Rng {
 public:
  explicit ChaCha8Rng(const std::array<uint8_t, 32>& seed);
  uint32_t next_u32();
  uint64_t next_u64();

 private:
  void refill();

  uint32_t state_[16];
  uint8_t block_[64];
  int pos_ = 64;  // next unread byte of block_
};

class ChaCha20Ietf {
 public:
  ChaCha20Ietf(const std::array<uint8_t, 32>& key, const std::array<uint8_t, 12>& nonce);
  // Positions the keystream at byte `offset` (counter offset/64 and
  // offset%64 bytes into that block). REQUIRES: offset < 2^38.
  void seek(uint64_t offset);
  // XORs the keystream into data (keystream bytes when data is zero).
  void apply(MutableByteSpan data);

 private:
  uint32_t state_[16];
  uint8_t block_[64];
  int pos_ = 64;
};

}  // namespace cuzk::filecoin
