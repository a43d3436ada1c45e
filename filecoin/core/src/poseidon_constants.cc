// Poseidon constants derived as neptune derives them (see poseidon.h).
#include <climits>
#include <cmath>
#include <deque>
#include <string>

#include "cuzk/filecoin/poseidon.h"

namespace cuzk::filecoin {

namespace {

// ---- round numbers (neptune round_numbers.rs, after calc_round_numbers.py) ----

constexpr int kPrimeBits = 256;  // n: neptune rounds 255 up for the security bound
constexpr int kSecurityBits = 128;  // M

// The paper's inequalities, in f32 as neptune evaluates them.
bool round_numbers_are_secure(int t_int, int rf, int rp_int) {
  const float rp = float(rp_int), t = float(t_int), n = float(kPrimeBits), m = float(kSecurityBits);
  const float rf_stat = m <= (n - 3.0f) * (t + 1.0f) ? 6.0f : 10.0f;
  const float rf_interp = 0.43f * m + std::log2(t) - rp;
  const float rf_grob_1 = 0.21f * n - rp;
  const float rf_grob_2 = (0.14f * n - 1.0f - rp) / (t - 1.0f);
  long rf_max = LONG_MIN;
  for (float v : {rf_stat, rf_interp, rf_grob_1, rf_grob_2}) {
    // Rust's `f32 as usize` saturates negatives to 0.
    const float c = std::ceil(v);
    rf_max = std::max(rf_max, c <= 0.0f ? 0L : long(c));
  }
  return long(rf) >= rf_max;
}

// The cheapest secure (R_F, R_P) with the 2-full-round and 7.5 % partial-round
// security margins; ties prefer fewer full rounds.
PoseidonRoundNumbers calc_round_numbers(int t) {
  PoseidonRoundNumbers best;
  long best_cost = LONG_MAX;
  for (int rf_test = 2; rf_test <= 1000; rf_test += 2) {
    for (int rp_test = 4; rp_test < 200; ++rp_test) {
      if (!round_numbers_are_secure(t, rf_test, rp_test)) continue;
      const int rf = rf_test + 2;
      const int rp = int(std::ceil(1.075f * float(rp_test)));
      const long cost = long(t) * rf + rp;
      if (cost < best_cost || (cost == best_cost && rf < best.full_rounds)) {
        best = {rf, rp};
        best_cost = cost;
      }
    }
  }
  return best;
}

// ---- Grain LFSR (generate_parameters_grain.sage, as neptune seeds it) ----

class Grain {
 public:
  // bits[0..79] = field (2) ‖ S-box (4) ‖ field bits (12) ‖ t (12) ‖ R_F (10) ‖
  // R_P (10) ‖ thirty ones, most significant bit of each field first; the
  // first 160 output bits are discarded.
  Grain(int field, int sbox, int field_bits, int t, int r_f, int r_p) {
    append(2, field);
    append(4, sbox);
    append(12, field_bits);
    append(12, t);
    append(10, r_f);
    append(10, r_p);
    append(30, (1 << 30) - 1);
    for (int i = 0; i < 160; ++i) step();
  }

  // Self-shrinking output: draw pairs; on a leading 1 output the second bit.
  bool next_bit() {
    for (;;) {
      if (step()) return step();
      step();
    }
  }

  uint8_t next_byte(int bits) {
    uint8_t acc = 0;
    for (int i = 0; i < bits; ++i) acc = uint8_t(acc << 1 | (next_bit() ? 1 : 0));
    return acc;
  }

 private:
  void append(int n, uint32_t v) {
    for (int i = n - 1; i >= 0; --i) state_.push_back((v >> i) & 1);
  }
  // b_{i+80} = b_{i+62} ⊕ b_{i+51} ⊕ b_{i+38} ⊕ b_{i+23} ⊕ b_{i+13} ⊕ b_i
  bool step() {
    const bool b = state_[62] ^ state_[51] ^ state_[38] ^ state_[23] ^ state_[13] ^ state_[0];
    state_.pop_front();
    state_.push_back(b);
    return b;
  }

