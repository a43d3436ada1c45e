// Poseidon over BLS12-381 Fr exactly as neptune builds it for Filecoin
// (x^5 S-box, width t = arity + 1, element 0 of the state is the domain tag,
// the digest is element 1 after the permutation).
//
// Every constant is derived here the way neptune derives it, not by an
// equivalent route, because a circuit synthesizer uses them as R1CS
// coefficients and must reproduce neptune's constraint system:
//   - round numbers: R_F = 8 and R_P from the Poseidon paper's security
//     inequalities at M = 128, n = 256 (with neptune's 2-round and 7.5 %
//     margins, in f32 as neptune computes them): 55 / 57 / 57 for arity 2/8/11;
//   - round constants: the Grain LFSR seeded with (field 1, S-box 1, 255 bits,
//     t, R_F, R_P), in self-shrinking mode, 255-bit big-endian samples below r;
//   - MDS: the Cauchy matrix M[i][j] = 1 / (i + (t + j));
//   - the optimised ("static") mode: compressed round constants and the
//     factorisation of the partial rounds' MDS into a dense pre-sparse matrix
//     and R_P sparse matrices M'' (first row and column dense, identity
//     elsewhere).
//
// Conventions (neptune's): a "matrix applied on the right" to a state x is
// x^T·A (result[j] = Σ_i A[i][j]·x[i]); "on the left" is A·x. The plain MDS
// mixing is M·x; the pre-sparse and sparse matrices are applied on the right.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/base/status.h"
#include "cuzk/ff/fr.h"

namespace cuzk::filecoin {

using ff::Fr;

// A square matrix over Fr, row-major.
class FrMatrix {
 public:
  FrMatrix() = default;
  explicit FrMatrix(size_t n) : n_(n), a_(n * n) {}
  static FrMatrix identity(size_t n);

  size_t size() const { return n_; }
  Fr& at(size_t row, size_t col) { return a_[row * n_ + col]; }
  const Fr& at(size_t row, size_t col) const { return a_[row * n_ + col]; }
  std::span<const Fr> row(size_t r) const { return {a_.data() + r * n_, n_}; }
  friend bool operator==(const FrMatrix& a, const FrMatrix& b) { return a.n_ == b.n_ && a.a_ == b.a_; }

  FrMatrix transpose() const;
  // The (n-1)×(n-1) matrix without row i and column j.
  FrMatrix minor(size_t i, size_t j) const;
  // this · other. REQUIRES: equal sizes.
  FrMatrix operator*(const FrMatrix& other) const;
  // A·x and x^T·A. REQUIRES: x.size() == size().
  std::vector<Fr> apply_left(std::span<const Fr> x) const;
  std::vector<Fr> apply_right(std::span<const Fr> x) const;
  // Gauss-Jordan inverse; FAILED_PRECONDITION if singular.
  StatusOr<FrMatrix> inverse() const;

