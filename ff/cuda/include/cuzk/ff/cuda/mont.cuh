// Device Montgomery arithmetic over N = 2·P::kLimbs 32-bit words: the same
// bytes as the host MontField<P> (Montgomery form, words little-endian), so
// arrays move between host and device unchanged. Every operation returns a
// fully reduced value in [0, p), hence results are bit-identical with the CPU.
//
// Constants come from ff/params.h (64-bit limbs split into 32-bit words at
// compile time) and end up as immediates in the instruction stream.
//
// Costs (32-bit word operations): mul 4N^2 + 4N multiply-add words, in
// pairs that issue as N^2 wide multiply-adds (see mont_mul); sqr the same
// for Fr, and for Fp (mont_sqr) each cross product a_i·a_j made once: 222
// wide multiply-adds against mul's 288; add/sub 2N–3N.
// The detail:: routines also run on the host (ptx.cuh emulates the carry
// flag), which is how ff_cuda_host_test checks them without a GPU.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include "cuzk/ff/cuda/ptx.cuh"
#include "cuzk/ff/params.h"

#if defined(__CUDACC__)
#define CUZK_MONT_FN __host__ __device__ __forceinline__
#else
#define CUZK_MONT_FN inline
#endif

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

// Words of 2p (for the lazy forms below; 2p < 2^(64·kLimbs) is checked there).
template <class P, int I>
struct TwoModWord {
  static constexpr uint32_t v =
      uint32_t(((P::kModulus[I / 2] << 1) | (I / 2 > 0 ? P::kModulus[I / 2 - 1] >> 63 : 0)) >> (32 * (I % 2)));
};

template <class P, int I>
struct R2Word {
  static constexpr uint32_t v = uint32_t(P::kR2[I / 2] >> (32 * (I % 2)));
};

template <class P, size_t... I>
__device__ __forceinline__ void load_modulus(uint32_t* out, std::index_sequence<I...>) {
  ((out[I] = ModWord<P, int(I)>::v), ...);
}
template <class P, size_t... I>
__device__ __forceinline__ void load_two_modulus(uint32_t* out, std::index_sequence<I...>) {
  ((out[I] = TwoModWord<P, int(I)>::v), ...);
}
template <class P, size_t... I>
__device__ __forceinline__ void load_one(uint32_t* out, std::index_sequence<I...>) {
  ((out[I] = OneWord<P, int(I)>::v), ...);
}
template <class P, size_t... I>
__device__ __forceinline__ void load_r2(uint32_t* out, std::index_sequence<I...>) {
  ((out[I] = R2Word<P, int(I)>::v), ...);
}

// The product below keeps the running Montgomery sum T as two arrays,
// T = x + 2^32·y: x takes the products of the even words of a (word j at
// x[j], x[j+1]), y those of the odd words, one word higher. Each product's low
// and high halves then sit next to each other in one carry chain (wide
// multiply-adds), and a step costs 4N multiply-add words and four additions.
// Dividing T by 2^32 after a reduction swaps the roles of the arrays: the old
// y becomes the new x (plus x[1], whose carry enters the new y's chain) and
// x[2..] becomes the new y.
//
// Bounds (a, b < p, T < 2p before a step): T + a·b_i + m·p < 2^33·p
// < 2^(32(N+1)) for both fields, so y never leaves its N words and the carry
// out of x always lands in y[N−1]. Requires N even.
template <int N, bool kSparseLow = false>
CUZK_MONT_FN void mont_reduce_step(uint32_t* x, uint32_t* y, const uint32_t* p, uint32_t inv) {
  using namespace ptx;
  if constexpr (kSparseLow) {
    // p ≡ 1 − 2^32 mod 2^64 (p[0] = 1, p[1] = 2^32 − 1, so inv = −1): m = −x[0],
    // m·p[0] = m, and m·p[1] = m·2^32 − m has low word x[0] and high word
    // m − c, where c = (x[0] ≠ 0) is also the carry out of x[0] + m. Two wide
    // products and the product for m become additions, which issue on the
    // integer pipe instead of the multiply pipe.
    const uint32_t m = sub_cc(0, x[0]);  // borrow = c
    const uint32_t mh = subc(m, 0);
    y[0] = add_cc(y[0], x[0]);
    y[1] = addc_cc(y[1], mh);
#pragma unroll
    for (int k = 2; k < N; k += 2) madc_wide_cc(y[k], y[k + 1], p[k + 1], m);
    x[0] = add_cc(x[0], m);  // 0, carry c
    x[1] = addc_cc(x[1], 0);
#pragma unroll
    for (int k = 2; k < N; k += 2) madc_wide_cc(x[k], x[k + 1], p[k], m);
    (void)inv;
  } else {
    const uint32_t m = x[0] * inv;
    mad_wide_cc(y[0], y[1], p[1], m);
#pragma unroll
    for (int k = 2; k < N; k += 2) madc_wide_cc(y[k], y[k + 1], p[k + 1], m);
    mad_wide_cc(x[0], x[1], p[0], m);  // x[0] becomes 0
#pragma unroll
    for (int k = 2; k < N; k += 2) madc_wide_cc(x[k], x[k + 1], p[k], m);
  }
  y[N - 1] = addc(y[N - 1], 0);
}

