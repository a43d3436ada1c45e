// The body of poseidon_hash (poseidon.h): neptune's PoseidonCircuit.
#pragma once

#include "cuzk/filecoin/cs/poseidon.h"

namespace cuzk::filecoin::snark {
namespace poseidon_detail {

template <class CS>
class PoseidonCircuit {
 public:
  PoseidonCircuit(CS& cs, const PoseidonConstants& c, std::span<const AllocatedNum> preimage) : cs_(cs), c_(c) {
    elements_.reserve(size_t(c.width));
    Elt tag;
    tag.lc = Num::constant(c.domain_tag, CS::kRecords);
    elements_.push_back(std::move(tag));
    for (const AllocatedNum& x : preimage) elements_.push_back(Elt{true, x, Num(CS::kRecords)});
  }

  // first round, initial full rounds, partial rounds, final full rounds,
  // terminal round, then element 1 allocated as the result.
  AllocatedNum hash() {
    const int half = c_.full_rounds / 2;
    full_round(Name("first round"), true, false);
    for (int i = 1; i < half; ++i) full_round(Name("initial full round ", i), false, false);
    for (int i = 0; i < c_.partial_rounds; ++i) partial_round(Name("partial round ", i));
    for (int i = 0; i < half - 1; ++i) full_round(Name("final full round ", i), false, false);
    full_round(Name("terminal full round"), false, true);
    return ensure_allocated(cs_, Name("hash result"), elements_[1]);
  }

 private:
  static Elt allocated(const AllocatedNum& x) { return Elt{true, x, Num(CS::kRecords)}; }

  // x^5 (+ post): S-box input allocated if needed, x², x⁴, x⁴·x + post.
  Elt quintic_s_box(Name name, const Elt& e, const Fr* post) {
    Scope<CS> ns(cs_, name);
    const AllocatedNum l = ensure_allocated(cs_, Name("S-box input"), e);
    const AllocatedNum l2 = num_square(cs_, Name("l^2"), l);
    const AllocatedNum l4 = num_square(cs_, Name("l^4"), l2);
    return allocated(mul_sum(cs_, Name("(l4 * l) + rk)"), l4, l, nullptr, post));
  }

  // (x + pre)^5 + post, the first round's S-box with its round key added first.
  Elt quintic_s_box_pre_add(Name name, const Elt& e, const Fr& pre, const Fr& post) {
    Scope<CS> ns(cs_, name);
    const AllocatedNum l = ensure_allocated(cs_, Name("S-box input"), e);
    const AllocatedNum l2 = square_sum(cs_, Name("(l+rk)^2"), pre, l);
    const AllocatedNum l4 = num_square(cs_, Name("l^4"), l2);
    return allocated(mul_sum(cs_, Name("l4 * (l + rk)"), l4, l, &pre, &post));
  }

  // The tag's first S-box is a constant: ((tag + pre)^5 + post)·ONE.
  Elt constant_tag_s_box(const Elt& tag, const Fr& pre, const Fr& post) const {
    const Fr x = tag.value() + pre;
    Elt r;
    r.lc = Num::constant(x * x.square().square() + post, CS::kRecords);
    return r;
  }

  void full_round(Name name, bool first, bool last) {
    Scope<CS> ns(cs_, name);
    const size_t width = size_t(c_.width);
    const Fr* pre = first ? &c_.compressed_round_constants[offset_] : nullptr;
    if (first) offset_ += width;
    const Fr* post = (first || !last) ? &c_.compressed_round_constants[offset_] : nullptr;
    if (post) offset_ += width;
    for (size_t i = 0; i < elements_.size(); ++i) {
      const Fr* post_i = post ? post + i : nullptr;
      if (first && i == 0) {
        elements_[0] = constant_tag_s_box(elements_[0], pre[0], *post_i);
      } else if (first) {
        elements_[i] = quintic_s_box_pre_add(Name("quintic s-box ", int64_t(i)), elements_[i], pre[i], *post_i);
      } else {
        elements_[i] = quintic_s_box(Name("quintic s-box ", int64_t(i)), elements_[i], post_i);
      }
    }
    product_mds();
  }

  void partial_round(Name name) {
    Scope<CS> ns(cs_, name);
    const Fr* key = &c_.compressed_round_constants[offset_++];
    elements_[0] = quintic_s_box(Name("solitary quintic s-box"), elements_[0], key);
    product_mds();
  }

  // The pre-sparse matrix after round half − 1, then one sparse matrix per
  // partial round, the plain MDS elsewhere.
  void product_mds() {
    const int half = c_.half_full_rounds;
    const int sparse_offset = half - 1;
    if (current_round_ == sparse_offset) {
      product_with_matrix(c_.pre_sparse_matrix);
    } else if (current_round_ > sparse_offset && current_round_ < half + c_.partial_rounds) {
      product_with_sparse(c_.sparse_matrices[size_t(current_round_ - sparse_offset - 1)]);
    } else {
      product_with_matrix(c_.mds.m);
    }
    ++current_round_;
  }

  // result[j] = Σ_i m[i][j]·x[i] (neptune's product_mds_with_matrix).
  void product_with_matrix(const FrMatrix& m) {
    std::vector<Elt> result(elements_.size());
    for (size_t j = 0; j < elements_.size(); ++j) {
      Num acc(CS::kRecords);
      for (size_t i = 0; i < elements_.size(); ++i) acc.add(elements_[i].scaled(m.at(i, j), CS::kRecords));
      result[j].lc = std::move(acc);
    }
    elements_ = std::move(result);
  }

