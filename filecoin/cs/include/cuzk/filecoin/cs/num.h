// Field elements in the circuit: AllocatedNum (a variable) and Num (an
// unallocated linear combination with its value), as bellpepper-core's
// gadgets/num.rs, plus multipacking (bellperson gadgets/multipack.rs).
#pragma once

#include <algorithm>
#include <span>
#include <vector>

#include "cuzk/filecoin/cs/boolean.h"
#include "cuzk/filecoin/cs/cs.h"

namespace cuzk::filecoin::snark {

// Fr::CAPACITY: the bits that always fit below r.
inline constexpr unsigned kFrCapacity = 254;

struct AllocatedNum {
  Var var;
  Fr value;
};

// A new aux variable "num" in namespace `name`.
template <class CS>
AllocatedNum alloc_num(CS& cs, Name name, const Fr& value) {
  Scope<CS> ns(cs, name);
  return {cs.alloc(Name("num"), value), value};
}

// A new input variable "input num" in namespace `name`.
template <class CS>
AllocatedNum alloc_input_num(CS& cs, Name name, const Fr& value) {
  Scope<CS> ns(cs, name);
  return {cs.alloc_input(Name("input num"), value), value};
}

// Exposes x as a new input: input·ONE = x.
template <class CS>
void inputize(CS& cs, Name name, const AllocatedNum& x) {
  Scope<CS> ns(cs, name);
  const Var input = cs.alloc_input(Name("input variable"), x.value);
  cs.enforce(
      Name("enforce input is correct"), [&](Lc& lc) { lc.add(input); }, [&](Lc& lc) { lc.add(Var::one()); },
      [&](Lc& lc) { lc.add(x.var); });
}

// 0·0 = Σ 2^i·bit_i − x over the given bits.
template <class CS>
void enforce_unpacking(CS& cs, Name name, std::span<const AllocatedBit> bits, const AllocatedNum& x) {
  cs.enforce(
      name, [](Lc&) {}, [](Lc&) {},
      [&](Lc& lc) {
        for (size_t i = 0; i < bits.size(); ++i) lc.add(bits[i].var, pow2(unsigned(i)));
        lc.sub(x.var);
      });
}

// The 255 bits of x, least significant first, and the unpacking row
// (AllocatedNum::to_bits_le; not strict: the bits may encode x + r).
template <class CS>
std::vector<Boolean> to_bits_le(CS& cs, Name name, const AllocatedNum& x) {
  Scope<CS> ns(cs, name);
  std::vector<AllocatedBit> bits = field_into_allocated_bits_le(cs, x.value);
  enforce_unpacking(cs, Name("unpacking constraint"), bits, x);
  return std::vector<Boolean>(bits.begin(), bits.end());
}

// (a + b)·1 = sum ("sum num" in AllocatedNum::add).
template <class CS>
AllocatedNum num_add(CS& cs, Name name, const AllocatedNum& a, const AllocatedNum& b) {
  Scope<CS> ns(cs, name);
  const Fr v = a.value + b.value;
  const Var s = cs.alloc(Name("sum num"), v);
  cs.enforce(
      Name("addition constraint"), [&](Lc& lc) { lc.add(a.var).add(b.var); },
      [&](Lc& lc) { lc.add(Var::one()); }, [&](Lc& lc) { lc.add(s); });
  return {s, v};
}

// a·b = product.
template <class CS>
AllocatedNum num_mul(CS& cs, Name name, const AllocatedNum& a, const AllocatedNum& b) {
  Scope<CS> ns(cs, name);
  const Fr v = a.value * b.value;
  const Var p = cs.alloc(Name("product num"), v);
  cs.enforce(
      Name("multiplication constraint"), [&](Lc& lc) { lc.add(a.var); }, [&](Lc& lc) { lc.add(b.var); },
      [&](Lc& lc) { lc.add(p); });
  return {p, v};
}

// a·a = square.
template <class CS>
AllocatedNum num_square(CS& cs, Name name, const AllocatedNum& a) {
  Scope<CS> ns(cs, name);
  const Fr v = a.value.square();
  const Var s = cs.alloc(Name("squared num"), v);
  cs.enforce(
      Name("squaring constraint"), [&](Lc& lc) { lc.add(a.var); }, [&](Lc& lc) { lc.add(a.var); },
      [&](Lc& lc) { lc.add(s); });
  return {s, v};
}

// An unallocated sum of terms with its value (bellpepper's Num). The linear
// combination is kept only for back ends that record rows (`records`):
// witness generation carries the value alone. The combination is kept
// merged (sorted by variable, repeats summed) so that sums of sums, as
// Poseidon's linear layers make them, stay as short as their distinct
// variables; terms added one by one are merged when next read.
class Num {
 public:
  explicit Num(bool records) : records_(records) {}
  Num(const AllocatedNum& x, bool records) : records_(records), value_(x.value) {
    if (records_) lc_.add(x.var);
  }
  // c·ONE.
  static Num constant(const Fr& c, bool records) {
    Num n(records);
    return n.add_bool_with_coeff(Boolean::constant(true), c);
  }

