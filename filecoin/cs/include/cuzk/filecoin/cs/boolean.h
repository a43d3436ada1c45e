// Bits: AllocatedBit (a variable constrained to 0 or 1) and Boolean (an
// allocated bit, its negation, or a constant), with bellpepper-core's
// gadgets (gadgets/boolean.rs). Each gadget allocates and constrains
// exactly as the reference does — same variables in the same order, same
// rows — and folds constants with the same case order, because every
// variable and row is a position in the Filecoin parameters.
//
// Gadgets take the constraint system and the Name of the namespace they
// work in (kSameNamespace: the caller's).
#pragma once

#include <cstdint>
#include <vector>

#include "cuzk/filecoin/cs/cs.h"

namespace cuzk::filecoin::snark {

struct AllocatedBit {
  Var var;
  bool value = false;
};

class Boolean {
 public:
  enum class Kind : uint8_t { kConstant, kIs, kNot };

  constexpr Boolean() = default;  // the constant false
  Boolean(const AllocatedBit& bit) : kind_(Kind::kIs), bit_value_(bit.value), var_(bit.var) {}  // NOLINT
  static constexpr Boolean constant(bool b) {
    Boolean r;
    r.bit_value_ = b;
    return r;
  }

  Kind kind() const { return kind_; }
  bool is_constant() const { return kind_ == Kind::kConstant; }
  bool is_constant(bool b) const { return kind_ == Kind::kConstant && bit_value_ == b; }
  bool value() const { return kind_ == Kind::kNot ? !bit_value_ : bit_value_; }
  // The underlying bit. REQUIRES: !is_constant().
  AllocatedBit bit() const { return {var_, bit_value_}; }

  Boolean negated() const {
    Boolean r = *this;
    if (kind_ == Kind::kConstant) r.bit_value_ = !bit_value_;
    else r.kind_ = kind_ == Kind::kIs ? Kind::kNot : Kind::kIs;
    return r;
  }

  // lc += coeff·self, as bellpepper's Boolean::lc(ONE, coeff): a constant
  // true is coeff·ONE, a negation coeff·ONE − coeff·var.
  void add_to(Lc& lc, const Fr& coeff) const {
    switch (kind_) {
      case Kind::kConstant:
        if (bit_value_) lc.add(Var::one(), coeff);
        break;
      case Kind::kIs:
        lc.add(var_, coeff);
        break;
      case Kind::kNot:
        lc.add(Var::one(), coeff).sub(var_, coeff);
        break;
    }
  }
  void add_to(Lc& lc) const { add_to(lc, Fr::one()); }
  void sub_from(Lc& lc) const { add_to(lc, Lc::minus_one()); }

