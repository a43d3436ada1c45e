// circom .r1cs / .wtns readers and writers, against byte images built by
// hand from formats.md §5 (the 392-byte and 236-byte examples included).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "cuzk/base/random.h"
#include "cuzk/base/thread_pool.h"
#include "cuzk/io/circom.h"
#include "cuzk/r1cs/eval.h"
#include "cuzk/r1cs/synthetic.h"

namespace cuzk::io {
namespace {

using r1cs::Matrix;

uint64_t fresh_seed() { return cuzk::fresh_test_seed(); }

// Little-endian byte image builder, independent of the library's codecs.
struct Image {
  std::vector<uint8_t> v;
  Image& u32(uint32_t x) {
    for (int i = 0; i < 4; ++i) v.push_back(uint8_t(x >> (8 * i)));
    return *this;
  }
  Image& u64(uint64_t x) {
    for (int i = 0; i < 8; ++i) v.push_back(uint8_t(x >> (8 * i)));
    return *this;
  }
  Image& raw(const std::vector<uint8_t>& b) {
    v.insert(v.end(), b.begin(), b.end());
    return *this;
  }
  Image& section(uint32_t id, const Image& payload) { return u32(id).u64(payload.v.size()).raw(payload.v); }
};

// A big-endian hex string as little-endian bytes.
std::vector<uint8_t> le_from_hex(const std::string& hex) {
  std::vector<uint8_t> out;
  for (size_t i = hex.size(); i >= 2; i -= 2) out.push_back(uint8_t(std::stoul(hex.substr(i - 2, 2), nullptr, 16)));
  return out;
}
const std::string kRHex = "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001";
const std::string kBn254Hex = "30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001";

std::vector<uint8_t> small_le(uint64_t x) {
  std::vector<uint8_t> b(32, 0);
  for (int i = 0; i < 8; ++i) b[i] = uint8_t(x >> (8 * i));
  return b;
}

Image r1cs_header(uint32_t wires, uint32_t pub_out, uint32_t pub_in, uint32_t prv_in, uint32_t constraints,
                  const std::string& prime_hex = kRHex) {
  Image h;
  h.u32(uint32_t(prime_hex.size() / 2)).raw(le_from_hex(prime_hex));
  h.u32(wires).u32(pub_out).u32(pub_in).u32(prv_in).u64(wires).u32(constraints);
  return h;
}

struct RawTerm {
  uint32_t wire;
  std::vector<uint8_t> coeff;
};
Image lincomb(const std::vector<RawTerm>& terms) {
  Image lc;
  lc.u32(uint32_t(terms.size()));
  for (const auto& t : terms) lc.u32(t.wire).raw(t.coeff);
  return lc;
}
Image label_map(uint32_t wires) {
  Image m;
  for (uint32_t i = 0; i < wires; ++i) m.u64(i);
  return m;
}

// formats.md's example: wires (ONE, out, in, x, t); x·x = t; t·in = out.
Image example_constraints() {
  Image c;
  c.raw(lincomb({{3, small_le(1)}}).v).raw(lincomb({{3, small_le(1)}}).v).raw(lincomb({{4, small_le(1)}}).v);
  c.raw(lincomb({{4, small_le(1)}}).v).raw(lincomb({{2, small_le(1)}}).v).raw(lincomb({{1, small_le(1)}}).v);
  return c;
}
std::vector<uint8_t> example_r1cs() {  // sections in circom's order 2, 1, 3
  Image f;
  f.raw({'r', '1', 'c', 's'}).u32(1).u32(3);
  f.section(2, example_constraints()).section(1, r1cs_header(5, 1, 1, 1, 2)).section(3, label_map(5));
  return f.v;
}
std::vector<uint8_t> example_wtns(const std::vector<uint64_t>& values, const std::string& prime_hex = kRHex) {
  Image h, w, f;
  h.u32(uint32_t(prime_hex.size() / 2)).raw(le_from_hex(prime_hex)).u32(uint32_t(values.size()));
  for (uint64_t x : values) w.raw(small_le(x));
  f.raw({'w', 't', 'n', 's'}).u32(2).u32(2).section(1, h).section(2, w);
  return f.v;
}

void expect_error(const Status& s, StatusCode code, const std::string& needle) {
  EXPECT_EQ(s.code(), code) << s.to_string();
  EXPECT_NE(s.message().find(needle), std::string::npos) << "want \"" << needle << "\" in: " << s.to_string();
}
Status r1cs_error(const std::vector<uint8_t>& b) { return parse_circom_r1cs(b).status(); }
Status wtns_error(const std::vector<uint8_t>& b) { return parse_wtns(b).status(); }

TEST(CircomR1cs, FormatsExampleInOrder213) {
  std::vector<uint8_t> bytes = example_r1cs();
  ASSERT_EQ(bytes.size(), 392u);
  CircomR1csHeader h;
  auto c = parse_circom_r1cs(bytes, &h);
  ASSERT_TRUE(c.ok()) << c.status().to_string();
  EXPECT_EQ(h.n_wires, 5u);
  EXPECT_EQ(h.num_public(), 2u);
  EXPECT_EQ(h.n_constraints, 2u);
  EXPECT_EQ(c->num_inputs(), 3u);
  EXPECT_EQ(c->num_aux(), 2u);
  EXPECT_EQ(c->num_constraints(), 2u);
  ASSERT_EQ(c->row(1, Matrix::kB).size(), 1u);
  EXPECT_EQ(c->row(1, Matrix::kB)[0].var, 2u);
  EXPECT_EQ(c->coeff(c->row(1, Matrix::kB)[0]), Fr::one());

  std::vector<uint8_t> wbytes = example_wtns({1, 27, 3, 3, 9});
  ASSERT_EQ(wbytes.size(), 236u);
  auto w = parse_wtns(wbytes);
  ASSERT_TRUE(w.ok()) << w.status().to_string();
  EXPECT_EQ((*w)[1], Fr::from_uint(27));
  EXPECT_TRUE(r1cs::is_satisfied(*c, *w).ok());
  auto bad = parse_wtns(example_wtns({1, 28, 3, 3, 9}));
  ASSERT_TRUE(bad.ok());
  EXPECT_EQ(r1cs::is_satisfied(*c, *bad).message().rfind("constraint 1 ", 0), 0u);

  // Our writer produces the same 392 bytes up to section order.
  auto out = serialize_circom_r1cs(*c, {.n_pub_out = 1, .n_prv_in = 1});
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->size(), 392u);
  Image expected;
  expected.raw({'r', '1', 'c', 's'}).u32(1).u32(3);
  expected.section(1, r1cs_header(5, 1, 1, 1, 2)).section(2, example_constraints()).section(3, label_map(5));
  EXPECT_EQ(*out, expected.v);
  EXPECT_EQ(serialize_wtns(*w), wbytes);
}

// Terms not in numeric order (circom orders 256 before 1), a repeated wire
// summed, r − 1 as a coefficient, an unknown section ignored.
TEST(CircomR1cs, TermOrderRepeatsAndUnknownSections) {
  std::vector<uint8_t> minus_one = le_from_hex(kRHex);
  minus_one[0] -= 1;
  Image cons;
  cons.raw(lincomb({{256, small_le(5)}, {1, small_le(2)}, {256, small_le(1)}, {0, minus_one}}).v);
  cons.raw(lincomb({{0, small_le(1)}}).v).raw(lincomb({{299, small_le(7)}}).v);
  Image f;
  f.raw({'r', '1', 'c', 's'}).u32(1).u32(4);
  f.section(9, Image().u64(42)).section(2, cons).section(3, label_map(300)).section(1, r1cs_header(300, 0, 1, 0, 1));
  auto c = parse_circom_r1cs(f.v);
  ASSERT_TRUE(c.ok()) << c.status().to_string();
  auto a = c->row(0, Matrix::kA);
  ASSERT_EQ(a.size(), 3u);
  EXPECT_EQ(a[0].var, 0u);
  EXPECT_EQ(c->coeff(a[0]), -Fr::one());
  EXPECT_EQ(a[1].var, 1u);
  EXPECT_EQ(c->coeff(a[1]), Fr::from_uint(2));
  EXPECT_EQ(a[2].var, 256u);
  EXPECT_EQ(c->coeff(a[2]), Fr::from_uint(6));
  EXPECT_EQ(c->num_inputs(), 2u);
  EXPECT_EQ(c->num_aux(), 298u);
}

TEST(CircomR1cs, RoundTripSyntheticCircuit) {
  r1cs::SyntheticParams p;
  p.num_constraints = 3000;
  p.num_public_inputs = 6;
  p.num_aux = 3300;
  p.seed = fresh_seed();
  auto g = r1cs::generate_synthetic(p);
  ASSERT_TRUE(g.ok());
  const std::string path = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") + "/cuzk_circom_" +
                           std::to_string(OsRng()()) + ".r1cs";
  ASSERT_TRUE(write_circom_r1cs(g->circuit, path, {.n_pub_out = 2, .n_prv_in = 10}).ok());
  CircomR1csHeader h;
  auto c = read_circom_r1cs(path, &h);
  std::remove(path.c_str());
  ASSERT_TRUE(c.ok()) << c.status().to_string();
  EXPECT_EQ(h.n_pub_out, 2u);
  EXPECT_EQ(h.n_pub_in, 4u);
  EXPECT_EQ(h.n_prv_in, 10u);
  EXPECT_EQ(c->shape(), g->circuit.shape());
  for (uint64_t i = 0; i < p.num_constraints; ++i) {
    for (Matrix m : {Matrix::kA, Matrix::kB, Matrix::kC}) {
      auto x = c->row(i, m), y = g->circuit.row(i, m);
      ASSERT_EQ(x.size(), y.size());
      for (size_t k = 0; k < x.size(); ++k) {
        ASSERT_EQ(x[k].var, y[k].var);
        ASSERT_EQ(c->coeff(x[k]), g->circuit.coeff(y[k]));
      }
    }
  }
  EXPECT_TRUE(r1cs::is_satisfied(*c, g->witness).ok());
  EXPECT_FALSE(serialize_circom_r1cs(g->circuit, {.n_pub_out = 7}).ok());
  EXPECT_FALSE(serialize_circom_r1cs(g->circuit, {.n_prv_in = 3301}).ok());
}

TEST(CircomR1cs, Truncated) {
  const std::vector<uint8_t> bytes = example_r1cs();
  for (size_t cut : {0, 3, 11, 12, 17, 30, 263, 264, 300, 391}) {
    std::vector<uint8_t> t(bytes.begin(), bytes.begin() + long(cut));
    expect_error(r1cs_error(t), StatusCode::kInvalidArgument, "truncated at byte " + std::to_string(cut));
  }
}

TEST(CircomR1cs, BadMagicVersionPrime) {
  std::vector<uint8_t> b = example_r1cs();
  b[0] = 'R';
  expect_error(r1cs_error(b), StatusCode::kInvalidArgument, "bad magic at byte 0");
  b = example_r1cs();
  b[4] = 2;
  expect_error(r1cs_error(b), StatusCode::kInvalidArgument, "unsupported version 2 at byte 4");

  Image f;
  f.raw({'r', '1', 'c', 's'}).u32(1).u32(2).section(1, r1cs_header(5, 1, 1, 1, 2, kBn254Hex));
  f.section(2, example_constraints());
  Status s = r1cs_error(f.v);
  expect_error(s, StatusCode::kInvalidArgument, "wrong curve/prime at byte 28");
  expect_error(s, StatusCode::kInvalidArgument, "0x" + kBn254Hex + " (BN254");

  const std::string p48 = "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab";
  Image g;
  g.raw({'r', '1', 'c', 's'}).u32(1).u32(1).section(1, r1cs_header(5, 1, 1, 1, 0, p48));
  expect_error(r1cs_error(g.v), StatusCode::kInvalidArgument, "wrong curve/prime at byte 28: the file's prime is 0x" + p48);
}

TEST(CircomR1cs, WrongSectionSizes) {
  Image hdr = r1cs_header(5, 1, 1, 1, 2);
  hdr.u32(0);  // 68 bytes
  Image f;
  f.raw({'r', '1', 'c', 's'}).u32(1).u32(2).section(1, hdr).section(2, example_constraints());
  expect_error(r1cs_error(f.v), StatusCode::kInvalidArgument, "header section (section 1 at byte 12) has 68 bytes");

  Image cons = example_constraints();
  cons.u32(0);
  Image g;
  g.raw({'r', '1', 'c', 's'}).u32(1).u32(2).section(1, r1cs_header(5, 1, 1, 1, 2)).section(2, cons);
  expect_error(r1cs_error(g.v), StatusCode::kInvalidArgument, "4 unexpected bytes after the last constraint at byte " +
                                                                  std::to_string(12 + 76 + 12 + 240));
  Image h;
  h.raw({'r', '1', 'c', 's'}).u32(1).u32(3).section(1, r1cs_header(5, 1, 1, 1, 2));
  h.section(2, example_constraints()).section(3, label_map(4));
  expect_error(r1cs_error(h.v), StatusCode::kInvalidArgument, "has 32 bytes, expected 8·nWires = 40");

  Image k;  // nConstraints larger than the section can hold: no huge allocation
  k.raw({'r', '1', 'c', 's'}).u32(1).u32(2).section(1, r1cs_header(5, 1, 1, 1, 0xffffffffu));
  k.section(2, example_constraints());
  expect_error(r1cs_error(k.v), StatusCode::kInvalidArgument, "too few for 4294967295 constraints");

  Image big;  // a term count larger than the section
  big.u32(0x7fffffff);
  Image m;
  m.raw({'r', '1', 'c', 's'}).u32(1).u32(2).section(1, r1cs_header(5, 1, 1, 1, 1)).section(2, big.u32(0).u32(0));
  expect_error(r1cs_error(m.v), StatusCode::kInvalidArgument, "section 2 truncated at byte 100: 2147483647 terms");
}

TEST(CircomR1cs, CustomGatesUnsupported) {
  Image gates;
  gates.u32(0);
  Image f;
  f.raw({'r', '1', 'c', 's'}).u32(1).u32(4).section(1, r1cs_header(5, 1, 1, 1, 2));
  f.section(2, example_constraints()).section(3, label_map(5)).section(4, gates);
  expect_error(r1cs_error(f.v), StatusCode::kUnimplemented, "custom gates unsupported (section 4 at byte 392)");
}

TEST(CircomR1cs, BadContents) {
  auto with_constraints = [](const Image& cons, uint32_t n, uint32_t wires = 5) {
    Image f;
    f.raw({'r', '1', 'c', 's'}).u32(1).u32(2).section(1, r1cs_header(wires, 1, 1, 1, n)).section(2, cons);
    return f.v;
  };
  Image wire;  // wire 5 of 5, at byte 100 + 4
  wire.raw(lincomb({{5, small_le(1)}}).v).raw(lincomb({}).v).raw(lincomb({}).v);
  expect_error(r1cs_error(with_constraints(wire, 1)), StatusCode::kInvalidArgument, "wire id 5 at byte 104 >= nWires 5");
  Image coeff;  // coefficient r itself
  coeff.raw(lincomb({}).v).raw(lincomb({{1, le_from_hex(kRHex)}}).v).raw(lincomb({}).v);
  expect_error(r1cs_error(with_constraints(coeff, 1)), StatusCode::kInvalidArgument,
               "coefficient at byte 112 is not reduced");
  expect_error(r1cs_error(with_constraints(Image(), 0, 2)), StatusCode::kInvalidArgument,
               "nWires 2 < 1 + nPubOut + nPubIn = 3");
  // circom drops a private input that appears in no constraint from the wires
  // but still counts it in nPrvIn: 3 wires for 1 + 1 + 1 + 1 declared is valid.
  {
    Image f;
    f.raw({'r', '1', 'c', 's'}).u32(1).u32(2).section(1, r1cs_header(3, 1, 1, 1, 0)).section(2, Image());
    CircomR1csHeader h;
    auto c = parse_circom_r1cs(f.v, &h);
    ASSERT_TRUE(c.ok()) << c.status().to_string();
    EXPECT_EQ(h.n_wires, 3u);
    EXPECT_EQ(h.n_prv_in, 1u);
    EXPECT_EQ(c->num_inputs(), 3u);  // the constant one and the two public wires
  }

  Image missing;
  missing.raw({'r', '1', 'c', 's'}).u32(1).u32(1).section(2, example_constraints());
  expect_error(r1cs_error(missing.v), StatusCode::kInvalidArgument, "section 1 (header) is missing");
  Image twice;
  twice.raw({'r', '1', 'c', 's'}).u32(1).u32(3).section(1, r1cs_header(5, 1, 1, 1, 2));
  twice.section(2, example_constraints()).section(2, example_constraints());
  expect_error(r1cs_error(twice.v), StatusCode::kInvalidArgument, "appears twice, at bytes 88 and 340");
  EXPECT_EQ(read_circom_r1cs("/nonexistent/x.r1cs").status().code(), StatusCode::kNotFound);
}

TEST(Wtns, RoundTripRandom) {
  TestRng rng(fresh_seed());
  ThreadPool pool(2);
  for (size_t n : {size_t(1), size_t(2), size_t(1000), size_t(200000)}) {
    std::vector<Fr> w(n);
    w[0] = Fr::one();
    for (size_t i = 1; i < n; ++i) w[i] = Fr::random(rng);
    if (n > 2) w[n - 1] = -Fr::one();
    auto bytes = serialize_wtns(w);
    EXPECT_EQ(bytes.size(), 12 + 52 + 12 + 32 * n);
    auto back = parse_wtns(bytes, &pool);
    ASSERT_TRUE(back.ok()) << back.status().to_string();
    EXPECT_EQ(*back, w);
    auto header = parse_wtns_header(bytes);  // what the daemon checks at submit
    ASSERT_TRUE(header.ok()) << header.status().to_string();
    EXPECT_EQ(header->count, n);
    EXPECT_EQ(header->values_offset, 76u);
    EXPECT_EQ(header->end_offset, bytes.size());
  }
  std::vector<Fr> w = {Fr::one(), Fr::from_uint(9)};
  const std::string path = "/tmp/cuzk_wtns_" + std::to_string(OsRng()()) + ".wtns";
  ASSERT_TRUE(write_wtns(w, path).ok());
  auto back = read_wtns(path);
  std::remove(path.c_str());
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, w);
}