// t = T/2^32 for a running sum T = lo + 2^32·hi whose lowest word (lo[0])
// is zero or already taken: hi + lo[1..], N words (the caller bounds it).
template <int N>
CUZK_MONT_FN void sum_down(uint32_t* t, const uint32_t* lo, const uint32_t* hi) {
  using namespace ptx;
  t[0] = add_cc(hi[0], lo[1]);
#pragma unroll
  for (int k = 1; k + 1 < N; ++k) t[k] = addc_cc(hi[k], lo[k + 1]);
  t[N - 1] = addc(hi[N - 1], 0);
}

// The move down a word and the products a·b_i of one step (mont_mul_step
// without its reduction; old x[0] is dropped by the move).
template <int N>
CUZK_MONT_FN void mul_step_products(uint32_t* nx, uint32_t* ny, const uint32_t* a, uint32_t bi) {
  using namespace ptx;
  nx[0] = add_cc(nx[0], ny[1]);  // carry weighs 2^32 = y[0]'s weight
#pragma unroll
  for (int k = 0; k + 2 < N; k += 2) madc_wide_from_cc(ny[k], ny[k + 1], a[k + 1], bi, ny[k + 2], ny[k + 3]);
  madc_wide_end(ny[N - 2], ny[N - 1], a[N - 1], bi);
  mad_wide_cc(nx[0], nx[1], a[0], bi);
#pragma unroll
  for (int k = 2; k < N; k += 2) madc_wide_cc(nx[k], nx[k + 1], a[k], bi);
  ny[N - 1] = addc(ny[N - 1], 0);
}

// One word b_i after the first: on entry nx holds the old y and ny the old x
// (already reduced, old x[0] = 0); on exit (nx, ny) is the new (x, y).
template <int N, bool kSparseLow = false>
CUZK_MONT_FN void mont_mul_step(uint32_t* nx, uint32_t* ny, const uint32_t* a, uint32_t bi, const uint32_t* p,
                                uint32_t inv) {
  mul_step_products<N>(nx, ny, a, bi);
  mont_reduce_step<N, kSparseLow>(nx, ny, p, inv);
}

// r = a mod p for a < 2p (the final subtraction of mont_mul; and a lazy
// value's reduction).
template <int N>
CUZK_MONT_FN void reduce_once(uint32_t* r, const uint32_t* a, const uint32_t* p) {
  using namespace ptx;
  uint32_t d[N];
  d[0] = sub_cc(a[0], p[0]);
#pragma unroll
  for (int j = 1; j < N; ++j) d[j] = subc_cc(a[j], p[j]);
  const uint32_t top = subc(0, 0);  // 0xffffffff iff a < p
#pragma unroll
  for (int j = 0; j < N; ++j) r[j] = (top == 0xffffffffu) ? a[j] : d[j];
}

