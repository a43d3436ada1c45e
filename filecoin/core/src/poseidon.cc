// Poseidon permutations (neptune's OptimizedStatic and Correct modes), the
// shared constant tables, the constant-length sponge and filecoin-hashers'
// hash2 / hash_md.
#include <cstdlib>
#include <vector>

#include "cuzk/filecoin/poseidon.h"

namespace cuzk::filecoin {

namespace {

// x^5: two squarings and a product.
inline Fr quintic(const Fr& x) { return x.square().square() * x; }

constexpr size_t kMaxWidth = 65;  // arity <= 64

// The permutation state: width elements on the stack (no allocation per hash).
struct State {
  Fr v[kMaxWidth];
  size_t n;
  Fr& operator[](size_t i) { return v[i]; }
  std::span<Fr> span() { return {v, n}; }
};

State initial_state(const PoseidonConstants& c, std::span<const Fr> preimage) {
  State s;
  s.n = size_t(c.width);
  s[0] = c.domain_tag;
  for (size_t i = 1; i < s.n; ++i) s[i] = i <= preimage.size() ? preimage[i - 1] : Fr::zero();
  return s;
}

// s ← M·s (left) or s ← sᵀ·M (right): width² products.
void apply_dense(const FrMatrix& m, bool left, State& s) {
  Fr out[kMaxWidth];
  for (size_t i = 0; i < s.n; ++i) {
    Fr acc;
    for (size_t j = 0; j < s.n; ++j) acc += (left ? m.at(i, j) : m.at(j, i)) * s[j];
    out[i] = acc;
  }
  for (size_t i = 0; i < s.n; ++i) s[i] = out[i];
}

// s ← sᵀ·M'' for a sparse M'': 2·width − 1 products.
void apply_sparse(const SparseMatrix& m, State& s) {
  Fr y0;
  for (size_t i = 0; i < s.n; ++i) y0 += m.w_hat[i] * s[i];
  for (size_t j = 1; j < s.n; ++j) s[j] += m.v_rest[j - 1] * s[0];
  s[0] = y0;
}

// The linear layer after round `round` (0-based) in the optimised mode.
void mix_optimised(const PoseidonConstants& c, int round, State& s) {
  const int sparse_offset = c.half_full_rounds - 1;
  if (round == sparse_offset) {
    apply_dense(c.pre_sparse_matrix, /*left=*/false, s);
  } else if (round > sparse_offset && round < c.half_full_rounds + c.partial_rounds) {
    apply_sparse(c.sparse_matrices[size_t(round - sparse_offset - 1)], s);
  } else {
    apply_dense(c.mds.m, /*left=*/true, s);
  }
}

// Runs the optimised permutation on s in place (neptune
// hash_optimized_static): keys of round 0 first, then after every S-box layer
// but the last the compressed key of that position.
void permute_optimised(const PoseidonConstants& c, State& s) {
  const std::vector<Fr>& k = c.compressed_round_constants;
  size_t off = 0;
  for (Fr& x : s.span()) x += k[off++];
  int round = 0;
  auto full_round = [&](bool last) {
    for (Fr& x : s.span()) {
      x = quintic(x);
      if (!last) x += k[off++];
    }
    mix_optimised(c, round++, s);
  };
  for (int r = 0; r < c.half_full_rounds; ++r) full_round(false);
  for (int r = 0; r < c.partial_rounds; ++r) {
    s[0] = quintic(s[0]) + k[off++];
    mix_optimised(c, round++, s);
  }
  for (int r = 1; r < c.half_full_rounds; ++r) full_round(false);
  full_round(true);
}

}  // namespace

Fr poseidon_hash(const PoseidonConstants& c, std::span<const Fr> preimage) {
  State s = initial_state(c, preimage);
  permute_optimised(c, s);
  return s[1];
}

Fr poseidon_hash_reference(const PoseidonConstants& c, std::span<const Fr> preimage) {
  State s = initial_state(c, preimage);
  size_t off = 0;
  auto full_round = [&] {
    for (Fr& x : s.span()) x = quintic(x + c.round_constants[off++]);
    apply_dense(c.mds.m, /*left=*/true, s);
  };
  for (int r = 0; r < c.half_full_rounds; ++r) full_round();
  for (int r = 0; r < c.partial_rounds; ++r) {
    for (Fr& x : s.span()) x += c.round_constants[off++];
    s[0] = quintic(s[0]);
    apply_dense(c.mds.m, /*left=*/true, s);
  }
  for (int r = 0; r < c.half_full_rounds; ++r) full_round();
  return s[1];
}

// neptune's simplex Sponge over ConstantLength(L): elements are added into
// the rate part; the state is permuted after every `arity` elements; a final
// partial block has the rest of its rate part set to zero before the last
// permutation; the output is state element 1.
Fr poseidon_sponge_constant_length(const PoseidonConstants& c, std::span<const Fr> preimage) {
  State s = initial_state(c, {});
  size_t pos = 0;
  for (const Fr& x : preimage) {
    s[1 + pos] += x;
    if (++pos == size_t(c.arity)) {
      permute_optimised(c, s);
      pos = 0;
    }
  }
  if (pos > 0) {
    for (size_t i = 1 + pos; i < s.n; ++i) s[i] = Fr::zero();
    permute_optimised(c, s);
  }
  return s[1];
}

bool poseidon_arity_supported(int arity) {
  switch (arity) {
    case 2: case 4: case 8: case 11: case 16: case 24: case 36:
      return true;
    default:
      return false;
  }
}

namespace {

PoseidonConstants build_or_die(int arity, const Fr& tag) {
  auto c = build_poseidon_constants(arity, PoseidonStrength::kStandard, tag);
  if (!c.ok()) std::abort();  // a bug: the supported arities always build
  return std::move(c).value();
}

template <int kArity>
const PoseidonConstants& merkle_table() {
  // Built once on first use (thread-safe static initialisation), then immutable.
  static const PoseidonConstants table = build_or_die(kArity, poseidon_merkle_tree_tag(kArity));
  return table;
}

}  // namespace

const PoseidonConstants& poseidon_constants(int arity) {
  switch (arity) {
    case 2: return merkle_table<2>();
    case 4: return merkle_table<4>();
    case 8: return merkle_table<8>();
    case 11: return merkle_table<11>();
    case 16: return merkle_table<16>();
    case 24: return merkle_table<24>();
    case 36: return merkle_table<36>();
    default: std::abort();  // REQUIRES violated
  }
}

const PoseidonConstants& poseidon_gen_randomness_constants() {
  static const PoseidonConstants table = [] {
    PoseidonConstants c = poseidon_constants(2);
    c.domain_tag = poseidon_custom_tag(1).value();
    return c;
  }();
  return table;
}

Fr poseidon_hash2(const Fr& a, const Fr& b) {
  const Fr in[2] = {a, b};
  return poseidon_hash(poseidon_constants(2), in);
}

Fr poseidon_hash_md(std::span<const Fr> input) {
  const PoseidonConstants& c = poseidon_constants(36);
  const size_t chunk = size_t(c.arity) - 1;
  Fr acc = input[0];
  std::vector<Fr> block;
  for (size_t i = 1; i < input.size(); i += chunk) {
    block.assign(1, acc);
    for (size_t j = i; j < std::min(input.size(), i + chunk); ++j) block.push_back(input[j]);
    acc = poseidon_hash(c, block);
  }
  return acc;
}

}  // namespace cuzk::filecoin
