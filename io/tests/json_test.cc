// snarkjs JSON (proof.json, public.json, verification_key.json): field names
// and nesting, decimal values checked against Python-computed constants,
// vk_alphabeta_12 against @noble/curves' e(G1, G2), round trips, and one test
// per rejection.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cuzk/ec/json_codec.h"
#include "cuzk/io/inspect.h"
#include "cuzk/io/snarkjs_json.h"
#include "cuzk/pairing/pairing.h"
#include "key_test_util.h"

namespace cuzk::io {
namespace {

using namespace cuzk::io::testing;  // NOLINT
using nlohmann::json;

// Decimal values of the generators' coordinates (Python int(hex, 16)).
const char* kG1XDec =
    "368541675371338701678108831518307775796162079578254640989457837868860759237837631883605494767634582154810418546450"
    "7";
const char* kG1YDec =
    "133950654494447647302047137994192122158493387593834962042654373641651142395633350647272465535336653499239175644156"
    "9";
const char* kG2X0Dec =
    "35270106958746661818713911601106014489002995279277524021990864423979378573571502687334760034386517595276192630316"
    "0";
const char* kG2X1Dec =
    "305914434424421370997125981475378163698647032547664755865937320629163532476895843243350956310434701783788576336575"
    "8";
const char* kRDec = "52435875175126190479447740508185965837690552500527637822603658699938581184513";

groth16::Proof random_proof(TestRng& rng) {
  auto g1 = random_points<ec::G1Curve>(rng, 2);
  return groth16::Proof{g1[0], random_points<ec::G2Curve>(rng, 1)[0], g1[1]};
}

groth16::VerifyingKey random_vk(TestRng& rng, size_t ic) {
  auto g1 = random_points<ec::G1Curve>(rng, 1);
  auto g2 = random_points<ec::G2Curve>(rng, 3);
  groth16::VerifyingKey vk;
  vk.alpha_g1 = g1[0];
  vk.beta_g2 = g2[0];
  vk.gamma_g2 = g2[1];
  vk.delta_g2 = g2[2];
  vk.ic = random_points<ec::G1Curve>(rng, ic);
  return vk;
}

std::vector<std::string> keys_of(const nlohmann::ordered_json& j) {
  std::vector<std::string> out;
  for (auto it = j.begin(); it != j.end(); ++it) out.push_back(it.key());
  return out;
}

TEST(ProofJson, LayoutAndRoundTrip) {
  groth16::Proof p{ec::g1_generator(), ec::g2_generator(), G1Affine::identity()};
  const std::string text = proof_to_json(p);
  const auto j = nlohmann::ordered_json::parse(text);
  EXPECT_EQ(keys_of(j), (std::vector<std::string>{"pi_a", "pi_b", "pi_c", "protocol", "curve"}));
  EXPECT_EQ(j["pi_a"], json::array({kG1XDec, kG1YDec, "1"}));
  EXPECT_EQ(j["pi_b"][0], json::array({kG2X0Dec, kG2X1Dec}));  // c0 first
  EXPECT_EQ(j["pi_b"][2], json::array({"1", "0"}));
  EXPECT_EQ(j["pi_c"], json::array({"0", "1", "0"}));
  EXPECT_EQ(j["protocol"], "groth16");
  EXPECT_EQ(j["curve"], "bls12381");
  EXPECT_EQ(text.substr(0, 12), "{\n \"pi_a\": [");  // JSON.stringify(x, null, 1) style

  TestRng rng(fresh_seed());
  for (int i = 0; i < 5; ++i) {
    const groth16::Proof q = random_proof(rng);
    const std::string path = temp_path("proof.json");
    ASSERT_TRUE(write_proof_json(path, q).ok());
    auto back = read_proof_json(path);
    ASSERT_TRUE(back.ok()) << back.status().to_string();
    EXPECT_EQ(*back, q);
  }
}

TEST(ProofJson, Rejections) {
  TestRng rng(fresh_seed());
  const auto good = nlohmann::ordered_json::parse(proof_to_json(random_proof(rng)));
  auto reject = [](const nlohmann::ordered_json& j, const std::string& needle) {
    return rejected_with(proof_from_json(j.dump()).status(), needle);
  };
  EXPECT_TRUE(rejected_with(proof_from_json("{\"pi_a\": [").status(), "not valid JSON"));
  EXPECT_TRUE(rejected_with(proof_from_json("[1, 2]").status(), "JSON object"));
  auto j = good;
  j.erase("pi_b");
  EXPECT_TRUE(reject(j, "field \"pi_b\": missing"));
  j = good;
  j["protocol"] = "plonk";
  EXPECT_TRUE(reject(j, "field \"protocol\""));
  j = good;
  j["curve"] = "bn128";
  EXPECT_TRUE(reject(j, "field \"curve\": the file is for BN254 (bn128), not BLS12-381"));
  j = good;
  j["curve"] = "bls12-381";
  EXPECT_TRUE(reject(j, "field \"curve\": expected \"bls12381\", got \"bls12-381\""));
  j = good;
  j["pi_a"].erase(2);
  j["pi_a"].erase(1);
  EXPECT_TRUE(reject(j, "field \"pi_a\": G1 JSON point: expected 3 entries"));
  j = good;
  j["pi_c"][0] = "12x";
  EXPECT_TRUE(reject(j, "field \"pi_c\""));
  j = good;
  j["pi_c"][1] = "5";
  EXPECT_TRUE(reject(j, "field \"pi_c\": G1 JSON point: (x, y) is not on the curve"));
  j = good;
  j["pi_b"][1][0] = 7;
  EXPECT_TRUE(reject(j, "field \"pi_b[1][0]\": expected a decimal (or 0x hex) string"));
  // Outside the subgroup: a whole-curve point.
  j = good;
  const auto s = ec::g1_to_json_strings(ec::random_curve_point<ec::G1Curve>(rng));
  j["pi_a"] = {s[0], s[1], s[2]};
  EXPECT_TRUE(reject(j, "subgroup"));
  EXPECT_TRUE(proof_from_json(j.dump(), ec::SubgroupCheck::kSkip).ok());
}

// What snarkjs's reader also takes (ffjavascript's unstringifyBigInts, then
// fromObject): "0x" hex strings, and points as [x, y] with z taken as one.
TEST(ProofJson, SnarkjsReaderForms) {
  TestRng rng(fresh_seed());
  for (int i = 0; i < 5; ++i) {
    const groth16::Proof p = random_proof(rng);
    auto j = nlohmann::ordered_json::parse(proof_to_json(p));
    j["pi_a"][0] = "0x" + p.a.x.to_hex();
    j["pi_b"][1][1] = "0x" + p.b.y.c1.to_hex();
    j["pi_c"].erase(2);
    j["pi_b"].erase(2);
    auto back = proof_from_json(j.dump());
    ASSERT_TRUE(back.ok()) << back.status().to_string();
    EXPECT_EQ(back->a, p.a);
    EXPECT_EQ(back->b, p.b);
    EXPECT_EQ(back->c, p.c);
  }
}

TEST(PublicJson, RoundTripAndRangeChecks) {
  TestRng rng(fresh_seed());
  std::vector<Fr> xs{Fr::zero(), Fr::one(), -Fr::one()};
  for (int i = 0; i < 7; ++i) xs.push_back(Fr::random(rng));
  const std::string text = public_inputs_to_json(xs);
  const auto j = json::parse(text);
  ASSERT_TRUE(j.is_array());
  EXPECT_EQ(j[0], "0");
  EXPECT_EQ(j[1], "1");
  EXPECT_EQ(j[2], "52435875175126190479447740508185965837690552500527637822603658699938581184512");
  const std::string path = temp_path("public.json");
  ASSERT_TRUE(write_public_json(path, xs).ok());
  auto back = read_public_json(path);
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  EXPECT_EQ(*back, xs);
  EXPECT_EQ(public_inputs_from_json("[]")->size(), 0u);
  EXPECT_EQ(*public_inputs_from_json("[\"5\", 6]"), (std::vector<Fr>{Fr::from_uint(5), Fr::from_uint(6)}));

  EXPECT_TRUE(rejected_with(public_inputs_from_json(std::string("[\"1\", \"2\", \"") + kRDec + "\"]").status(),
                            "field \"[2]\""));
  EXPECT_TRUE(rejected_with(public_inputs_from_json("[\"1\", \"-3\"]").status(), "field \"[1]\""));
  EXPECT_TRUE(rejected_with(public_inputs_from_json("[\"\"]").status(), "field \"[0]\""));
  EXPECT_TRUE(rejected_with(public_inputs_from_json("[\"0x\"]").status(), "field \"[0]\": hex field element"));
  EXPECT_TRUE(rejected_with(public_inputs_from_json("[true]").status(), "expected a decimal (or 0x hex) string"));
  EXPECT_TRUE(rejected_with(public_inputs_from_json("[-4]").status(), "field \"[0]\""));
  EXPECT_TRUE(rejected_with(public_inputs_from_json("[1.5]").status(), "not an exact non-negative integer"));
  EXPECT_TRUE(rejected_with(public_inputs_from_json("[1e30]").status(), "write it as a decimal string"));
  EXPECT_TRUE(rejected_with(public_inputs_from_json("{\"a\": 1}").status(), "expected an array"));
}

// Every form snarkjs's verifier reads a public value in: decimal strings with
// leading zeros, "0x" hex strings (r − 1 and 0 among them), and JSON numbers
// that are exact integers, exponent form included.
TEST(PublicJson, SnarkjsReaderForms) {
  TestRng rng(fresh_seed());
  std::vector<Fr> xs{Fr::zero(), -Fr::one()};
  for (int i = 0; i < 6; ++i) xs.push_back(Fr::random(rng));
  json j = json::array();
  for (size_t i = 0; i < xs.size(); ++i) {
    std::string text = i % 2 ? "0x" : "00";
    text += i % 2 ? xs[i].to_hex() : xs[i].to_decimal();
    j.push_back(text);
  }
  auto back = public_inputs_from_json(j.dump());
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  EXPECT_EQ(*back, xs);
  const uint64_t small = rng() >> 12;  // below 2^52: exact as a JSON number
  // Appended, not "[" + a temporary string: that form trips GCC 12's -Wrestrict.
  std::string text = "[";
  text += std::to_string(small);
  text += ", 1.5e3, 9007199254740992, 18446744073709551615]";
  back = public_inputs_from_json(text);
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  EXPECT_EQ(*back, (std::vector<Fr>{Fr::from_uint(small), Fr::from_uint(1500), Fr::from_uint(uint64_t(1) << 53),
                                    Fr::from_uint(~uint64_t(0))}));
}

// e(G1, G2) from the committed @noble/curves vectors (12 hex strings, c0.c0.c0 first).
std::vector<std::string> noble_e_g1_g2() {
  const char* dir = std::getenv("CUZK_SOURCE_DIR");
  if (dir == nullptr) return {};
  std::ifstream in(std::string(dir) + "/tests/vectors/fixed/pairing.json");
  if (!in) return {};
  const json v = json::parse(in);
  for (const auto& c : v["pairings"]) {
    if (c["a"] == "1" && c["b"] == "1") return c["e"].get<std::vector<std::string>>();
  }
  return {};
}

std::vector<std::string> flatten_gt(const json& gt) {
  std::vector<std::string> out;
  EXPECT_EQ(gt.size(), 2u);
  for (const auto& f6 : gt) {
    EXPECT_EQ(f6.size(), 3u);
    for (const auto& f2 : f6) {
      EXPECT_EQ(f2.size(), 2u);
      for (const auto& x : f2) out.push_back(x.get<std::string>());
    }
  }
  return out;
}

TEST(VkJson, LayoutAndAlphaBetaAgainstNoble) {
  groth16::VerifyingKey vk;
  vk.alpha_g1 = ec::g1_generator();
  vk.beta_g2 = ec::g2_generator();
  vk.gamma_g2 = ec::g2_generator();
  vk.delta_g2 = ec::g2_generator();
  vk.ic = {ec::g1_generator(), ec::g1_generator()};
  const auto j = nlohmann::ordered_json::parse(vk_to_json(vk));
  EXPECT_EQ(keys_of(j), (std::vector<std::string>{"protocol", "curve", "nPublic", "vk_alpha_1", "vk_beta_2",
                                                  "vk_gamma_2", "vk_delta_2", "vk_alphabeta_12", "IC"}));
  EXPECT_EQ(j["nPublic"], 1);
  EXPECT_TRUE(j["nPublic"].is_number_unsigned());
  EXPECT_EQ(j["vk_alpha_1"][0], kG1XDec);
  EXPECT_EQ(j["vk_beta_2"][0][1], kG2X1Dec);
  EXPECT_EQ(j["IC"].size(), 2u);
  const auto ours = flatten_gt(j["vk_alphabeta_12"]);
  ASSERT_EQ(ours.size(), 12u);
  const auto noble = noble_e_g1_g2();
  if (noble.empty()) GTEST_SKIP() << "tests/vectors/fixed/pairing.json not found (CUZK_SOURCE_DIR unset?)";
  ASSERT_EQ(noble.size(), 12u);
  for (size_t i = 0; i < 12; ++i) {
    std::string raw;
    ASSERT_TRUE(from_hex(noble[i], &raw));
    auto want = ff::Fp::from_bytes_be(ByteSpan(reinterpret_cast<const uint8_t*>(raw.data()), raw.size()));
    ASSERT_TRUE(want.ok());
    EXPECT_EQ(ours[i], want->to_decimal()) << "coefficient " << i;
  }
}

TEST(VkJson, AlphaBetaIsBilinear) {
  TestRng rng(fresh_seed());
  const Fr a = Fr::random(rng), b = Fr::random(rng);
  groth16::VerifyingKey vk = random_vk(rng, 1);
  vk.alpha_g1 = ec::mul(ec::g1_generator(), a).to_affine();
  vk.beta_g2 = ec::mul(ec::g2_generator(), b).to_affine();
  const auto j = nlohmann::ordered_json::parse(vk_to_json(vk));
  const ff::Fp12 base = pairing::pairing(ec::g1_generator(), ec::g2_generator());
  const ff::Fp12 want = base.cyclotomic_pow((a * b).canonical());
  const auto strings = fp12_to_json_strings(want);
  EXPECT_EQ(flatten_gt(j["vk_alphabeta_12"]), flatten_gt(json(strings)));
}

TEST(VkJson, RoundTrip) {
  TestRng rng(fresh_seed());
  for (size_t ic : {size_t(1), size_t(2), size_t(9)}) {
    const groth16::VerifyingKey vk = random_vk(rng, ic);
    const std::string path = temp_path("verification_key.json");
    ASSERT_TRUE(write_vk_json(path, vk).ok());
    auto back = read_vk_json(path);
    ASSERT_TRUE(back.ok()) << back.status().to_string();
    expect_same_vk(*back, vk);  // beta_g1 / delta_g1: identity both sides
    EXPECT_TRUE(back->beta_g1.is_infinity());
    EXPECT_EQ(back->num_public_inputs(), ic - 1);
  }
}

TEST(VkJson, Rejections) {
  TestRng rng(fresh_seed());
  const auto good = nlohmann::ordered_json::parse(vk_to_json(random_vk(rng, 3)));
  auto reject = [](const nlohmann::ordered_json& j, const std::string& needle) {
    return rejected_with(vk_from_json(j.dump()).status(), needle);
  };
  for (const char* field :
       {"protocol", "curve", "nPublic", "vk_alpha_1", "vk_beta_2", "vk_gamma_2", "vk_delta_2", "IC"}) {
    auto j = good;
    j.erase(field);
    EXPECT_TRUE(reject(j, std::string("field \"") + field + "\": missing"));
  }
  auto j = good;
  j.erase("vk_alphabeta_12");  // informational: not required
  EXPECT_TRUE(vk_from_json(j.dump()).ok());
  j = good;
  j["protocol"] = "plonk";
  EXPECT_TRUE(reject(j, "field \"protocol\": expected \"groth16\""));
  j = good;
  j["curve"] = "bn128";
  EXPECT_TRUE(reject(j, "field \"curve\": the file is for BN254 (bn128), not BLS12-381"));
  EXPECT_TRUE(reject(j, "circom --prime bls12381"));
  j = good;
  j["curve"] = 381;
  EXPECT_TRUE(reject(j, "field \"curve\": expected \"bls12381\", got 381"));
  j = good;
  j["nPublic"] = 3;
  EXPECT_TRUE(reject(j, "field \"IC\": has 3 points, nPublic + 1 = 4"));
  j = good;
  j["nPublic"] = "2";
  EXPECT_TRUE(reject(j, "field \"nPublic\""));
  j = good;
  j["IC"][1] = "x";
  EXPECT_TRUE(reject(j, "field \"IC[1]\""));
  j = good;
  j["IC"][2][0] = "1";
  EXPECT_TRUE(reject(j, "field \"IC[2]\": G1 JSON point: (x, y) is not on the curve"));
  j = good;
  j["vk_gamma_2"][2] = {"2", "0"};
  EXPECT_TRUE(reject(j, "field \"vk_gamma_2\""));
  j = good;
  j["vk_delta_2"][0] = "1";
  EXPECT_TRUE(reject(j, "field \"vk_delta_2[0]\""));
}

TEST(Inspect, JsonKinds) {
  TestRng rng(fresh_seed());
  const std::string p = temp_path("proof.json"), v = temp_path("vk.json"), pub = temp_path("public.json");
  ASSERT_TRUE(write_proof_json(p, random_proof(rng)).ok());
  ASSERT_TRUE(write_vk_json(v, random_vk(rng, 4)).ok());
  std::vector<Fr> xs{Fr::one(), Fr::from_uint(9)};
  ASSERT_TRUE(write_public_json(pub, xs).ok());
  auto s = inspect_file(p);
  ASSERT_TRUE(s.ok());
  EXPECT_NE(s->find("snarkjs proof"), std::string::npos) << *s;
  s = inspect_file(v);
  ASSERT_TRUE(s.ok());
  EXPECT_NE(s->find("nPublic: 3"), std::string::npos) << *s;
  s = inspect_file(pub);
  ASSERT_TRUE(s.ok());
  EXPECT_NE(s->find("public values: 2"), std::string::npos) << *s;
  // snarkjs's default curve: named as unsupported, as the binary files are.
  auto j = nlohmann::ordered_json::parse(vk_to_json(random_vk(rng, 2)));
  j["curve"] = "bn128";
  const std::string bn = temp_path("vk.bn128.json");
  std::ofstream(bn) << j.dump();
  s = inspect_file(bn);
  ASSERT_TRUE(s.ok());
  EXPECT_NE(s->find("curve: bn128 (BN254; not supported by cuzk"), std::string::npos) << *s;
  EXPECT_NE(s->find("supported by cuzk: no"), std::string::npos) << *s;
  s = inspect_file(v);
  EXPECT_NE(s->find("supported by cuzk: yes"), std::string::npos) << *s;
}

}  // namespace
}  // namespace cuzk::io
