// sha254 (Filecoin's truncated SHA-256; SHA-256 itself is tested in base).
#include "cuzk/filecoin/sha256.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cuzk/base/random.h"
#include "test_util.h"

namespace cuzk::filecoin {
namespace {

std::string hex_of(const Sha256Digest& d) { return to_hex(d); }

// Curio lib/proof/treed_build_test.go, TestHashChunk: sha254 of a 64-byte
// chunk whose first byte is 1 (two tree-D leaves).
TEST(Sha254, CurioHashChunk) {
  std::array<uint8_t, 32> a{}, b{};
  a[0] = 1;
  EXPECT_EQ(hex_of(sha254_pair(a, b)), "16abab341fb7f370e27e4dadcf81766dd0dfd0ae64469477bb2cf6614938b22f");
  std::vector<uint8_t> chunk(64, 0);
  chunk[0] = 1;
  EXPECT_EQ(sha254(chunk), sha254_pair(a, b));
}

// The trim clears exactly the two top bits of the last byte.
TEST(Sha254, TrimsTopTwoBits) {
  TestRng rng(fresh_test_seed());
  for (int i = 0; i < 64; ++i) {
    std::vector<uint8_t> msg(8);
    for (auto& b : msg) b = uint8_t(rng());
    Sha256Digest full = sha256(msg), trimmed = sha254(msg);
    EXPECT_EQ(trimmed[31], full[31] & 0x3f);
    EXPECT_TRUE(std::equal(full.begin(), full.end() - 1, trimmed.begin()));
  }
}

}  // namespace
}  // namespace cuzk::filecoin
