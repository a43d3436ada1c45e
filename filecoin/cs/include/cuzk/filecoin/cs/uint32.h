// 32-bit words for SHA-256 (bellperson gadgets/uint32.rs) and MultiEq
// (gadgets/multieq.rs), which packs several equalities between linear
// combinations into one row.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/filecoin/cs/boolean.h"
#include "cuzk/filecoin/cs/cs.h"
#include "cuzk/filecoin/cs/num.h"

namespace cuzk::filecoin::snark {

// Accumulates lhs_k = rhs_k equalities, each of num_bits bits, as
// Σ 2^(offset_k)·lhs_k = Σ 2^(offset_k)·rhs_k, and emits the row
// "multieq <n>": lhs·ONE = rhs when the next equality would reach
// kFrCapacity bits, and at destruction when any are pending. The rows land
// in the namespace current at the moment they are emitted.
template <class CS>
class MultiEq {
 public:
  explicit MultiEq(CS& cs) : cs_(cs), lhs_(), rhs_() {}
  ~MultiEq() {
    if (bits_used_ > 0) accumulate();
  }
  MultiEq(const MultiEq&) = delete;
  MultiEq& operator=(const MultiEq&) = delete;

  CS& cs() { return cs_; }

  // REQUIRES: num_bits < kFrCapacity. With a back end that does not record
  // rows, lhs and rhs are ignored (only the bit count matters).
  void enforce_equal(unsigned num_bits, const Lc& lhs, const Lc& rhs) {
    const unsigned offset = begin_equal(num_bits);
    if constexpr (CS::kRecords) {
      const Fr& coeff = pow2(offset);
      lhs_.add_scaled(lhs, coeff);
      rhs_.add_scaled(rhs, coeff);
    }
  }

  // enforce_equal in place: makes room for an equality of num_bits bits
  // (emitting the pending row first if it would not fit) and returns the
  // offset k at which its terms go, scaled by 2^k, into lhs() and rhs().
  unsigned begin_equal(unsigned num_bits) {
    if (kFrCapacity <= bits_used_ + num_bits) accumulate();
    const unsigned offset = bits_used_;
    bits_used_ += num_bits;
    return offset;
  }
  Lc& lhs() { return lhs_; }
  Lc& rhs() { return rhs_; }

 private:
  void accumulate() {
    cs_.enforce(
        Name("multieq ", int64_t(ops_)), [&](Lc& lc) { lc.add(lhs_); }, [&](Lc& lc) { lc.add(Var::one()); },
        [&](Lc& lc) { lc.add(rhs_); });
    lhs_.clear();
    rhs_.clear();
    bits_used_ = 0;
    ++ops_;
  }

  CS& cs_;
  uint64_t ops_ = 0;
  unsigned bits_used_ = 0;
  Lc lhs_, rhs_;
};

struct UInt32 {
  std::array<Boolean, 32> bits;  // least significant first
  uint32_t value = 0;

