// Fixed-width unsigned integers as arrays of 64-bit limbs (limb 0 least
// significant): the helpers the Montgomery fields are built from. All are
// constexpr so field constants can be derived at compile time.
#pragma once

#include <array>
#include <cstdint>
#include <type_traits>
#if defined(__x86_64__) && !defined(__CUDA_ARCH__)
#include <x86intrin.h>
#define CUZK_FF_X86_CARRY 1
#endif

namespace cuzk::ff {

template <int N>
using Limbs = std::array<uint64_t, N>;

using u128 = unsigned __int128;

// a + b + carry -> (sum, carry out). REQUIRES: carry in {0, 1}.
// On x86-64 the carry-flag intrinsics give a tight adc chain; the 128-bit
// form (~1.3x slower in the pairing) serves constant evaluation and others.
constexpr inline uint64_t adc(uint64_t a, uint64_t b, uint64_t& carry) {
#ifdef CUZK_FF_X86_CARRY
  if (!std::is_constant_evaluated()) {
    unsigned long long out;
    carry = _addcarry_u64(static_cast<unsigned char>(carry), a, b, &out);
    return out;
  }
#endif
  u128 t = u128(a) + b + carry;
  carry = uint64_t(t >> 64);
  return uint64_t(t);
}

// a - b - borrow -> (difference, borrow out in {0,1}). REQUIRES: borrow in {0, 1}.
constexpr inline uint64_t sbb(uint64_t a, uint64_t b, uint64_t& borrow) {
#ifdef CUZK_FF_X86_CARRY
  if (!std::is_constant_evaluated()) {
    unsigned long long out;
    borrow = _subborrow_u64(static_cast<unsigned char>(borrow), a, b, &out);
    return out;
  }
#endif
  u128 t = u128(a) - b - borrow;
  borrow = uint64_t(t >> 64) & 1;
  return uint64_t(t);
}

// a + b*c + carry -> (low, carry out)
constexpr inline uint64_t mac(uint64_t a, uint64_t b, uint64_t c, uint64_t& carry) {
  u128 t = u128(b) * c + a + carry;
  carry = uint64_t(t >> 64);
  return uint64_t(t);
}

template <int N>
constexpr bool limbs_geq(const Limbs<N>& a, const Limbs<N>& b) {
  for (int i = N - 1; i >= 0; --i) {
    if (a[i] != b[i]) return a[i] > b[i];
  }
  return true;
}

template <int N>
constexpr bool limbs_is_zero(const Limbs<N>& a) {
  uint64_t acc = 0;
  for (int i = 0; i < N; ++i) acc |= a[i];
  return acc == 0;
}

// a -= b; returns the borrow.
template <int N>
constexpr uint64_t limbs_sub(Limbs<N>& a, const Limbs<N>& b) {
  uint64_t borrow = 0;
  for (int i = 0; i < N; ++i) a[i] = sbb(a[i], b[i], borrow);
  return borrow;
}

// a += b; returns the carry.
template <int N>
constexpr uint64_t limbs_add(Limbs<N>& a, const Limbs<N>& b) {
  uint64_t carry = 0;
  for (int i = 0; i < N; ++i) a[i] = adc(a[i], b[i], carry);
  return carry;
}

template <int N>
constexpr Limbs<N> limbs_shr1(Limbs<N> a) {
  for (int i = 0; i < N; ++i) a[i] = (a[i] >> 1) | (i + 1 < N ? a[i + 1] << 63 : 0);
  return a;
}

template <int N>
constexpr Limbs<N> limbs_sub_small(Limbs<N> a, uint64_t v) {
  Limbs<N> b{};
  b[0] = v;
  limbs_sub<N>(a, b);
  return a;
}

template <int N>
constexpr Limbs<N> limbs_add_small(Limbs<N> a, uint64_t v) {
  Limbs<N> b{};
  b[0] = v;
  limbs_add<N>(a, b);
  return a;
}

template <int N>
constexpr bool limbs_bit(const Limbs<N>& a, int i) {
  return (a[i / 64] >> (i % 64)) & 1;
}

template <int N>
constexpr int limbs_bit_length(const Limbs<N>& a) {
  for (int i = N - 1; i >= 0; --i)
    if (a[i]) return 64 * i + 64 - __builtin_clzll(a[i]);
  return 0;
}

template <int N, class T>
constexpr Limbs<N> to_limbs(const T (&a)[N]) {
  Limbs<N> r{};
  for (int i = 0; i < N; ++i) r[i] = a[i];
  return r;
}

}  // namespace cuzk::ff
