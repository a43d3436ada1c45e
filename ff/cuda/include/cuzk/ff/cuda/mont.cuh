// Device Montgomery arithmetic over N = 2·P::kLimbs 32-bit words: the same
// bytes as the host MontField<P> (Montgomery form, words little-endian), so
// arrays move between host and device unchanged. Every operation returns a
// fully reduced value in [0, p), hence results are bit-identical with the CPU.
//
// Constants come from ff/params.h (64-bit limbs split into 32-bit words at
// compile time) and end up as immediates in the instruction stream.
//
// Costs (32-bit word operations): mul/sqr 4N^2 + O(N) multiply-adds in four
// carry chains per word of b (CIOS); add/sub 2N–3N.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include "cuzk/ff/cuda/ptx.cuh"
#include "cuzk/ff/params.h"

namespace cuzk::ff::cuda {

namespace detail {

template <class P, int I>
struct ModWord {
  static constexpr uint32_t v = uint32_t(P::kModulus[I / 2] >> (32 * (I % 2)));
};
template <class P, int I>
struct OneWord {
  static constexpr uint32_t v = uint32_t(P::kR[I / 2] >> (32 * (I % 2)));
};

template <class P, size_t... I>
__device__ __forceinline__ void load_modulus(uint32_t* out, std::index_sequence<I...>) {
  ((out[I] = ModWord<P, int(I)>::v), ...);
}
template <class P, size_t... I>
__device__ __forceinline__ void load_one(uint32_t* out, std::index_sequence<I...>) {
  ((out[I] = OneWord<P, int(I)>::v), ...);
}

// r = a·b·2^(-32N) mod p for a, b < p; r < p. CIOS with the reduction of word
// i interleaved; t keeps two extra words so no spare modulus bits are needed.
template <int N>
__device__ __forceinline__ void mont_mul(uint32_t* r, const uint32_t* a, const uint32_t* b, const uint32_t* p,
                                         uint32_t inv) {
  using namespace ptx;
  uint32_t t[N + 2];
#pragma unroll
  for (int j = 0; j < N + 2; ++j) t[j] = 0;
#pragma unroll
  for (int i = 0; i < N; ++i) {
    const uint32_t bi = b[i];
    t[0] = mad_lo_cc(a[0], bi, t[0]);
#pragma unroll
    for (int j = 1; j < N; ++j) t[j] = madc_lo_cc(a[j], bi, t[j]);
    t[N] = addc_cc(t[N], 0);
    t[N + 1] = addc(t[N + 1], 0);
    t[1] = mad_hi_cc(a[0], bi, t[1]);
#pragma unroll
    for (int j = 1; j < N; ++j) t[j + 1] = madc_hi_cc(a[j], bi, t[j + 1]);
    t[N + 1] = addc(t[N + 1], 0);

    const uint32_t m = t[0] * inv;
    t[0] = mad_lo_cc(m, p[0], t[0]);
#pragma unroll
    for (int j = 1; j < N; ++j) t[j] = madc_lo_cc(m, p[j], t[j]);
    t[N] = addc_cc(t[N], 0);
    t[N + 1] = addc(t[N + 1], 0);
    t[1] = mad_hi_cc(m, p[0], t[1]);
#pragma unroll
    for (int j = 1; j < N; ++j) t[j + 1] = madc_hi_cc(m, p[j], t[j + 1]);
    t[N + 1] = addc(t[N + 1], 0);
#pragma unroll
    for (int j = 0; j <= N; ++j) t[j] = t[j + 1];
    t[N + 1] = 0;
  }
  // t < 2p: subtract p once if t >= p.
  uint32_t s[N];
  s[0] = sub_cc(t[0], p[0]);
#pragma unroll
  for (int j = 1; j < N; ++j) s[j] = subc_cc(t[j], p[j]);
  const uint32_t top = subc(t[N], 0);  // 0xffffffff iff t < p
#pragma unroll
  for (int j = 0; j < N; ++j) r[j] = (top == 0xffffffffu) ? t[j] : s[j];
}

// r = a + b mod p.
template <int N>
__device__ __forceinline__ void mod_add(uint32_t* r, const uint32_t* a, const uint32_t* b, const uint32_t* p) {
  using namespace ptx;
  uint32_t s[N], d[N];
  s[0] = add_cc(a[0], b[0]);
#pragma unroll
  for (int j = 1; j < N; ++j) s[j] = addc_cc(a[j], b[j]);
  // a + b < 2p < 2^(32N): no carry out.
  d[0] = sub_cc(s[0], p[0]);
#pragma unroll
  for (int j = 1; j < N; ++j) d[j] = subc_cc(s[j], p[j]);
  const uint32_t borrow = subc(0, 0);
#pragma unroll
  for (int j = 0; j < N; ++j) r[j] = borrow ? s[j] : d[j];
}

// r = a - b mod p.
template <int N>
__device__ __forceinline__ void mod_sub(uint32_t* r, const uint32_t* a, const uint32_t* b, const uint32_t* p) {
  using namespace ptx;
  uint32_t d[N];
  d[0] = sub_cc(a[0], b[0]);
#pragma unroll
  for (int j = 1; j < N; ++j) d[j] = subc_cc(a[j], b[j]);
  const uint32_t mask = subc(0, 0);  // all ones iff a < b
  r[0] = add_cc(d[0], p[0] & mask);
#pragma unroll
  for (int j = 1; j < N; ++j) r[j] = addc_cc(d[j], p[j] & mask);
}

}  // namespace detail

template <class P>
struct alignas(16) Mont {
  static constexpr int N = 2 * P::kLimbs;
  static constexpr uint32_t kInv = uint32_t(P::kInv);  // -p^-1 mod 2^32
  uint32_t w[N];

