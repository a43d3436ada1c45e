// Branch-free Fr arithmetic for the NTT inner loops (internal header).
// Kernels are templates over an arithmetic policy (PortableArith, AdxArith)
// and pick one at run time with has_adx().
//
// The transforms spend nearly all their time in butterflies: one Montgomery
// multiplication, one addition and one subtraction on random data. The
// generic MontField operators decide the final reduction with branches,
// which mispredict half the time on random inputs; these versions select
// with masks or conditional moves instead and are written with explicit
// carry intrinsics so that GCC keeps every limb in a register. Results are
// bit-identical to ff::Fr (same Montgomery representation, fully reduced).
#pragma once

#include <cstdint>

#include "cuzk/ff/fr.h"

#if defined(__x86_64__)
#include <x86intrin.h>

#include "cuzk/ff/mont_mul_adx.h"  // cpu_has_adx()
#define CUZK_NTT_X86_ARITH 1
#endif

namespace cuzk::ntt::internal {

using ff::Fr;

#if CUZK_NTT_X86_ARITH

using Word = unsigned long long;  // the type _addcarry_u64 works on
inline constexpr Word kP0 = ff::FrParams::kModulus[0];
inline constexpr Word kP1 = ff::FrParams::kModulus[1];
inline constexpr Word kP2 = ff::FrParams::kModulus[2];
inline constexpr Word kP3 = ff::FrParams::kModulus[3];
inline constexpr Word kInv = ff::FrParams::kInv;

#define CUZK_NTT_INLINE inline __attribute__((always_inline))

CUZK_NTT_INLINE void mul_wide(Word a, Word b, Word& lo, Word& hi) {
  unsigned __int128 t = static_cast<unsigned __int128>(a) * b;
  lo = Word(t);
  hi = Word(t >> 64);
}

CUZK_NTT_INLINE Fr make(Word a0, Word a1, Word a2, Word a3) { return Fr::from_mont({a0, a1, a2, a3}); }

// (s0..s3) if it is below r, else (s0..s3) - r. REQUIRES: s < 2r.
CUZK_NTT_INLINE Fr reduce_once(Word s0, Word s1, Word s2, Word s3) {
  Word d0, d1, d2, d3;
  unsigned char b = _subborrow_u64(0, s0, kP0, &d0);
  b = _subborrow_u64(b, s1, kP1, &d1);
  b = _subborrow_u64(b, s2, kP2, &d2);
  b = _subborrow_u64(b, s3, kP3, &d3);
  return make(b ? s0 : d0, b ? s1 : d1, b ? s2 : d2, b ? s3 : d3);
}

// a + b mod r. Cost: 8 add/sub with carry and 4 selects.
CUZK_NTT_INLINE Fr add(const Fr& x, const Fr& y) {
  const auto& a = x.mont();
  const auto& b = y.mont();
  Word s0, s1, s2, s3;
  unsigned char c = _addcarry_u64(0, a[0], b[0], &s0);
  c = _addcarry_u64(c, a[1], b[1], &s1);
  c = _addcarry_u64(c, a[2], b[2], &s2);
  _addcarry_u64(c, a[3], b[3], &s3);  // no carry out: a + b < 2r < 2^256
  return reduce_once(s0, s1, s2, s3);
}

// a - b mod r: subtract, then add r back under a mask when it borrowed.
CUZK_NTT_INLINE Fr sub(const Fr& x, const Fr& y) {
  const auto& a = x.mont();
  const auto& b = y.mont();
  Word d0, d1, d2, d3;
  unsigned char c = _subborrow_u64(0, a[0], b[0], &d0);
  c = _subborrow_u64(c, a[1], b[1], &d1);
  c = _subborrow_u64(c, a[2], b[2], &d2);
  c = _subborrow_u64(c, a[3], b[3], &d3);
  Word mask = Word(0) - Word(c);
  Word q0 = kP0 & mask, q1 = kP1 & mask, q2 = kP2 & mask, q3 = kP3 & mask;
  // Keeps the four masked words scalar: vectorising them costs a
  // store-forwarding stall per call.
  asm("" : "+r"(q0), "+r"(q1), "+r"(q2), "+r"(q3));
  c = _addcarry_u64(0, d0, q0, &d0);
  c = _addcarry_u64(c, d1, q1, &d1);
  c = _addcarry_u64(c, d2, q2, &d2);
  _addcarry_u64(c, d3, q3, &d3);
  return make(d0, d1, d2, d3);
}

// One CIOS round: t = (t + a·bi + m·r) / 2^64 with m chosen so the low word
// vanishes. t stays below 2r because r < 2^254 (the "no-carry" variant).
CUZK_NTT_INLINE void mont_round(const Word a[4], Word bi, Word& t0, Word& t1, Word& t2, Word& t3) {
  Word l0, h0, l1, h1, l2, h2, l3, h3, t4;
  mul_wide(a[0], bi, l0, h0);
  mul_wide(a[1], bi, l1, h1);
  mul_wide(a[2], bi, l2, h2);
  mul_wide(a[3], bi, l3, h3);
  unsigned char c = _addcarry_u64(0, t0, l0, &t0);
  c = _addcarry_u64(c, t1, l1, &t1);
  c = _addcarry_u64(c, t2, l2, &t2);
  c = _addcarry_u64(c, t3, l3, &t3);
  t4 = h3 + c;
  c = _addcarry_u64(0, t1, h0, &t1);
  c = _addcarry_u64(c, t2, h1, &t2);
  c = _addcarry_u64(c, t3, h2, &t3);
  t4 += c;
  Word m = t0 * kInv;
  mul_wide(m, kP0, l0, h0);
  mul_wide(m, kP1, l1, h1);
  mul_wide(m, kP2, l2, h2);
  mul_wide(m, kP3, l3, h3);
  Word zero;
  c = _addcarry_u64(0, t0, l0, &zero);
  c = _addcarry_u64(c, t1, l1, &t1);
  c = _addcarry_u64(c, t2, l2, &t2);
  c = _addcarry_u64(c, t3, l3, &t3);
  _addcarry_u64(c, t4, h3, &t4);
  c = _addcarry_u64(0, t1, h0, &t0);
  c = _addcarry_u64(c, t2, h1, &t1);
  c = _addcarry_u64(c, t3, h2, &t2);
  _addcarry_u64(c, t4, 0, &t3);
}

// a·b·2^-256 mod r (Montgomery product), portable x86-64 code.
// Cost: 4 rounds of 8 64x64->128 products plus one 64-bit product.
CUZK_NTT_INLINE Fr mul(const Fr& x, const Fr& y) {
  const auto& am = x.mont();
  const auto& bm = y.mont();
  const Word a[4] = {am[0], am[1], am[2], am[3]};
  Word t0 = 0, t1 = 0, t2 = 0, t3 = 0;
  mont_round(a, bm[0], t0, t1, t2, t3);
  mont_round(a, bm[1], t0, t1, t2, t3);
  mont_round(a, bm[2], t0, t1, t2, t3);
  mont_round(a, bm[3], t0, t1, t2, t3);
  return reduce_once(t0, t1, t2, t3);
}

// The same product with MULX/ADCX/ADOX (BMI2 + ADX): two independent carry
// chains per round and no flag juggling, about half the instructions of mul().
// REQUIRES: the CPU supports BMI2 and ADX (has_adx()).
//
// One round with accumulator registers (A, B, C, D, E), E = 0 on entry:
//   (A..E) += a·b[i]          (low halves on the OF chain, high on CF)
//   m = A·(-r^-1) mod 2^64; (A..E) += m·r, which zeroes A
// The next round uses (B, C, D, E, A), so no register moves are needed.
#define CUZK_NTT_ADX_ROUND(OFF, A, B, C, D, E)                                                  \
  "movq " OFF "(%[b]), %%rdx\n\t"                                                             \
  "xorl %%eax, %%eax\n\t"                                                                     \
  "mulxq 0(%[a]), %%r8, %%r9\n\t adoxq %%r8, " A "\n\t adcxq %%r9, " B "\n\t"                \
  "mulxq 8(%[a]), %%r8, %%r9\n\t adoxq %%r8, " B "\n\t adcxq %%r9, " C "\n\t"                \
  "mulxq 16(%[a]), %%r8, %%r9\n\t adoxq %%r8, " C "\n\t adcxq %%r9, " D "\n\t"               \
  "mulxq 24(%[a]), %%r8, %%r9\n\t adoxq %%r8, " D "\n\t adcxq %%r9, " E "\n\t"               \
  "adoxq %%rax, " E "\n\t"                                                                    \
  "movq " A ", %%rdx\n\t"                                                                     \
  "imulq %[inv], %%rdx\n\t"                                                                   \
  "xorl %%eax, %%eax\n\t"                                                                     \
  "mulxq 0(%[p]), %%r8, %%r9\n\t adoxq %%r8, " A "\n\t adcxq %%r9, " B "\n\t"                \
  "mulxq 8(%[p]), %%r8, %%r9\n\t adoxq %%r8, " B "\n\t adcxq %%r9, " C "\n\t"                \
  "mulxq 16(%[p]), %%r8, %%r9\n\t adoxq %%r8, " C "\n\t adcxq %%r9, " D "\n\t"               \
  "mulxq 24(%[p]), %%r8, %%r9\n\t adoxq %%r8, " D "\n\t adcxq %%r9, " E "\n\t"               \
  "adoxq %%rax, " E "\n\t"

inline constexpr Word kModulusWords[4] = {kP0, kP1, kP2, kP3};
inline constexpr Word kInvWord = kInv;

CUZK_NTT_INLINE Fr mul_adx(const Fr& x, const Fr& y) {
  Word t0 = 0, t1 = 0, t2 = 0, t3 = 0, t4 = 0;
  // No carry leaves E in any round: the accumulator stays below 2r·2^64 < 2^320.
  asm(CUZK_NTT_ADX_ROUND("0", "%[t0]", "%[t1]", "%[t2]", "%[t3]", "%[t4]")
          CUZK_NTT_ADX_ROUND("8", "%[t1]", "%[t2]", "%[t3]", "%[t4]", "%[t0]")
              CUZK_NTT_ADX_ROUND("16", "%[t2]", "%[t3]", "%[t4]", "%[t0]", "%[t1]")
                  CUZK_NTT_ADX_ROUND("24", "%[t3]", "%[t4]", "%[t0]", "%[t1]", "%[t2]")
      : [t0] "+&r"(t0), [t1] "+&r"(t1), [t2] "+&r"(t2), [t3] "+&r"(t3), [t4] "+&r"(t4)
      : [a] "r"(x.mont().data()), [b] "r"(y.mont().data()), [p] "r"(kModulusWords), [inv] "m"(kInvWord)
      : "rax", "rdx", "r8", "r9", "cc", "memory");
  return reduce_once(t4, t0, t1, t2);  // the result sits in (E, A, B, C) of the first round
}
#undef CUZK_NTT_ADX_ROUND

// Whether this CPU runs mul_adx (checked once).
inline bool has_adx() { return ff::detail::cpu_has_adx(); }

// Arithmetic policies the kernels are instantiated with.
struct PortableArith {
  static CUZK_NTT_INLINE Fr add(const Fr& a, const Fr& b) { return internal::add(a, b); }
  static CUZK_NTT_INLINE Fr sub(const Fr& a, const Fr& b) { return internal::sub(a, b); }
  static CUZK_NTT_INLINE Fr mul(const Fr& a, const Fr& b) { return internal::mul(a, b); }
};
struct AdxArith {
  static CUZK_NTT_INLINE Fr add(const Fr& a, const Fr& b) { return internal::add(a, b); }
  static CUZK_NTT_INLINE Fr sub(const Fr& a, const Fr& b) { return internal::sub(a, b); }
  static CUZK_NTT_INLINE Fr mul(const Fr& a, const Fr& b) { return mul_adx(a, b); }
};

#undef CUZK_NTT_INLINE

#else  // portable fallback: the field's own operators

inline Fr add(const Fr& a, const Fr& b) { return a + b; }
inline Fr sub(const Fr& a, const Fr& b) { return a - b; }
inline Fr mul(const Fr& a, const Fr& b) { return a * b; }
inline bool has_adx() { return false; }
struct PortableArith {
  static Fr add(const Fr& a, const Fr& b) { return a + b; }
  static Fr sub(const Fr& a, const Fr& b) { return a - b; }
  static Fr mul(const Fr& a, const Fr& b) { return a * b; }
};
using AdxArith = PortableArith;  // never selected: has_adx() is false

#endif

}  // namespace cuzk::ntt::internal