// r = a·b·2^(-32N) mod p for a, b < p; r < p. kSparseLow: p ≡ 1 − 2^32
// mod 2^64 (Fr), which the reduction exploits.
// !kReduce (the lazy form): a < p and any b < 2^(32N) give r ≡ a·b·2^(-32N)
// with r < 2p, without the final subtraction. The running sum stays below
// a + p < 2p whatever b is (b only enters word by word), and the result is
// below (a·b + M·p)/2^(32N) < p + p.
template <int N, bool kSparseLow = false, bool kReduce = true>
CUZK_MONT_FN void mont_mul(uint32_t* r, const uint32_t* a, const uint32_t* b, const uint32_t* p, uint32_t inv) {
  using namespace ptx;
  static_assert(N % 2 == 0);
  uint32_t x[N], y[N];
#pragma unroll
  for (int k = 0; k < N; k += 2) ptx::mul_wide(x[k], x[k + 1], a[k], b[0]);
#pragma unroll
  for (int k = 0; k < N; k += 2) ptx::mul_wide(y[k], y[k + 1], a[k + 1], b[0]);
  mont_reduce_step<N, kSparseLow>(x, y, p, inv);
#pragma unroll
  for (int i = 1; i < N; i += 2) {
    mont_mul_step<N, kSparseLow>(y, x, a, b[i], p, inv);
    if (i + 1 < N) mont_mul_step<N, kSparseLow>(x, y, a, b[i + 1], p, inv);
  }
  // N even: the last step left the new x in y and the new y in x, so
  // T / 2^32 = x + y[1..] < 2p.
  uint32_t t[N];
  sum_down<N>(t, y, x);
  if constexpr (!kReduce) {
#pragma unroll
    for (int j = 0; j < N; ++j) r[j] = t[j];
    return;
  }
  reduce_once<N>(r, t, p);
}

// The squaring: the products a_i·a_j with i < j once, doubled, instead of
// twice. It is mont_mul's word-by-word loop with a different multiplicand per
// step: step i adds a_i·c_i (at the step's base weight 2^(32i)) where
//   c_i = a_i·2^(32i) + 2·Σ_{j>i} a_j·2^(32j),
// so that Σ_i a_i·c_i·2^(32i) = Σ a_i²·2^(64i) + 2·Σ_{i<j} a_i·a_j·2^(32(i+j))
// = a². The words of c_i below i are zero and skipped: step i makes N − i
// wide products instead of N (Fp: 78 + 144 for the reduction against 144 +
// 144). Word i of c_i is a_i, word i+1 is a_{i+1}·2 (mod 2^32: the bit that
// 2a carries up from a_i is not part of c_i), the words above are those of
// d = 2a (d_j = a_j·2 + a_{j−1}/2^31), which a < 2^(32N−1) keeps in N words.
// Every contribution to word i is in before step i reduces it (a_i·a_j lands
// on word i + j from step min(i, j) on), so the result is the Montgomery
// square exactly; the last sum is (a² + M·p)/2^(32N) < 2p like mont_mul's.
// Bounds: before step s the running sum is below 2a + p < 3p (its products so
// far are at most 2a·(a mod 2^(32s)), its reductions below 2^(32s)·p), and the
// step adds below 2^32·2p + 2^32·p, so it stays below 2^34·p: it fits N + 1
// words when p < 2^(32N−2) (kSqrFits). True for Fp (p < 2^381), not for Fr,
// whose squares stay products.
template <class P>
inline constexpr bool kSqrFits = (P::kModulus[P::kLimbs - 1] >> 62) == 0;

// Word K ≥ I of c_I; a2 = a_{I+1}·2 mod 2^32, computed before the step's
// chains so that nothing but the chains' own instructions sits between them.
template <int I, int K>
CUZK_MONT_FN uint32_t sqr_word(const uint32_t* a, const uint32_t* d, uint32_t a2) {
  static_assert(K >= I);
  if constexpr (K == I) {
    return a[I];
  } else if constexpr (K == I + 1) {
    return a2;
  } else {
    return d[K];
  }
}

// ny's chain of step I (mont_mul_step's a[k+1]·b_i into pair k, with the move
// down by two words), pairs from K on; pairs whose word of c_I is zero only
// move (with the carry).
template <int N, int I, int K>
CUZK_MONT_FN void sqr_ny_chain(uint32_t* ny, const uint32_t* a, const uint32_t* d, uint32_t a2, uint32_t bi) {
  using namespace ptx;
  if constexpr (K + 2 < N) {
    if constexpr (K + 1 < I) {
      ny[K] = addc_cc(ny[K + 2], 0);
      ny[K + 1] = addc_cc(ny[K + 3], 0);
    } else {
      madc_wide_from_cc(ny[K], ny[K + 1], sqr_word<I, K + 1>(a, d, a2), bi, ny[K + 2], ny[K + 3]);
    }
    sqr_ny_chain<N, I, K + 2>(ny, a, d, a2, bi);
  } else {
    madc_wide_end(ny[N - 2], ny[N - 1], sqr_word<I, N - 1>(a, d, a2), bi);
  }
}