  __device__ __forceinline__ static Mont zero() {
    Mont r;
#pragma unroll
    for (int j = 0; j < N; ++j) r.w[j] = 0;
    return r;
  }
  __device__ __forceinline__ static Mont one() {
    Mont r;
    detail::load_one<P>(r.w, std::make_index_sequence<N>());
    return r;
  }
  __device__ __forceinline__ static void modulus(uint32_t* p) {
    detail::load_modulus<P>(p, std::make_index_sequence<N>());
  }

  __device__ __forceinline__ bool is_zero() const {
    uint32_t acc = 0;
#pragma unroll
    for (int j = 0; j < N; ++j) acc |= w[j];
    return acc == 0;
  }
  __device__ __forceinline__ bool operator==(const Mont& o) const {
    uint32_t acc = 0;
#pragma unroll
    for (int j = 0; j < N; ++j) acc |= w[j] ^ o.w[j];
    return acc == 0;
  }
  __device__ __forceinline__ bool operator!=(const Mont& o) const { return !(*this == o); }

  __device__ __forceinline__ friend Mont operator+(const Mont& a, const Mont& b) {
    uint32_t p[N];
    modulus(p);
    Mont r;
    detail::mod_add<N>(r.w, a.w, b.w, p);
    return r;
  }
  __device__ __forceinline__ friend Mont operator-(const Mont& a, const Mont& b) {
    uint32_t p[N];
    modulus(p);
    Mont r;
    detail::mod_sub<N>(r.w, a.w, b.w, p);
    return r;
  }
  // Inline for small fields; an out-of-line call for wide ones (Fp). The call
  // is also the faster choice on an H200 (2026-11-30): with the Fp product
  // inlined (CUZK_INLINE_WIDE_MUL) the G1 MSM at 2^27 took 1997 ms instead of
  // 1554 ms (bucket accumulation +18%, bucket reduction 3.7x from spills), and
  // nvcc needed 6x longer.
  __device__ __forceinline__ friend Mont operator*(const Mont& a, const Mont& b) {
#ifndef CUZK_INLINE_WIDE_MUL
    if constexpr (N > 8) return mul_outlined(a, b);
#endif
    return mul_inline(a, b);
  }
  __device__ __forceinline__ static Mont mul_inline(const Mont& a, const Mont& b) {
    uint32_t p[N];
    modulus(p);
    Mont r;
    detail::mont_mul<N>(r.w, a.w, b.w, p, kInv);
    return r;
  }
  __device__ __noinline__ static Mont mul_outlined(const Mont a, const Mont b) { return mul_inline(a, b); }
  __device__ __forceinline__ Mont operator-() const { return zero() - *this; }
  __device__ __forceinline__ Mont& operator+=(const Mont& b) { return *this = *this + b; }
  __device__ __forceinline__ Mont& operator-=(const Mont& b) { return *this = *this - b; }
  __device__ __forceinline__ Mont& operator*=(const Mont& b) { return *this = *this * b; }
  __device__ __forceinline__ Mont dbl() const { return *this + *this; }
  __device__ __forceinline__ Mont sqr() const { return *this * *this; }
  // Integer value (out of Montgomery form): multiply by 1. Cost: 1M.
  __device__ __forceinline__ Mont canonical() const {
    Mont one_int = zero();
    one_int.w[0] = 1;
    return *this * one_int;
  }
  // Conditional negation without branches on the data path.
  __device__ __forceinline__ Mont cneg(bool flag) const { return flag ? -*this : *this; }

  // Multiplicative inverse by Fermat, x^(p−2); the inverse of zero is zero.
  // Cost: 32N squarings + ~16N multiplications.
  __device__ Mont inverse() const {
    uint32_t e[N];
    modulus(e);
    e[0] = ptx::sub_cc(e[0], 2);
#pragma unroll
    for (int j = 1; j < N; ++j) e[j] = ptx::subc_cc(e[j], 0);
    Mont r = one();
    for (int i = N - 1; i >= 0; --i)
      for (int b = 31; b >= 0; --b) {
        r = r.sqr();
        if ((e[i] >> b) & 1) r = r * *this;
      }
    return r;
  }

  // x^e for a small exponent (square and multiply, most significant bit first).
  __device__ Mont pow(uint64_t e) const {
    Mont r = one();
    for (int i = 63; i >= 0; --i) {
      r = r.sqr();
      if ((e >> i) & 1) r = r * *this;
    }
    return r;
  }
};

}  // namespace cuzk::ff::cuda
