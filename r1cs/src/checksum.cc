#include "cuzk/r1cs/checksum.h"

#include <cstring>

#include "internal.h"

namespace cuzk::r1cs {
namespace {

constexpr uint64_t kMul1 = 0x9e3779b97f4a7c15ull;  // 2^64 / golden ratio
constexpr uint64_t kMul2 = 0xc2b2ae3d27d4eb4full;
constexpr uint64_t kMul3 = 0xff51afd7ed558ccdull;

inline uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

inline uint64_t load64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);  // little-endian host (static_assert in precompiled.cc)
  return v;
}

inline uint64_t mix_lane(uint64_t lane, uint64_t word) { return rotl(lane + word * kMul2, 31) * kMul1; }

// Final avalanche: every input bit affects every output bit.
inline uint64_t avalanche(uint64_t h) {
  h ^= h >> 33;
  h *= kMul3;
  h ^= h >> 29;
  h *= kMul2;
  h ^= h >> 32;
  return h;
}

uint64_t chunk_digest(ByteSpan chunk, uint64_t index) { return hash64(chunk, index * kMul1 + 1); }

uint64_t combine(const std::vector<uint64_t>& digests, uint64_t total) {
  std::vector<uint8_t> bytes(digests.size() * 8 + 8);
  for (size_t i = 0; i < digests.size(); ++i) store_u64le(bytes.data() + 8 * i, digests[i]);
  store_u64le(bytes.data() + 8 * digests.size(), total);
  return hash64(bytes, 0x243f6a8885a308d3ull);
}

}  // namespace

uint64_t hash64(ByteSpan bytes, uint64_t seed) {
  uint64_t lanes[4] = {seed + kMul1, seed ^ kMul2, seed - kMul3, rotl(seed, 17) + 1};
  const uint8_t* p = bytes.data();
  size_t n = bytes.size();
  for (; n >= 32; p += 32, n -= 32) {
    for (int i = 0; i < 4; ++i) lanes[i] = mix_lane(lanes[i], load64(p + 8 * i));
  }
  size_t lane = 0;  // n < 32 here: at most three whole words remain
  for (; lane < 3 && n >= 8; p += 8, n -= 8, ++lane) lanes[lane] = mix_lane(lanes[lane], load64(p));
  if (n > 0) {
    uint8_t tail[8] = {};
    std::memcpy(tail, p, n);
    lanes[lane] = mix_lane(lanes[lane], load64(tail) ^ (uint64_t(n) << 59));
  }
  uint64_t h = rotl(lanes[0], 1) + rotl(lanes[1], 7) + rotl(lanes[2], 12) + rotl(lanes[3], 18);
  h ^= uint64_t(bytes.size()) * kMul3;
  return avalanche(h);
}

uint64_t checksum64(ByteSpan bytes, ThreadPool* pool) {
  const size_t chunks = (bytes.size() + kChecksumChunkBytes - 1) / kChecksumChunkBytes;
  std::vector<uint64_t> digests(chunks);
  run_chunks(pool, chunks, 1, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      ByteSpan chunk = bytes.subspan(i * kChecksumChunkBytes);
      digests[i] = chunk_digest(chunk.first(std::min(chunk.size(), kChecksumChunkBytes)), i);
    }
  });
  return combine(digests, bytes.size());
}

StreamingChecksum::StreamingChecksum() { pending_.reserve(kChecksumChunkBytes); }

void StreamingChecksum::update(ByteSpan bytes) {
  total_ += bytes.size();
  while (!bytes.empty()) {
    const size_t take = std::min(bytes.size(), kChecksumChunkBytes - pending_.size());
    if (pending_.empty() && take == kChecksumChunkBytes) {
      digests_.push_back(chunk_digest(bytes.first(take), digests_.size()));
    } else {
      pending_.append(reinterpret_cast<const char*>(bytes.data()), take);
      if (pending_.size() == kChecksumChunkBytes) {
        digests_.push_back(chunk_digest(ByteSpan(reinterpret_cast<const uint8_t*>(pending_.data()), pending_.size()), digests_.size()));
        pending_.clear();
      }
    }
    bytes = bytes.subspan(take);
  }
}

uint64_t StreamingChecksum::finish() const {
  std::vector<uint64_t> digests = digests_;
  if (!pending_.empty()) {
    digests.push_back(chunk_digest(ByteSpan(reinterpret_cast<const uint8_t*>(pending_.data()), pending_.size()),
                                  digests.size()));
  }
  return combine(digests, total_);
}

}  // namespace cuzk::r1cs
