#include "cuzk/filecoin/sha256.h"

#include <cstring>

namespace cuzk::filecoin {

namespace {

// FIPS 180-4 §4.2.2: the first 32 bits of the fractional parts of the cube
// roots of the first 64 primes.
constexpr uint32_t kRoundConstants[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

// FIPS 180-4 §5.3.3: the first 32 bits of the fractional parts of the square
// roots of the first 8 primes.
constexpr uint32_t kInitialState[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                       0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

inline uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

}  // namespace

Sha256::Sha256() { reset(); }

void Sha256::reset() {
  std::memcpy(state_, kInitialState, sizeof(state_));
  buffered_ = 0;
  total_bytes_ = 0;
}

void Sha256::compress(uint32_t state[8], const uint8_t block[64]) {
  uint32_t w[64];
  for (int i = 0; i < 16; ++i) w[i] = load_u32be(block + 4 * i);
  for (int i = 16; i < 64; ++i) {
    const uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
    const uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
  uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
  for (int i = 0; i < 64; ++i) {
    const uint32_t big_s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
    const uint32_t ch = (e & f) ^ (~e & g);
    const uint32_t t1 = h + big_s1 + ch + kRoundConstants[i] + w[i];
    const uint32_t big_s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
    const uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
    const uint32_t t2 = big_s0 + maj;
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  state[0] += a;
  state[1] += b;
  state[2] += c;
  state[3] += d;
  state[4] += e;
  state[5] += f;
  state[6] += g;
  state[7] += h;
}

Sha256& Sha256::update(ByteSpan data) {
  if (data.empty()) return *this;  // data() may be null
  total_bytes_ += data.size();
  size_t pos = 0;
  if (buffered_ > 0) {
    const size_t take = std::min(data.size(), sizeof(buffer_) - buffered_);
    std::memcpy(buffer_ + buffered_, data.data(), take);
    buffered_ += take;
    pos = take;
    if (buffered_ < sizeof(buffer_)) return *this;
    compress(state_, buffer_);
    buffered_ = 0;
  }
  for (; pos + 64 <= data.size(); pos += 64) compress(state_, data.data() + pos);
  std::memcpy(buffer_, data.data() + pos, data.size() - pos);
  buffered_ = data.size() - pos;
  return *this;
}

Sha256Digest Sha256::finish() {
  // Padding (§5.1.1): 0x80, zeros to 56 mod 64, then the bit length (u64be).
  const uint64_t bit_length = total_bytes_ * 8;
  uint8_t pad[72] = {0x80};
  const size_t pad_bytes = (buffered_ < 56 ? 56 : 120) - buffered_;
  store_u64be(pad + pad_bytes, bit_length);
  update(ByteSpan(pad, pad_bytes + 8));
  Sha256Digest out;
  for (int i = 0; i < 8; ++i) store_u32be(out.data() + 4 * i, state_[i]);
  return out;
}

Sha256Digest sha256(ByteSpan data) { return Sha256().update(data).finish(); }

Sha256Digest sha254(ByteSpan data) {
  Sha256Digest d = sha256(data);
  trim_to_fr32(d);
  return d;
}

Sha256Digest sha254_pair(const std::array<uint8_t, 32>& a, const std::array<uint8_t, 32>& b) {
  Sha256 h;
  h.update(a.data(), a.size()).update(b.data(), b.size());
  Sha256Digest d = h.finish();
  trim_to_fr32(d);
  return d;
}

}  // namespace cuzk::filecoin