 private:
  Kind kind_ = Kind::kConstant;
  bool bit_value_ = false;  // the constant, or the allocated bit's value
  Var var_;
};

// (1 − a)·a = 0.
template <class CS>
AllocatedBit alloc_bit(CS& cs, Name name, bool value) {
  Scope<CS> ns(cs, name);
  const Var a = cs.alloc(Name("boolean"), fr_from_bool(value));
  cs.enforce(
      Name("boolean constraint"), [&](Lc& lc) { lc.add(Var::one()).sub(a); }, [&](Lc& lc) { lc.add(a); },
      [](Lc&) {});
  return {a, value};
}

// (1 − must_be_false − a)·a = 0: a boolean that must be 0 when must_be_false is 1.
template <class CS>
AllocatedBit alloc_bit_conditionally(CS& cs, Name name, bool value, const AllocatedBit& must_be_false) {
  Scope<CS> ns(cs, name);
  const Var a = cs.alloc(Name("boolean"), fr_from_bool(value));
  cs.enforce(
      Name("boolean constraint"), [&](Lc& lc) { lc.add(Var::one()).sub(must_be_false.var).sub(a); },
      [&](Lc& lc) { lc.add(a); }, [](Lc&) {});
  return {a, value};
}

// (a + a)·b = a + b − c.
template <class CS>
AllocatedBit bit_xor(CS& cs, Name name, const AllocatedBit& a, const AllocatedBit& b) {
  Scope<CS> ns(cs, name);
  const bool v = a.value ^ b.value;
  const Var c = cs.alloc(Name("xor result"), fr_from_bool(v));
  cs.enforce(
      Name("xor constraint"), [&](Lc& lc) { lc.add(a.var).add(a.var); }, [&](Lc& lc) { lc.add(b.var); },
      [&](Lc& lc) { lc.add(a.var).add(b.var).sub(c); });
  return {c, v};
}

// a·b = c.
template <class CS>
AllocatedBit bit_and(CS& cs, Name name, const AllocatedBit& a, const AllocatedBit& b) {
  Scope<CS> ns(cs, name);
  const bool v = a.value && b.value;
  const Var c = cs.alloc(Name("and result"), fr_from_bool(v));
  cs.enforce(
      Name("and constraint"), [&](Lc& lc) { lc.add(a.var); }, [&](Lc& lc) { lc.add(b.var); },
      [&](Lc& lc) { lc.add(c); });
  return {c, v};
}

// a·(1 − b) = c.
template <class CS>
AllocatedBit bit_and_not(CS& cs, Name name, const AllocatedBit& a, const AllocatedBit& b) {
  Scope<CS> ns(cs, name);
  const bool v = a.value && !b.value;
  const Var c = cs.alloc(Name("and not result"), fr_from_bool(v));
  cs.enforce(
      Name("and not constraint"), [&](Lc& lc) { lc.add(a.var); },
      [&](Lc& lc) { lc.add(Var::one()).sub(b.var); }, [&](Lc& lc) { lc.add(c); });
  return {c, v};
}

// (1 − a)·(1 − b) = c.
template <class CS>
AllocatedBit bit_nor(CS& cs, Name name, const AllocatedBit& a, const AllocatedBit& b) {
  Scope<CS> ns(cs, name);
  const bool v = !a.value && !b.value;
  const Var c = cs.alloc(Name("nor result"), fr_from_bool(v));
  cs.enforce(
      Name("nor constraint"), [&](Lc& lc) { lc.add(Var::one()).sub(a.var); },
      [&](Lc& lc) { lc.add(Var::one()).sub(b.var); }, [&](Lc& lc) { lc.add(c); });
  return {c, v};
}

// Boolean::xor: constants fold; a ⊕ ¬b = ¬(a ⊕ b); ¬a ⊕ ¬b = a ⊕ b.
template <class CS>
Boolean boolean_xor(CS& cs, Name name, const Boolean& a, const Boolean& b) {
  if (a.is_constant(false)) return b;
  if (b.is_constant(false)) return a;
  if (a.is_constant(true)) return b.negated();
  if (b.is_constant(true)) return a.negated();
  if (a.kind() != b.kind()) {
    const Boolean& is = a.kind() == Boolean::Kind::kIs ? a : b;
    const Boolean& nt = a.kind() == Boolean::Kind::kIs ? b : a;
    return boolean_xor(cs, name, is, nt.negated()).negated();
  }
  return Boolean(bit_xor(cs, name, a.bit(), b.bit()));
}

// Boolean::and: false wins, true is the identity, then and_not / nor / and.
template <class CS>
Boolean boolean_and(CS& cs, Name name, const Boolean& a, const Boolean& b) {
  if (a.is_constant(false) || b.is_constant(false)) return Boolean::constant(false);
  if (a.is_constant(true)) return b;
  if (b.is_constant(true)) return a;
  using K = Boolean::Kind;
  if (a.kind() == K::kIs && b.kind() == K::kNot) return Boolean(bit_and_not(cs, name, a.bit(), b.bit()));
  if (a.kind() == K::kNot && b.kind() == K::kIs) return Boolean(bit_and_not(cs, name, b.bit(), a.bit()));
  if (a.kind() == K::kNot) return Boolean(bit_nor(cs, name, a.bit(), b.bit()));
  return Boolean(bit_and(cs, name, a.bit(), b.bit()));
}

// Boolean::or = ¬(¬a ∧ ¬b), in a namespace of its own.
template <class CS>
Boolean boolean_or(CS& cs, Name name, const Boolean& a, const Boolean& b) {
  Scope<CS> ns(cs, name);
  return boolean_and(cs, Name("not and (not a) (not b)"), a.negated(), b.negated()).negated();
}

// SHA-256 Ch = (a ∧ b) ⊕ (¬a ∧ c): one variable and one row, "a(b − c) = ch − c",
// unless constants fold it (bellpepper's case order).
template <class CS>
Boolean sha256_ch(CS& cs, Name name, const Boolean& a, const Boolean& b, const Boolean& c) {
  const bool v = (a.value() && b.value()) != (!a.value() && c.value());
  if (a.is_constant() && b.is_constant() && c.is_constant()) return Boolean::constant(v);
  if (a.is_constant(false)) return c;
  if (b.is_constant(false)) return boolean_and(cs, name, a.negated(), c);
  if (c.is_constant(false)) return boolean_and(cs, name, a, b);
  if (c.is_constant(true)) return boolean_and(cs, name, a, b.negated()).negated();
  if (b.is_constant(true)) return boolean_and(cs, name, a.negated(), c.negated()).negated();
  Scope<CS> ns(cs, name);
  const Var ch = cs.alloc(Name("ch"), fr_from_bool(v));
  cs.enforce(
      Name("ch computation"),
      [&](Lc& lc) {
        b.add_to(lc);
        c.sub_from(lc);
      },
      [&](Lc& lc) { a.add_to(lc); },
      [&](Lc& lc) {
        lc.add(ch);
        c.sub_from(lc);
      });
  return Boolean(AllocatedBit{ch, v});
}

// SHA-256 Maj = (a ∧ b) ⊕ (a ∧ c) ⊕ (b ∧ c): maj is allocated, then bc = b ∧ c,
// then "(2bc − b − c)·a = bc − maj", unless constants fold it.
template <class CS>
Boolean sha256_maj(CS& cs, Name name, const Boolean& a, const Boolean& b, const Boolean& c) {
  const bool av = a.value(), bv = b.value(), cv = c.value();
  const bool v = ((av && bv) != (av && cv)) != (bv && cv);
  if (a.is_constant() && b.is_constant() && c.is_constant()) return Boolean::constant(v);
  if (a.is_constant(false)) return boolean_and(cs, name, b, c);
  if (b.is_constant(false)) return boolean_and(cs, name, a, c);
  if (c.is_constant(false)) return boolean_and(cs, name, a, b);
  if (c.is_constant(true)) return boolean_and(cs, name, a.negated(), b.negated()).negated();
  if (b.is_constant(true)) return boolean_and(cs, name, a.negated(), c.negated()).negated();
  if (a.is_constant(true)) return boolean_and(cs, name, b.negated(), c.negated()).negated();
  Scope<CS> ns(cs, name);
  const Var maj = cs.alloc(Name("maj"), fr_from_bool(v));
  const Boolean bc = boolean_and(cs, Name("b and c"), b, c);
  cs.enforce(
      Name("maj computation"),
      [&](Lc& lc) {
        bc.add_to(lc);
        bc.add_to(lc);
        b.sub_from(lc);
        c.sub_from(lc);
      },
      [&](Lc& lc) { a.add_to(lc); },
      [&](Lc& lc) {
        bc.add_to(lc);
        lc.sub(maj);
      });
  return Boolean(AllocatedBit{maj, v});
}

// Boolean::enforce_equal. Two unequal constants cannot be satisfied: that is
// recorded with cs.fail.
template <class CS>
void enforce_equal(CS& cs, Name name, const Boolean& a, const Boolean& b) {
  Scope<CS> ns(cs, name);
  if (a.is_constant() && b.is_constant()) {
    if (a.value() != b.value()) cs.fail(invalid_argument("enforce_equal of two different constants"));
    return;
  }
  if (a.is_constant(true) || b.is_constant(true)) {
    const Boolean& x = a.is_constant(true) ? b : a;
    cs.enforce(
        Name("enforce equal to one"), [](Lc&) {}, [](Lc&) {},
        [&](Lc& lc) {
          lc.add(Var::one());
          x.sub_from(lc);
        });
    return;
  }
  if (a.is_constant(false) || b.is_constant(false)) {
    const Boolean& x = a.is_constant(false) ? b : a;
    cs.enforce(Name("enforce equal to zero"), [](Lc&) {}, [](Lc&) {}, [&](Lc& lc) { x.add_to(lc); });
    return;
  }
  cs.enforce(
      Name("enforce equal"), [](Lc&) {}, [](Lc&) {},
      [&](Lc& lc) {
        a.add_to(lc);
        b.sub_from(lc);
      });
}

// The Fr::NUM_BITS = 255 bits of a field element, least significant first,
// each allocated as "bit i" (bellpepper's field_into_allocated_bits_le).
template <class CS>
std::vector<AllocatedBit> field_into_allocated_bits_le(CS& cs, const Fr& value) {
  const Fr::Repr limbs = value.canonical();
  std::vector<AllocatedBit> bits;
  bits.reserve(255);
  for (int i = 0; i < 255; ++i) {
    bits.push_back(alloc_bit(cs, Name("bit ", i), (limbs[size_t(i) / 64] >> (i % 64)) & 1));
  }
  return bits;
}

// 64 bits of value, least significant first (u64_into_boolean_vec_le).
template <class CS>
std::vector<Boolean> u64_into_boolean_vec_le(CS& cs, uint64_t value) {
  std::vector<Boolean> bits;
  bits.reserve(64);
  for (int i = 0; i < 64; ++i) bits.push_back(Boolean(alloc_bit(cs, Name("bit ", i), (value >> i) & 1)));
  return bits;
}

// Pads to a whole number of bytes with constant false, then reverses the bits
// of every byte (rust-fil-proofs util::reverse_bit_numbering).
std::vector<Boolean> reverse_bit_numbering(std::vector<Boolean> bits);

}  // namespace cuzk::filecoin::snark
