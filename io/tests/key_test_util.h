// Test helpers shared by the key-file tests: seeds, temporary files, random
// points, random circuits and random proving keys, key comparison.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "cuzk/base/mapped_file.h"
#include "cuzk/base/random.h"
#include "cuzk/ec/curves.h"
#include "cuzk/groth16/keys.h"
#include "cuzk/r1cs/circuit.h"
#include "cuzk/r1cs/density.h"

namespace cuzk::io::testing {

using ff::Fr;
using groth16::G1Affine;
using groth16::G2Affine;

inline uint64_t fresh_seed() { return cuzk::fresh_test_seed(); }

inline std::string temp_path(const std::string& name) {
  static int counter = 0;
  return ::testing::TempDir() + "cuzk_io_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + "_" + name;
}

inline std::vector<uint8_t> read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

inline void write_all(const std::string& path, const std::vector<uint8_t>& bytes) {
  ASSERT_TRUE(write_file(path, bytes).ok());
}

// n random subgroup points: a random start plus multiples of a random step.
template <class C>
std::vector<ec::Affine<C>> random_points(TestRng& rng, size_t n) {
  using J = ec::Jacobian<C>;
  const auto gen = ec::Affine<C>::generator();
  J step = ec::mul(gen, Fr::random(rng));
  J acc = ec::mul(gen, Fr::random(rng));
  std::vector<J> jac(n);
  for (size_t i = 0; i < n; ++i) {
    jac[i] = acc;
    acc += step;
  }
  return ec::batch_normalize<C>(std::span<const J>(jac));
}

inline r1cs::Bitmap make_bitmap(const std::vector<bool>& bits) {
  r1cs::Bitmap m(bits.size());
  for (size_t i = 0; i < bits.size(); ++i) {
    if (bits[i]) {
      m.words[i / 64] |= uint64_t(1) << (i % 64);
      ++m.popcount;
    }
  }
  return m;
}

inline r1cs::Bitmap concat_bits(const r1cs::Bitmap& a, const r1cs::Bitmap& b) {
  std::vector<bool> bits;
  for (uint64_t i = 0; i < a.bit_len; ++i) bits.push_back(a.test(i));
  for (uint64_t i = 0; i < b.bit_len; ++i) bits.push_back(b.test(i));
  return make_bitmap(bits);
}

inline r1cs::Bitmap random_bitmap(TestRng& rng, uint64_t n, uint64_t prefix_ones = 0) {
  std::vector<bool> bits(n);
  for (uint64_t i = 0; i < n; ++i) bits[i] = i < prefix_ones || (rng() % 3) != 0;
  return make_bitmap(bits);
}

// A key of the given shape with random subgroup points everywhere.
inline groth16::ProvingKey random_key(TestRng& rng, groth16::KeyLayout layout, uint64_t inputs, uint64_t aux, int lg_n,
                                      r1cs::Bitmap a_density, r1cs::Bitmap b_density) {
  groth16::ProvingKey pk;
  pk.layout = layout;
  pk.lg_n = lg_n;
  pk.num_inputs = inputs;
  pk.num_aux = aux;
  auto g1 = random_points<ec::G1Curve>(rng, 4);
  auto g2 = random_points<ec::G2Curve>(rng, 3);
  pk.vk = groth16::VerifyingKey{g1[0], g1[1], g2[0], g2[1], g1[2], g2[2], random_points<ec::G1Curve>(rng, inputs)};
  const uint64_t n = uint64_t(1) << lg_n;
  pk.h = random_points<ec::G1Curve>(rng, layout == groth16::KeyLayout::kBellperson ? n - 1 : n);
  pk.l = random_points<ec::G1Curve>(rng, aux);
  pk.a = random_points<ec::G1Curve>(rng, a_density.popcount);
  pk.b_g1 = random_points<ec::G1Curve>(rng, b_density.popcount);
  pk.b_g2 = random_points<ec::G2Curve>(rng, b_density.popcount);
  pk.a_density = std::move(a_density);
  pk.b_density = std::move(b_density);
  return pk;
}

inline void expect_same_vk(const groth16::VerifyingKey& a, const groth16::VerifyingKey& b) {
  EXPECT_TRUE(a.alpha_g1 == b.alpha_g1);
  EXPECT_TRUE(a.beta_g1 == b.beta_g1);
  EXPECT_TRUE(a.beta_g2 == b.beta_g2);
  EXPECT_TRUE(a.gamma_g2 == b.gamma_g2);
  EXPECT_TRUE(a.delta_g1 == b.delta_g1);
  EXPECT_TRUE(a.delta_g2 == b.delta_g2);
  EXPECT_TRUE(a.ic == b.ic);
}

inline void expect_same_key(const groth16::ProvingKey& a, const groth16::ProvingKey& b) {
  EXPECT_EQ(a.layout, b.layout);
  EXPECT_EQ(a.lg_n, b.lg_n);
  EXPECT_EQ(a.num_inputs, b.num_inputs);
  EXPECT_EQ(a.num_aux, b.num_aux);
  expect_same_vk(a.vk, b.vk);
  EXPECT_TRUE(a.h == b.h);
  EXPECT_TRUE(a.l == b.l);
  EXPECT_TRUE(a.a == b.a);
  EXPECT_TRUE(a.b_g1 == b.b_g1);
  EXPECT_TRUE(a.b_g2 == b.b_g2);
  EXPECT_TRUE(a.a_density == b.a_density);
  EXPECT_TRUE(a.b_density == b.b_density);
}

// Random A/B rows over `vars` variables (C empty), then one per-input row
// (A: wire s, coefficient 1) per input, as a snarkjs key stores them.
inline r1cs::Circuit random_ab_circuit(TestRng& rng, uint64_t inputs, uint64_t aux, uint64_t constraints) {
  r1cs::CircuitBuilder b(inputs, aux);
  const uint64_t vars = inputs + aux;
  auto random_lc = [&](std::vector<r1cs::LinTerm>& lc) {
    lc.clear();
    const int terms = int(rng() % 4);
    for (int t = 0; t < terms; ++t) {
      const uint64_t kind = rng() % 3;
      const Fr c = kind == 0 ? Fr::one() : kind == 1 ? -Fr::one() : Fr::random(rng);
      lc.push_back({rng() % vars, c});
    }
  };
  std::vector<r1cs::LinTerm> a, bb;
  for (uint64_t i = 0; i < constraints; ++i) {
    random_lc(a);
    random_lc(bb);
    EXPECT_TRUE(b.add_row(a, bb, {}).ok());
  }
  for (uint64_t s = 0; s < inputs; ++s) {
    std::vector<r1cs::LinTerm> one{{s, Fr::one()}};
    EXPECT_TRUE(b.add_row(one, {}, {}).ok());
  }
  auto c = std::move(b).build();
  EXPECT_TRUE(c.ok());
  return std::move(c).value();
}

inline void expect_same_circuit(const r1cs::Circuit& x, const r1cs::Circuit& y) {
  ASSERT_EQ(x.shape(), y.shape());
  for (uint64_t row = 0; row < x.num_constraints(); ++row) {
    for (int m = 0; m < 3; ++m) {
      auto rx = x.row(row, r1cs::Matrix(m));
      auto ry = y.row(row, r1cs::Matrix(m));
      ASSERT_EQ(rx.size(), ry.size()) << "row " << row << " matrix " << m;
      for (size_t k = 0; k < rx.size(); ++k) {
        EXPECT_EQ(rx[k].var, ry[k].var);
        EXPECT_EQ(x.coeff(rx[k]), y.coeff(ry[k]));
      }
    }
  }
}

// A status is INVALID_ARGUMENT and its message contains `needle`.
inline ::testing::AssertionResult rejected_with(const Status& s, const std::string& needle) {
  if (s.ok()) return ::testing::AssertionFailure() << "accepted; expected an error containing '" << needle << "'";
  if (s.code() != StatusCode::kInvalidArgument) return ::testing::AssertionFailure() << "wrong code: " << s.to_string();
  if (s.message().find(needle) == std::string::npos)
    return ::testing::AssertionFailure() << "message '" << s.message() << "' lacks '" << needle << "'";
  return ::testing::AssertionSuccess();
}

}  // namespace cuzk::io::testing
