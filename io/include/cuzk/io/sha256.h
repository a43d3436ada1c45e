// SHA-256 (FIPS 180-4), for content digests of key files: which keys have
// passed the full subgroup checks is remembered by digest (key_check.h).
// Portable C++, no SHA extensions: about 200-300 MB/s per core.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "cuzk/base/bytes.h"

namespace cuzk::io {

using Sha256Digest = std::array<uint8_t, 32>;

// Incremental hashing: any split of the input into update() calls gives the
// digest of the concatenation. Not thread-safe; copyable.
class Sha256 {
 public:
  Sha256();
  void update(ByteSpan bytes);
  // The digest of everything fed so far; the object may be fed further.
  Sha256Digest finish() const;

 private:
  void compress(const uint8_t* block);

  std::array<uint32_t, 8> state_;
  std::array<uint8_t, 64> pending_{};
  size_t pending_len_ = 0;
  uint64_t total_bytes_ = 0;
};

Sha256Digest sha256(ByteSpan bytes);
std::string digest_hex(const Sha256Digest& digest);

}  // namespace cuzk::io
