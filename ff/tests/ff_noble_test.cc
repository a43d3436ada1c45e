// Differential test: cuzk's fields against @noble/curves (tests/vectors/ff_vectors.mjs).
// The committed fixed set always runs; a fresh random set runs when
// CUZK_FRESH_VECTORS_DIR is set (scripts/test.sh generates one per run).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cuzk/base/bytes.h"
#include "cuzk/ff/fp.h"
#include "cuzk/ff/fp2.h"
#include "cuzk/ff/fr.h"

namespace cuzk::ff {
namespace {

using nlohmann::json;

json load(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  return json::parse(in);
}

template <class F>
F from_hex_be(const std::string& h) {
  std::string raw;
  if (!cuzk::from_hex(h, &raw)) throw std::runtime_error("bad hex " + h);
  auto r = F::from_bytes_be(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(raw.data()), raw.size()));
  if (!r.ok()) throw std::runtime_error(r.status().to_string());
  return *r;
}

template <class F>
void check_prime_field(const json& cases, const char* name) {
  ASSERT_FALSE(cases.empty());
  for (const json& c : cases) {
    SCOPED_TRACE(std::string(name) + " a=" + c["a"].get<std::string>());
    F a = from_hex_be<F>(c["a"]), b = from_hex_be<F>(c["b"]);
    EXPECT_EQ((a + b).to_hex(), c["add"].get<std::string>());
    EXPECT_EQ((a - b).to_hex(), c["sub"].get<std::string>());
    EXPECT_EQ((a * b).to_hex(), c["mul"].get<std::string>());
    EXPECT_EQ(a.square().to_hex(), c["sqr"].get<std::string>());
    EXPECT_EQ((-a).to_hex(), c["neg"].get<std::string>());
    EXPECT_EQ(a.inverse().to_hex(), c["inv"].get<std::string>());
    EXPECT_EQ(a.pow(std::stoull(c["e"].get<std::string>())).to_hex(), c["pow"].get<std::string>());
    EXPECT_EQ(a.legendre(), c["legendre"].get<int>());
    F root;
    ASSERT_TRUE(a.square().sqrt(&root));
    F noble_root = from_hex_be<F>(c["sqrt_of_sqr"]);
    EXPECT_TRUE(root == noble_root || root == -noble_root);
    EXPECT_EQ(a.to_decimal(), c["decimal"].get<std::string>());
  }
}

Fp2 fp2(const json& j) { return Fp2(from_hex_be<Fp>(j[0]), from_hex_be<Fp>(j[1])); }
json hex2(const Fp2& x) { return json::array({x.c0.to_hex(), x.c1.to_hex()}); }

void check_all(const json& v) {
  check_prime_field<Fp>(v["fp"], "fp");
  check_prime_field<Fr>(v["fr"], "fr");
  for (const json& c : v["fp2"]) {
    Fp2 a = fp2(c["a"]), b = fp2(c["b"]);
    EXPECT_EQ(hex2(a + b), c["add"]);
    EXPECT_EQ(hex2(a - b), c["sub"]);
    EXPECT_EQ(hex2(a * b), c["mul"]);
    EXPECT_EQ(hex2(a.square()), c["sqr"]);
    EXPECT_EQ(hex2(a.inverse()), c["inv"]);
    EXPECT_EQ(hex2(a.frobenius_map(1)), c["frob"]);
    EXPECT_EQ(hex2(a.mul_by_nonresidue()), c["mul_nonresidue"]);
    Fp2 root, noble_root = fp2(c["sqrt_of_sqr"]);
    ASSERT_TRUE(a.square().sqrt(&root));
    EXPECT_TRUE(root == noble_root || root == -noble_root);
  }
  for (const json& conv : v["roots"]) {
    RootConvention rc = conv["convention"] == "bellperson" ? RootConvention::kBellperson : RootConvention::kSnarkjs;
    for (int k = 0; k <= 32; ++k) EXPECT_EQ(root_of_unity(k, rc).to_hex(), conv["roots"][size_t(k)].get<std::string>()) << k;
  }
}

TEST(FfNoble, FixedVectors) {
  const char* src = std::getenv("CUZK_SOURCE_DIR");
  ASSERT_NE(src, nullptr) << "CUZK_SOURCE_DIR not set (run through ctest)";
  check_all(load(std::string(src) + "/tests/vectors/fixed/ff.json"));
}

TEST(FfNoble, FreshVectors) {
  const char* dir = std::getenv("CUZK_FRESH_VECTORS_DIR");
  if (!dir) GTEST_SKIP() << "CUZK_FRESH_VECTORS_DIR not set; scripts/test.sh generates fresh vectors";
  json v = load(std::string(dir) + "/ff.json");
  std::printf("fresh vectors, seed %s\n", v["seed"].get<std::string>().c_str());
  check_all(v);
}

}  // namespace
}  // namespace cuzk::ff
