// BLAKE2b (RFC 7693) with 1..64-byte digests and an optional key: the
// Feistel round function of the SDR expander graph (unkeyed, 64-byte digest)
// and the synthetic-PoRep key derivation (keyed, 32-byte digest) use it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "cuzk/base/bytes.h"

namespace cuzk::filecoin {

class Blake2b {
 public:
  // REQUIRES: 1 <= digest_bytes <= 64, key.size() <= 64.
  explicit Blake2b(size_t digest_bytes = 64, ByteSpan key = {});
  Blake2b& update(ByteSpan data);
  // The first digest_bytes bytes of the digest.
  std::vector<uint8_t> finish();

 private:
  void compress(const uint8_t block[128], bool last);

  uint64_t h_[8];
  uint8_t buffer_[128];
  size_t buffered_ = 0;
  uint64_t total_lo_ = 0, total_hi_ = 0;
  size_t digest_bytes_;
};

// Unkeyed BLAKE2b-512.
std::array<uint8_t, 64> blake2b_512(ByteSpan data);

}  // namespace cuzk::filecoin