  // y[0] = Σ w_hat[i]·x[i]; y[j] = x[j] + v_rest[j − 1]·x[0].
  // REQUIRES: x[j] unallocated for j >= 1 (they come out of a linear layer).
  void product_with_sparse(const SparseMatrix& m) {
    std::vector<Elt> result(elements_.size());
    Num first(CS::kRecords);
    for (size_t i = 0; i < elements_.size(); ++i) first.add(elements_[i].scaled(m.w_hat[i], CS::kRecords));
    result[0].lc = std::move(first);
    for (size_t j = 1; j < elements_.size(); ++j) {
      Num n = elements_[j].lc;
      n.add(elements_[0].scaled(m.v_rest[j - 1], CS::kRecords));
      result[j].lc = std::move(n);
    }
    elements_ = std::move(result);
  }

  CS& cs_;
  const PoseidonConstants& c_;
  std::vector<Elt> elements_;
  size_t offset_ = 0;
  int current_round_ = 0;
};

// The same permutation for a back end that records no rows: the state is
// kept as values and only the variables are allocated, in the order and with
// the values PoseidonCircuit gives them (first round: (x + pre)², x⁴, x⁵ + post
// per preimage element, the tag folded; every later S-box: its input, x², x⁴,
// x⁵ + key; then the result). Several times faster than carrying Num values.
template <class CS>
class PoseidonWitness {
 public:
  PoseidonWitness(CS& cs, const PoseidonConstants& c) : cs_(cs), c_(c) {}

  AllocatedNum hash(std::span<const AllocatedNum> preimage) {
    const size_t w = size_t(c_.width);
    x_.assign(w, Fr::zero());
    x_[0] = c_.domain_tag;
    for (size_t i = 1; i < w; ++i) x_[i] = preimage[i - 1].value;
    const int half = c_.full_rounds / 2;
    first_round();
    for (int i = 1; i < half; ++i) full_round(false);
    for (int i = 0; i < c_.partial_rounds; ++i) partial_round();
    for (int i = 0; i < half - 1; ++i) full_round(false);
    full_round(true);
    const Var out = cs_.alloc(Name("num"), x_[1]);
    cs_.enforce(Name("row"), [](Lc&) {}, [](Lc&) {}, [](Lc&) {});
    return {out, x_[1]};
  }

 private:
  // One variable and its row (every variable here has exactly one).
  Fr alloc(const Fr& v) {
    cs_.alloc(Name("num"), v);
    cs_.enforce(Name("row"), [](Lc&) {}, [](Lc&) {}, [](Lc&) {});
    return v;
  }
  // An unallocated input: allocated, then x², x⁴, x⁴·x (+ key).
  Fr s_box(const Fr& x, const Fr* key) {
    alloc(x);
    const Fr x4 = alloc(alloc(x.square()).square());
    Fr y = x4 * x;
    if (key) y += *key;
    return alloc(y);
  }
  void first_round() {
    const size_t w = size_t(c_.width);
    const Fr* pre = &c_.compressed_round_constants[offset_];
    const Fr* post = pre + w;
    offset_ += 2 * w;
    const Fr t = x_[0] + pre[0];
    x_[0] = t * t.square().square() + post[0];
    for (size_t i = 1; i < w; ++i) {
      const Fr l = x_[i] + pre[i];
      const Fr l4 = alloc(alloc(l.square()).square());
      x_[i] = alloc(l4 * l + post[i]);
    }
    mix();
  }
  void full_round(bool last) {
    const size_t w = size_t(c_.width);
    const Fr* post = last ? nullptr : &c_.compressed_round_constants[offset_];
    if (!last) offset_ += w;
    for (size_t i = 0; i < w; ++i) x_[i] = s_box(x_[i], post ? post + i : nullptr);
    mix();
  }
  void partial_round() {
    x_[0] = s_box(x_[0], &c_.compressed_round_constants[offset_++]);
    mix();
  }
  // PoseidonCircuit::product_mds on values.
  void mix() {
    const int half = c_.half_full_rounds;
    const size_t w = x_.size();
    y_.assign(w, Fr::zero());
    if (round_ > half - 1 && round_ < half + c_.partial_rounds) {
      const SparseMatrix& m = c_.sparse_matrices[size_t(round_ - half)];
      for (size_t i = 0; i < w; ++i) y_[0] += m.w_hat[i] * x_[i];
      for (size_t j = 1; j < w; ++j) y_[j] = x_[j] + m.v_rest[j - 1] * x_[0];
    } else {
      const FrMatrix& m = round_ == half - 1 ? c_.pre_sparse_matrix : c_.mds.m;
      for (size_t j = 0; j < w; ++j)
        for (size_t i = 0; i < w; ++i) y_[j] += m.at(i, j) * x_[i];
    }
    x_.swap(y_);
    ++round_;
  }

  CS& cs_;
  const PoseidonConstants& c_;
  std::vector<Fr> x_, y_;
  size_t offset_ = 0;
  int round_ = 0;
};

}  // namespace poseidon_detail

template <class CS>
AllocatedNum poseidon_hash(CS& cs, Name name, std::span<const AllocatedNum> preimage, const PoseidonConstants& c) {
  Scope<CS> ns(cs, name);
  if (preimage.size() != size_t(c.arity)) {
    cs.fail(invalid_argument("poseidon_hash: " + std::to_string(preimage.size()) + " elements for arity " +
                             std::to_string(c.arity)));
    return alloc_num(cs, Name("invalid"), Fr::zero());
  }
  if constexpr (!CS::kRecords) {
    poseidon_detail::PoseidonWitness<CS> witness(cs, c);
    return witness.hash(preimage);
  } else {
    poseidon_detail::PoseidonCircuit<CS> circuit(cs, c, preimage);
    return circuit.hash();
  }
}

}  // namespace cuzk::filecoin::snark
