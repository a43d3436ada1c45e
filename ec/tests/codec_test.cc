// Codec tests with fresh random points: round trips of the ZCash, zkey (LEM)
// and snarkjs JSON encodings, and one test per rejection reason of every
// decoder. Byte-exact agreement with @noble/curves is in ec_noble_test.cc.
#include <gtest/gtest.h>

#include <cstdio>
#include <algorithm>
#include <cctype>
#include <cstring>
#include <string>
#include <vector>

#include "cuzk/base/random.h"
#include "cuzk/ec/curves.h"
#include "cuzk/ec/json_codec.h"
#include "cuzk/ec/zcash_codec.h"
#include "cuzk/ec/zkey_codec.h"

namespace cuzk::ec {
namespace {

uint64_t fresh_seed() { return cuzk::fresh_test_seed(); }

using Bytes = std::vector<uint8_t>;

template <size_t N>
Bytes vec(const std::array<uint8_t, N>& a) {
  return Bytes(a.begin(), a.end());
}

// p as 48 big-endian bytes.
Bytes modulus_be() {
  Bytes out(48);
  for (int i = 0; i < 6; ++i) store_u64be(out.data() + 40 - 8 * i, ff::Fp::kModulus[size_t(i)]);
  return out;
}

// Expects a failed decode whose message contains `fragment`.
template <class T>
void expect_error(const StatusOr<T>& r, const std::string& fragment) {
  ASSERT_FALSE(r.ok()) << "accepted; expected an error containing '" << fragment << "'";
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find(fragment), std::string::npos) << r.status().message();
}

struct G1Codecs {
  using C = G1Curve;
  static constexpr size_t kFb = 48;
  static Bytes compressed(const G1Affine& p) { return vec(g1_to_zcash_compressed(p)); }
  static Bytes uncompressed(const G1Affine& p) { return vec(g1_to_zcash_uncompressed(p)); }
  static StatusOr<G1Affine> zcash(const Bytes& b, SubgroupCheck c = SubgroupCheck::kCheck) { return g1_from_zcash(b, c); }
  static Bytes zkey(const G1Affine& p) { return vec(g1_to_zkey(p)); }
  static StatusOr<G1Affine> from_zkey(const Bytes& b, SubgroupCheck c = SubgroupCheck::kCheck) {
    return g1_from_zkey(b, c);
  }
};

struct G2Codecs {
  using C = G2Curve;
  static constexpr size_t kFb = 96;
  static Bytes compressed(const G2Affine& p) { return vec(g2_to_zcash_compressed(p)); }
  static Bytes uncompressed(const G2Affine& p) { return vec(g2_to_zcash_uncompressed(p)); }
  static StatusOr<G2Affine> zcash(const Bytes& b, SubgroupCheck c = SubgroupCheck::kCheck) { return g2_from_zcash(b, c); }
  static Bytes zkey(const G2Affine& p) { return vec(g2_to_zkey(p)); }
  static StatusOr<G2Affine> from_zkey(const Bytes& b, SubgroupCheck c = SubgroupCheck::kCheck) {
    return g2_from_zkey(b, c);
  }
};

template <class C>
Affine<C> random_point(TestRng& rng) {
  return mul(Affine<C>::generator(), ff::Fr::random(rng)).to_affine();
}

template <class K>
class CodecTest : public ::testing::Test {};
using CodecTypes = ::testing::Types<G1Codecs, G2Codecs>;
TYPED_TEST_SUITE(CodecTest, CodecTypes);

TYPED_TEST(CodecTest, ZcashRoundTrip) {
  using K = TypeParam;
  using C = typename K::C;
  TestRng rng(fresh_seed());
  for (int i = 0; i < 10; ++i) {
    Affine<C> p = random_point<C>(rng);
    for (const Affine<C>& q : {p, -p}) {
      Bytes c = K::compressed(q), u = K::uncompressed(q);
      ASSERT_EQ(c.size(), K::kFb);
      ASSERT_EQ(u.size(), 2 * K::kFb);
      EXPECT_EQ(c[0] & 0xe0, 0x80 | (zcash_sort_flag(q.y) ? 0x20 : 0));
      EXPECT_EQ(u[0] & 0xe0, 0);
      EXPECT_TRUE(std::equal(c.begin() + 1, c.end(), u.begin() + 1));  // x is shared
      EXPECT_EQ(*K::zcash(c), q);
      EXPECT_EQ(*K::zcash(u), q);
    }
    EXPECT_NE(zcash_sort_flag(p.y), zcash_sort_flag((-p).y));
  }
  Bytes inf_c = K::compressed(Affine<C>::identity()), inf_u = K::uncompressed(Affine<C>::identity());
  EXPECT_EQ(inf_c[0], 0xc0);
  EXPECT_EQ(inf_u[0], 0x40);
  EXPECT_TRUE(K::zcash(inf_c)->is_infinity());
  EXPECT_TRUE(K::zcash(inf_u)->is_infinity());
}

TYPED_TEST(CodecTest, ZcashRejectsWrongLength) {
  using K = TypeParam;
  TestRng rng(fresh_seed());
  Bytes c = K::compressed(random_point<typename K::C>(rng));
  for (size_t n : {size_t(0), K::kFb - 1, K::kFb + 1, 2 * K::kFb - 1, 2 * K::kFb + 1, 3 * K::kFb}) {
    Bytes b = c;
    b.resize(n);
    expect_error(K::zcash(b), "bytes, got " + std::to_string(n));
  }
}

TYPED_TEST(CodecTest, ZcashRejectsCompressionFlagMismatch) {
  using K = TypeParam;
  TestRng rng(fresh_seed());
  auto p = random_point<typename K::C>(rng);
  Bytes c = K::compressed(p), u = K::uncompressed(p);
  c[0] &= 0x7f;
  u[0] |= 0x80;
  expect_error(K::zcash(c), "compression flag (0x80) is clear");
  expect_error(K::zcash(u), "compression flag (0x80) is set");
}

TYPED_TEST(CodecTest, ZcashRejectsSortFlagOnUncompressed) {
  using K = TypeParam;
  TestRng rng(fresh_seed());
  Bytes u = K::uncompressed(random_point<typename K::C>(rng));
  u[0] |= 0x20;
  expect_error(K::zcash(u), "sort flag (0x20) is set on an uncompressed encoding");
}

TYPED_TEST(CodecTest, ZcashRejectsSortFlagOnInfinity) {
  using K = TypeParam;
  Bytes c = K::compressed(Affine<typename K::C>::identity());
  c[0] |= 0x20;
  expect_error(K::zcash(c), "sort flag (0x20) is set on the point at infinity");
}

TYPED_TEST(CodecTest, ZcashRejectsInfinityWithOtherBits) {
  using K = TypeParam;
  using C = typename K::C;
  for (bool compressed : {true, false}) {
    const Bytes inf = compressed ? K::compressed(Affine<C>::identity()) : K::uncompressed(Affine<C>::identity());
    for (size_t pos : {size_t(0), size_t(1), inf.size() - 1}) {
      Bytes b = inf;
      b[pos] |= 0x01;
      expect_error(K::zcash(b), "infinity flag (0x40) is set but other bits are non-zero");
    }
  }
}

// Replaces the 48-byte big-endian slot `slot` (after the flags) by p.
template <class K>
Bytes with_modulus_at(Bytes b, size_t slot) {
  const uint8_t flags = b[0] & 0xe0;
  Bytes m = modulus_be();
  std::copy(m.begin(), m.end(), b.begin() + long(48 * slot));
  b[0] |= flags;
  return b;
}

TYPED_TEST(CodecTest, ZcashRejectsCoordinateNotBelowModulus) {
  using K = TypeParam;
  TestRng rng(fresh_seed());
  auto p = random_point<typename K::C>(rng);
  const bool g2 = K::kFb == 96;
  const std::vector<std::string> names = g2 ? std::vector<std::string>{"x.c1", "x.c0", "y.c1", "y.c0"}
                                            : std::vector<std::string>{"x", "y"};
  for (size_t slot = 0; slot < names.size(); ++slot) {
    expect_error(K::zcash(with_modulus_at<K>(K::uncompressed(p), slot)), names[slot] + " is not below the field modulus");
    if (slot < names.size() / 2)
      expect_error(K::zcash(with_modulus_at<K>(K::compressed(p), slot)), names[slot] + " is not below the field modulus");
  }
}

TYPED_TEST(CodecTest, ZcashRejectsXWithoutSquareRoot) {
  using K = TypeParam;
  using C = typename K::C;
  using F = typename C::Field;
  TestRng rng(fresh_seed());
  for (;;) {
    F x = F::random(rng);
    F y;
    if ((x.square() * x + C::kB).sqrt(&y)) continue;
    // Encode x through a real point's compressed bytes with x replaced.
    Affine<C> fake{x, F::one()};
    Bytes c = K::compressed(fake);
    c[0] &= 0x9f;  // only the compression flag
    expect_error(K::zcash(c), "x^3 + b has no square root");
    break;
  }
}

TYPED_TEST(CodecTest, ZcashRejectsPointNotOnCurve) {
  using K = TypeParam;
  using C = typename K::C;
  TestRng rng(fresh_seed());
  auto p = random_point<C>(rng);
  Affine<C> off{p.x, p.y + C::Field::one()};
  expect_error(K::zcash(K::uncompressed(off)), "(x, y) is not on the curve");
  Bytes zeros(2 * K::kFb, 0);
  expect_error(K::zcash(zeros), "(x, y) is not on the curve");  // all zeros is not infinity here
}

TYPED_TEST(CodecTest, ZcashRejectsPointOutsideSubgroup) {
  using K = TypeParam;
  using C = typename K::C;
  TestRng rng(fresh_seed());
  auto q = random_curve_point<C>(rng);
  for (const Bytes& b : {K::compressed(q), K::uncompressed(q)}) {
    expect_error(K::zcash(b), "not in the prime-order subgroup");
    auto skipped = K::zcash(b, SubgroupCheck::kSkip);
    ASSERT_TRUE(skipped.ok()) << skipped.status().to_string();
    EXPECT_EQ(*skipped, q);
  }
}

TYPED_TEST(CodecTest, ZkeyRoundTripIsTheMemoryLayout) {
  using K = TypeParam;
  using C = typename K::C;
  TestRng rng(fresh_seed());
  for (int i = 0; i < 10; ++i) {
    Affine<C> p = random_point<C>(rng);
    Bytes z = K::zkey(p);
    ASSERT_EQ(z.size(), sizeof(Affine<C>));
    EXPECT_EQ(std::memcmp(z.data(), &p, z.size()), 0);
    EXPECT_EQ(*K::from_zkey(z), p);
  }
  Bytes inf = K::zkey(Affine<C>::identity());
  EXPECT_EQ(inf, Bytes(sizeof(Affine<C>), 0));
  EXPECT_TRUE(K::from_zkey(inf)->is_infinity());
}

TYPED_TEST(CodecTest, ZkeyRejectsWrongLength) {
  using K = TypeParam;
  Bytes z = K::zkey(Affine<typename K::C>::generator());
  for (size_t n : {size_t(0), z.size() - 1, z.size() + 1}) {
    Bytes b = z;
    b.resize(n);
    expect_error(K::from_zkey(b), "bytes, got " + std::to_string(n));
  }
}

TYPED_TEST(CodecTest, ZkeyRejectsCoordinateNotBelowModulus) {
  using K = TypeParam;
  TestRng rng(fresh_seed());
  Bytes z = K::zkey(random_point<typename K::C>(rng));
  const bool g2 = K::kFb == 96;
  const std::vector<std::string> names = g2 ? std::vector<std::string>{"x.c0", "x.c1", "y.c0", "y.c1"}
                                            : std::vector<std::string>{"x", "y"};
  for (size_t slot = 0; slot < names.size(); ++slot) {
    Bytes b = z;
    for (size_t i = 0; i < 6; ++i) store_u64le(b.data() + 48 * slot + 8 * i, ff::Fp::kModulus[i]);
    expect_error(K::from_zkey(b), names[slot] + " (Montgomery form) is not below the field modulus");
  }
}

TYPED_TEST(CodecTest, ZkeyRejectsPointNotOnCurve) {
  using K = TypeParam;
  using C = typename K::C;
  auto g = Affine<C>::generator();
  Affine<C> off{g.x, g.y + C::Field::one()};
  expect_error(K::from_zkey(K::zkey(off), SubgroupCheck::kSkip), "(x, y) is not on the curve");
  Affine<C> half_zero{g.x, C::Field::zero()};  // x set, y = 0: not the infinity encoding
  expect_error(K::from_zkey(K::zkey(half_zero)), "(x, y) is not on the curve");
}

TYPED_TEST(CodecTest, ZkeyRejectsPointOutsideSubgroup) {
  using K = TypeParam;
  using C = typename K::C;
  TestRng rng(fresh_seed());
  auto q = random_curve_point<C>(rng);
  expect_error(K::from_zkey(K::zkey(q)), "not in the prime-order subgroup");
  auto skipped = K::from_zkey(K::zkey(q), SubgroupCheck::kSkip);
  ASSERT_TRUE(skipped.ok());
  EXPECT_EQ(*skipped, q);
}

TEST(ZkeyCodec, GeneratorKnownBytes) {
  // formats.md §5: G1.x in LEM starts 160c53fd9087b35c.
  auto z = g1_to_zkey(g1_generator());
  const uint8_t prefix[8] = {0x16, 0x0c, 0x53, 0xfd, 0x90, 0x87, 0xb3, 0x5c};
  EXPECT_EQ(std::memcmp(z.data(), prefix, 8), 0);
}

TEST(ZcashCodec, GeneratorKnownBytes) {
  // formats.md §1: G1.x = 17f1d3a7... with the compression flag → 97f1d3a7...
  auto c = g1_to_zcash_compressed(g1_generator());
  EXPECT_EQ(c[0], 0x97);
  EXPECT_EQ(c[1], 0xf1);
  // G2.x.c1 = 13e02b60... first; the generator's y is the smaller root.
  auto c2 = g2_to_zcash_compressed(g2_generator());
  EXPECT_EQ(c2[0], 0x93);
  EXPECT_EQ(c2[1], 0xe0);
}


TEST(ZcashCodec, SortFlagRule) {
  // y is "larger" when y > (p − 1)/2; for Fp2 decided by c1, by c0 only when c1 = 0.
  const ff::Fp half_minus = ff::Fp::one().half() - ff::Fp::one();  // (p + 1)/2 − 1 = (p − 1)/2
  const ff::Fp above = half_minus + ff::Fp::one();
  EXPECT_FALSE(zcash_sort_flag(ff::Fp::zero()));
  EXPECT_FALSE(zcash_sort_flag(half_minus));
  EXPECT_TRUE(zcash_sort_flag(above));
  EXPECT_TRUE(zcash_sort_flag(-ff::Fp::one()));
  using ff::Fp2;
  EXPECT_TRUE(zcash_sort_flag(Fp2(ff::Fp::zero(), above)));
  EXPECT_FALSE(zcash_sort_flag(Fp2(above, ff::Fp::one())));  // c1 small decides, c0 ignored
  EXPECT_TRUE(zcash_sort_flag(Fp2(above, ff::Fp::zero())));  // c1 = 0: c0 decides
  EXPECT_FALSE(zcash_sort_flag(Fp2(half_minus, ff::Fp::zero())));
  TestRng rng(fresh_seed());
  for (int i = 0; i < 20; ++i) {
    Fp2 y = Fp2::random(rng);
    EXPECT_NE(zcash_sort_flag(y), zcash_sort_flag(-y));
    ff::Fp c0 = ff::Fp::random(rng);
    EXPECT_NE(zcash_sort_flag(Fp2(c0, ff::Fp::zero())), zcash_sort_flag(Fp2(-c0, ff::Fp::zero())));
  }
}

// ---- snarkjs JSON ----

G2JsonStrings g2_strings(const std::vector<std::vector<std::string>>& v) {
  G2JsonStrings out;
  for (size_t i = 0; i < 3; ++i) out[i] = {v[i][0], v[i][1]};
  return out;
}

TEST(JsonCodec, RoundTripAndInfinity) {
  TestRng rng(fresh_seed());
  for (int i = 0; i < 10; ++i) {
    G1Affine p = random_g1(rng);
    G1JsonStrings s = g1_to_json_strings(p);
    EXPECT_EQ(s[0], p.x.to_decimal());
    EXPECT_EQ(s[1], p.y.to_decimal());
    EXPECT_EQ(s[2], "1");
    EXPECT_EQ(*g1_from_json_strings(s), p);
    G2Affine q = random_g2(rng);
    G2JsonStrings t = g2_to_json_strings(q);
    EXPECT_EQ(t[0][0], q.x.c0.to_decimal());
    EXPECT_EQ(t[0][1], q.x.c1.to_decimal());
    EXPECT_EQ(t[1][0], q.y.c0.to_decimal());
    EXPECT_EQ(t[1][1], q.y.c1.to_decimal());
    EXPECT_EQ(t[2], (std::array<std::string, 2>{"1", "0"}));
    EXPECT_EQ(*g2_from_json_strings(t), q);
  }
  EXPECT_EQ(g1_to_json_strings(G1Affine::identity()), (G1JsonStrings{"0", "1", "0"}));
  EXPECT_TRUE(g1_from_json_strings(G1JsonStrings{"0", "1", "0"})->is_infinity());
  G2JsonStrings inf = g2_to_json_strings(G2Affine::identity());
  EXPECT_EQ(inf, g2_strings({{"0", "0"}, {"1", "0"}, {"0", "0"}}));
  EXPECT_TRUE(g2_from_json_strings(inf)->is_infinity());
}

TEST(JsonCodec, RejectsWrongEntryCount) {
  std::vector<std::string> one = {"1"};
  expect_error(g1_from_json_strings(one), "expected 3 entries (x, y, z), got 1");
  std::vector<std::string> four = {"1", "2", "1", "0"};
  expect_error(g1_from_json_strings(four), "expected 3 entries (x, y, z), got 4");
  std::vector<std::vector<std::string>> g2_short = {{"0", "0"}};
  expect_error(g2_from_json_strings(g2_short), "expected 3 entries (x, y, z), got 1");
  std::vector<std::vector<std::string>> g2_inner = {{"0"}, {"1", "0"}, {"0", "0"}};
  expect_error(g2_from_json_strings(g2_inner), "x: expected 2 entries (c0, c1), got 1");
}

// [x, y] without z: snarkjs (ffjavascript's fromObject) takes z as one.
TEST(JsonCodec, TwoEntriesMeanZOne) {
  TestRng rng(fresh_seed());
  for (int i = 0; i < 5; ++i) {
    const G1Affine p = random_g1(rng);
    const G1JsonStrings s = g1_to_json_strings(p);
    EXPECT_EQ(*g1_from_json_strings(std::vector<std::string>{s[0], s[1]}), p);
    const G2Affine q = random_g2(rng);
    const G2JsonStrings t = g2_to_json_strings(q);
    const std::vector<std::vector<std::string>> xy = {{t[0][0], t[0][1]}, {t[1][0], t[1][1]}};
    EXPECT_EQ(*g2_from_json_strings(xy), q);
  }
  // Still a curve point: (1, 2) is not one, and (0, 1) is not infinity without z = 0.
  expect_error(g1_from_json_strings(std::vector<std::string>{"1", "2"}), "(x, y) is not on the curve");
  expect_error(g1_from_json_strings(std::vector<std::string>{"0", "1"}), "(x, y) is not on the curve");
}

// Big-endian hex with leading zeros, in either case.
template <class F>
std::string hex_of(const F& v, TestRng& rng) {
  std::string h = v.to_hex();
  h.erase(0, std::min(h.find_first_not_of('0'), h.size() - 1));
  h.insert(0, rng() % 4, '0');
  if (rng() % 2) {
    for (char& c : h) c = char(std::toupper(static_cast<unsigned char>(c)));
  }
  return "0x" + h;
}

// snarkjs reads "0x..." strings as numbers too (ffjavascript's unstringifyBigInts).
TEST(JsonCodec, HexValues) {
  TestRng rng(fresh_seed());
  for (int i = 0; i < 10; ++i) {
    const G1Affine p = random_g1(rng);
    G1JsonStrings s = {hex_of(p.x, rng), hex_of(p.y, rng), "0x1"};
    EXPECT_EQ(*g1_from_json_strings(s), p) << s[0];
    const G2Affine q = random_g2(rng);
    G2JsonStrings t = g2_to_json_strings(q);
    t[1][1] = hex_of(q.y.c1, rng);
    EXPECT_EQ(*g2_from_json_strings(t), q) << t[1][1];
    const ff::Fr x = ff::Fr::random(rng);
    EXPECT_EQ(*fr_from_json_string(hex_of(x, rng)), x);
    EXPECT_EQ(*fr_from_json_string(x.to_decimal()), x);
    EXPECT_EQ(*fp_from_json_string(hex_of(p.x, rng)), p.x);
  }
  EXPECT_EQ(*fr_from_json_string("0x0"), ff::Fr::zero());
  EXPECT_EQ(*fr_from_json_string("0x" + std::string(200, '0') + "1f"), ff::Fr::from_uint(31));
  // p and r themselves, and a value one digit longer than any element.
  const std::string p_hex = "0x" + (-ff::Fp::one()).to_hex();  // p − 1 ends in ...aaaa; p ends in ...aaab
  EXPECT_TRUE(fp_from_json_string(p_hex).ok());
  std::string p_exact = p_hex;
  p_exact.back() = 'b';
  expect_error(fp_from_json_string(p_exact), "hex field element: value is not below the field modulus");
  std::string r_exact = "0x" + (-ff::Fr::one()).to_hex();
  r_exact.back() = '1';  // r − 1 ends in 00; r ends in 01
  expect_error(fr_from_json_string(r_exact), "hex field element: value is not below the field modulus");
  expect_error(fr_from_json_string("0x1" + std::string(64, '0')), "not below the field modulus");
  for (const char* bad : {"0x", "0x1g", "0x 1", "0x-1", "0x0x1"})
    expect_error(fr_from_json_string(bad), "hex field element");
}

TEST(JsonCodec, RejectsBadDecimal) {
  G1JsonStrings g = g1_to_json_strings(g1_generator());
  for (const char* bad : {"", "12a", "-1", " 1", "0X10", "1.0", "x10"}) {
    G1JsonStrings s = g;
    s[1] = bad;
    expect_error(g1_from_json_strings(s), "y: decimal field element");
  }
  G2JsonStrings t = g2_to_json_strings(g2_generator());
  t[0][1] = "+5";
  expect_error(g2_from_json_strings(t), "x.c1: decimal field element");
}

TEST(JsonCodec, RejectsValueNotBelowModulus) {
  const std::string p = (-ff::Fp::one()).to_decimal();  // p − 1; make p by bumping the last digit
  std::string p_dec = p;
  p_dec.back() = char(p_dec.back() + 1);  // p − 1 ends in 6 (p ends in 7)
  G1JsonStrings s = g1_to_json_strings(g1_generator());
  s[0] = p_dec;
  expect_error(g1_from_json_strings(s), "x: decimal field element: value is not below the field modulus");
  s[0] = p_dec + "0";
  expect_error(g1_from_json_strings(s), "not below the field modulus");
  G2JsonStrings t = g2_to_json_strings(g2_generator());
  t[1][0] = p_dec;
  expect_error(g2_from_json_strings(t), "y.c0: decimal field element: value is not below the field modulus");
}

TEST(JsonCodec, RejectsBadZ) {
  G1JsonStrings s = g1_to_json_strings(g1_generator());
  s[2] = "2";
  expect_error(g1_from_json_strings(s), "z must be one (affine point) or zero (infinity)");
  s[2] = "0";  // z = 0 with the generator's x, y
  expect_error(g1_from_json_strings(s), "z is zero but (x, y) is not the infinity form (0, 1)");
  expect_error(g1_from_json_strings(G1JsonStrings{"0", "0", "0"}), "not the infinity form");
  G2JsonStrings t = g2_to_json_strings(g2_generator());
  t[2] = {"1", "1"};
  expect_error(g2_from_json_strings(t), "z must be one");
  t[2] = {"0", "0"};
  expect_error(g2_from_json_strings(t), "not the infinity form");
}

TEST(JsonCodec, RejectsPointNotOnCurve) {
  G1JsonStrings s = g1_to_json_strings(g1_generator());
  s[1] = (g1_generator().y + ff::Fp::one()).to_decimal();
  expect_error(g1_from_json_strings(s, SubgroupCheck::kSkip), "(x, y) is not on the curve");
  expect_error(g1_from_json_strings(G1JsonStrings{"0", "0", "1"}), "(x, y) is not on the curve");
  G2JsonStrings t = g2_to_json_strings(g2_generator());
  t[0][0] = "1";
  expect_error(g2_from_json_strings(t, SubgroupCheck::kSkip), "(x, y) is not on the curve");
  expect_error(g2_from_json_strings(g2_strings({{"0", "0"}, {"0", "0"}, {"1", "0"}})), "(x, y) is not on the curve");
}

TEST(JsonCodec, RejectsPointOutsideSubgroup) {
  TestRng rng(fresh_seed());
  auto p = random_curve_point<G1Curve>(rng);
  expect_error(g1_from_json_strings(g1_to_json_strings(p)), "not in the prime-order subgroup");
  EXPECT_EQ(*g1_from_json_strings(g1_to_json_strings(p), SubgroupCheck::kSkip), p);
  auto q = random_curve_point<G2Curve>(rng);
  expect_error(g2_from_json_strings(g2_to_json_strings(q)), "not in the prime-order subgroup");
  EXPECT_EQ(*g2_from_json_strings(g2_to_json_strings(q), SubgroupCheck::kSkip), q);
}

TEST(Validate, NamesTheFailedCheck) {
  TestRng rng(fresh_seed());
  EXPECT_TRUE(validate(random_g1(rng)).ok());
  EXPECT_TRUE(validate(random_g2(rng)).ok());
  EXPECT_TRUE(validate(G1Affine::identity()).ok());
  auto q = random_curve_point<G2Curve>(rng);
  EXPECT_NE(validate(q).message().find("not in the prime-order subgroup"), std::string::npos);
  EXPECT_TRUE(validate(q, SubgroupCheck::kSkip).ok());
  G1Affine off{g1_generator().x, g1_generator().x};
  EXPECT_NE(validate(off, SubgroupCheck::kSkip).message().find("not on the curve"), std::string::npos);
}

}  // namespace
}  // namespace cuzk::ec
