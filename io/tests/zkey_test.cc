// snarkjs .zkey reader and writer: the 4220-byte example of formats.md §5,
// byte layout checks built independently of the codec, random round trips,
// section order freedom, and one test per rejection reason.
#include "cuzk/io/zkey.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <tuple>

#include "cuzk/ec/zkey_codec.h"
#include "cuzk/io/inspect.h"
#include "key_test_util.h"

namespace cuzk::io {
namespace {

using namespace cuzk::io::testing;  // NOLINT

// A random zkey of the given shape (the circuit fixes the densities, as a
// real key's points would).
ZkeyContents random_zkey(TestRng& rng, uint64_t inputs, uint64_t aux, uint64_t constraints) {
  ZkeyContents z;
  z.ab_circuit = random_ab_circuit(rng, inputs, aux, constraints);
  z.num_constraints = constraints;
  const r1cs::DensityBitmaps d = r1cs::compute_density(z.ab_circuit, {.include_input_rows = false});
  int lg_n = 1;
  while ((uint64_t(1) << lg_n) < constraints + inputs) ++lg_n;
  z.pk = random_key(rng, groth16::KeyLayout::kSnarkjs, inputs, aux, lg_n, concat_bits(d.a_input, d.a_aux),
                    concat_bits(d.b_input, d.b_aux));
  for (auto& b : z.circuit_hash) b = uint8_t(rng());
  z.has_contributions = true;
  return z;
}

std::vector<uint8_t> zkey_bytes(const ZkeyContents& z) {
  const std::string path = temp_path("k.zkey");
  Status s = write_zkey(path, z);
  EXPECT_TRUE(s.ok()) << s.to_string();
  return read_all(path);
}

struct Sec {
  uint32_t id;
  size_t header, payload;
  uint64_t size;
};
// The section directory, read with plain loads (independent of the library).
std::vector<Sec> sections_of(const std::vector<uint8_t>& f) {
  std::vector<Sec> out;
  size_t pos = 12;
  for (uint32_t i = 0; i < load_u32le(f.data() + 8); ++i) {
    out.push_back({load_u32le(&f[pos]), pos, pos + 12, load_u64le(&f[pos + 4])});
    pos += 12 + out.back().size;
  }
  return out;
}
const Sec& sec(const std::vector<uint8_t>& f, uint32_t id) {
  static std::vector<Sec> cache;
  cache = sections_of(f);
  for (const Sec& s : cache) {
    if (s.id == id) return s;
  }
  ADD_FAILURE() << "no section " << id;
  return cache[0];
}

// Rebuilds the file with its sections in `order` (ids), plus extra raw sections.
std::vector<uint8_t> reorder(const std::vector<uint8_t>& f, const std::vector<uint32_t>& order,
                             const std::vector<std::pair<uint32_t, std::vector<uint8_t>>>& extra = {}) {
  std::vector<uint8_t> out(f.begin(), f.begin() + 12);
  store_u32le(out.data() + 8, uint32_t(order.size() + extra.size()));
  const auto secs = sections_of(f);
  for (uint32_t id : order) {
    const Sec& s = *std::find_if(secs.begin(), secs.end(), [&](const Sec& x) { return x.id == id; });
    out.insert(out.end(), f.begin() + long(s.header), f.begin() + long(s.payload + s.size));
  }
  for (const auto& [id, payload] : extra) {
    uint8_t h[12];
    store_u32le(h, id);
    store_u64le(h + 4, payload.size());
    out.insert(out.end(), h, h + 12);
    out.insert(out.end(), payload.begin(), payload.end());
  }
  return out;
}

Status parse(const std::vector<uint8_t>& f, bool check = true) {
  return parse_zkey(f, ReadOptions{.check_points = check}).status();
}

TEST(Zkey, WorkedExample4220Bytes) {
  // formats.md §5: nVars 5, nPublic 1, 2 constraints with one A and one B term each, n = 4.
  TestRng rng(fresh_seed());
  r1cs::CircuitBuilder b(2, 3);
  std::vector<r1cs::LinTerm> a0{{2, Fr::one()}}, b0{{3, Fr::from_uint(7)}}, a1{{4, -Fr::one()}}, b1{{2, Fr::one()}};
  ASSERT_TRUE(b.add_row(a0, b0, {}).ok());
  ASSERT_TRUE(b.add_row(a1, b1, {}).ok());
  for (uint64_t s = 0; s < 2; ++s) {
    std::vector<r1cs::LinTerm> one{{s, Fr::one()}};
    ASSERT_TRUE(b.add_row(one, {}, {}).ok());
  }
  ZkeyContents z;
  z.ab_circuit = *std::move(b).build();
  z.num_constraints = 2;
  z.pk = random_key(rng, groth16::KeyLayout::kSnarkjs, 2, 3, 2, make_bitmap({true, true, true, false, true}),
                    make_bitmap({false, false, true, true, false}));
  z.pk.vk.ic[0] = ec::g1_generator();
  const auto f = zkey_bytes(z);
  ASSERT_EQ(f.size(), 4220u);
  EXPECT_EQ(std::string(f.begin(), f.begin() + 4), "zkey");
  EXPECT_EQ(load_u32le(&f[4]), 1u);
  EXPECT_EQ(load_u32le(&f[8]), 10u);
  const uint64_t want[] = {4, 964, 2 * 96, 4 + 6 * 44, 5 * 96, 5 * 96, 5 * 192, 3 * 96, 4 * 96, 68};
  const auto secs = sections_of(f);
  ASSERT_EQ(secs.size(), 10u);
  for (uint32_t i = 0; i < 10; ++i) {
    EXPECT_EQ(secs[i].id, i + 1);
    EXPECT_EQ(secs[i].size, want[i]) << "section " << i + 1;
  }
  // Section 2 fields: n8q, q (LE), n8r, r, nVars, nPublic, domain size.
  const uint8_t* h = &f[secs[1].payload];
  EXPECT_EQ(load_u32le(h), 48u);
  EXPECT_EQ(load_u64le(h + 4), 0xb9feffffffffaaabull);
  EXPECT_EQ(load_u64le(h + 44), 0x1a0111ea397fe69aull);
  EXPECT_EQ(load_u32le(h + 52), 32u);
  EXPECT_EQ(load_u64le(h + 56), 0xffffffff00000001ull);
  EXPECT_EQ(load_u32le(h + 88), 5u);
  EXPECT_EQ(load_u32le(h + 92), 1u);
  EXPECT_EQ(load_u32le(h + 96), 4u);
  // IC[0] = G1 generator in LEM: x starts 160c53fd9087b35c (formats.md §5).
  EXPECT_EQ(to_hex(ByteSpan(&f[secs[2].payload], 8)), "160c53fd9087b35c");
  // A section: wire 3 is absent from A, so its 96 bytes are zero; B1/B2 zero at wires 0, 1, 4.
  auto zero = [&](size_t off, size_t n) { return std::all_of(&f[off], &f[off] + n, [](uint8_t x) { return x == 0; }); };
  EXPECT_TRUE(zero(secs[4].payload + 3 * 96, 96));
  EXPECT_FALSE(zero(secs[4].payload + 2 * 96, 96));
  for (int w : {0, 1, 4}) {
    EXPECT_TRUE(zero(secs[5].payload + w * 96, 96));
    EXPECT_TRUE(zero(secs[6].payload + w * 192, 192));
  }
  // Section 4: count, then the first entry (A, row 0, wire 2, 1·R² mod r).
  const uint8_t* c = &f[secs[3].payload];
  EXPECT_EQ(load_u32le(c), 6u);
  EXPECT_EQ(load_u32le(c + 4), 0u);
  EXPECT_EQ(load_u32le(c + 8), 0u);
  EXPECT_EQ(load_u32le(c + 12), 2u);
  EXPECT_EQ(load_u64le(c + 16), ff::FrParams::kR2[0]);
  EXPECT_EQ(load_u32le(c + 4 + 44 * 5 + 4), 3u);  // last entry: row 3, the input row of wire 1
  EXPECT_EQ(load_u32le(c + 4 + 44 * 5 + 8), 1u);

  auto back = parse_zkey(f);
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  expect_same_key(back->pk, z.pk);
  expect_same_circuit(back->ab_circuit, z.ab_circuit);
  EXPECT_EQ(back->num_constraints, 2u);
  EXPECT_EQ(back->c_rule, groth16::CRule::kProductOfAB);
}

TEST(Zkey, CoefficientEncodingIsValueTimesR2) {
  TestRng rng(fresh_seed());
  // 2^512 mod r computed by plain field arithmetic (no Montgomery shortcut).
  const Fr r2 = Fr::from_uint(2).pow(512);
  for (int i = 0; i < 50; ++i) {
    const Fr v = i == 0 ? Fr::zero() : i == 1 ? Fr::one() : i == 2 ? -Fr::one() : Fr::random(rng);
    const auto enc = encode_zkey_coeff(v);
    uint8_t want[32];
    (v * r2).to_bytes_le(want);
    EXPECT_EQ(0, std::memcmp(enc.data(), want, 32));
    auto dec = decode_zkey_coeff(enc);
    ASSERT_TRUE(dec.ok());
    EXPECT_EQ(*dec, v);
  }
  std::array<uint8_t, 32> r_bytes;
  for (int i = 0; i < 4; ++i) store_u64le(r_bytes.data() + 8 * i, ff::FrParams::kModulus[i]);
  EXPECT_FALSE(decode_zkey_coeff(r_bytes).ok());
}

TEST(Zkey, RandomRoundTripIsByteExact) {
  TestRng rng(fresh_seed());
  for (int iter = 0; iter < 4; ++iter) {
    const uint64_t inputs = 1 + rng() % 4, aux = 1 + rng() % 12, constraints = rng() % 20;
    ZkeyContents z = random_zkey(rng, inputs, aux, constraints);
    const auto f = zkey_bytes(z);
    auto back = parse_zkey(f);
    ASSERT_TRUE(back.ok()) << back.status().to_string();
    expect_same_key(back->pk, z.pk);
    expect_same_circuit(back->ab_circuit, z.ab_circuit);
    EXPECT_EQ(back->num_constraints, constraints);
    EXPECT_TRUE(back->has_contributions);
    EXPECT_EQ(back->circuit_hash, z.circuit_hash);
    EXPECT_EQ(back->num_contributions, 0u);
    EXPECT_TRUE(back->pk.check_shape().ok());
    EXPECT_EQ(zkey_bytes(*back), f);
  }
}

TEST(Zkey, ReadsFromFileWithoutSubgroupChecks) {
  TestRng rng(fresh_seed());
  ZkeyContents z = random_zkey(rng, 2, 5, 6);
  const std::string path = temp_path("file.zkey");
  ASSERT_TRUE(write_zkey(path, z).ok());
  ThreadPool pool(2);
  auto back = read_zkey(path, ReadOptions{.check_points = false, .pool = &pool});
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  expect_same_key(back->pk, z.pk);
  EXPECT_FALSE(read_zkey(path + ".missing").ok());
}

TEST(Zkey, SectionOrderAndUnknownSectionsDoNotMatter) {
  TestRng rng(fresh_seed());
  ZkeyContents z = random_zkey(rng, 3, 6, 9);
  const auto f = zkey_bytes(z);
  // The order a fresh `snarkjs groth16 setup` writes, and an unknown section.
  const auto g = reorder(f, {1, 2, 4, 3, 9, 8, 5, 6, 7, 10}, {{77, std::vector<uint8_t>(13, 0xab)}});
  ASSERT_EQ(g.size(), f.size() + 25);
  auto back = parse_zkey(g);
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  expect_same_key(back->pk, z.pk);
  // Without section 10 the key still reads; without section 9 it does not.
  auto no10 = parse_zkey(reorder(f, {1, 2, 3, 4, 5, 6, 7, 8, 9}));
  ASSERT_TRUE(no10.ok());
  EXPECT_FALSE(no10->has_contributions);
  EXPECT_TRUE(rejected_with(parse(reorder(f, {1, 2, 3, 4, 5, 6, 7, 8, 10})), "missing section 9"));
  EXPECT_TRUE(rejected_with(parse(reorder(f, {2, 3, 4, 5, 6, 7, 8, 9, 10})), "missing section 1"));
  EXPECT_TRUE(rejected_with(parse(reorder(f, {1, 2, 3, 4, 5, 5, 6, 7, 8, 9, 10})), "appears twice"));
}

TEST(Zkey, CoefficientsInAnyOrder) {
  TestRng rng(fresh_seed());
  ZkeyContents z = random_zkey(rng, 2, 8, 12);
  auto f = zkey_bytes(z);
  const Sec s = sec(f, 4);
  const uint32_t count = load_u32le(&f[s.payload]);
  std::vector<std::vector<uint8_t>> entries;
  for (uint32_t k = 0; k < count; ++k) {
    const auto* p = &f[s.payload + 4 + 44 * k];
    entries.emplace_back(p, p + 44);
  }
  std::reverse(entries.begin(), entries.end());
  for (uint32_t k = 0; k < count; ++k) std::memcpy(&f[s.payload + 4 + 44 * k], entries[k].data(), 44);
  auto back = parse_zkey(f);
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  expect_same_circuit(back->ab_circuit, z.ab_circuit);
}

TEST(Zkey, RejectsTruncation) {
  TestRng rng(fresh_seed());
  const auto f = zkey_bytes(random_zkey(rng, 2, 4, 5));
  const auto secs = sections_of(f);
  std::vector<size_t> cuts = {0, 3, 11, 12, 20, f.size() - 1};
  for (const Sec& s : secs) cuts.insert(cuts.end(), {s.header + 5, s.payload + s.size / 2});
  for (size_t cut : cuts) {
    std::vector<uint8_t> g(f.begin(), f.begin() + long(cut));
    Status st = parse(g);
    EXPECT_FALSE(st.ok()) << "cut at " << cut;
    // The container says "at byte N", the section readers "(byte offset N)": either names the byte.
    const bool names_byte =
        st.message().find("byte offset") != std::string::npos || st.message().find(" at byte ") != std::string::npos;
    EXPECT_TRUE(names_byte) << st.message();
  }
}

TEST(Zkey, RejectsContainerAndHeaderDefects) {
  TestRng rng(fresh_seed());
  const auto f = zkey_bytes(random_zkey(rng, 2, 4, 5));
  const size_t h1 = sec(f, 1).payload, h2 = sec(f, 2).payload;
  auto mutate = [&](size_t off, uint32_t v) {
    auto g = f;
    store_u32le(&g[off], v);
    return g;
  };
  auto g = f;
  g[3] = 'z';
  EXPECT_TRUE(rejected_with(parse(g), "bad magic at byte 0: found 'zkez'"));
  EXPECT_TRUE(rejected_with(parse(mutate(4, 2)), "version 2"));
  EXPECT_TRUE(rejected_with(parse(mutate(h1, 2)), "protocol is 2"));
  EXPECT_TRUE(rejected_with(parse(mutate(h2, 32)), "wrong curve"));
  g = f;
  g[h2 + 4] ^= 1;  // q
  EXPECT_TRUE(rejected_with(parse(g), "q is not the BLS12-381"));
  g = f;
  g[h2 + 60] ^= 1;  // r
  EXPECT_TRUE(rejected_with(parse(g), "r is not the BLS12-381"));
  EXPECT_TRUE(rejected_with(parse(mutate(h2 + 52, 48)), "wrong curve"));
  // Counts that disagree with the section sizes (nVars, nPublic, domain).
  EXPECT_TRUE(rejected_with(parse(mutate(h2 + 88, 7)), "section 5 (A)"));
  EXPECT_TRUE(rejected_with(parse(mutate(h2 + 88, 0xffffffff)), "the header's counts need"));
  EXPECT_TRUE(rejected_with(parse(mutate(h2 + 92, 6)), "exceeds nVars"));
  EXPECT_TRUE(rejected_with(parse(mutate(h2 + 96, 6)), "not a power of two"));
  EXPECT_TRUE(rejected_with(parse(mutate(h2 + 96, 1u << 30)), "section 9 (H)"));
  // A coefficient count far beyond the file: caught by the size check, nothing allocated.
  EXPECT_TRUE(rejected_with(parse(mutate(sec(f, 4).payload, 0xffffffff)), "section 4 (coefficients)"));
  // A section size beyond the end of the file.
  g = f;
  store_u64le(&g[sec(f, 9).header + 4], uint64_t(1) << 40);
  EXPECT_TRUE(rejected_with(parse(g), "truncated"));
}

TEST(Zkey, RejectsBadCoefficients) {
  TestRng rng(fresh_seed());
  const auto f = zkey_bytes(random_zkey(rng, 2, 4, 5));
  const size_t e0 = sec(f, 4).payload + 4;
  const uint32_t count = load_u32le(&f[e0 - 4]);
  auto mutate = [&](size_t off, uint32_t v) {
    auto g = f;
    store_u32le(&g[off], v);
    return g;
  };
  EXPECT_TRUE(rejected_with(parse(mutate(e0, 2)), "neither A (0) nor B (1)"));
  EXPECT_TRUE(rejected_with(parse(mutate(e0 + 4, 8)), "outside the domain"));
  EXPECT_TRUE(rejected_with(parse(mutate(e0 + 8, 6)), "wire 6 >= nVars 6"));
  auto g = f;
  std::fill(&g[e0 + 12], &g[e0 + 44], 0xff);
  Status st = parse(g);
  EXPECT_TRUE(rejected_with(st, "value is not below r"));
  EXPECT_TRUE(rejected_with(st, "byte offset " + std::to_string(e0 + 12)));
  // The last entry is the per-input row of wire 1: give it coefficient 2.
  g = f;
  const auto two = encode_zkey_coeff(Fr::from_uint(2));
  std::memcpy(&g[e0 + 44 * (count - 1) + 12], two.data(), 32);
  EXPECT_TRUE(rejected_with(parse(g), "per-input row of wire 1"));
}

TEST(Zkey, RejectsBadPoints) {
  TestRng rng(fresh_seed());
  ZkeyContents z = random_zkey(rng, 2, 6, 8);
  const auto f = zkey_bytes(z);
  const Sec a = sec(f, 5), h = sec(f, 9), b2 = sec(f, 7), b1 = sec(f, 6), s2 = sec(f, 2);
  size_t wire = 0;
  while (!z.pk.a_density.test(wire)) ++wire;
  // Off the curve: flip a low bit of y (still below p).
  auto g = f;
  g[a.payload + wire * 96 + 48] ^= 1;
  Status st = parse(g, false);
  EXPECT_TRUE(rejected_with(st, "not on the curve"));
  EXPECT_TRUE(rejected_with(st, "A[" + std::to_string(wire) + "]"));
  EXPECT_TRUE(rejected_with(st, "byte offset " + std::to_string(a.payload + wire * 96)));
  // A coordinate >= p.
  g = f;
  std::fill(&g[s2.payload + 100], &g[s2.payload + 148], 0xff);
  EXPECT_TRUE(rejected_with(parse(g), "alpha_1"));
  // On the curve but outside the subgroup: rejected unless checks are off.
  g = f;
  const auto bad = ec::g1_to_zkey(ec::random_curve_point<ec::G1Curve>(rng));
  std::memcpy(&g[h.payload + 96], bad.data(), 96);
  EXPECT_TRUE(rejected_with(parse(g), "subgroup"));
  EXPECT_TRUE(parse(g, false).ok());
  g = f;
  const auto bad2 = ec::g2_to_zkey(ec::random_curve_point<ec::G2Curve>(rng));
  size_t bw = 0;
  while (!z.pk.b_density.test(bw)) ++bw;
  std::memcpy(&g[b2.payload + bw * 192], bad2.data(), 192);
  EXPECT_TRUE(rejected_with(parse(g), "B2[" + std::to_string(bw) + "]"));
  // B1 present where B2 is infinity.
  g = f;
  std::fill(&g[b2.payload + bw * 192], &g[b2.payload + bw * 192 + 192], 0);
  EXPECT_TRUE(rejected_with(parse(g), "B1 and B2 disagree on wire " + std::to_string(bw)));
  g = f;
  std::fill(&g[b1.payload + bw * 96], &g[b1.payload + bw * 96 + 96], 0);
  EXPECT_TRUE(rejected_with(parse(g), "B1 and B2 disagree"));
}

// The verifying key's points are checked for the subgroup even when the
// bulk points are not (key_check.h): IC and the Groth16 header's points.
TEST(Zkey, VerifyingKeyPointsAreAlwaysSubgroupChecked) {
  TestRng rng(fresh_seed());
  ZkeyContents z = random_zkey(rng, 3, 5, 8);
  const auto f = zkey_bytes(z);
  const Sec ic = sec(f, 3), s2 = sec(f, 2);
  const auto bad_g1 = ec::g1_to_zkey(ec::random_curve_point<ec::G1Curve>(rng));
  const auto bad_g2 = ec::g2_to_zkey(ec::random_curve_point<ec::G2Curve>(rng));
  auto g = f;
  std::memcpy(&g[ic.payload + 96], bad_g1.data(), 96);
  EXPECT_TRUE(rejected_with(parse(g, false), "IC[1]"));
  EXPECT_TRUE(rejected_with(parse(g, false), "subgroup"));
  g = f;
  std::memcpy(&g[s2.payload + 100 + 576], bad_g1.data(), 96);  // delta_1
  EXPECT_TRUE(rejected_with(parse(g, false), "delta_1"));
  g = f;
  std::memcpy(&g[s2.payload + 100 + 384], bad_g2.data(), 192);  // gamma_2
  EXPECT_TRUE(rejected_with(parse(g, false), "gamma_2"));
  // gamma and delta at infinity: anyone could forge proofs for such a key.
  for (const auto& [at, bytes, name] : {std::tuple{384, 192, "gamma_2"}, std::tuple{576, 96, "delta_1"},
                                        std::tuple{672, 192, "delta_2"}}) {
    g = f;
    std::fill(&g[s2.payload + 100 + size_t(at)], &g[s2.payload + 100 + size_t(at + bytes)], 0);
    EXPECT_TRUE(rejected_with(parse(g, false), std::string(name) + " is the point at infinity"));
  }
}

TEST(Zkey, WriterRejectsWhatItCannotStore) {
  TestRng rng(fresh_seed());
  ZkeyContents z = random_zkey(rng, 2, 3, 3);
  const std::string path = temp_path("bad.zkey");
  ZkeyContents bell = z;
  bell.pk.layout = groth16::KeyLayout::kBellperson;
  EXPECT_TRUE(rejected_with(write_zkey(path, bell), "bellperson layout"));
  ZkeyContents shape = z;
  shape.pk.h.pop_back();
  EXPECT_TRUE(rejected_with(write_zkey(path, shape), "H has"));
  ZkeyContents with_c = z;
  r1cs::CircuitBuilder b(2, 3);
  std::vector<r1cs::LinTerm> t{{1, Fr::one()}};
  ASSERT_TRUE(b.add_row(t, t, t).ok());
  with_c.ab_circuit = *std::move(b).build();
  EXPECT_TRUE(rejected_with(write_zkey(path, with_c), "C terms"));
}

TEST(Zkey, InspectSummarisesSections) {
  TestRng rng(fresh_seed());
  ZkeyContents z = random_zkey(rng, 3, 5, 7);
  const std::string path = temp_path("inspect.zkey");
  ASSERT_TRUE(write_zkey(path, z).ok());
  auto s = inspect_file(path);
  ASSERT_TRUE(s.ok()) << s.status().to_string();
  EXPECT_NE(s->find("snarkjs Groth16 proving key"), std::string::npos) << *s;
  EXPECT_NE(s->find("nPublic, ONE excluded): 2"), std::string::npos) << *s;
  EXPECT_NE(s->find("constraints: 7"), std::string::npos) << *s;
  EXPECT_NE(s->find("id 9 (H): payload at offset"), std::string::npos) << *s;
  EXPECT_NE(s->find("contributions: 0"), std::string::npos) << *s;
  EXPECT_EQ(detect_file_kind(read_all(path)), FileKind::kZkey);
}

}  // namespace
}  // namespace cuzk::io
