// Differential test: cuzk's Fp6/Fp12 tower and pairing against @noble/curves
// (tests/vectors/pairing_vectors.mjs; coefficient order documented there).
// The committed fixed set always runs; a fresh random set runs when
// CUZK_FRESH_VECTORS_DIR is set.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cuzk/base/bytes.h"
#include "cuzk/ec/curves.h"
#include "cuzk/pairing/pairing.h"

namespace cuzk::pairing {
namespace {

using ff::Fp;
using ff::Fp12;
using ff::Fp2;
using ff::Fp6;
using nlohmann::json;

json load(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  return json::parse(in);
}

Fp fp(const json& j) {
  std::string raw;
  if (!cuzk::from_hex(j.get<std::string>(), &raw)) throw std::runtime_error("bad hex " + j.dump());
  auto r = Fp::from_bytes_be(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(raw.data()), raw.size()));
  if (!r.ok()) throw std::runtime_error(r.status().to_string());
  return *r;
}

// j holds 2·n hex strings starting at offset.
Fp2 fp2_at(const json& j, size_t offset) { return Fp2(fp(j[offset]), fp(j[offset + 1])); }
Fp6 fp6_at(const json& j, size_t offset) {
  return Fp6(fp2_at(j, offset), fp2_at(j, offset + 2), fp2_at(j, offset + 4));
}
Fp6 fp6(const json& j) { return fp6_at(j, 0); }
Fp12 fp12(const json& j) { return Fp12(fp6_at(j, 0), fp6_at(j, 6)); }

ec::G1Affine g1(const json& j) { return ec::G1Affine{fp(j["x"]), fp(j["y"])}; }
ec::G2Affine g2(const json& j) { return ec::G2Affine{fp2_at(j["x"], 0), fp2_at(j["y"], 0)}; }

void check_fp6(const json& c) {
  Fp6 a = fp6(c["a"]), b = fp6(c["b"]);
  EXPECT_EQ(a * b, fp6(c["mul"]));
  EXPECT_EQ(a.square(), fp6(c["sqr"]));
  EXPECT_EQ(a.inverse(), fp6(c["inv"]));
  EXPECT_EQ(a.frobenius_map(1), fp6(c["frob1"]));
  EXPECT_EQ(a.frobenius_map(2), fp6(c["frob2"]));
  EXPECT_EQ(a.frobenius_map(3), fp6(c["frob3"]));
}

void check_fp12(const json& c) {
  Fp12 a = fp12(c["a"]), b = fp12(c["b"]);
  EXPECT_EQ(a * b, fp12(c["mul"]));
  EXPECT_EQ(a.square(), fp12(c["sqr"]));
  EXPECT_EQ(a.inverse(), fp12(c["inv"]));
  EXPECT_EQ(a.conjugate(), fp12(c["conj"]));
  for (const auto& [k, v] : c["frob"].items()) EXPECT_EQ(a.frobenius_map(std::stoi(k)), fp12(v)) << "k=" << k;
  Fp12 cyc = fp12(c["cyc"]);
  EXPECT_EQ(cyc.cyclotomic_square(), fp12(c["cyc_sqr"]));
  EXPECT_EQ(final_exponentiation(a), fp12(c["final_exp"]));
}

void check_pairings(const json& v) {
  for (const json& c : v["pairings"]) {
    SCOPED_TRACE("a=" + c["a"].get<std::string>() + " b=" + c["b"].get<std::string>());
    ec::G1Affine p = g1(c["p"]);
    ec::G2Affine q = g2(c["q"]);
    ASSERT_TRUE(p.is_on_curve() && q.is_on_curve());
    // The points themselves are a·G1 and b·G2.
    auto a = ff::Fr::from_decimal(c["a"].get<std::string>()), b = ff::Fr::from_decimal(c["b"].get<std::string>());
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(ec::mul(ec::g1_generator(), *a).to_affine(), p);
    EXPECT_EQ(ec::mul(ec::g2_generator(), *b).to_affine(), q);
    Fp12 expected = fp12(c["e"]);
    EXPECT_EQ(pairing(p, q), expected);
    G2Prepared prepared(q);
    const std::pair<ec::G1Affine, const G2Prepared*> pp[] = {{p, &prepared}};
    EXPECT_EQ(final_exponentiation(multi_miller_loop(pp)), expected);
  }
  std::vector<std::pair<ec::G1Affine, ec::G2Affine>> pairs;
  for (const json& x : v["product"]["pairs"]) pairs.emplace_back(g1(x["p"]), g2(x["q"]));
  EXPECT_EQ(final_exponentiation(multi_miller_loop(pairs)), fp12(v["product"]["e"]));
}

void check_all(const json& v) {
  ASSERT_FALSE(v["pairings"].empty());
  ASSERT_FALSE(v["fp12"].empty());
  for (const json& c : v["fp6"]) check_fp6(c);
  for (const json& c : v["fp12"]) check_fp12(c);
  check_pairings(v);
}

TEST(PairingNoble, FixedVectors) {
  const char* src = std::getenv("CUZK_SOURCE_DIR");
  ASSERT_NE(src, nullptr) << "CUZK_SOURCE_DIR not set (run through ctest)";
  check_all(load(std::string(src) + "/tests/vectors/fixed/pairing.json"));
}

TEST(PairingNoble, FreshVectors) {
  const char* dir = std::getenv("CUZK_FRESH_VECTORS_DIR");
  if (!dir) GTEST_SKIP() << "CUZK_FRESH_VECTORS_DIR not set; scripts/test.sh generates fresh vectors";
  json v = load(std::string(dir) + "/pairing.json");
  std::printf("fresh vectors, seed %s\n", v["seed"].get<std::string>().c_str());
  check_all(v);
}

}  // namespace
}  // namespace cuzk::pairing