 private:
  size_t n_ = 0;
  std::vector<Fr> a_;
};

// neptune's SparseMatrix: the matrix M'' that is the identity except for its
// first column (w_hat, all `width` rows) and first row (v_rest = row 0,
// columns 1..width-1). Applied on the right to a state x:
//   y[0] = Σ_i w_hat[i]·x[i],   y[j] = x[j] + v_rest[j-1]·x[0]  (j ≥ 1).
struct SparseMatrix {
  std::vector<Fr> w_hat;
  std::vector<Fr> v_rest;
  FrMatrix to_matrix() const;
  friend bool operator==(const SparseMatrix&, const SparseMatrix&) = default;
};

enum class PoseidonStrength { kStandard, kStrengthened };

struct PoseidonRoundNumbers {
  int full_rounds = 0;
  int partial_rounds = 0;
};

// neptune's round_numbers(arity, strength). REQUIRES: 1 <= arity <= 1000.
PoseidonRoundNumbers poseidon_round_numbers(int arity, PoseidonStrength strength);

// The Grain LFSR constants of the Poseidon reference script
// (create_rcs_grain.sage with field 1, S-box 1): (r_f + r_p)·t elements.
std::vector<Fr> poseidon_grain_round_constants(int field_bits, int t, int r_f, int r_p);

// The t×t Cauchy MDS matrix neptune uses: M[i][j] = 1 / (i + t + j).
FrMatrix poseidon_cauchy_mds(int t);

// neptune's MdsMatrices: M, M^-1, M̂ (M without row 0 and column 0), M̂^-1,
// M' and M'' with M = M'·M''.
struct PoseidonMdsMatrices {
  FrMatrix m, m_inv, m_hat, m_hat_inv, m_prime, m_double_prime;
};
StatusOr<PoseidonMdsMatrices> poseidon_derive_mds_matrices(const FrMatrix& m);

// Domain tags (neptune HashType::domain_tag).
Fr poseidon_merkle_tree_tag(int arity);          // MerkleTree: 2^arity − 1
Fr poseidon_constant_length_tag(uint64_t length);  // ConstantLength(len): len · 2^64
// Custom(Arbitrary(id)): id · 2^40; INVALID_ARGUMENT unless 1 <= id <= 256.
StatusOr<Fr> poseidon_custom_tag(uint64_t id);

// Everything a hash (or a circuit) of one arity needs.
struct PoseidonConstants {
  int arity = 0;
  int width = 0;  // arity + 1
  PoseidonStrength strength = PoseidonStrength::kStandard;
  int full_rounds = 0;
  int half_full_rounds = 0;
  int partial_rounds = 0;
  Fr domain_tag;
  std::vector<Fr> round_constants;             // (full + partial)·width, round-major
  PoseidonMdsMatrices mds;
  std::vector<Fr> compressed_round_constants;  // full·width + partial
  FrMatrix pre_sparse_matrix;                  // applied on the right after round half_full − 1
  std::vector<SparseMatrix> sparse_matrices;   // partial_rounds, in the order applied
};

// neptune's PoseidonConstants::new_with_strength_and_type for one arity and a
// given domain tag. INVALID_ARGUMENT for arity outside [1, 64].
StatusOr<PoseidonConstants> build_poseidon_constants(int arity, PoseidonStrength strength, const Fr& domain_tag);

// The standard-strength MerkleTree constants (domain tag 2^arity − 1) for the
// arities Filecoin uses: 2, 4, 8, 11, 16, 24, 36. Each table is built on
// first use (arity 36 takes a fraction of a second), then never changes;
// concurrent first calls are safe. REQUIRES: a listed arity (others abort).
const PoseidonConstants& poseidon_constants(int arity);
bool poseidon_arity_supported(int arity);

// SnapDeals' HASH_TYPE_GEN_RANDOMNESS constants: arity 2, standard strength,
// Custom(1) domain tag (1·2^40). Built once, like poseidon_constants().
const PoseidonConstants& poseidon_gen_randomness_constants();

// Hashes preimage (at most c.arity elements; missing ones are zero, as a
// MerkleTree/ConstantLength neptune hasher pads) with the optimised static
// mode, neptune's default. REQUIRES: preimage.size() <= c.arity.
Fr poseidon_hash(const PoseidonConstants& c, std::span<const Fr> preimage);
// The unoptimised permutation (neptune HashMode::Correct): full rounds with
// the raw round constants and M. Same result; for cross-checks.
Fr poseidon_hash_reference(const PoseidonConstants& c, std::span<const Fr> preimage);

// The constant-length sponge: absorbs `preimage` arity elements at a time into
// a state tagged len·2^64 (a simplex sponge as neptune's Sponge in Simplex mode
// with one squeeze), permuting after each full block and at the end.
// REQUIRES: c built with poseidon_constant_length_tag(preimage.size()).
Fr poseidon_sponge_constant_length(const PoseidonConstants& c, std::span<const Fr> preimage);

// filecoin-hashers' PoseidonFunction: hash2 (arity 2) and hash_md (the
// arity-36 Merkle–Damgård chain: acc = x0; for each chunk of 35: acc =
// H36(acc, chunk…, zero padding)). REQUIRES: input.size() >= 2 for hash_md.
Fr poseidon_hash2(const Fr& a, const Fr& b);
Fr poseidon_hash_md(std::span<const Fr> input);

}  // namespace cuzk::filecoin
