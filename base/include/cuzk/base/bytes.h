// Byte views and fixed-width integer codecs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace cuzk {

using ByteSpan = std::span<const uint8_t>;
using MutableByteSpan = std::span<uint8_t>;

inline uint32_t load_u32le(const uint8_t* p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
inline uint64_t load_u64le(const uint8_t* p) { return uint64_t(load_u32le(p)) | uint64_t(load_u32le(p + 4)) << 32; }
inline uint32_t load_u32be(const uint8_t* p) {
  return uint32_t(p[3]) | uint32_t(p[2]) << 8 | uint32_t(p[1]) << 16 | uint32_t(p[0]) << 24;
}
inline uint64_t load_u64be(const uint8_t* p) { return uint64_t(load_u32be(p)) << 32 | uint64_t(load_u32be(p + 4)); }
inline void store_u32le(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = uint8_t(v >> (8 * i));
}
inline void store_u64le(uint8_t* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = uint8_t(v >> (8 * i));
}
inline void store_u32be(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[3 - i] = uint8_t(v >> (8 * i));
}
inline void store_u64be(uint8_t* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[7 - i] = uint8_t(v >> (8 * i));
}

std::string to_hex(ByteSpan bytes);
// Accepts an optional 0x prefix; returns false on odd length or a non-hex digit.
bool from_hex(std::string_view hex, std::string* out);

}  // namespace cuzk
