// bellperson .params / .vk / proof files: the 3000-byte example of
// formats.md §3, the ZCash byte layout against the generator encodings of
// formats.md §1–2, random round trips, and one test per rejection reason.
#include "cuzk/io/bellperson.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <tuple>

#include "cuzk/ec/batch.h"
#include "cuzk/ec/scalar_mul.h"
#include "cuzk/ec/zcash_codec.h"
#include "cuzk/groth16/verifier.h"
#include "cuzk/io/inspect.h"
#include "key_test_util.h"

namespace cuzk::io {
namespace {

using namespace cuzk::io::testing;  // NOLINT

const char* kG1X = "17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb";
const char* kG1Y = "08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1";
const char* kG2X0 = "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8";
const char* kG2X1 = "13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e";
const char* kG2Y0 = "0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801";
const char* kG2Y1 = "0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be";

std::string hex_at(const std::vector<uint8_t>& f, size_t off, size_t n) { return to_hex(ByteSpan(&f[off], n)); }

struct Fixture {
  r1cs::DensityBitmaps density;
  groth16::ProvingKey pk;
};

// A bellperson key with a random density (every input in A, as the input rows make it).
Fixture random_params(TestRng& rng, uint64_t inputs, uint64_t aux, int lg_n) {
  Fixture f;
  f.density.a_input = random_bitmap(rng, inputs, inputs);
  f.density.a_aux = random_bitmap(rng, aux);
  f.density.b_input = random_bitmap(rng, inputs);
  f.density.b_aux = random_bitmap(rng, aux);
  f.pk = random_key(rng, groth16::KeyLayout::kBellperson, inputs, aux, lg_n,
                    concat_bits(f.density.a_input, f.density.a_aux), concat_bits(f.density.b_input, f.density.b_aux));
  return f;
}

std::vector<uint8_t> params_bytes(const groth16::ProvingKey& pk) {
  const std::string path = temp_path("k.params");
  Status s = write_params(path, pk);
  EXPECT_TRUE(s.ok()) << s.to_string();
  return read_all(path);
}

Status parse(const std::vector<uint8_t>& f, const r1cs::DensityBitmaps& d, bool check = true) {
  return parse_params(f, d, ParamsReadOptions{.check_subgroup = check}).status();
}

TEST(Params, WorkedExample3000Bytes) {
  // formats.md §3: ONE + 1 public input, 3 aux, 3 constraints → n = 8, H 7; A 4, B 2.
  TestRng rng(fresh_seed());
  Fixture fx;
  fx.density.a_input = make_bitmap({true, true});
  fx.density.a_aux = make_bitmap({true, false, true});
  fx.density.b_input = make_bitmap({false, true});
  fx.density.b_aux = make_bitmap({false, false, true});
  fx.pk = random_key(rng, groth16::KeyLayout::kBellperson, 2, 3, 3, concat_bits(fx.density.a_input, fx.density.a_aux),
                     concat_bits(fx.density.b_input, fx.density.b_aux));
  fx.pk.vk.alpha_g1 = ec::g1_generator();
  fx.pk.vk.beta_g2 = ec::g2_generator();
  const auto f = params_bytes(fx.pk);
  ASSERT_EQ(f.size(), 3000u);
  // Uncompressed, big-endian, no flags; G2 as x.c1 ‖ x.c0 ‖ y.c1 ‖ y.c0.
  EXPECT_EQ(hex_at(f, 0, 48), kG1X);
  EXPECT_EQ(hex_at(f, 48, 48), kG1Y);
  EXPECT_EQ(hex_at(f, 192, 48), kG2X1);
  EXPECT_EQ(hex_at(f, 240, 48), kG2X0);
  EXPECT_EQ(hex_at(f, 288, 48), kG2Y1);
  EXPECT_EQ(hex_at(f, 336, 48), kG2Y0);
  EXPECT_EQ(load_u32be(&f[864]), 2u);   // IC
  EXPECT_EQ(load_u32be(&f[1060]), 7u);  // H
  EXPECT_EQ(load_u32be(&f[1736]), 3u);  // L
  EXPECT_EQ(load_u32be(&f[2028]), 4u);  // A
  EXPECT_EQ(load_u32be(&f[2416]), 2u);  // B_G1
  EXPECT_EQ(load_u32be(&f[2612]), 2u);  // B_G2
  auto lay = scan_params(f);
  ASSERT_TRUE(lay.ok());
  EXPECT_EQ(lay->end_offset, 3000u);
  EXPECT_EQ(lay->b_g2.offset, 2616u);
  auto back = parse_params(f, fx.density);
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  expect_same_key(*back, fx.pk);
}

TEST(Params, RandomRoundTripIsByteExact) {
  TestRng rng(fresh_seed());
  ThreadPool pool(3);
  for (int iter = 0; iter < 3; ++iter) {
    Fixture fx = random_params(rng, 1 + rng() % 5, 1 + rng() % 40, 2 + int(rng() % 4));
    auto f = params_bytes(fx.pk);
    const std::string path = temp_path("rt.params");
    write_all(path, f);
    auto back = read_params(path, fx.density, ParamsReadOptions{.pool = &pool});
    ASSERT_TRUE(back.ok()) << back.status().to_string();
    expect_same_key(*back, fx.pk);
    EXPECT_EQ(params_bytes(*back), f);
    // Trailing bytes (phase-2 contributions) are ignored.
    for (int i = 0; i < 100; ++i) f.push_back(uint8_t(rng()));
    auto again = parse_params(f, fx.density);
    ASSERT_TRUE(again.ok());
    expect_same_key(*again, fx.pk);
  }
}

TEST(Params, RejectsDensityThatDisagreesWithCounts) {
  TestRng rng(fresh_seed());
  Fixture fx = random_params(rng, 3, 10, 3);
  const auto f = params_bytes(fx.pk);
  auto d = fx.density;
  d.a_input = make_bitmap({true, true, true, true});
  EXPECT_TRUE(rejected_with(parse(f, d), "inputs (IC length)"));
  d = fx.density;
  d.a_input = make_bitmap({true, false, true});
  EXPECT_TRUE(rejected_with(parse(f, d), "every input set"));
  d = fx.density;
  d.a_aux = r1cs::Bitmap(11);
  EXPECT_TRUE(rejected_with(parse(f, d), "L length"));
  d = fx.density;
  d.a_aux.words[0] ^= 1;
  d.a_aux.popcount = uint64_t(__builtin_popcountll(d.a_aux.words[0]));
  EXPECT_TRUE(rejected_with(parse(f, d), "A length"));
  d = fx.density;
  d.b_aux.words[0] ^= 2;
  d.b_aux.popcount = uint64_t(__builtin_popcountll(d.b_aux.words[0]));
  EXPECT_TRUE(rejected_with(parse(f, d), "B_G1 length"));
  // H with 6 points: n = 7 is not a power of two.
  auto g = f;
  const size_t h_at = 868 + 96 * 3;
  const uint8_t six[4] = {0, 0, 0, 6};
  std::copy(six, six + 4, g.begin() + long(h_at));
  g.erase(g.begin() + long(h_at + 4), g.begin() + long(h_at + 4 + 96));
  EXPECT_TRUE(rejected_with(parse(g, fx.density), "power of two"));
}

TEST(Params, RejectsTruncationAndHugeCounts) {
  TestRng rng(fresh_seed());
  Fixture fx = random_params(rng, 2, 6, 3);
  const auto f = params_bytes(fx.pk);
  auto lay = *scan_params(f);
  for (size_t cut : {size_t(0), size_t(100), size_t(863), size_t(866), size_t(lay.h.offset - 2),
                     size_t(lay.h.offset + 50), size_t(lay.l.offset), size_t(lay.a.offset + 95),
                     size_t(lay.b_g1.offset - 1), size_t(lay.b_g2.offset + 191), f.size() - 1}) {
    std::vector<uint8_t> g(f.begin(), f.begin() + long(cut));
    Status st = parse(g, fx.density);
    EXPECT_TRUE(rejected_with(st, "truncated")) << "cut " << cut;
    EXPECT_TRUE(rejected_with(st, "byte offset")) << "cut " << cut;
  }
  auto g = f;
  store_u32be(&g[lay.l.offset - 4], 0xffffffff);
  EXPECT_TRUE(rejected_with(parse(g, fx.density), "L declares 4294967295 points"));
  g = f;
  store_u32be(&g[864], 0xffffffff);
  EXPECT_TRUE(rejected_with(parse(g, fx.density), "IC declares"));
}

TEST(Params, RejectsBadPoints) {
  TestRng rng(fresh_seed());
  Fixture fx = random_params(rng, 2, 6, 3);
  const auto f = params_bytes(fx.pk);
  const auto lay = *scan_params(f);
  // Infinity in H (uncompressed infinity: 0x40 then zeros).
  auto g = f;
  std::fill(&g[lay.h.offset + 3 * 96], &g[lay.h.offset + 4 * 96], 0);
  g[lay.h.offset + 3 * 96] = 0x40;
  Status st = parse(g, fx.density);
  EXPECT_TRUE(rejected_with(st, "H[3] is the point at infinity"));
  EXPECT_TRUE(rejected_with(st, "byte offset " + std::to_string(lay.h.offset + 3 * 96)));
  // Infinity in IC.
  g = f;
  std::fill(&g[868 + 96], &g[868 + 192], 0);
  g[868 + 96] = 0x40;
  EXPECT_TRUE(rejected_with(parse(g, fx.density), "IC[1] is the point at infinity"));
  // Infinity in delta_g1 is rejected in a .params (bellperson's reader allows it, but proofs
  // made with it would not blind A); a .vk may hold it (snarkjs JSON has no delta_g1).
  g = f;
  std::fill(&g[576], &g[672], 0);
  g[576] = 0x40;
  EXPECT_TRUE(rejected_with(parse(g, fx.density), "delta_g1 is the point at infinity"));
  EXPECT_TRUE(parse_vk(g).ok());
  // Off the curve: the last byte of y is its least significant byte.
  g = f;
  g[lay.l.offset + 2 * 96 + 95] ^= 1;
  st = parse(g, fx.density);
  EXPECT_TRUE(rejected_with(st, "L[2]"));
  EXPECT_TRUE(rejected_with(st, "not on the curve"));
  // Outside the subgroup: rejected unless the subgroup checks are off.
  g = f;
  const auto bad = ec::g2_to_zcash_uncompressed(ec::random_curve_point<ec::G2Curve>(rng));
  std::memcpy(&g[lay.b_g2.offset], bad.data(), 192);
  EXPECT_TRUE(rejected_with(parse(g, fx.density), "B_G2[0]"));
  EXPECT_TRUE(rejected_with(parse(g, fx.density), "subgroup"));
  EXPECT_TRUE(parse(g, fx.density, false).ok());
  // A compressed encoding where an uncompressed one belongs.
  g = f;
  g[lay.a.offset] |= 0x80;
  EXPECT_TRUE(rejected_with(parse(g, fx.density), "A[0]"));
}

// The verifying key's points are checked for the subgroup even when the
// bulk points are not (key_check.h).
TEST(Params, VerifyingKeyPointsAreAlwaysSubgroupChecked) {
  TestRng rng(fresh_seed());
  Fixture fx = random_params(rng, 3, 6, 3);
  const auto f = params_bytes(fx.pk);
  const auto bad = ec::g1_to_zcash_uncompressed(ec::random_curve_point<ec::G1Curve>(rng));
  auto g = f;
  std::memcpy(&g[868 + 96 * 2], bad.data(), 96);  // IC[2]
  EXPECT_TRUE(rejected_with(parse(g, fx.density, false), "IC[2]"));
  g = f;
  std::memcpy(&g[576], bad.data(), 96);  // delta_g1
  EXPECT_TRUE(rejected_with(parse(g, fx.density, false), "delta_g1"));
  g = f;
  std::memcpy(&g[868 + 96 * 3 + 4], bad.data(), 96);  // H[0]: only with the full checks
  EXPECT_TRUE(parse(g, fx.density, false).ok());
  EXPECT_TRUE(rejected_with(parse(g, fx.density, true), "H[0]"));
  // gamma_g2, delta_g1 and delta_g2 at infinity (uncompressed infinity: flag 0x40, zeros).
  for (const auto& [at, bytes, name] : {std::tuple{384, 192, "gamma_g2"}, std::tuple{576, 96, "delta_g1"},
                                        std::tuple{672, 192, "delta_g2"}}) {
    g = f;
    std::fill(&g[size_t(at)], &g[size_t(at + bytes)], 0);
    g[size_t(at)] = 0x40;
    EXPECT_TRUE(rejected_with(parse(g, fx.density, false), std::string(name) + " is the point at infinity"));
  }
}

TEST(Params, WriterRejectsWhatBellpersonCannotRead) {
  TestRng rng(fresh_seed());
  Fixture fx = random_params(rng, 2, 4, 2);
  const std::string path = temp_path("bad.params");
  auto pk = fx.pk;
  pk.layout = groth16::KeyLayout::kSnarkjs;
  EXPECT_TRUE(rejected_with(write_params(path, pk), "snarkjs layout"));
  pk = fx.pk;
  pk.l[1] = G1Affine::identity();
  EXPECT_TRUE(rejected_with(write_params(path, pk), "L[1] is the point at infinity"));
  pk = fx.pk;
  pk.vk.ic[0] = G1Affine::identity();
  EXPECT_TRUE(rejected_with(write_params(path, pk), "IC[0]"));
  pk = fx.pk;
  pk.a_density.words[0] &= ~uint64_t(1);
  pk.a_density.popcount -= 1;
  pk.a.pop_back();
  EXPECT_TRUE(rejected_with(write_params(path, pk), "input 0 is missing"));
}

TEST(Vk, RoundTripAndLayout) {
  TestRng rng(fresh_seed());
  for (size_t ic : {size_t(1), size_t(2), size_t(17)}) {
    Fixture fx = random_params(rng, ic, 2, 2);
    auto vk = fx.pk.vk;
    if (ic == 2) vk.beta_g1 = vk.delta_g1 = G1Affine::identity();  // as from snarkjs JSON
    auto bytes = serialize_vk(vk);
    ASSERT_TRUE(bytes.ok());
    ASSERT_EQ(bytes->size(), 868 + 96 * ic);
    EXPECT_EQ(load_u32be(&(*bytes)[864]), ic);
    if (ic == 2) {
      EXPECT_EQ((*bytes)[96], 0x40);  // uncompressed infinity
    }
    const std::string path = temp_path("k.vk");
    ASSERT_TRUE(write_vk(path, vk).ok());
    auto back = read_vk(path);
    ASSERT_TRUE(back.ok()) << back.status().to_string();
    expect_same_vk(*back, vk);
    // The .params head is the same VK.
    EXPECT_TRUE(std::equal(bytes->begin(), bytes->end(), params_bytes(fx.pk).begin()) == (ic != 2));
  }
}

TEST(Vk, Rejections) {
  TestRng rng(fresh_seed());
  auto vk = random_params(rng, 3, 2, 2).pk.vk;
  const auto f = *serialize_vk(vk);
  for (size_t cut : {size_t(0), size_t(500), size_t(867), size_t(868 + 96 * 2 + 50)}) {
    EXPECT_TRUE(rejected_with(parse_vk(ByteSpan(f.data(), cut)).status(), "truncated")) << cut;
  }
  auto g = f;
  store_u32be(&g[864], 1u << 30);
  EXPECT_TRUE(rejected_with(parse_vk(g).status(), "IC declares"));
  g = f;
  std::fill(&g[868], &g[964], 0);
  g[868] = 0x40;
  EXPECT_TRUE(rejected_with(parse_vk(g).status(), "IC[0] is the point at infinity"));
  g = f;
  g[300] ^= 4;  // inside beta_g2's y.c1: off the curve
  EXPECT_FALSE(parse_vk(g).ok());
  vk.ic[2] = G1Affine::identity();
  EXPECT_TRUE(rejected_with(serialize_vk(vk).status(), "IC[2] is the point at infinity"));
  uint64_t used = 0;
  g = f;
  g.resize(g.size() + 10, 7);
  ASSERT_TRUE(parse_vk(g, ec::SubgroupCheck::kCheck, &used).ok());
  EXPECT_EQ(used, f.size());
}

groth16::Proof random_proof(TestRng& rng) {
  auto g1 = random_points<ec::G1Curve>(rng, 2);
  return groth16::Proof{g1[0], random_points<ec::G2Curve>(rng, 1)[0], g1[1]};
}

TEST(Proof, KnownBytesAndRoundTrip) {
  // A = G1, B = G2, C = −G1 (y larger → sort flag).
  groth16::Proof p{ec::g1_generator(), ec::g2_generator(), -ec::g1_generator()};
  const auto b = serialize_proof(p);
  std::string a_hex = kG1X;
  a_hex[0] = '9';  // 0x17 | 0x80 = 0x97
  EXPECT_EQ(to_hex(ByteSpan(b.data(), 48)), a_hex);
  std::string b_hex = std::string(kG2X1) + kG2X0;
  b_hex[0] = '9';  // 0x13 | 0x80 = 0x93; G2.y.c1 < (p − 1)/2: no sort flag
  EXPECT_EQ(to_hex(ByteSpan(b.data() + 48, 96)), b_hex);
  std::string c_hex = kG1X;
  c_hex[0] = 'b';  // 0x17 | 0x80 | 0x20
  EXPECT_EQ(to_hex(ByteSpan(b.data() + 144, 48)), c_hex);
  auto back = parse_proof(b);
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  EXPECT_EQ(*back, p);

  TestRng rng(fresh_seed());
  std::vector<groth16::Proof> proofs;
  for (int i = 0; i < 10; ++i) proofs.push_back(random_proof(rng));
  const auto all = serialize_proofs(proofs);
  ASSERT_EQ(all.size(), 1920u);
  const std::string path = temp_path("p.proof");
  ASSERT_TRUE(write_proofs(path, proofs).ok());
  auto read = read_proofs(path);
  ASSERT_TRUE(read.ok()) << read.status().to_string();
  EXPECT_EQ(*read, proofs);
  EXPECT_EQ(read_all(path), all);
}

TEST(Proof, Rejections) {
  TestRng rng(fresh_seed());
  std::vector<groth16::Proof> proofs{random_proof(rng), random_proof(rng), random_proof(rng)};
  const auto all = serialize_proofs(proofs);
  EXPECT_TRUE(rejected_with(parse_proof(ByteSpan(all.data(), 191)).status(), "expected 192 bytes"));
  EXPECT_TRUE(rejected_with(parse_proofs(ByteSpan(all.data(), 500)).status(), "multiple of 192"));
  EXPECT_TRUE(rejected_with(parse_proofs(ByteSpan()).status(), "multiple of 192"));
  const auto inf1 = ec::g1_to_zcash_compressed(G1Affine::identity());
  const auto inf2 = ec::g2_to_zcash_compressed(G2Affine::identity());
  struct Case {
    size_t off;
    const uint8_t* bytes;
    size_t n;
    const char* name;
  };
  for (const Case& c :
       {Case{0, inf1.data(), 48, "A"}, Case{48, inf2.data(), 96, "B"}, Case{144, inf1.data(), 48, "C"}}) {
    auto g = all;
    std::memcpy(&g[192 + c.off], c.bytes, c.n);
    Status st = parse_proofs(g).status();
    EXPECT_TRUE(rejected_with(st, std::string(c.name) + " is the point at infinity"));
    EXPECT_TRUE(rejected_with(st, "partition 1"));
    EXPECT_TRUE(rejected_with(st, "byte offset " + std::to_string(192 + c.off)));
  }
  auto g = all;
  const auto bad = ec::g1_to_zcash_compressed(ec::random_curve_point<ec::G1Curve>(rng));
  std::memcpy(&g[384 + 144], bad.data(), 48);
  EXPECT_TRUE(rejected_with(parse_proofs(g).status(), "subgroup"));
  EXPECT_TRUE(parse_proofs(g, ec::SubgroupCheck::kSkip).ok());
  g = all;
  g[0] &= 0x7f;  // compression flag cleared on a 48-byte encoding
  EXPECT_TRUE(rejected_with(parse_proofs(g).status(), "partition 0"));
}

TEST(Inspect, BellpersonKinds) {
  TestRng rng(fresh_seed());
  Fixture fx = random_params(rng, 3, 5, 3);
  const std::string params = temp_path("i.params"), vk = temp_path("i.vk"), proof = temp_path("i.proof");
  ASSERT_TRUE(write_params(params, fx.pk).ok());
  ASSERT_TRUE(write_vk(vk, fx.pk.vk).ok());
  std::vector<groth16::Proof> proofs{random_proof(rng), random_proof(rng)};
  ASSERT_TRUE(write_proofs(proof, proofs).ok());
  auto s = inspect_file(params);
  ASSERT_TRUE(s.ok()) << s.status().to_string();
  EXPECT_NE(s->find("bellperson parameters"), std::string::npos) << *s;
  EXPECT_NE(s->find("domain size n = H + 1: 8"), std::string::npos) << *s;
  EXPECT_NE(s->find("inputs (IC, ONE included): 3"), std::string::npos) << *s;
  s = inspect_file(vk);
  ASSERT_TRUE(s.ok());
  EXPECT_NE(s->find("bellperson verifying key"), std::string::npos) << *s;
  EXPECT_NE(s->find("all points valid"), std::string::npos) << *s;
  s = inspect_file(proof);
  ASSERT_TRUE(s.ok());
  EXPECT_NE(s->find("proofs (partitions): 2"), std::string::npos) << *s;
  EXPECT_FALSE(inspect_bytes(std::vector<uint8_t>(100, 3)).ok());
}

// A verifying key with as many IC points as a 32 GiB Window PoSt's (25,840)
// and a proof made with its trapdoor: IC_i = (a + i·h)·G, so IC(x) is known
// as a scalar u and C = (ab − αβ − u·γ)/δ makes e(A,B) = e(α,β)e(IC(x),γ)e(C,δ)
// hold. The key read for a verifier (IC points on the curve only) verifies it
// through the multi-scalar multiplication; another input does not; an IC
// point with a component outside the subgroup is refused when its input is
// used. Prints the time of each step (docs/perf.md §7), asserting none.
TEST(BellpersonVk, ManyInputsVerifyAgainstTheKeyReadForAVerifier) {
  TestRng rng(fresh_seed());
  using Clock = std::chrono::steady_clock;
  auto ms = [](Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); };
  const size_t inputs = 25'839;
  const ff::Fr alpha = ff::Fr::random(rng), beta = ff::Fr::random(rng), gamma = ff::Fr::random(rng),
               delta = ff::Fr::random(rng), a = ff::Fr::random(rng), h = ff::Fr::random(rng);
  const ec::G1Affine g1 = ec::g1_generator();
  const ec::G2Affine g2 = ec::g2_generator();
  groth16::VerifyingKey vk;
  vk.alpha_g1 = ec::mul(g1, alpha).to_affine();
  vk.beta_g1 = ec::mul(g1, beta).to_affine();
  vk.beta_g2 = ec::mul(g2, beta).to_affine();
  vk.gamma_g2 = ec::mul(g2, gamma).to_affine();
  vk.delta_g1 = ec::mul(g1, delta).to_affine();
  vk.delta_g2 = ec::mul(g2, delta).to_affine();
  {
    std::vector<ec::G1Jacobian> ic(inputs + 1);
    ec::G1Jacobian p = ec::mul(g1, a);
    const ec::G1Affine step = ec::mul(g1, h).to_affine();
    for (auto& q : ic) q = p, p += step;
    vk.ic = ec::batch_normalize<ec::G1Curve>(std::span<const ec::G1Jacobian>(ic));
  }
  // Public inputs as a Window PoSt's: per sector one comm_r (any Fr) and ten
  // challenged leaf indices (< 2^30).
  std::vector<ff::Fr> x(inputs);
  for (size_t i = 0; i < inputs; ++i) x[i] = i % 11 == 0 ? ff::Fr::random(rng) : ff::Fr::from_uint(rng() & ((1u << 30) - 1));
  ff::Fr u = a, sum_x = ff::Fr::zero(), sum_ix = ff::Fr::zero();
  for (size_t i = 0; i < inputs; ++i) sum_x += x[i], sum_ix += ff::Fr::from_uint(i + 1) * x[i];
  u += a * sum_x + h * sum_ix;
  const ff::Fr pa = ff::Fr::random(rng), pb = ff::Fr::random(rng);
  groth16::Proof proof;
  proof.a = ec::mul(g1, pa).to_affine();
  proof.b = ec::mul(g2, pb).to_affine();
  proof.c = ec::mul(g1, (pa * pb - alpha * beta - u * gamma) * delta.inverse()).to_affine();

