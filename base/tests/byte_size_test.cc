// parse_byte_size: one meaning of a size for the configuration file and the
// command line (binary units, any case).
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "cuzk/base/byte_size.h"

namespace cuzk {
namespace {

TEST(ByteSize, EverySpellingOfAUnitIsBinary) {
  const struct {
    const char* spellings[3];
    int shift;
  } kUnits[] = {{{"K", "KB", "KiB"}, 10}, {{"M", "MB", "MiB"}, 20}, {{"G", "GB", "GiB"}, 30}, {{"T", "TB", "TiB"}, 40}};
  std::mt19937_64 rng(std::random_device{}());
  for (int round = 0; round < 200; ++round) {
    for (const auto& u : kUnits) {
      const uint64_t n = rng() >> (u.shift + 1);  // fits after the shift
      std::string unit = u.spellings[rng() % 3];
      for (char& c : unit)
        if (rng() & 1) c = char(std::tolower(static_cast<unsigned char>(c)));
      const std::string text = std::to_string(n) + (rng() & 1 ? " " : "") + unit;
      auto v = parse_byte_size(text);
      ASSERT_TRUE(v.ok()) << text << ": " << v.status().to_string();
      EXPECT_EQ(*v, n << u.shift) << text;
    }
    const uint64_t bytes = rng();
    EXPECT_EQ(*parse_byte_size(std::to_string(bytes)), bytes);
    EXPECT_EQ(*parse_byte_size(std::to_string(bytes) + "B"), bytes);
  }
}

TEST(ByteSize, FractionsRoundDownToWholeBytes) {
  EXPECT_EQ(*parse_byte_size("1.5GiB"), uint64_t(3) << 29);
  EXPECT_EQ(*parse_byte_size("0.5k"), 512u);
  EXPECT_EQ(*parse_byte_size("1.1GiB"), 1181116006u);  // 1.1 · 2^30 = 1181116006.4
  EXPECT_EQ(*parse_byte_size("0.001K"), 1u);           // 1.024 bytes
  EXPECT_EQ(*parse_byte_size("18446744073709551615"), UINT64_MAX);
  EXPECT_EQ(*parse_byte_size("16383.999999999999999999T"), (uint64_t(16384) << 40) - 1);
}

TEST(ByteSize, WhatIsNotASizeIsSaidSo) {
  for (const char* junk : {"", "-1", "+1", "1.", ".5G", "1.2.3G", "1..2M", "1.5", "1.5B", "12 parsecs", "16EiB",
                           "16 G B", "0x10", "16GiB ", " 16", "18446744073709551616", "16777216T"}) {
    auto v = parse_byte_size(junk);
    ASSERT_FALSE(v.ok()) << junk << " read as " << *v;
    EXPECT_EQ(v.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(v.status().message().find(std::string("\"") + junk + "\" is not a size"), std::string::npos)
        << v.status().message();
  }
}

}  // namespace
}  // namespace cuzk