TEST(Wtns, Errors) {
  const std::vector<uint8_t> good = example_wtns({1, 27, 3, 3, 9});
  for (size_t cut : {0, 7, 12, 20, 40, 64, 70, 100, 235}) {
    std::vector<uint8_t> t(good.begin(), good.begin() + long(cut));
    expect_error(wtns_error(t), StatusCode::kInvalidArgument, "truncated at byte " + std::to_string(cut));
  }
  std::vector<uint8_t> b = good;
  b[1] = 'T';
  expect_error(wtns_error(b), StatusCode::kInvalidArgument, "bad magic at byte 0");
  b = good;
  b[4] = 1;
  expect_error(wtns_error(b), StatusCode::kInvalidArgument, "unsupported version 1 at byte 4");
  expect_error(wtns_error(example_wtns({1, 2}, kBn254Hex)), StatusCode::kInvalidArgument,
               "wrong curve/prime at byte 28: the file's prime is 0x" + kBn254Hex);
  b = good;
  b[60] = 4;  // nWitness 4, section 2 still 160 bytes
  expect_error(wtns_error(b), StatusCode::kInvalidArgument,
               "section 2 (header at byte 64) has 160 bytes, expected n8·nWitness = 128");
  b = good;
  b[60] = 6;
  expect_error(wtns_error(b), StatusCode::kInvalidArgument, "expected n8·nWitness = 192");
  b = good;  // value 2 := r
  std::vector<uint8_t> r = le_from_hex(kRHex);
  std::copy(r.begin(), r.end(), b.begin() + 76 + 64);
  expect_error(wtns_error(b), StatusCode::kInvalidArgument, "witness value 2 at byte 140 is not reduced");
  expect_error(wtns_error(example_wtns({2, 3})), StatusCode::kInvalidArgument, "witness value 0 at byte 76");
  Image h, f;  // header section with an extra byte
  h.u32(32).raw(le_from_hex(kRHex)).u32(1).raw({0});
  f.raw({'w', 't', 'n', 's'}).u32(2).u32(2).section(1, h).section(2, Image().raw(small_le(1)));
  expect_error(wtns_error(f.v), StatusCode::kInvalidArgument, "has 41 bytes, expected 40");
  Image only;
  only.raw({'w', 't', 'n', 's'}).u32(2).u32(1).section(2, Image().raw(small_le(1)));
  expect_error(wtns_error(only.v), StatusCode::kInvalidArgument, "section 1 (header) is missing");
}

}  // namespace
}  // namespace cuzk::io