  static UInt32 constant(uint32_t v) {
    UInt32 r;
    for (int i = 0; i < 32; ++i) r.bits[size_t(i)] = Boolean::constant((v >> i) & 1);
    r.value = v;
    return r;
  }
  // From 32 bits, most significant first.
  static UInt32 from_bits_be(std::span<const Boolean> be) {
    UInt32 r;
    for (int i = 0; i < 32; ++i) {
      r.bits[size_t(i)] = be[size_t(31 - i)];
      r.value |= uint32_t(be[size_t(31 - i)].value()) << i;
    }
    return r;
  }
  void append_bits_be(std::vector<Boolean>& out) const {
    for (int i = 31; i >= 0; --i) out.push_back(bits[size_t(i)]);
  }
  UInt32 rotr(unsigned by) const {
    by %= 32;
    UInt32 r;
    for (unsigned i = 0; i < 32; ++i) r.bits[i] = bits[(i + by) % 32];
    r.value = (value >> by) | (by ? value << (32 - by) : 0);
    return r;
  }
  UInt32 shr(unsigned by) const {
    by %= 32;
    UInt32 r;
    for (unsigned i = 0; i + by < 32; ++i) r.bits[i] = bits[i + by];
    r.value = value >> by;
    return r;
  }
};

// 32 bits "allocated bit i".
template <class CS>
UInt32 alloc_uint32(CS& cs, Name name, uint32_t v) {
  Scope<CS> ns(cs, name);
  UInt32 r;
  for (int i = 0; i < 32; ++i) r.bits[size_t(i)] = Boolean(alloc_bit(cs, Name("allocated bit ", i), (v >> i) & 1));
  r.value = v;
  return r;
}

template <class CS>
UInt32 uint32_xor(CS& cs, Name name, const UInt32& a, const UInt32& b) {
  Scope<CS> ns(cs, name);
  UInt32 r;
  for (int i = 0; i < 32; ++i) {
    r.bits[size_t(i)] = boolean_xor(cs, Name("xor of bit ", i), a.bits[size_t(i)], b.bits[size_t(i)]);
  }
  r.value = a.value ^ b.value;
  return r;
}

template <class CS>
UInt32 uint32_sha256_ch(CS& cs, Name name, const UInt32& a, const UInt32& b, const UInt32& c) {
  Scope<CS> ns(cs, name);
  UInt32 r;
  for (int i = 0; i < 32; ++i) {
    const size_t k = size_t(i);
    r.bits[k] = sha256_ch(cs, Name("ch ", i), a.bits[k], b.bits[k], c.bits[k]);
  }
  r.value = (a.value & b.value) ^ (~a.value & c.value);
  return r;
}

template <class CS>
UInt32 uint32_sha256_maj(CS& cs, Name name, const UInt32& a, const UInt32& b, const UInt32& c) {
  Scope<CS> ns(cs, name);
  UInt32 r;
  for (int i = 0; i < 32; ++i) {
    const size_t k = size_t(i);
    r.bits[k] = sha256_maj(cs, Name("maj ", i), a.bits[k], b.bits[k], c.bits[k]);
  }
  r.value = (a.value & b.value) ^ (a.value & c.value) ^ (b.value & c.value);
  return r;
}

// The sum of 2..10 operands mod 2^32 (UInt32::addmany): the result bits
// cover the largest possible sum, "result bit i", and one equality of that
// many bits goes to the MultiEq. All-constant operands fold to a constant.
template <class CS>
UInt32 addmany(MultiEq<CS>& meq, Name name, std::span<const UInt32> operands) {
  CS& cs = meq.cs();
  Scope<CS> ns(cs, name);
  uint64_t sum = 0;
  bool all_constants = true;
  for (const UInt32& op : operands) {
    sum += op.value;
    for (const Boolean& b : op.bits) all_constants = all_constants && b.is_constant();
  }
  if (all_constants) return UInt32::constant(uint32_t(sum));
  // The result has as many bits as the largest possible sum.
  const unsigned result_bits = unsigned(std::bit_width(uint64_t(operands.size()) * 0xffffffffull));
  UInt32 r;
  std::array<Var, 64> result_vars;
  for (unsigned i = 0; i < result_bits; ++i) {
    const AllocatedBit b = alloc_bit(cs, Name("result bit ", i), (sum >> i) & 1);
    result_vars[i] = b.var;
    if (i < 32) r.bits[i] = Boolean(b);
  }
  // Σ operands = Σ 2^i·result_i, as one equality of result_bits bits of the
  // MultiEq, its terms scaled in place by the equality's offset.
  const unsigned offset = meq.begin_equal(result_bits);
  if constexpr (CS::kRecords) {
    for (const UInt32& op : operands)
      for (unsigned k = 0; k < 32; ++k) op.bits[k].add_to(meq.lhs(), pow2(offset + k));
    for (unsigned i = 0; i < result_bits; ++i) meq.rhs().add(result_vars[i], pow2(offset + i));
  }
  r.value = uint32_t(sum);
  return r;
}

// 64-bit words (rust-fil-proofs storage-proofs-core gadgets/uint64.rs): the
// PoRep challenge index.
struct UInt64 {
  std::array<Boolean, 64> bits;  // least significant first
  uint64_t value = 0;

  static UInt64 constant(uint64_t v) {
    UInt64 r;
    for (int i = 0; i < 64; ++i) r.bits[size_t(i)] = Boolean::constant((v >> i) & 1);
    r.value = v;
    return r;
  }
  void append_bits_be(std::vector<Boolean>& out) const {
    for (int i = 63; i >= 0; --i) out.push_back(bits[size_t(i)]);
  }
};

// 64 bits "allocated bit i".
template <class CS>
UInt64 alloc_uint64(CS& cs, Name name, uint64_t v) {
  Scope<CS> ns(cs, name);
  UInt64 r;
  for (int i = 0; i < 64; ++i) r.bits[size_t(i)] = Boolean(alloc_bit(cs, Name("allocated bit ", i), (v >> i) & 1));
  r.value = v;
  return r;
}

}  // namespace cuzk::filecoin::snark
