#include "cuzk/filecoin/sha256.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cuzk/base/random.h"
#include "test_util.h"

namespace cuzk::filecoin {
namespace {

std::string hex_of(const Sha256Digest& d) { return to_hex(d); }

ByteSpan text(std::string_view s) { return ByteSpan(reinterpret_cast<const uint8_t*>(s.data()), s.size()); }

// FIPS 180-2, Appendix B (SHA-256 examples B.1, B.2, B.3).
TEST(Sha256, FipsExamples) {
  EXPECT_EQ(hex_of(sha256(text("abc"))), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(hex_of(sha256(text("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  std::string million(1000000, 'a');
  EXPECT_EQ(hex_of(sha256(text(million))), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

// The empty message (FIPS 180-4 test vectors, NIST CAVP SHA256ShortMsg Len = 0).
TEST(Sha256, Empty) {
  EXPECT_EQ(hex_of(sha256({})), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

// Any split of the input into update() calls gives the one-shot digest, and
// a copied hasher continues independently.
TEST(Sha256, IncrementalMatchesOneShot) {
  TestRng rng(fresh_test_seed());
  for (int iter = 0; iter < 50; ++iter) {
    std::vector<uint8_t> msg(size_t(rng() % 300));
    for (auto& b : msg) b = uint8_t(rng());
    Sha256 h;
    size_t pos = 0;
    while (pos < msg.size()) {
      const size_t n = std::min(msg.size() - pos, size_t(rng() % 70));
      h.update(ByteSpan(msg.data() + pos, n));
      pos += n;
    }
    Sha256 copy = h;
    EXPECT_EQ(h.finish(), sha256(msg));
    copy.update(text("x"));
    msg.push_back('x');
    EXPECT_EQ(copy.finish(), sha256(msg));
  }
}

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
