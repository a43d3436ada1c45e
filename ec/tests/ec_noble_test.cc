// Differential tests against @noble/curves (tests/vectors/ec_vectors.mjs):
// the committed fixed set (seed 1) always, and a fresh set from
// $CUZK_FRESH_VECTORS_DIR/ec.json when that variable is set. Every encoding is
// compared byte for byte.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cuzk/base/bytes.h"
#include "cuzk/ec/curves.h"
#include "cuzk/ec/json_codec.h"
#include "cuzk/ec/zcash_codec.h"
#include "cuzk/ec/zkey_codec.h"

namespace cuzk::ec {
namespace {

using nlohmann::json;

json load(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  if (!in.good()) return json();
  return json::parse(in);
}

std::vector<uint8_t> bytes_of(const std::string& hex) {
  std::string raw;
  EXPECT_TRUE(from_hex(hex, &raw)) << hex;
  return std::vector<uint8_t>(raw.begin(), raw.end());
}

template <size_t N>
std::string hex_of(const std::array<uint8_t, N>& a) {
  return to_hex(ByteSpan(a.data(), a.size()));
}

// A decimal below 2^256 as limbs.
ff::Limbs<4> limbs_of_decimal(const std::string& s) {
  ff::Limbs<4> v{};
  for (char ch : s) {
    uint64_t carry = uint64_t(ch - '0');
    for (auto& limb : v) limb = ff::mac(0, limb, 10, carry);
    EXPECT_EQ(carry, 0u) << s;
  }
  return v;
}

ff::Fp fp_of(const json& j) { return ff::Fp::from_decimal(j.get<std::string>()).value(); }
ff::Fp2 fp2_of(const json& j) { return ff::Fp2(fp_of(j.at(0)), fp_of(j.at(1))); }

// The per-curve codec entry points, so one checker serves G1 and G2.
struct G1Api {
  using C = G1Curve;
  static ff::Fp field(const json& j) { return fp_of(j); }
  static auto compressed(const G1Affine& p) { return g1_to_zcash_compressed(p); }
  static auto uncompressed(const G1Affine& p) { return g1_to_zcash_uncompressed(p); }
  static auto zkey(const G1Affine& p) { return g1_to_zkey(p); }
  static auto from_zcash(ByteSpan b, SubgroupCheck c) { return g1_from_zcash(b, c); }
  static auto from_zkey(ByteSpan b, SubgroupCheck c) { return g1_from_zkey(b, c); }
  static json to_json(const G1Affine& p) { return json(g1_to_json_strings(p)); }
  static auto from_json(const json& j, SubgroupCheck c) {
    return g1_from_json_strings(j.get<std::vector<std::string>>(), c);
  }
  // snarkjs JSON of an affine (x, y) given as the vector's decimals.
  static json json_form(const json& pt) {
    return pt.at("infinity").get<bool>() ? json::array({"0", "1", "0"}) : json::array({pt.at("x"), pt.at("y"), "1"});
  }
};

struct G2Api {
  using C = G2Curve;
  static ff::Fp2 field(const json& j) { return fp2_of(j); }
  static auto compressed(const G2Affine& p) { return g2_to_zcash_compressed(p); }
  static auto uncompressed(const G2Affine& p) { return g2_to_zcash_uncompressed(p); }
  static auto zkey(const G2Affine& p) { return g2_to_zkey(p); }
  static auto from_zcash(ByteSpan b, SubgroupCheck c) { return g2_from_zcash(b, c); }
  static auto from_zkey(ByteSpan b, SubgroupCheck c) { return g2_from_zkey(b, c); }
  static json to_json(const G2Affine& p) { return json(g2_to_json_strings(p)); }
  static auto from_json(const json& j, SubgroupCheck c) {
    return g2_from_json_strings(j.get<std::vector<std::vector<std::string>>>(), c);
  }
  static json json_form(const json& pt) {
    if (pt.at("infinity").get<bool>()) return json::parse(R"([["0","0"],["1","0"],["0","0"]])");
    return json::array({pt.at("x"), pt.at("y"), json::array({"1", "0"})});
  }
};

template <class Api>
Affine<typename Api::C> point_of(const json& pt) {
  if (pt.at("infinity").get<bool>()) return Affine<typename Api::C>::identity();
  return Affine<typename Api::C>{Api::field(pt.at("x")), Api::field(pt.at("y"))};
}

// Every encoder reproduces the vector's bytes and every decoder returns the point.
template <class Api>
void check_point_codecs(const Affine<typename Api::C>& p, const json& pt) {
  const auto comp = pt.at("compressed").get<std::string>();
  const auto unc = pt.at("uncompressed").get<std::string>();
  const auto lem = pt.at("lem").get<std::string>();
  EXPECT_EQ(hex_of(Api::compressed(p)), comp);
  EXPECT_EQ(hex_of(Api::uncompressed(p)), unc);
  EXPECT_EQ(hex_of(Api::zkey(p)), lem);
  EXPECT_EQ(Api::to_json(p), Api::json_form(pt));
  for (const auto& h : {comp, unc}) {
    auto d = Api::from_zcash(bytes_of(h), SubgroupCheck::kCheck);
    ASSERT_TRUE(d.ok()) << d.status().to_string() << " " << h;
    EXPECT_EQ(*d, p) << h;
  }
  auto z = Api::from_zkey(bytes_of(lem), SubgroupCheck::kCheck);
  ASSERT_TRUE(z.ok()) << z.status().to_string();
  EXPECT_EQ(*z, p);
  auto j = Api::from_json(Api::json_form(pt), SubgroupCheck::kCheck);
  ASSERT_TRUE(j.ok()) << j.status().to_string();
  EXPECT_EQ(*j, p);
}

template <class Api>
void check_mul(const json& cases) {
  using C = typename Api::C;
  for (const auto& c : cases) {
    SCOPED_TRACE("k = " + c.at("k").get<std::string>());
    const auto k = limbs_of_decimal(c.at("k").get<std::string>());
    const auto expected = point_of<Api>(c.at("point"));
    const auto got = mul(Affine<C>::generator(), std::span<const uint64_t>(k)).to_affine();
    EXPECT_EQ(got, expected);
    EXPECT_EQ(got.is_infinity(), c.at("point").at("infinity").get<bool>());
    check_point_codecs<Api>(got, c.at("point"));
  }
}

template <class Api>
void check_add(const json& cases) {
  using C = typename Api::C;
  for (const auto& c : cases) {
    SCOPED_TRACE(c.at("case").get<std::string>());
    const auto p = point_of<Api>(c.at("p")), q = point_of<Api>(c.at("q")), s = point_of<Api>(c.at("sum"));
    const auto pj = Jacobian<C>::from_affine(p), qj = Jacobian<C>::from_affine(q);
    EXPECT_EQ((pj + qj).to_affine(), s);
    EXPECT_EQ((pj + q).to_affine(), s);
    EXPECT_TRUE(pj + q == s);
    Xyzz<C> acc = Xyzz<C>::from_affine(p);
    acc += q;
    EXPECT_EQ(acc.to_affine(), s);
    EXPECT_EQ((Xyzz<C>::from_affine(p) + Xyzz<C>::from_affine(q)).to_affine(), s);
    check_point_codecs<Api>(s, c.at("sum"));
  }
}

template <class Api>
void check_mul_point(const json& cases) {
  for (const auto& c : cases) {
    SCOPED_TRACE("k = " + c.at("k").get<std::string>());
    const auto p = point_of<Api>(c.at("p"));
    const auto k = limbs_of_decimal(c.at("k").get<std::string>());
    EXPECT_EQ(mul(p, std::span<const uint64_t>(k)).to_affine(), point_of<Api>(c.at("result")));
    check_point_codecs<Api>(p, c.at("p"));
  }
}

// Points on the curve outside the subgroup: every decoder rejects them for the
// subgroup reason, accepts them with SubgroupCheck::kSkip, and the cofactor
// clearing agrees with noble's.
template <class Api>
void check_non_subgroup(const json& cases) {
  using C = typename Api::C;
  for (const auto& c : cases) {
    const auto p = point_of<Api>(c);
    ASSERT_TRUE(p.is_on_curve());
    EXPECT_FALSE(in_subgroup(p));
    EXPECT_FALSE(in_subgroup_slow(p));
    EXPECT_EQ(hex_of(Api::compressed(p)), c.at("compressed").get<std::string>());
    EXPECT_EQ(hex_of(Api::uncompressed(p)), c.at("uncompressed").get<std::string>());
    EXPECT_EQ(hex_of(Api::zkey(p)), c.at("lem").get<std::string>());
    for (const char* field : {"compressed", "uncompressed"}) {
      auto bytes = bytes_of(c.at(field).get<std::string>());
      auto d = Api::from_zcash(bytes, SubgroupCheck::kCheck);
      ASSERT_FALSE(d.ok());
      EXPECT_NE(d.status().message().find("not in the prime-order subgroup"), std::string::npos);
      auto s = Api::from_zcash(bytes, SubgroupCheck::kSkip);
      ASSERT_TRUE(s.ok()) << s.status().to_string();
      EXPECT_EQ(*s, p);
    }
    auto lem = bytes_of(c.at("lem").get<std::string>());
    EXPECT_FALSE(Api::from_zkey(lem, SubgroupCheck::kCheck).ok());
    EXPECT_TRUE(Api::from_zkey(lem, SubgroupCheck::kSkip).ok());
    EXPECT_FALSE(Api::from_json(Api::json_form(c), SubgroupCheck::kCheck).ok());
    EXPECT_TRUE(Api::from_json(Api::json_form(c), SubgroupCheck::kSkip).ok());
    const auto cleared = clear_cofactor(Jacobian<C>::from_affine(p)).to_affine();
    EXPECT_EQ(cleared, point_of<Api>(c.at("cleared")));
    check_point_codecs<Api>(cleared, c.at("cleared"));
  }
}

// The message fragment each rejection reason must produce.
std::string expected_message(const std::string& reason) {
  if (reason == "length") return "bytes, got";
  if (reason == "compression_flag") return "compression flag (0x80)";
  if (reason == "sort_flag_uncompressed") return "sort flag (0x20) is set on an uncompressed";
  if (reason == "sort_flag_infinity") return "sort flag (0x20) is set on the point at infinity";
  if (reason == "infinity_bits") return "infinity flag (0x40) is set but other bits";
  if (reason == "x_range" || reason == "y_range") return "is not below the field modulus";
  if (reason == "no_sqrt") return "no square root";
  if (reason == "not_on_curve") return "is not on the curve";
  if (reason == "not_in_subgroup") return "not in the prime-order subgroup";
  ADD_FAILURE() << "unknown reason " << reason;
  return "?";
}

template <class Api>
void check_invalid(const json& cases) {
  for (const auto& c : cases) {
    const auto reason = c.at("reason").get<std::string>();
    const auto hex = c.at("hex").get<std::string>();
    auto d = Api::from_zcash(bytes_of(hex), SubgroupCheck::kCheck);
    ASSERT_FALSE(d.ok()) << reason << " " << hex;
    const std::string msg = d.status().message();
    EXPECT_NE(msg.find(expected_message(reason)), std::string::npos) << reason << ": " << msg;
    if (reason == "x_range") {
      EXPECT_NE(msg.find(": x"), std::string::npos) << msg;
    }
    if (reason == "y_range") {
      EXPECT_NE(msg.find(": y"), std::string::npos) << msg;
    }
  }
}

template <class Api>
void check_curve(const json& v) {
  using C = typename Api::C;
  EXPECT_EQ(point_of<Api>(v.at("generator")), Affine<C>::generator());
  check_point_codecs<Api>(Affine<C>::generator(), v.at("generator"));
  check_mul<Api>(v.at("mul"));
  check_add<Api>(v.at("add"));
  check_mul_point<Api>(v.at("mul_point"));
  check_non_subgroup<Api>(v.at("non_subgroup"));
  check_invalid<Api>(v.at("invalid"));
  EXPECT_GE(v.at("invalid").size(), 18u);
}

void check_file(const std::string& path) {
  json v = load(path);
  ASSERT_TRUE(v.is_object()) << path;
  std::printf("vectors %s (seed %s)\n", path.c_str(), v.at("seed").get<std::string>().c_str());
  {
    SCOPED_TRACE("G1");
    check_curve<G1Api>(v.at("g1"));
  }
  {
    SCOPED_TRACE("G2");
    check_curve<G2Api>(v.at("g2"));
  }
}

TEST(EcNoble, FixedVectors) {
  const char* src = std::getenv("CUZK_SOURCE_DIR");
  ASSERT_NE(src, nullptr) << "CUZK_SOURCE_DIR is not set (run through ctest)";
  check_file(std::string(src) + "/tests/vectors/fixed/ec.json");
}

TEST(EcNoble, FreshVectors) {
  const char* dir = std::getenv("CUZK_FRESH_VECTORS_DIR");
  if (dir == nullptr) GTEST_SKIP() << "CUZK_FRESH_VECTORS_DIR is not set";
  check_file(std::string(dir) + "/ec.json");
}

}  // namespace
}  // namespace cuzk::ec