  auto bytes = serialize_vk(vk);
  ASSERT_TRUE(bytes.ok());
  auto t0 = Clock::now();
  auto every = parse_vk(*bytes);
  const double every_ms = ms(t0);
  ASSERT_TRUE(every.ok()) << every.status().to_string();
  t0 = Clock::now();
  auto for_verifier = parse_vk_for_verifier(*bytes);
  const double verifier_ms = ms(t0);
  ASSERT_TRUE(for_verifier.ok()) << for_verifier.status().to_string();
  t0 = Clock::now();
  ec::G1Jacobian naive = ec::G1Jacobian::from_affine(vk.ic[0]);
  for (size_t i = 0; i < inputs; ++i) naive += ec::mul(vk.ic[i + 1], x[i]);
  const double naive_ms = ms(t0);
  EXPECT_TRUE(naive == ec::mul(g1, u));

  groth16::PreparedVerifyingKey pvk(*for_verifier);
  t0 = Clock::now();
  auto ok = pvk.verify(x, proof);
  const double verify_ms = ms(t0);
  ASSERT_TRUE(ok.ok()) << ok.status().to_string();
  EXPECT_TRUE(*ok);
  std::printf("25,839 inputs: vk read with every IC point tested %.1f ms, for a verifier %.1f ms; "
              "IC(x) as scalar multiplications %.1f ms; verify (MSM + pairing) %.1f ms\n",
              every_ms, verifier_ms, naive_ms, verify_ms);
  const size_t k = rng() % inputs;
  x[k] += ff::Fr::one();
  ok = pvk.verify(x, proof);
  ASSERT_TRUE(ok.ok());
  EXPECT_FALSE(*ok) << "input " << k << " changed";

  // IC_k with a component outside the subgroup: read for a verifier, refused
  // when verifying with x_k = 1 (its component then reaches IC(x)).
  auto bad = vk;
  bad.ic[k + 1] = ec::random_curve_point<ec::G1Curve>(rng);
  ASSERT_FALSE(ec::in_subgroup(bad.ic[k + 1]));
  auto bad_bytes = serialize_vk(bad);
  ASSERT_TRUE(bad_bytes.ok());
  EXPECT_FALSE(parse_vk(*bad_bytes).ok());
  auto bad_vk = parse_vk_for_verifier(*bad_bytes);
  ASSERT_TRUE(bad_vk.ok()) << bad_vk.status().to_string();
  x[k] = ff::Fr::one();
  auto refused = groth16::PreparedVerifyingKey(*bad_vk).verify(x, proof);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("outside the prime-order subgroup"), std::string::npos)
      << refused.status().message();
}

}  // namespace
}  // namespace cuzk::io
