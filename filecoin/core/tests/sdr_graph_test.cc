#include "cuzk/filecoin/sdr_graph.h"

#include <gtest/gtest.h>

#include "cuzk/filecoin/blake2b.h"
#include "cuzk/filecoin/chacha.h"
#include "test_util.h"

namespace cuzk::filecoin {
namespace {

// RFC 7693 Appendix A: BLAKE2b-512("abc").
TEST(Blake2b, Rfc7693Abc) {
  const uint8_t abc[3] = {'a', 'b', 'c'};
  EXPECT_EQ(to_hex(blake2b_512(ByteSpan(abc, 3))),
            "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d17d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923");
  // The empty message (the reference implementation's KAT, blake2b-kat.txt in:
  // "" with no key).
  EXPECT_EQ(to_hex(blake2b_512({})),
            "786a02f742015903c6c6fd852552d272912f4740e15847618a86e217f71f5419d25e1031afee585313896444934eb04b903a685b1448b755d56f701afe9be2ce");
}

// RFC 7693 / BLAKE2 reference keyed KAT (blake2b-kat.txt): key 00..3f,
// message 00 (one byte), 64-byte digest.
TEST(Blake2b, KeyedKat) {
  uint8_t key[64];
  for (int i = 0; i < 64; ++i) key[i] = uint8_t(i);
  const uint8_t msg[1] = {0};
  auto d = Blake2b(64, ByteSpan(key, 64)).update(ByteSpan(msg, 1)).finish();
  EXPECT_EQ(to_hex(d),
            "961f6dd1e4dd30f63901690c512e78e4b45e4742ed197c3c5e45c549fd25f2e4187b0bc9fe30492b16b0d0bc4ef9b0f34c7003fac09a5ef1532e69430234cebd");
}

// RFC 8439 §2.3.2: the ChaCha20 block function test vector.
TEST(ChaCha, Rfc8439Block) {
  std::array<uint8_t, 32> key;
  for (int i = 0; i < 32; ++i) key[size_t(i)] = uint8_t(i);
  const std::array<uint8_t, 12> nonce = {0, 0, 0, 9, 0, 0, 0, 0x4a, 0, 0, 0, 0};
  ChaCha20Ietf c(key, nonce);
  c.seek(64);  // block counter 1
  std::array<uint8_t, 64> ks{};
  c.apply(ks);
  EXPECT_EQ(to_hex(ks),
            "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4ed2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e");
}

PoRepId registered_porep_id(uint64_t registered_proof_id) {
  PoRepId id{};
  store_u64le(id.data(), registered_proof_id);  // nonce (bytes 8..15) is 0
  return id;
}

// The digest rust-fil-proofs records for a parent cache
// (storage-proofs-porep/parent_cache.json), found by the cache's name.
std::string recorded_digest(const std::string& name) {
  const std::string json = testing::read_text(testing::testdata_path("rust-fil-proofs/parent_cache.json"));
  const size_t at = json.find("\"" + name + "\"");
  if (at == std::string::npos) return "";
  const size_t d = json.find("\"digest\": \"", at);
  return json.substr(d + 11, 64);
}

void check_parent_cache(uint64_t sector_bytes, uint64_t registered_id, ApiVersion api) {
  auto g = StackedGraph::create(sector_bytes / 32, registered_porep_id(registered_id), api);
  ASSERT_TRUE(g.ok());
  const std::string name = g->parent_cache_name();
  const std::string want = recorded_digest(name);
  ASSERT_EQ(want.size(), 64u) << "no recorded parent cache named " << name;
  EXPECT_EQ(to_hex(parent_cache_digest(*g)), want) << name;
}

// StackedDrg2KiBV1 (id 0, API 1.0.0) and StackedDrg2KiBV1_1 (id 5, 1.1.0).
TEST(SdrGraph, ParentCacheDigests2KiB) {
  check_parent_cache(2048, 0, ApiVersion::kV1_0_0);
  check_parent_cache(2048, 5, ApiVersion::kV1_1_0);
}

// StackedDrg8MiBV1_1 (id 6): ~5 s, the cost of 2^21 Feistel permutations.
TEST(SdrGraph, ParentCacheDigest8MiB) { check_parent_cache(8 << 20, 6, ApiVersion::kV1_1_0); }

// StackedDrg8MiBV1 (id 1): the legacy graph; another ~5 s, so off by default
// (--gtest_also_run_disabled_tests).
TEST(SdrGraph, DISABLED_ParentCacheDigest8MiBLegacy) { check_parent_cache(8 << 20, 1, ApiVersion::kV1_0_0); }

// Structural properties the reference tests assert (drgraph.rs graph_bucket,
// graph.rs): nodes 0 and 1 have only parent 0; other DRG parents are earlier
// nodes with the predecessor in its slot; expander parents are in range.
TEST(SdrGraph, ParentShapes) {
  for (ApiVersion api : {ApiVersion::kV1_0_0, ApiVersion::kV1_2_0}) {
    auto g = StackedGraph::create(1 << 12, registered_porep_id(api == ApiVersion::kV1_0_0 ? 0 : 5), api).value();
    EXPECT_EQ(g.drg_parents(0), (std::array<uint32_t, 6>{}));
    EXPECT_EQ(g.drg_parents(1), (std::array<uint32_t, 6>{}));
    for (uint32_t v = 2; v < 300; ++v) {
      const auto p = g.drg_parents(v);
      EXPECT_EQ(p[api == ApiVersion::kV1_0_0 ? 5 : 0], v - 1);
      for (uint32_t x : p) EXPECT_LT(x, v);
      for (uint32_t x : g.expander_parents(v)) EXPECT_LT(x, g.nodes());
    }
  }
  EXPECT_FALSE(StackedGraph::create(1, PoRepId{}, ApiVersion::kV1_1_0).ok());
}

}  // namespace
}  // namespace cuzk::filecoin
