// Helpers shared by the filecoin tests.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "cuzk/base/bytes.h"
#include "cuzk/ff/fr.h"

namespace cuzk::filecoin::testing {

// The source tree (CTest sets CUZK_SOURCE_DIR); empty when run by hand.
inline std::string source_dir() {
  const char* s = std::getenv("CUZK_SOURCE_DIR");
  return s ? s : "";
}

inline std::string testdata_path(const std::string& rel) { return source_dir() + "/filecoin/core/testdata/" + rel; }

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// neptune / rust-fil-proofs `scalar_from_u64s` and `u64s_to_u8s`: four
// little-endian u64 limbs of the canonical value.
inline ff::Fr fr_from_u64s(std::array<uint64_t, 4> limbs) {
  ff::Fr f;
  EXPECT_TRUE(ff::Fr::from_canonical(limbs, &f));
  return f;
}

inline std::array<uint8_t, 32> bytes_from_u64s(std::array<uint64_t, 4> limbs) {
  std::array<uint8_t, 32> b;
  for (int i = 0; i < 4; ++i) store_u64le(b.data() + 8 * i, limbs[size_t(i)]);
  return b;
}

inline std::array<uint8_t, 32> bytes_from_hex(std::string_view hex) {
  std::string s;
  EXPECT_TRUE(from_hex(hex, &s)) << hex;
  std::array<uint8_t, 32> b{};
  EXPECT_EQ(s.size(), 32u) << hex;
  for (size_t i = 0; i < 32 && i < s.size(); ++i) b[i] = uint8_t(s[i]);
  return b;
}

}  // namespace cuzk::filecoin::testing
