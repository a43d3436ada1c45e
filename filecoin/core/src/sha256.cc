#include "cuzk/filecoin/sha256.h"

namespace cuzk::filecoin {

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
