// `inspect` of the kinds beyond the readers' own tests: .ptau headers (the
// layout of snarkjs's powersoftau_utils.js writePTauHeader: n8, q, power,
// ceremony power), a BN254 .zkey (described, said to be unsupported, and
// refused by the reader with the hint), cuzk's precompiled circuits, and the
// JSON rendering. Files are built byte by byte here, not by our writers.
#include "cuzk/io/inspect.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cuzk/io/zkey.h"
#include "cuzk/r1cs/precompiled.h"
#include "cuzk/r1cs/synthetic.h"
#include "key_test_util.h"

namespace cuzk::io {
namespace {

using namespace cuzk::io::testing;  // NOLINT

// BN254's base field q and group order r, little-endian limbs (EIP-196/197).
constexpr uint64_t kBnQ[4] = {0x3c208c16d87cfd47, 0x97816a916871ca8d, 0xb85045b68181585d, 0x30644e72e131a029};
constexpr uint64_t kBnR[4] = {0x43e1f593f0000001, 0x2833e84879b97091, 0xb85045b68181585d, 0x30644e72e131a029};

void put32(std::vector<uint8_t>& v, uint32_t x) {
  for (int i = 0; i < 4; ++i) v.push_back(uint8_t(x >> (8 * i)));
}
void put64(std::vector<uint8_t>& v, uint64_t x) {
  for (int i = 0; i < 8; ++i) v.push_back(uint8_t(x >> (8 * i)));
}
template <size_t N>
void put_limbs(std::vector<uint8_t>& v, const uint64_t (&limbs)[N]) {
  for (uint64_t l : limbs) put64(v, l);
}
void put_limbs(std::vector<uint8_t>& v, std::span<const uint64_t> limbs) {
  for (uint64_t l : limbs) put64(v, l);
}

// An iden3 container: magic, version, then (id, payload) sections.
std::vector<uint8_t> container(const char* magic, uint32_t version,
                               const std::vector<std::pair<uint32_t, std::vector<uint8_t>>>& sections) {
  std::vector<uint8_t> f(magic, magic + 4);
  put32(f, version);
  put32(f, uint32_t(sections.size()));
  for (const auto& [id, payload] : sections) {
    put32(f, id);
    put64(f, payload.size());
    f.insert(f.end(), payload.begin(), payload.end());
  }
  return f;
}

std::string inspect(const std::vector<uint8_t>& bytes, bool json = false) {
  const std::string path = temp_path("inspect.bin");
  write_all(path, bytes);
  auto s = inspect_file(path, json);
  EXPECT_TRUE(s.ok()) << s.status().to_string();
  return s.ok() ? *s : "";
}

TEST(InspectPtau, CurveAndPowerOfBothCurves) {
  TestRng rng(fresh_seed());
  const uint32_t power = 8 + uint32_t(rng() % 12);
  std::vector<uint8_t> h;
  put32(h, 48);
  put_limbs(h, std::span<const uint64_t>(ff::Fp::kModulus));
  put32(h, power);
  put32(h, power + 1);
  std::vector<uint8_t> contributions;
  put32(contributions, 3);
  const auto bls = container("ptau", 1, {{1, h}, {2, std::vector<uint8_t>(96)}, {7, contributions}});
  std::string s = inspect(bls);
  EXPECT_NE(s.find("kind: powers of tau (.ptau)"), std::string::npos) << s;
  EXPECT_NE(s.find("curve: bls12381"), std::string::npos) << s;
  EXPECT_NE(s.find("power: " + std::to_string(power) + " (2^" + std::to_string(power)), std::string::npos) << s;
  EXPECT_NE(s.find("ceremony power: " + std::to_string(power + 1)), std::string::npos) << s;
  EXPECT_NE(s.find("contributions: 3"), std::string::npos) << s;
  EXPECT_NE(s.find("prepared for phase 2 (Lagrange sections 12-15): no"), std::string::npos) << s;
  auto j = nlohmann::json::parse(inspect(bls, true));
  EXPECT_EQ(j["power"], power);
  EXPECT_EQ(j["curve"], "bls12381");
  EXPECT_EQ(j["supported"], true);
  EXPECT_EQ(j["sections"].size(), 3u);

  std::vector<uint8_t> hb;
  put32(hb, 32);
  put_limbs(hb, kBnQ);
  put32(hb, power);
  put32(hb, power);
  s = inspect(container("ptau", 1, {{1, hb}, {12, std::vector<uint8_t>(64)}}));
  EXPECT_NE(s.find("curve: bn128 (BN254; not supported"), std::string::npos) << s;
  EXPECT_NE(s.find("supported by cuzk: no"), std::string::npos) << s;
  EXPECT_NE(s.find("phase 2 (Lagrange sections 12-15): yes"), std::string::npos) << s;
}

// A BN254 Groth16 key: header sections as snarkjs writes them (n8q 32, q,
// n8r 32, r, nVars, nPublic, domain size, then the points, absent here).
std::vector<uint8_t> bn254_zkey(uint32_t vars, uint32_t pub, uint32_t domain) {
  std::vector<uint8_t> s1, s2;
  put32(s1, 1);
  put32(s2, 32);
  put_limbs(s2, kBnQ);
  put32(s2, 32);
  put_limbs(s2, kBnR);
  put32(s2, vars);
  put32(s2, pub);
  put32(s2, domain);
  s2.resize(s2.size() + 6 * 64 + 2 * 128);  // alpha1, beta1, beta2, gamma2, delta1, delta2 (BN254 sizes)
  return container("zkey", 1, {{1, s1}, {2, s2}});
}

TEST(InspectZkey, Bn254KeyIsDescribedAndRefusedByTheReader) {
  TestRng rng(fresh_seed());
  const uint32_t vars = 10 + uint32_t(rng() % 1000), pub = uint32_t(rng() % 9);
  const auto f = bn254_zkey(vars, pub, 1024);
  const std::string s = inspect(f);
  EXPECT_NE(s.find("kind: snarkjs Groth16 proving key (.zkey)"), std::string::npos) << s;
  EXPECT_NE(s.find("curve: bn128"), std::string::npos) << s;
  EXPECT_NE(s.find("supported by cuzk: no"), std::string::npos) << s;
  EXPECT_NE(s.find("variables (nVars): " + std::to_string(vars)), std::string::npos) << s;
  EXPECT_NE(s.find("nPublic, ONE excluded): " + std::to_string(pub)), std::string::npos) << s;
  EXPECT_NE(s.find("domain size: 1024 = 2^10"), std::string::npos) << s;
  Status read = parse_zkey(f).status();
  EXPECT_TRUE(rejected_with(read, "BN254"));
  EXPECT_TRUE(rejected_with(read, "circom --prime bls12381"));
}

TEST(InspectPrecompiled, CountsOfTheCircuit) {
  r1cs::SyntheticParams p;
  p.num_constraints = 300;
  p.num_aux = 280;
  p.num_public_inputs = 3;
  p.seed = fresh_seed();
  auto sc = r1cs::generate_synthetic(p);
  ASSERT_TRUE(sc.ok()) << sc.status().to_string();
  const std::string path = temp_path("c.cuzkr1cs");
  ASSERT_TRUE(r1cs::write_precompiled(sc->circuit, path).ok());
  EXPECT_EQ(detect_file_kind(read_all(path)), FileKind::kPrecompiled);
  auto s = inspect_file(path);
  ASSERT_TRUE(s.ok()) << s.status().to_string();
  EXPECT_NE(s->find("kind: cuzk precompiled circuit"), std::string::npos) << *s;
  EXPECT_NE(s->find("constraints: " + std::to_string(sc->circuit.num_constraints())), std::string::npos) << *s;
  EXPECT_NE(s->find("inputs (ONE and the public values): 4"), std::string::npos) << *s;
  EXPECT_NE(s->find("aux variables: " + std::to_string(sc->circuit.num_aux())), std::string::npos) << *s;
  auto j = nlohmann::json::parse(*inspect_file(path, true));
  EXPECT_EQ(j["file"], path);
  EXPECT_EQ(j["terms"], sc->circuit.num_nonzeros());
  // A damaged header is named, not described.
  auto bytes = read_all(path);
  bytes[20] ^= 1;
  write_all(path, bytes);
  EXPECT_FALSE(inspect_file(path).ok());
}

TEST(InspectJson, EveryFieldOfTheTextIsInTheJson) {
  TestRng rng(fresh_seed());
  const uint32_t vars = 50, pub = 2;
  const auto f = bn254_zkey(vars, pub, 64);
  auto j = nlohmann::json::parse(inspect(f, true));
  EXPECT_EQ(j["kind"], "snarkjs Groth16 proving key (.zkey)");
  EXPECT_EQ(j["num_vars"], vars);
  EXPECT_EQ(j["num_public"], pub);
  EXPECT_EQ(j["domain_size"], 64);
  EXPECT_EQ(j["file_bytes"], f.size());
  ASSERT_EQ(j["sections"].size(), 2u);
  EXPECT_EQ(j["sections"][1]["id"], 2);
  EXPECT_EQ(j["sections"][1]["name"], "Groth16 header");
}

}  // namespace
}  // namespace cuzk::io
