#include "cuzk/io/sha256.h"

#include <algorithm>
#include <cstring>

namespace cuzk::io {
namespace {

// The first 32 bits of the fractional parts of the cube roots of the first
// 64 primes (FIPS 180-4 §4.2.2).
constexpr uint32_t kRound[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

constexpr uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

}  // namespace

// The initial hash value: fractional parts of the square roots of the first 8 primes (§5.3.3).
Sha256::Sha256()
    : state_{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19} {}

// One 64-byte block (§6.2.2): the message schedule, then 64 rounds.
void Sha256::compress(const uint8_t* block) {
  uint32_t w[64];
  for (int t = 0; t < 16; ++t) w[t] = load_u32be(block + 4 * t);
  for (int t = 16; t < 64; ++t) {
    const uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
    const uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
    w[t] = w[t - 16] + s0 + w[t - 7] + s1;
  }
  uint32_t a = state_[0], b = state_[1], c = state_[2], d = state_[3];
  uint32_t e = state_[4], f = state_[5], g = state_[6], h = state_[7];
  for (int t = 0; t < 64; ++t) {
    const uint32_t t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + kRound[t] + w[t];
    const uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  state_[0] += a;
  state_[1] += b;
  state_[2] += c;
  state_[3] += d;
  state_[4] += e;
  state_[5] += f;
  state_[6] += g;
  state_[7] += h;
}

void Sha256::update(ByteSpan bytes) {
  total_bytes_ += bytes.size();
  size_t pos = 0;
  if (pending_len_ > 0) {
    const size_t take = std::min(bytes.size(), 64 - pending_len_);
    std::memcpy(pending_.data() + pending_len_, bytes.data(), take);
    pending_len_ += take;
    pos = take;
    if (pending_len_ < 64) return;
    compress(pending_.data());
    pending_len_ = 0;
  }
  for (; pos + 64 <= bytes.size(); pos += 64) compress(bytes.data() + pos);
  std::memcpy(pending_.data(), bytes.data() + pos, bytes.size() - pos);
  pending_len_ = bytes.size() - pos;
}

// Padding (§5.1.1): 0x80, zeros to 56 mod 64, the message length in bits (u64 big-endian).
Sha256Digest Sha256::finish() const {
  Sha256 copy = *this;
  uint8_t tail[72] = {0x80};
  const size_t zeros = (copy.pending_len_ < 56 ? 56 : 120) - copy.pending_len_;
  store_u64be(tail + zeros, total_bytes_ * 8);
  copy.update(ByteSpan(tail, zeros + 8));
  Sha256Digest out;
  for (int i = 0; i < 8; ++i) store_u32be(out.data() + 4 * i, copy.state_[size_t(i)]);
  return out;
}

Sha256Digest sha256(ByteSpan bytes) {
  Sha256 h;
  h.update(bytes);
  return h.finish();
}

std::string digest_hex(const Sha256Digest& digest) { return to_hex(ByteSpan(digest.data(), digest.size())); }

}  // namespace cuzk::io
