#include "cuzk/base/sha256.h"

#include <algorithm>
#include <cstring>

namespace cuzk {
namespace {

constexpr uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

}  // namespace

void Sha256::reset() {
  state_ = kSha256InitialHash;
  buffered_ = 0;
  total_bytes_ = 0;
}

// The message schedule W (§6.2.2 step 1), then 64 rounds (steps 2-4).
void Sha256::compress(State& state, const uint8_t* block) {
  uint32_t w[64];
  for (int t = 0; t < 16; ++t) w[t] = load_u32be(block + 4 * t);
  for (int t = 16; t < 64; ++t) {
    const uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
    const uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
    w[t] = w[t - 16] + s0 + w[t - 7] + s1;
  }
  uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
  uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
  for (int t = 0; t < 64; ++t) {
    const uint32_t big_s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
    const uint32_t ch = (e & f) ^ (~e & g);
    const uint32_t t1 = h + big_s1 + ch + kSha256RoundConstants[size_t(t)] + w[t];
    const uint32_t big_s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
    const uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + big_s0 + maj;
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

// Padding (§5.1.1): 0x80, zeros to 56 mod 64, then the message length in
// bits as a big-endian u64: one block, or two when fewer than 9 bytes are
// left in the last one.
Sha256Digest Sha256::finish() const {
  uint8_t tail[128] = {};
  std::memcpy(tail, buffer_, buffered_);
  tail[buffered_] = 0x80;
  const size_t tail_bytes = buffered_ < 56 ? 64 : 128;
  store_u64be(tail + tail_bytes - 8, total_bytes_ * 8);
  State state = state_;
  for (size_t at = 0; at < tail_bytes; at += 64) compress(state, tail + at);
  Sha256Digest out;
  for (size_t i = 0; i < 8; ++i) store_u32be(out.data() + 4 * i, state[i]);
  return out;
}

Sha256Digest sha256(ByteSpan data) { return Sha256().update(data).finish(); }

}  // namespace cuzk