  std::deque<bool> state_;
};

// One constant: a field_bits-bit big-endian integer (the first byte carries
// field_bits mod 8 bits), resampled while >= r.
Fr grain_sample(Grain& g, int field_bits) {
  for (;;) {
    uint8_t be[32];
    const int rem = field_bits % 8;
    be[0] = g.next_byte(rem ? rem : 8);
    for (int i = 1; i < 32; ++i) be[i] = g.next_byte(8);
    Fr::Repr limbs{};
    for (int i = 0; i < 32; ++i) limbs[size_t(3 - i / 8)] |= uint64_t(be[i]) << (8 * (7 - i % 8));
    Fr f;
    if (Fr::from_canonical(limbs, &f)) return f;
  }
}

// ---- optimised-mode constants (neptune preprocessing.rs, mds.rs) ----

std::vector<Fr> vec_add(std::span<const Fr> a, std::span<const Fr> b) {
  std::vector<Fr> r(a.size());
  for (size_t i = 0; i < a.size(); ++i) r[i] = a[i] + b[i];
  return r;
}

// Pushes the round constants back through the linear layers so that each is
// added right after an S-box: full_rounds·width + partial_rounds values.
std::vector<Fr> compress_round_constants(const PoseidonConstants& c) {
  const size_t w = size_t(c.width);
  const int half = c.half_full_rounds, partial = c.partial_rounds;
  auto round_keys = [&](int r) { return std::span<const Fr>(c.round_constants).subspan(size_t(r) * w, w); };
  const FrMatrix& m_inv = c.mds.m_inv;

  std::vector<Fr> res(round_keys(0).begin(), round_keys(0).end());
  // First full rounds: the next round's keys, inverted through M (the last
  // one comes out of the partial-round accumulation below).
  for (int i = 0; i < half - 1; ++i) {
    const auto inv = m_inv.apply_left(round_keys(i + 1));
    res.insert(res.end(), inv.begin(), inv.end());
  }
  // Partial rounds, from the last back: invert the accumulated keys, keep
  // element 0 for that round's single S-box, fold the rest into the
  // previous round's keys.
  const int final_round = half + partial;
  std::vector<Fr> acc(round_keys(final_round).begin(), round_keys(final_round).end());
  std::vector<Fr> partial_keys;
  for (int i = 0; i < partial; ++i) {
    std::vector<Fr> inv = m_inv.apply_left(acc);
    partial_keys.push_back(inv[0]);
    inv[0] = Fr::zero();
    acc = vec_add(round_keys(final_round - i - 1), inv);
  }
  const auto acc_inv = m_inv.apply_left(acc);
  res.insert(res.end(), acc_inv.begin(), acc_inv.end());
  res.insert(res.end(), partial_keys.rbegin(), partial_keys.rend());
  // Last full rounds but the final one (which adds no key after its S-boxes).
  for (int i = 1; i < half; ++i) {
    const auto inv = m_inv.apply_left(round_keys(i + half + partial));
    res.insert(res.end(), inv.begin(), inv.end());
  }
  return res;
}

SparseMatrix sparse_from_double_prime(const FrMatrix& m) {
  SparseMatrix s;
  for (size_t i = 0; i < m.size(); ++i) s.w_hat.push_back(m.at(i, 0));
  for (size_t j = 1; j < m.size(); ++j) s.v_rest.push_back(m.at(0, j));
  return s;
}

// Factors the partial rounds' matrix, from the last round back: M = M'·M'',
// M'' becomes that round's sparse matrix and base·M' the previous round's
// matrix; what is left after n steps is the dense pre-sparse matrix.
Status factor_to_sparse_matrices(const FrMatrix& base, int n, PoseidonConstants* c) {
  FrMatrix curr = base;
  std::vector<SparseMatrix> acc;
  for (int i = 0; i < n; ++i) {
    ASSIGN_OR_RETURN(PoseidonMdsMatrices derived, poseidon_derive_mds_matrices(curr));
    acc.push_back(sparse_from_double_prime(derived.m_double_prime));
    curr = base * derived.m_prime;
  }
  c->pre_sparse_matrix = std::move(curr);
  c->sparse_matrices.assign(acc.rbegin(), acc.rend());
  return ok_status();
}

Fr pow2(int n) {
  Fr r = Fr::one();
  for (int i = 0; i < n; ++i) r = r.dbl();
  return r;
}

}  // namespace

PoseidonRoundNumbers poseidon_round_numbers(int arity, PoseidonStrength strength) {
  PoseidonRoundNumbers rn = calc_round_numbers(arity + 1);
  if (strength == PoseidonStrength::kStrengthened) rn.partial_rounds = int(std::ceil(double(rn.partial_rounds) * 1.25));
  return rn;
}

std::vector<Fr> poseidon_grain_round_constants(int field_bits, int t, int r_f, int r_p) {
  Grain g(/*field=*/1, /*sbox=*/1, field_bits, t, r_f, r_p);
  std::vector<Fr> out;
  out.reserve(size_t(r_f + r_p) * size_t(t));
  for (int i = 0; i < (r_f + r_p) * t; ++i) out.push_back(grain_sample(g, field_bits));
  return out;
}

FrMatrix poseidon_cauchy_mds(int t) {
  FrMatrix m{size_t(t)};
  for (int i = 0; i < t; ++i)
    for (int j = 0; j < t; ++j) m.at(size_t(i), size_t(j)) = Fr::from_uint(uint64_t(i + t + j)).inverse();
  return m;
}

StatusOr<PoseidonMdsMatrices> poseidon_derive_mds_matrices(const FrMatrix& m) {
  const size_t n = m.size();
  PoseidonMdsMatrices d;
  d.m = m;
  ASSIGN_OR_RETURN(d.m_inv, m.inverse());
  d.m_hat = m.minor(0, 0);
  ASSIGN_OR_RETURN(d.m_hat_inv, d.m_hat.inverse());
  // M': 1 at (0,0), M's rows 1.. with column 0 zeroed.
  d.m_prime = FrMatrix(n);
  d.m_prime.at(0, 0) = Fr::one();
  for (size_t i = 1; i < n; ++i)
    for (size_t j = 1; j < n; ++j) d.m_prime.at(i, j) = m.at(i, j);
  // M'': row 0 is M's row 0; below it, column 0 is ŵ = M̂^-1·w (w = M's
  // column 0 without row 0) and the rest the identity.
  std::vector<Fr> w;
  for (size_t i = 1; i < n; ++i) w.push_back(m.at(i, 0));
  const std::vector<Fr> w_hat = d.m_hat_inv.apply_left(w);
  d.m_double_prime = FrMatrix(n);
  for (size_t j = 0; j < n; ++j) d.m_double_prime.at(0, j) = m.at(0, j);
  for (size_t i = 1; i < n; ++i) {
    d.m_double_prime.at(i, 0) = w_hat[i - 1];
    d.m_double_prime.at(i, i) = Fr::one();
  }
  return d;
}

Fr poseidon_merkle_tree_tag(int arity) { return pow2(arity) - Fr::one(); }

Fr poseidon_constant_length_tag(uint64_t length) { return Fr::from_uint(length) * pow2(64); }

StatusOr<Fr> poseidon_custom_tag(uint64_t id) {
  if (id < 1 || id > 256) return invalid_argument("Poseidon custom domain tag id " + std::to_string(id) + " outside [1, 256]");
  return Fr::from_uint(id) * pow2(40);
}

StatusOr<PoseidonConstants> build_poseidon_constants(int arity, PoseidonStrength strength, const Fr& domain_tag) {
  if (arity < 1 || arity > 64) return invalid_argument("Poseidon arity " + std::to_string(arity) + " outside [1, 64]");
  PoseidonConstants c;
  c.arity = arity;
  c.width = arity + 1;
  c.strength = strength;
  c.domain_tag = domain_tag;
  const PoseidonRoundNumbers rn = poseidon_round_numbers(arity, strength);
  c.full_rounds = rn.full_rounds;
  c.half_full_rounds = rn.full_rounds / 2;
  c.partial_rounds = rn.partial_rounds;
  c.round_constants = poseidon_grain_round_constants(Fr::kBits, c.width, c.full_rounds, c.partial_rounds);
  ASSIGN_OR_RETURN(c.mds, poseidon_derive_mds_matrices(poseidon_cauchy_mds(c.width)));
  c.compressed_round_constants = compress_round_constants(c);
  RETURN_IF_ERROR(factor_to_sparse_matrices(c.mds.m.transpose(), c.partial_rounds, &c));
  return c;
}

}  // namespace cuzk::filecoin
