// SHA-256 in the circuit, laid out as bellman / bellperson lay it out
// (gadgets/sha256.rs): message schedule and rounds on UInt32 words, with
// the additions that feed a and e deferred and merged into one addmany, and
// all additions of one block packed by a MultiEq. One block of 512 free
// bits costs 25,840 rows; the padded hash of 512 bits 44,874 (the
// reference's test_full_block and test_full_hash).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/base/sha256.h"
#include "cuzk/filecoin/cs/boolean.h"
#include "cuzk/filecoin/cs/uint32.h"

namespace cuzk::filecoin::snark {

// The constants are base's (cuzk::kSha256RoundConstants, cuzk::kSha256InitialHash).

namespace sha256_detail {

// A word whose final addition is deferred until it is read, so that it
// merges with the additions that produced it (bellperson's Maybe).
template <class CS>
struct Maybe {
  std::vector<UInt32> deferred;  // empty: `concrete`
  UInt32 concrete;

  UInt32 compute(MultiEq<CS>& meq, Name name, std::span<const UInt32> others) const {
    if (deferred.empty()) return concrete;
    std::vector<UInt32> ops = deferred;
    ops.insert(ops.end(), others.begin(), others.end());
    return addmany(meq, name, ops);
  }
};

// s0 or S1 style: rotr(x, r1) ⊕ rotr(x, r2) ⊕ (shift ? x >> r3 : rotr(x, r3)).
template <class CS>
UInt32 sigma(CS& cs, const char* first, const char* second, const UInt32& x, unsigned r1, unsigned r2, unsigned r3,
             bool shift) {
  UInt32 s = x.rotr(r1);
  s = uint32_xor(cs, Name(first), s, x.rotr(r2));
  return uint32_xor(cs, Name(second), s, shift ? x.shr(r3) : x.rotr(r3));
}

template <class CS>
std::vector<UInt32> message_schedule(MultiEq<CS>& meq, std::span<const Boolean> input) {
  CS& cs = meq.cs();
  std::vector<UInt32> w;
  w.reserve(64);
  for (size_t i = 0; i < 16; ++i) w.push_back(UInt32::from_bits_be(input.subspan(32 * i, 32)));
  for (size_t i = 16; i < 64; ++i) {
    Scope<CS> ns(cs, Name("w extension ", int64_t(i)));
    const UInt32 s0 = sigma(cs, "first xor for s0", "second xor for s0", w[i - 15], 7, 18, 3, true);
    const UInt32 s1 = sigma(cs, "first xor for s1", "second xor for s1", w[i - 2], 17, 19, 10, true);
    const UInt32 ops[4] = {w[i - 16], s0, w[i - 7], s1};
    w.push_back(addmany(meq, Name("computation of w[i]"), ops));
  }
  return w;
}

}  // namespace sha256_detail

// The compression function over one 512-bit block (most significant bit of
// each word first) and the current state.
template <class CS>
std::array<UInt32, 8> sha256_compression(CS& cs, Name name, std::span<const Boolean> input,
                                         const std::array<UInt32, 8>& state) {
  using sha256_detail::Maybe;
  Scope<CS> scope(cs, name);
  MultiEq<CS> meq(cs);
  const std::vector<UInt32> w = sha256_detail::message_schedule(meq, input);
  Maybe<CS> a{{}, state[0]}, e{{}, state[4]};
  UInt32 b = state[1], c = state[2], d = state[3], f = state[5], g = state[6], h = state[7];
  for (size_t i = 0; i < 64; ++i) {
    Scope<CS> ns(cs, Name("compression round ", int64_t(i)));
    const UInt32 new_e = e.compute(meq, Name("deferred e computation"), {});
    const UInt32 s1 = sha256_detail::sigma(cs, "first xor for s1", "second xor for s1", new_e, 6, 11, 25, false);
    const UInt32 ch = uint32_sha256_ch(cs, Name("ch"), new_e, f, g);
    const std::array<UInt32, 5> temp1 = {h, s1, ch, UInt32::constant(kSha256RoundConstants[i]), w[i]};
    const UInt32 new_a = a.compute(meq, Name("deferred a computation"), {});
    const UInt32 s0 = sha256_detail::sigma(cs, "first xor for s0", "second xor for s0", new_a, 2, 13, 22, false);
    const UInt32 maj = uint32_sha256_maj(cs, Name("maj"), new_a, b, c);
    h = g;
    g = f;
    f = new_e;
    e.deferred.assign(temp1.begin(), temp1.end());
    e.deferred.push_back(d);
    d = c;
    c = b;
    b = new_a;
    a.deferred.assign(temp1.begin(), temp1.end());
    a.deferred.push_back(s0);
    a.deferred.push_back(maj);
  }
  std::array<UInt32, 8> out;
  out[0] = a.compute(meq, Name("deferred h0 computation"), std::span<const UInt32>(&state[0], 1));
  const std::array<UInt32, 2> p1 = {state[1], b}, p2 = {state[2], c}, p3 = {state[3], d};
  out[1] = addmany(meq, Name("new h1"), p1);
  out[2] = addmany(meq, Name("new h2"), p2);
  out[3] = addmany(meq, Name("new h3"), p3);
  out[4] = e.compute(meq, Name("deferred h4 computation"), std::span<const UInt32>(&state[4], 1));
  const std::array<UInt32, 2> p5 = {state[5], f}, p6 = {state[6], g}, p7 = {state[7], h};
  out[5] = addmany(meq, Name("new h5"), p5);
  out[6] = addmany(meq, Name("new h6"), p6);
  out[7] = addmany(meq, Name("new h7"), p7);
  return out;
}

inline std::array<UInt32, 8> sha256_iv() {
  std::array<UInt32, 8> iv;
  for (size_t i = 0; i < 8; ++i) iv[i] = UInt32::constant(kSha256InitialHash[i]);
  return iv;
}

// One block without padding (sha256_block_no_padding): 256 bits, most
// significant first.
template <class CS>
std::vector<Boolean> sha256_block_no_padding(CS& cs, Name name, std::span<const Boolean> input) {
  Scope<CS> ns(cs, name);
  std::vector<Boolean> out;
  for (const UInt32& word : sha256_compression(cs, kSameNamespace, input, sha256_iv())) word.append_bits_be(out);
  return out;
}

// SHA-256 of a whole number of bytes, most significant bit of each byte
// first; padding is constant bits, one compression per 512 bits ("block i").
template <class CS>
std::vector<Boolean> sha256(CS& cs, Name name, std::span<const Boolean> input) {
  Scope<CS> ns(cs, name);
  std::vector<Boolean> padded(input.begin(), input.end());
  const uint64_t bit_len = input.size();
  padded.push_back(Boolean::constant(true));
  while ((padded.size() + 64) % 512 != 0) padded.push_back(Boolean::constant(false));
  for (int i = 63; i >= 0; --i) padded.push_back(Boolean::constant((bit_len >> i) & 1));
  std::array<UInt32, 8> cur = sha256_iv();
  for (size_t blk = 0; blk * 512 < padded.size(); ++blk) {
    cur = sha256_compression(cs, Name("block ", int64_t(blk)), std::span<const Boolean>(padded).subspan(512 * blk, 512),
                             cur);
  }
  std::vector<Boolean> out;
  out.reserve(256);
  for (const UInt32& word : cur) word.append_bits_be(out);
  return out;
}

}  // namespace cuzk::filecoin::snark
