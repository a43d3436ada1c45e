// Merkle-path insertion and selection (rust-fil-proofs storage-proofs-core
// gadgets/insertion.rs): insert an element into its siblings at the position
// the index bits name, with the reference's hand-laid networks of picks for
// 2, 4 and 8 elements and its general select network otherwise.
#pragma once

#include <span>
#include <vector>

#include "cuzk/filecoin/cs/boolean.h"
#include "cuzk/filecoin/cs/num.h"

namespace cuzk::filecoin::snark {

// c = condition ? a : b, with (b − a)·condition = b − c ("pick result").
template <class CS>
AllocatedNum pick(CS& cs, Name name, const Boolean& condition, const AllocatedNum& a, const AllocatedNum& b) {
  Scope<CS> ns(cs, name);
  const AllocatedNum c = alloc_num(cs, Name("pick result"), condition.value() ? a.value : b.value);
  cs.enforce(
      Name("pick"), [&](Lc& lc) { lc.add(b.var).sub(a.var); }, [&](Lc& lc) { condition.add_to(lc); },
      [&](Lc& lc) { lc.add(b.var).sub(c.var); });
  return c;
}

// from[index of path_bits] by a tree of picks, most significant bit first
// ("pick i, j").
template <class CS>
AllocatedNum select(CS& cs, Name name, std::span<const AllocatedNum> from, std::span<const Boolean> path_bits) {
  Scope<CS> ns(cs, name);
  std::vector<AllocatedNum> state(from.begin(), from.end());
  size_t half = from.size() / 2;
  for (size_t i = 0; i < path_bits.size(); ++i) {
    const Boolean& bit = path_bits[path_bits.size() - 1 - i];
    std::vector<AllocatedNum> next;
    next.reserve(half);
    for (size_t j = 0; j < half; ++j) {
      next.push_back(pick(cs, Name("pick ", int64_t(i), ", ", int64_t(j)), bit, state[half + j], state[j]));
    }
    state = std::move(next);
    half /= 2;
  }
  return state[0];
}

namespace insertion_detail {

template <class CS>
std::vector<AllocatedNum> insert_2(CS& cs, const AllocatedNum& x, std::span<const Boolean> bits,
                                   std::span<const AllocatedNum> e) {
  return {pick(cs, Name("binary insert 0"), bits[0], e[0], x), pick(cs, Name("binary insert 1"), bits[0], x, e[0])};
}

// Position p of [A b c d] with A inserted at index (b0, b1); pN_xK names the
// intermediate pick (as the reference's witness! macro does).
template <class CS>
std::vector<AllocatedNum> insert_4(CS& cs, const AllocatedNum& a, std::span<const Boolean> bits,
                                   std::span<const AllocatedNum> e) {
  const Boolean &b0 = bits[0], &b1 = bits[1];
  const AllocatedNum &b = e[0], &c = e[1], &d = e[2];
  const AllocatedNum p0_x0 = pick(cs, Name("p0_x0"), b0, b, a);
  const AllocatedNum p0 = pick(cs, Name("p0"), b1, b, p0_x0);
  const AllocatedNum p1_x0 = pick(cs, Name("p1_x0"), b0, a, b);
  const AllocatedNum p1 = pick(cs, Name("p1"), b1, c, p1_x0);
  const AllocatedNum p2_x1 = pick(cs, Name("p2_x1"), b0, d, a);
  const AllocatedNum p2 = pick(cs, Name("p2"), b1, p2_x1, c);
  const AllocatedNum p3_x1 = pick(cs, Name("p3_x1"), b0, a, d);
  const AllocatedNum p3 = pick(cs, Name("p3"), b1, p3_x1, d);
  return {p0, p1, p2, p3};
}

// The same for eight positions; b0 nor b1 and b0 and b1 are computed first.
// REQUIRES: bits[0] and bits[1] allocated and not negated.
template <class CS>
std::vector<AllocatedNum> insert_8(CS& cs, const AllocatedNum& a, std::span<const Boolean> bits,
                                   std::span<const AllocatedNum> el) {
  const Boolean &b0 = bits[0], &b1 = bits[1], &b2 = bits[2];
  const AllocatedNum &b = el[0], &c = el[1], &d = el[2], &e = el[3], &f = el[4], &g = el[5], &h = el[6];
  const Boolean nor01 = Boolean(bit_nor(cs, Name("b0 nor b1"), b0.bit(), b1.bit()));
  const Boolean and01 = Boolean(bit_and(cs, Name("b0 and b1"), b0.bit(), b1.bit()));
  std::vector<AllocatedNum> out;
  out.reserve(8);
  const AllocatedNum p0_xx0 = pick(cs, Name("p0_xx0"), nor01, a, b);
  out.push_back(pick(cs, Name("p0"), b2, b, p0_xx0));
  const AllocatedNum p1_x00 = pick(cs, Name("p1_x00"), b0, a, b);
  const AllocatedNum p1_xx0 = pick(cs, Name("p1_xx0"), b1, c, p1_x00);
  out.push_back(pick(cs, Name("p1"), b2, c, p1_xx0));
  const AllocatedNum p2_x10 = pick(cs, Name("p2_x10"), b0, d, a);
  const AllocatedNum p2_xx0 = pick(cs, Name("p2_xx0"), b1, p2_x10, c);
  out.push_back(pick(cs, Name("p2"), b2, d, p2_xx0));
  const AllocatedNum p3_xx0 = pick(cs, Name("p3_xx0"), and01, a, d);
  out.push_back(pick(cs, Name("p3"), b2, e, p3_xx0));
  const AllocatedNum p4_xx1 = pick(cs, Name("p4_xx1"), nor01, a, f);
  out.push_back(pick(cs, Name("p4"), b2, p4_xx1, e));
  const AllocatedNum p5_x01 = pick(cs, Name("p5_x01"), b0, a, f);
  const AllocatedNum p5_xx1 = pick(cs, Name("p5_xx1"), b1, g, p5_x01);
  out.push_back(pick(cs, Name("p5"), b2, p5_xx1, f));
  const AllocatedNum p6_x11 = pick(cs, Name("p6_x11"), b0, h, a);
  const AllocatedNum p6_xx1 = pick(cs, Name("p6_xx1"), b1, p6_x11, g);
  out.push_back(pick(cs, Name("p6"), b2, p6_xx1, g));
  const AllocatedNum p7_xx1 = pick(cs, Name("p7_xx1"), and01, a, h);
  out.push_back(pick(cs, Name("p7"), b2, p7_xx1, h));
  return out;
}

// size·(size − 1) picks: position p selects among the candidates of every index.
template <class CS>
std::vector<AllocatedNum> insert_general(CS& cs, const AllocatedNum& x, std::span<const Boolean> bits,
                                         std::span<const AllocatedNum> e) {
  const size_t size = e.size() + 1;
  std::vector<AllocatedNum> out;
  out.reserve(size);
  for (size_t pos = 0; pos < size; ++pos) {
    std::vector<AllocatedNum> choices;
    choices.reserve(size);
    for (size_t index = 0; index < size; ++index) {
      // Element pos of the sequence with x inserted at `index`.
      choices.push_back(pos < index ? e[pos] : pos == index ? x : e[pos - 1]);
    }
    out.push_back(select(cs, Name("choice at ", int64_t(pos)), choices, bits));
  }
  return out;
}

}  // namespace insertion_detail

// elements with x inserted at the index given by bits (least significant
// first). REQUIRES: 2^bits.size() == elements.size() + 1; for 8, bits[0] and
// bits[1] allocated and not negated (as index bits are).
template <class CS>
std::vector<AllocatedNum> insert(CS& cs, const AllocatedNum& x, std::span<const Boolean> bits,
                                 std::span<const AllocatedNum> elements) {
  switch (elements.size() + 1) {
    case 2: return insertion_detail::insert_2(cs, x, bits, elements);
    case 4: return insertion_detail::insert_4(cs, x, bits, elements);
    case 8: return insertion_detail::insert_8(cs, x, bits, elements);
    default: return insertion_detail::insert_general(cs, x, bits, elements);
  }
}

}  // namespace cuzk::filecoin::snark