// nx's chain of step I (a[k]·b_i into pair k, k even), the pairs whose word
// of c_I is zero skipped (k < I: with I odd the pair k = I − 1 too, its high
// word being a product of ny's chain); the first product opens the chain.
template <int N, int I, int K, bool kOpen>
CUZK_MONT_FN void sqr_nx_chain(uint32_t* nx, const uint32_t* a, const uint32_t* d, uint32_t a2, uint32_t bi) {
  using namespace ptx;
  if constexpr (K < N) {
    if constexpr (K < I) {
      sqr_nx_chain<N, I, K + 2, false>(nx, a, d, a2, bi);
    } else {
      if constexpr (kOpen) {
        madc_wide_cc(nx[K], nx[K + 1], sqr_word<I, K>(a, d, a2), bi);
      } else {
        mad_wide_cc(nx[K], nx[K + 1], sqr_word<I, K>(a, d, a2), bi);
      }
      sqr_nx_chain<N, I, K + 2, true>(nx, a, d, a2, bi);
    }
  }
}

// Step I ≥ 1 (roles as in mont_mul_step).
template <int N, int I>
CUZK_MONT_FN void mont_sqr_step(uint32_t* nx, uint32_t* ny, const uint32_t* a, const uint32_t* d, const uint32_t* p,
                                uint32_t inv) {
  using namespace ptx;
  const uint32_t bi = a[I];
  uint32_t a2 = 0;  // c_I's word I + 1 (none for the last step)
  if constexpr (I + 1 < N) a2 = a[I + 1] << 1;
  nx[0] = add_cc(nx[0], ny[1]);
  sqr_ny_chain<N, I, 0>(ny, a, d, a2, bi);
  sqr_nx_chain<N, I, 0, false>(nx, a, d, a2, bi);
  // nx's chain carries into ny's top word; with no product in it (I = N − 1)
  // there is no carry to take.
  if constexpr (I <= N - 2) ny[N - 1] = addc(ny[N - 1], 0);
  mont_reduce_step<N>(nx, ny, p, inv);
}

// Steps I … N−1, then the sum and the final subtraction. X, Y: the current
// (x, y) of mont_mul's running sum.
template <int N, int I>
CUZK_MONT_FN void mont_sqr_steps(uint32_t* r, uint32_t* X, uint32_t* Y, const uint32_t* a, const uint32_t* d,
                                 const uint32_t* p, uint32_t inv) {
  using namespace ptx;
  if constexpr (I < N) {
    mont_sqr_step<N, I>(Y, X, a, d, p, inv);
    mont_sqr_steps<N, I + 1>(r, Y, X, a, d, p, inv);
  } else {
    // T = X + 2^32·Y with X[0] = 0 after the last reduction.
    uint32_t t[N];
    sum_down<N>(t, X, Y);
    reduce_once<N>(r, t, p);
  }
}

// r = a·a·2^(-32N) mod p for a < p < 2^(32N−2); r < p, the same words as
// mont_mul(r, a, a).
template <int N>
CUZK_MONT_FN void mont_sqr(uint32_t* r, const uint32_t* a, const uint32_t* p, uint32_t inv) {
  using namespace ptx;
  static_assert(N % 2 == 0 && N >= 4);
  uint32_t d[N];
  d[0] = a[0] << 1;
#pragma unroll
  for (int j = 1; j < N; ++j) d[j] = (a[j] << 1) | (a[j - 1] >> 31);
  uint32_t x[N], y[N];
  const uint32_t b0 = a[0], a2 = a[1] << 1;
  // Step 0: c_0 = a_0, a_1·2, d_2, d_3, ...
  ptx::mul_wide(x[0], x[1], a[0], b0);
#pragma unroll
  for (int k = 2; k < N; k += 2) ptx::mul_wide(x[k], x[k + 1], d[k], b0);
  ptx::mul_wide(y[0], y[1], a2, b0);
#pragma unroll
  for (int k = 2; k < N; k += 2) ptx::mul_wide(y[k], y[k + 1], d[k + 1], b0);
  mont_reduce_step<N>(x, y, p, inv);
  mont_sqr_steps<N, 1>(r, x, y, a, d, p, inv);
}

