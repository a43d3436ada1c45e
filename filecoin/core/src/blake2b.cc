#include "cuzk/filecoin/blake2b.h"

#include <cstring>

namespace cuzk::filecoin {

namespace {

// RFC 7693 §2.6: the SHA-512 initial hash values.
constexpr uint64_t kIv[8] = {0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
                             0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179};

// RFC 7693 §2.7: message word permutations (rounds 10 and 11 repeat 0 and 1).
constexpr uint8_t kSigma[12][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4}, {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13}, {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11}, {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5}, {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3}};

inline uint64_t rotr64(uint64_t x, int n) { return (x >> n) | (x << (64 - n)); }

inline void mix(uint64_t v[16], int a, int b, int c, int d, uint64_t x, uint64_t y) {
  v[a] = v[a] + v[b] + x;
  v[d] = rotr64(v[d] ^ v[a], 32);
  v[c] = v[c] + v[d];
  v[b] = rotr64(v[b] ^ v[c], 24);
  v[a] = v[a] + v[b] + y;
  v[d] = rotr64(v[d] ^ v[a], 16);
  v[c] = v[c] + v[d];
  v[b] = rotr64(v[b] ^ v[c], 63);
}

}  // namespace

Blake2b::Blake2b(size_t digest_bytes, ByteSpan key) : digest_bytes_(digest_bytes) {
  std::memcpy(h_, kIv, sizeof(h_));
  h_[0] ^= 0x01010000ull ^ (uint64_t(key.size()) << 8) ^ uint64_t(digest_bytes);
  if (!key.empty()) {
    uint8_t block[128] = {};
    std::memcpy(block, key.data(), key.size());
    update(ByteSpan(block, sizeof(block)));
  }
}

void Blake2b::compress(const uint8_t block[128], bool last) {
  uint64_t m[16], v[16];
  for (int i = 0; i < 16; ++i) m[i] = load_u64le(block + 8 * i);
  for (int i = 0; i < 8; ++i) {
    v[i] = h_[i];
    v[i + 8] = kIv[i];
  }
  v[12] ^= total_lo_;
  v[13] ^= total_hi_;
  if (last) v[14] = ~v[14];
  for (const auto& s : kSigma) {
    mix(v, 0, 4, 8, 12, m[s[0]], m[s[1]]);
    mix(v, 1, 5, 9, 13, m[s[2]], m[s[3]]);
    mix(v, 2, 6, 10, 14, m[s[4]], m[s[5]]);
    mix(v, 3, 7, 11, 15, m[s[6]], m[s[7]]);
    mix(v, 0, 5, 10, 15, m[s[8]], m[s[9]]);
    mix(v, 1, 6, 11, 12, m[s[10]], m[s[11]]);
    mix(v, 2, 7, 8, 13, m[s[12]], m[s[13]]);
    mix(v, 3, 4, 9, 14, m[s[14]], m[s[15]]);
  }
  for (int i = 0; i < 8; ++i) h_[i] ^= v[i] ^ v[i + 8];
}

// The last block is compressed only in finish(), with the final flag, so a
// full buffer is kept until more data arrives.
Blake2b& Blake2b::update(ByteSpan data) {
  for (size_t pos = 0; pos < data.size();) {
    if (buffered_ == sizeof(buffer_)) {
      total_lo_ += sizeof(buffer_);
      if (total_lo_ < sizeof(buffer_)) ++total_hi_;
      compress(buffer_, false);
      buffered_ = 0;
    }
    const size_t take = std::min(data.size() - pos, sizeof(buffer_) - buffered_);
    std::memcpy(buffer_ + buffered_, data.data() + pos, take);
    buffered_ += take;
    pos += take;
  }
  return *this;
}

std::vector<uint8_t> Blake2b::finish() {
  total_lo_ += buffered_;
  if (total_lo_ < buffered_) ++total_hi_;
  std::memset(buffer_ + buffered_, 0, sizeof(buffer_) - buffered_);
  compress(buffer_, true);
  uint8_t out[64];
  for (int i = 0; i < 8; ++i) store_u64le(out + 8 * i, h_[i]);
  return std::vector<uint8_t>(out, out + digest_bytes_);
}

std::array<uint8_t, 64> blake2b_512(ByteSpan data) {
  auto d = Blake2b(64).update(data).finish();
  std::array<uint8_t, 64> out;
  std::memcpy(out.data(), d.data(), 64);
  return out;
}

}  // namespace cuzk::filecoin
