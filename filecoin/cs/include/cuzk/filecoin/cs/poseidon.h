// Poseidon in the circuit as neptune's legacy circuit builds it
// (neptune src/circuit.rs, poseidon_hash): the state starts as the domain
// tag (a constant) and the preimage; the linear layers stay unallocated (Num
// combinations) and only S-box inputs and outputs are allocated, using the
// optimised constants (compressed round constants, pre-sparse and sparse
// matrices) of cuzk::filecoin::PoseidonConstants. Rows per hash: 311 for
// arity 2, 505 for 8, 598 for 11 (neptune's test_poseidon_hash and
// rust-fil-proofs' hash_single_column test).
#pragma once

#include <span>
#include <vector>

#include "cuzk/filecoin/cs/num.h"
#include "cuzk/filecoin/poseidon.h"

namespace cuzk::filecoin::snark {

namespace poseidon_detail {

// neptune's Elt: an allocated number or an unallocated combination.
struct Elt {
  bool allocated = false;
  AllocatedNum num;
  Num lc{false};

  const Fr& value() const { return allocated ? num.value : lc.value(); }
  // Elt::scale: an allocated number becomes the combination 1·var first.
  Num scaled(const Fr& s, bool records) const {
    Num n = allocated ? Num(num, records) : lc;
    return n.scale(s);
  }
};

// Elt::ensure_allocated(enforce = true): a combination gets a variable and
// the row lc·ONE = var.
template <class CS>
AllocatedNum ensure_allocated(CS& cs, Name name, const Elt& e) {
  if (e.allocated) return e.num;
  Scope<CS> ns(cs, name);
  const AllocatedNum v = alloc_num(cs, Name("allocate for Elt::Num"), e.lc.value());
  cs.enforce(
      Name("enforce num allocation preserves lc"), [&](Lc& lc) { lc.add(e.lc.lc()); },
      [&](Lc& lc) { lc.add(Var::one()); }, [&](Lc& lc) { lc.add(v.var); });
  return v;
}

// res = (b + pre)·a + post, with the row (b + pre·ONE)·a = res − post·ONE
// (neptune mul_sum; absent keys are omitted from the row).
template <class CS>
AllocatedNum mul_sum(CS& cs, Name name, const AllocatedNum& a, const AllocatedNum& b, const Fr* pre, const Fr* post) {
  Fr v = b.value;
  if (pre) v += *pre;
  v *= a.value;
  if (post) v += *post;
  Scope<CS> ns(cs, name);
  const AllocatedNum res = alloc_num(cs, Name("mul_sum"), v);
  cs.enforce(
      Name("mul sum constraint"),
      [&](Lc& lc) {
        lc.add(b.var);
        if (pre) lc.add(Var::one(), *pre);
      },
      [&](Lc& lc) { lc.add(a.var); },
      [&](Lc& lc) {
        lc.add(res.var);
        if (post) lc.sub(Var::one(), *post);
      });
  return res;
}

// (x + k)², with the row (x + k·ONE)·(x + k·ONE) = res (neptune square_sum).
template <class CS>
AllocatedNum square_sum(CS& cs, Name name, const Fr& k, const AllocatedNum& x) {
  Scope<CS> ns(cs, name);
  const AllocatedNum res = alloc_num(cs, Name("squared sum"), (x.value + k).square());
  cs.enforce(
      Name("squared sum constraint"), [&](Lc& lc) { lc.add(x.var).add(Var::one(), k); },
      [&](Lc& lc) { lc.add(x.var).add(Var::one(), k); }, [&](Lc& lc) { lc.add(res.var); });
  return res;
}

}  // namespace poseidon_detail

// Poseidon of `preimage` (exactly c.arity elements) with constants c.
template <class CS>
AllocatedNum poseidon_hash(CS& cs, Name name, std::span<const AllocatedNum> preimage, const PoseidonConstants& c);

}  // namespace cuzk::filecoin::snark

#include "cuzk/filecoin/cs/poseidon_impl.h"
