#include "cuzk/filecoin/chacha.h"

namespace cuzk::filecoin {

namespace {

// "expand 32-byte k"
constexpr uint32_t kSigma[4] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};

inline uint32_t rotl(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

inline void quarter(uint32_t* x, int a, int b, int c, int d) {
  x[a] += x[b];
  x[d] = rotl(x[d] ^ x[a], 16);
  x[c] += x[d];
  x[b] = rotl(x[b] ^ x[c], 12);
  x[a] += x[b];
  x[d] = rotl(x[d] ^ x[a], 8);
  x[c] += x[d];
  x[b] = rotl(x[b] ^ x[c], 7);
}

void init_key(uint32_t state[16], const std::array<uint8_t, 32>& key) {
  for (int i = 0; i < 4; ++i) state[i] = kSigma[i];
  for (int i = 0; i < 8; ++i) state[4 + i] = load_u32le(key.data() + 4 * i);
}

}  // namespace

void chacha_block(const uint32_t input[16], int rounds, uint8_t out[64]) {
  uint32_t x[16];
  for (int i = 0; i < 16; ++i) x[i] = input[i];
  for (int r = 0; r < rounds; r += 2) {
    quarter(x, 0, 4, 8, 12);
    quarter(x, 1, 5, 9, 13);
    quarter(x, 2, 6, 10, 14);
    quarter(x, 3, 7, 11, 15);
    quarter(x, 0, 5, 10, 15);
    quarter(x, 1, 6, 11, 12);
    quarter(x, 2, 7, 8, 13);
    quarter(x, 3, 4, 9, 14);
  }
  for (int i = 0; i < 16; ++i) store_u32le(out + 4 * i, x[i] + input[i]);
}

ChaCha8Rng::ChaCha8Rng(const std::array<uint8_t, 32>& seed) {
  init_key(state_, seed);
  state_[12] = state_[13] = state_[14] = state_[15] = 0;
}

void ChaCha8Rng::refill() {
  chacha_block(state_, 8, block_);
  if (++state_[12] == 0) ++state_[13];  // 64-bit block counter
  pos_ = 0;
}

uint32_t ChaCha8Rng::next_u32() {
  if (pos_ == 64) refill();
  const uint32_t v = load_u32le(block_ + pos_);
  pos_ += 4;
  return v;
}

uint64_t ChaCha8Rng::next_u64() {
  const uint64_t lo = next_u32();
  return lo | uint64_t(next_u32()) << 32;
}

ChaCha20Ietf::ChaCha20Ietf(const std::array<uint8_t, 32>& key, const std::array<uint8_t, 12>& nonce) {
  init_key(state_, key);
  state_[12] = 0;
  for (int i = 0; i < 3; ++i) state_[13 + i] = load_u32le(nonce.data() + 4 * i);
}

void ChaCha20Ietf::seek(uint64_t offset) {
  state_[12] = uint32_t(offset / 64);
  chacha_block(state_, 20, block_);
  ++state_[12];
  pos_ = int(offset % 64);
}

void ChaCha20Ietf::apply(MutableByteSpan data) {
  for (uint8_t& b : data) {
    if (pos_ == 64) {
      chacha_block(state_, 20, block_);
      ++state_[12];
      pos_ = 0;
    }
    b ^= block_[pos_++];
  }
}

}  // namespace cuzk::filecoin