// r = a + b mod p for a, b < p. kCarryOut: a + b may exceed 2^(32N) — the
// lazy form, r = a + b mod 2p for a, b < 2p with p = 2p passed as the modulus
// (below 2^(32N)), so r < 2p; see mont_mul's !kReduce.
template <int N, bool kCarryOut = false>
CUZK_MONT_FN void mod_add(uint32_t* r, const uint32_t* a, const uint32_t* b, const uint32_t* p) {
  using namespace ptx;
  uint32_t s[N], d[N];
  s[0] = add_cc(a[0], b[0]);
#pragma unroll
  for (int j = 1; j < N; ++j) s[j] = addc_cc(a[j], b[j]);
  const uint32_t carry = kCarryOut ? addc(0, 0) : 0;  // without kCarryOut a + b < 2p < 2^(32N)
  d[0] = sub_cc(s[0], p[0]);
#pragma unroll
  for (int j = 1; j < N; ++j) d[j] = subc_cc(s[j], p[j]);
  // Nonzero iff a + b < p. (With a carry out, s − p borrows, and a + b − p < p
  // fits the words: d is the result.)
  const uint32_t borrow = subc(carry, 0);
#pragma unroll
  for (int j = 0; j < N; ++j) r[j] = borrow ? s[j] : d[j];
}

// r = a - b mod p (for a, b < 2p with 2p passed as p: the lazy form mod 2p).
template <int N>
CUZK_MONT_FN void mod_sub(uint32_t* r, const uint32_t* a, const uint32_t* b, const uint32_t* p) {
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

// Multi-word helpers of binary_inverse (plain 64-bit arithmetic: the
// inversion runs once per batch on one thread, so clarity wins over carry
// chains here).
template <int N>
CUZK_MONT_FN bool words_are_one(const uint32_t* a) {
  uint32_t acc = a[0] ^ 1u;
  for (int i = 1; i < N; ++i) acc |= a[i];
  return acc == 0;
}
template <int N>
CUZK_MONT_FN bool words_geq(const uint32_t* a, const uint32_t* b) {
  for (int i = N - 1; i >= 0; --i)
    if (a[i] != b[i]) return a[i] > b[i];
  return true;
}
template <int N>
CUZK_MONT_FN uint32_t words_sub(uint32_t* a, const uint32_t* b) {  // a −= b; returns the borrow
  uint64_t borrow = 0;
  for (int i = 0; i < N; ++i) {
    const uint64_t t = uint64_t(a[i]) - b[i] - borrow;
    a[i] = uint32_t(t);
    borrow = t >> 63;
  }
  return uint32_t(borrow);
}
template <int N>
CUZK_MONT_FN void words_add(uint32_t* a, const uint32_t* b) {  // a += b mod 2^(32N)
  uint64_t carry = 0;
  for (int i = 0; i < N; ++i) {
    const uint64_t t = uint64_t(a[i]) + b[i] + carry;
    a[i] = uint32_t(t);
    carry = t >> 32;
  }
}
template <int N>
CUZK_MONT_FN void words_shr1(uint32_t* a) {
  for (int i = 0; i < N - 1; ++i) a[i] = (a[i] >> 1) | (a[i + 1] << 31);
  a[N - 1] >>= 1;
}
// x/2 mod p for x < p (p odd, p < 2^(32N−1), so x + p does not overflow).
template <int N>
CUZK_MONT_FN void half_mod(uint32_t* x, const uint32_t* p) {
  if (x[0] & 1) words_add<N>(x, p);
  words_shr1<N>(x);
}

// r = a^-1 mod p for the integer 0 < a < p (p an odd prime below
// 2^(32N−1)); r = 0 for a = 0. The binary extended Euclidean algorithm:
// u ≡ a·x1 and v ≡ a·x2 (mod p) throughout, u + v shrinks every step, and
// it stops when u or v reaches 1. Variable time (the steps depend on a);
// about 2·log2(p) halvings and log2(p) subtractions. On one GPU thread it
// takes a sixth of Fermat's x^(p−2) (H200: 99 vs 599 µs for Fp, 50 vs
// 116 µs for Fr).
template <int N>
CUZK_MONT_FN void binary_inverse(uint32_t* r, const uint32_t* a, const uint32_t* p) {
  uint32_t u[N], v[N], x1[N], x2[N];
  uint32_t nonzero = 0;
  for (int i = 0; i < N; ++i) {
    u[i] = a[i];
    v[i] = p[i];
    x1[i] = i == 0 ? 1u : 0u;
    x2[i] = 0;
    nonzero |= a[i];
  }
  if (nonzero == 0) {
    for (int i = 0; i < N; ++i) r[i] = 0;
    return;
  }
  while (!words_are_one<N>(u) && !words_are_one<N>(v)) {
    while ((u[0] & 1) == 0) {
      words_shr1<N>(u);
      half_mod<N>(x1, p);
    }
    while ((v[0] & 1) == 0) {
      words_shr1<N>(v);
      half_mod<N>(x2, p);
    }
    if (words_geq<N>(u, v)) {
      words_sub<N>(u, v);
      mod_sub<N>(x1, x1, x2, p);
    } else {
      words_sub<N>(v, u);
      mod_sub<N>(x2, x2, x1, p);
    }
  }
  const bool u_one = words_are_one<N>(u);
  for (int i = 0; i < N; ++i) r[i] = u_one ? x1[i] : x2[i];
}

// Montgomery inverse: for A = x·R (R = 2^(32N)), r = x^-1·R. binary_inverse
// gives A^-1 = x^-1·R^-1, and two Montgomery products by R^2 mod p (r2)
// multiply it by R^2. Zero for zero.
template <int N, bool kSparseLow = false>
CUZK_MONT_FN void mont_inverse(uint32_t* r, const uint32_t* a, const uint32_t* p, const uint32_t* r2,
                               uint32_t inv) {
  uint32_t t[N], s[N];
  binary_inverse<N>(t, a, p);
  mont_mul<N, kSparseLow>(s, t, r2, p, inv);
  mont_mul<N, kSparseLow>(r, s, r2, p, inv);
}

}  // namespace detail

