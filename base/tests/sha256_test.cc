// SHA-256 against known answers we did not compute: the FIPS 180-2
// Appendix B examples (also NIST CSRC "SHA256.pdf"), NIST CAVP
// SHA256ShortMsg.rsp (Len = 0, 8, 16, 32), and coreutils' sha256sum on fresh
// random data around the padding boundaries; the constants rebuilt from
// their definition in FIPS 180-4 (§4.2.2, §5.3.3) by exact integer roots.
#include "cuzk/base/sha256.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "cuzk/base/random.h"

namespace cuzk {
namespace {

ByteSpan text(std::string_view s) { return ByteSpan(reinterpret_cast<const uint8_t*>(s.data()), s.size()); }
std::string hex_of(std::string_view s) { return to_hex(sha256(text(s))); }

TEST(Sha256, Fips180AppendixB) {
  EXPECT_EQ(hex_of("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");  // B.1
  EXPECT_EQ(hex_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),             // B.2
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  const std::string million(1000000, 'a');  // B.3, in one piece and in pieces of 1000
  EXPECT_EQ(hex_of(million), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  Sha256 h;
  for (int i = 0; i < 1000; ++i) h.update(text(std::string_view(million).substr(0, 1000)));
  EXPECT_EQ(to_hex(h.finish()), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, CavpShortMessages) {
  EXPECT_EQ(to_hex(sha256({})), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(hex_of("\xd3"), "28969cdfa74a12c82f3bad960b0b000aca2ac329deea5c2328ebc6f2ba9802c1");
  EXPECT_EQ(hex_of("\x11\xaf"), "5ca7133fa735326081558ac312c620eeca9970d1e70a4b95533d956f072d1f98");
  EXPECT_EQ(hex_of("\x74\xba\x25\x21"), "b16aa56be3880d18cd41e68384cf1ec8c17680c45a02b1575dc1518923ae8b0e");
}

// sha256sum's answer for a file (coreutils: an implementation we did not write).
std::string sha256sum(const std::string& path) {
  const std::string cmd = "sha256sum '" + path + "'";
  FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) return "popen failed";
  char buf[65] = {};
  const size_t n = std::fread(buf, 1, 64, p);
  ::pclose(p);
  return std::string(buf, n);
}

TEST(Sha256, MatchesSha256sumOnRandomDataInPieces) {
  TestRng rng(fresh_test_seed());
  const std::string path = ::testing::TempDir() + "cuzk_sha256_" + std::to_string(::getpid()) + ".bin";
  // Lengths where the padding takes one or two blocks (55, 56, 63, 64, 119, 120), then larger ones.
  for (size_t len : {size_t(55), size_t(56), size_t(63), size_t(64), size_t(119), size_t(120), size_t(rng() % 300000),
                     size_t(rng() % 300000)}) {
    std::vector<uint8_t> data(len);
    for (auto& b : data) b = uint8_t(rng());
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(data.data()), std::streamsize(len));
    const std::string want = sha256sum(path);
    EXPECT_EQ(to_hex(sha256(data)), want) << "length " << len;
    Sha256 h;
    for (size_t at = 0; at < len;) {
      const size_t take = std::min(len - at, size_t(rng() % 200));
      h.update(ByteSpan(data.data() + at, take));
      at += take;
    }
    EXPECT_EQ(to_hex(h.finish()), want) << "length " << len << " in pieces";
  }
  std::remove(path.c_str());
}

// finish() leaves the hasher as it was, and a copy continues on its own.
TEST(Sha256, FinishAndCopiesContinue) {
  TestRng rng(fresh_test_seed());
  for (int iter = 0; iter < 50; ++iter) {
    std::vector<uint8_t> msg(size_t(rng() % 300));
    for (auto& b : msg) b = uint8_t(rng());
    Sha256 h;
    h.update(msg);
    const Sha256 copy = h;
    EXPECT_EQ(h.finish(), sha256(msg));
    EXPECT_EQ(h.finish(), sha256(msg));
    std::vector<uint8_t> more = msg;
    more.insert(more.end(), {'x', 'y'});
    EXPECT_EQ(h.update(text("xy")).finish(), sha256(more));
    EXPECT_EQ(Sha256(copy).update(text("x")).update(text("y")).finish(), sha256(more));
    EXPECT_EQ(copy.finish(), sha256(msg));
  }
}

using u128 = unsigned __int128;

// floor(x^(1/k)) for k = 2 or 3, exactly (x < 2^120).
uint64_t integer_root(u128 x, int k) {
  uint64_t lo = 0, hi = uint64_t(1) << 41;
  while (lo < hi) {  // the largest r with r^k <= x
    const uint64_t mid = lo + (hi - lo + 1) / 2;
    u128 p = mid;
    for (int i = 1; i < k; ++i) p *= mid;
    if (p <= x) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

std::vector<uint64_t> first_primes(size_t n) {
  std::vector<uint64_t> primes;
  for (uint64_t c = 2; primes.size() < n; ++c) {
    bool prime = true;
    for (uint64_t p : primes) prime = prime && c % p != 0;
    if (prime) primes.push_back(c);
  }
  return primes;
}

// The first 32 bits of the fractional part of p^(1/k) are
// floor(p^(1/k) * 2^32) mod 2^32 = floor((p * 2^(32k))^(1/k)) mod 2^32.
TEST(Sha256, ConstantsFromTheirDefinition) {
  const std::vector<uint64_t> primes = first_primes(64);
  for (size_t i = 0; i < 64; ++i)
    EXPECT_EQ(kSha256RoundConstants[i], uint32_t(integer_root(u128(primes[i]) << 96, 3))) << "K" << i;
  for (size_t i = 0; i < 8; ++i)
    EXPECT_EQ(kSha256InitialHash[i], uint32_t(integer_root(u128(primes[i]) << 64, 2))) << "H" << i;
}

}  // namespace
}  // namespace cuzk