  const Fr& value() const { return value_; }
  const Lc& lc() const {
    normalize();
    return lc_;
  }

  Num& add_bool_with_coeff(const Boolean& bit, const Fr& coeff) {
    if (bit.value()) value_ += coeff;
    if (records_) {
      bit.add_to(lc_, coeff);
      dirty_ = true;
    }
    return *this;
  }
  Num& add(const Num& other) {
    value_ += other.value_;
    if (records_) {
      normalize();
      merge_sorted_terms(lc_.mutable_terms(), other.lc().terms());
    }
    return *this;
  }
  Num& scale(const Fr& s) {
    value_ *= s;
    if (records_) lc_.scale(s);
    return *this;
  }

 private:
  void normalize() const {
    if (!dirty_) return;
    merge_terms(lc_.mutable_terms());
    dirty_ = false;
  }

  bool records_;
  Fr value_;
  mutable Lc lc_;
  mutable bool dirty_ = false;
};

// Packs the bits into inputs of kFrCapacity bits each, least significant
// first: "input i" and the row (Σ 2^k·bit)·ONE = input (pack_into_inputs).
template <class CS>
void pack_into_inputs(CS& cs, Name name, std::span<const Boolean> bits) {
  Scope<CS> ns(cs, name);
  for (size_t start = 0, i = 0; start < bits.size(); start += kFrCapacity, ++i) {
    const size_t end = std::min<size_t>(bits.size(), start + kFrCapacity);
    Num num(CS::kRecords);
    for (size_t k = start; k < end; ++k) num.add_bool_with_coeff(bits[k], pow2(unsigned(k - start)));
    const Var input = cs.alloc_input(Name("input ", int64_t(i)), num.value());
    cs.enforce(
        Name("packing constraint ", int64_t(i)), [&](Lc& lc) { lc.add(num.lc()); },
        [&](Lc& lc) { lc.add(Var::one()); }, [&](Lc& lc) { lc.add(input); });
  }
}

// The first kFrCapacity bits packed into one aux "input", least significant
// first (multipack::pack_bits).
template <class CS>
AllocatedNum pack_bits(CS& cs, Name name, std::span<const Boolean> bits) {
  Scope<CS> ns(cs, name);
  Num num(CS::kRecords);
  const size_t n = std::min<size_t>(bits.size(), kFrCapacity);
  for (size_t k = 0; k < n; ++k) num.add_bool_with_coeff(bits[k], pow2(unsigned(k)));
  const AllocatedNum packed = alloc_num(cs, Name("input"), num.value());
  cs.enforce(
      Name("packing constraint"), [&](Lc& lc) { lc.add(num.lc()); }, [&](Lc& lc) { lc.add(Var::one()); },
      [&](Lc& lc) { lc.add(packed.var); });
  return packed;
}

// The values pack_into_inputs gives its inputs (compute_multipacking).
std::vector<Fr> compute_multipacking(const std::vector<bool>& bits);

}  // namespace cuzk::filecoin::snark