template <class P>
struct alignas(16) Mont {
  static constexpr int N = 2 * P::kLimbs;
  static constexpr uint32_t kInv = uint32_t(P::kInv);  // -p^-1 mod 2^32
  // p ≡ 1 − 2^32 mod 2^64 (true for Fr): the cheaper reduction of mont_mul.
  static constexpr bool kSparseLow = P::kModulus[0] == 0xffffffff00000001ull;
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
  // 2p, the bound of the lazy forms (mod_add<N, true>, mod_sub and the !kReduce product).
  __device__ __forceinline__ static void two_modulus(uint32_t* p2) {
    static_assert((P::kModulus[P::kLimbs - 1] >> 63) == 0, "2p must fit the words");
    detail::load_two_modulus<P>(p2, std::make_index_sequence<N>());
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
    detail::mont_mul<N, kSparseLow>(r.w, a.w, b.w, p, kInv);
    return r;
  }
  __device__ __noinline__ static Mont mul_outlined(const Mont a, const Mont b) { return mul_inline(a, b); }
  __device__ __forceinline__ Mont operator-() const { return zero() - *this; }
  __device__ __forceinline__ Mont& operator+=(const Mont& b) { return *this = *this + b; }
  __device__ __forceinline__ Mont& operator-=(const Mont& b) { return *this = *this - b; }
  __device__ __forceinline__ Mont& operator*=(const Mont& b) { return *this = *this * b; }
  __device__ __forceinline__ Mont dbl() const { return *this + *this; }
  // Fp: the dedicated squaring (detail::mont_sqr, 222 wide multiply-adds
  // against the product's 288), out of line like the product; fields whose
  // modulus leaves no room for its running sum (Fr) square by the product.
  __device__ __forceinline__ Mont sqr() const {
    if constexpr (detail::kSqrFits<P> && N > 8) {
#ifndef CUZK_INLINE_WIDE_MUL
      return sqr_outlined(*this);
#else
      return sqr_inline(*this);
#endif
    } else {
      return *this * *this;
    }
  }
  __device__ __forceinline__ static Mont sqr_inline(const Mont& a) {
    uint32_t p[N];
    modulus(p);
    Mont r;
    detail::mont_sqr<N>(r.w, a.w, p, kInv);
    return r;
  }
  __device__ __noinline__ static Mont sqr_outlined(const Mont a) { return sqr_inline(a); }
  // Integer value (out of Montgomery form): multiply by 1. Cost: 1M.
  __device__ __forceinline__ Mont canonical() const {
    Mont one_int = zero();
    one_int.w[0] = 1;
    return *this * one_int;
  }
  // Conditional negation without branches on the data path.
  __device__ __forceinline__ Mont cneg(bool flag) const { return flag ? -*this : *this; }

  // Multiplicative inverse (detail::mont_inverse: binary extended Euclid,
  // variable time); the inverse of zero is zero.
  __device__ Mont inverse() const {
    uint32_t p[N], r2[N];
    modulus(p);
    detail::load_r2<P>(r2, std::make_index_sequence<N>());
    Mont r;
    detail::mont_inverse<N, kSparseLow>(r.w, w, p, r2, kInv);
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
