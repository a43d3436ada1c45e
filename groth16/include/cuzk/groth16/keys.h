// Groth16 keys and proofs, independent of any file format (io/ reads and
// writes bellperson .params/.vk and snarkjs .zkey/JSON into these types).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "cuzk/ec/curves.h"
#include "cuzk/ff/fr.h"
#include "cuzk/r1cs/density.h"

namespace cuzk::groth16 {

using ec::G1Affine;
using ec::G2Affine;
using ff::Fr;

// The two key layouts in use (formats.md §5, "The H query"). The layout fixes
// the NTT root convention, the H query and how the prover gets c.
enum class KeyLayout {
  // bellperson / supraseal (.params): 7-based domain; H[i] = [τ^i·Z(τ)/δ],
  // i < n − 1; the prover divides by Z on the coset g = 7; per-input rows
  // "input_i · 0 = 0" are appended after the circuit's rows.
  kBellperson,
  // snarkjs (.zkey): 5-based domain; H[j] = [L'_{2j+1}(τ)/δ], j < n (odd
  // points of the 2n-domain); no division by Z; the key's constraint rows
  // already hold the per-input rows.
  kSnarkjs,
};

std::string_view key_layout_name(KeyLayout layout);
ff::RootConvention root_convention(KeyLayout layout);

struct VerifyingKey {
  G1Affine alpha_g1;
  G1Affine beta_g1;   // identity when the source does not carry it (snarkjs JSON)
  G2Affine beta_g2;
  G2Affine gamma_g2;
  G1Affine delta_g1;  // identity when the source does not carry it (snarkjs JSON)
  G2Affine delta_g2;
  // One point per input, ONE first: ic.size() = public inputs + 1.
  std::vector<G1Affine> ic;

  size_t num_public_inputs() const { return ic.empty() ? 0 : ic.size() - 1; }
};

// How the prover obtains c (the C·w row values).
enum class CRule {
  kMatrix,        // c = C·w from the circuit
  kProductOfAB,   // c = a ∘ b row by row (snarkjs keys carry no C matrix)
};

struct ProvingKey {
  KeyLayout layout = KeyLayout::kBellperson;
  VerifyingKey vk;
  int lg_n = 0;             // domain size n = 2^lg_n
  uint64_t num_inputs = 0;  // ONE + public inputs (= vk.ic.size())
  uint64_t num_aux = 0;

  // H: n − 1 points (bellperson) or n points (snarkjs).
  std::vector<G1Affine> h;
  // L (bellperson) / C (snarkjs): one point per aux variable.
  std::vector<G1Affine> l;
  // A, B_G1, B_G2: one point per variable whose density bit is set, in
  // variable order (inputs first). Density bitmaps span all num_vars
  // variables: a_density.bit_len = num_inputs + num_aux.
  std::vector<G1Affine> a;
  std::vector<G1Affine> b_g1;
  std::vector<G2Affine> b_g2;
  r1cs::Bitmap a_density;
  r1cs::Bitmap b_density;

  uint64_t num_vars() const { return num_inputs + num_aux; }
  uint64_t domain_size() const { return uint64_t(1) << lg_n; }
  // Bytes of all points held (for memory budgets).
  uint64_t point_bytes() const;
  // Checks every count against the others (H length for the layout, L = aux,
  // A/B lengths = popcounts, IC = inputs). Errors name the first mismatch.
  Status check_shape() const;
};

struct Proof {
  G1Affine a;
  G2Affine b;
  G1Affine c;
  friend bool operator==(const Proof&, const Proof&) = default;
};

}  // namespace cuzk::groth16
