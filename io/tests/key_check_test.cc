// The key content digest recomputed with coreutils' sha256sum (SHA-256
// itself is tested in base); the record of checked keys; the proof point
// checks.
#include "cuzk/io/key_check.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdio>
#include <string>

#include "cuzk/ec/curves.h"
#include "key_test_util.h"

namespace cuzk::io {
namespace {

using namespace cuzk::io::testing;  // NOLINT

// sha256sum's answer for a file (coreutils: an implementation we did not write).
std::string sha256sum(const std::string& path) {
  std::string cmd = "sha256sum '" + path + "'";
  FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) return "popen failed";
  char buf[65] = {};
  size_t n = std::fread(buf, 1, 64, p);
  ::pclose(p);
  return std::string(buf, n);
}

std::vector<uint8_t> from_hex_bytes(const std::string& hex) {
  std::string out;
  EXPECT_TRUE(from_hex(hex, &out));
  return std::vector<uint8_t>(out.begin(), out.end());
}

// The tree digest rebuilt with sha256sum: the chunks' digests, then the
// digest of the domain string, the length and those digests.
TEST(KeyDigest, IsTheDocumentedTreeOfSha256) {
  TestRng rng(fresh_seed());
  const size_t len = 2 * kKeyDigestChunkBytes + 1 + rng() % 100000;
  std::vector<uint8_t> data(len);
  for (auto& b : data) b = uint8_t(rng());
  std::vector<uint8_t> outer = {'c', 'u', 'z', 'k', ' ', 'k', 'e', 'y', ' ', 'd', 'i', 'g', 'e', 's', 't', ' ', 'v', '1'};
  uint8_t size[8];
  store_u64le(size, len);
  outer.insert(outer.end(), size, size + 8);
  for (size_t at = 0; at < len; at += kKeyDigestChunkBytes) {
    const std::string path = temp_path("chunk.bin");
    write_all(path, std::vector<uint8_t>(data.begin() + long(at),
                                         data.begin() + long(std::min(len, at + kKeyDigestChunkBytes))));
    const auto d = from_hex_bytes(sha256sum(path));
    outer.insert(outer.end(), d.begin(), d.end());
    std::remove(path.c_str());
  }
  const std::string path = temp_path("outer.bin");
  write_all(path, outer);
  ThreadPool pool(3);
  EXPECT_EQ(digest_hex(key_content_digest(data, &pool)), sha256sum(path));
  std::remove(path.c_str());
  data[len / 2] ^= 1;
  EXPECT_NE(digest_hex(key_content_digest(data, &pool)), sha256sum(path));
}

TEST(CheckedKeyRecord, RemembersDigestsInAPrivateDirectory) {
  TestRng rng(fresh_seed());
  const std::string dir = temp_path("checked") + "/nested";
  CheckedKeyRecord record(dir);
  Sha256Digest a{}, b{};
  for (auto& x : a) x = uint8_t(rng());
  b = a;
  b[31] ^= 1;
  EXPECT_FALSE(record.contains(a));
  ASSERT_TRUE(record.remember(a, "/keys/a.zkey").ok());
  EXPECT_TRUE(record.contains(a));
  EXPECT_FALSE(record.contains(b));
  EXPECT_TRUE(CheckedKeyRecord(dir).contains(a));
  struct stat st {};
  ASSERT_EQ(::stat(dir.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  const auto text = read_all(dir + "/" + digest_hex(a));
  EXPECT_NE(std::string(text.begin(), text.end()).find("/keys/a.zkey"), std::string::npos);
  // A directory that cannot be created is an error, not a silent no-op.
  const std::string file = temp_path("plain-file");
  write_all(file, {1});
  EXPECT_FALSE(CheckedKeyRecord(file + "/sub").remember(a, "x").ok());
}

TEST(ProofPoints, SubgroupOnCurveAndNotInfinity) {
  TestRng rng(fresh_seed());
  const auto g1 = random_points<ec::G1Curve>(rng, 2);
  const auto g2 = random_points<ec::G2Curve>(rng, 1);
  const groth16::Proof good{g1[0], g2[0], g1[1]};
  EXPECT_TRUE(check_proof_points(good).ok());
  groth16::Proof p = good;
  p.a = ec::random_curve_point<ec::G1Curve>(rng);
  EXPECT_TRUE(rejected_with(check_proof_points(p), "proof: A"));
  EXPECT_TRUE(rejected_with(check_proof_points(p), "subgroup"));
  p = good;
  p.b = ec::random_curve_point<ec::G2Curve>(rng);
  EXPECT_TRUE(rejected_with(check_proof_points(p), "proof: B"));
  p = good;
  p.c = ec::random_curve_point<ec::G1Curve>(rng);
  EXPECT_TRUE(rejected_with(check_proof_points(p), "proof: C"));
  p = good;
  p.c = groth16::G1Affine();
  EXPECT_TRUE(rejected_with(check_proof_points(p), "C is the point at infinity"));
  p = good;
  p.a.y = p.a.y + ff::Fp::one();  // off the curve
  EXPECT_TRUE(rejected_with(check_proof_points(p), "not on the curve"));
}

}  // namespace
}  // namespace cuzk::io
