// PTX carry-chain primitives on 32-bit words. The carry flag (CC) lives
// between consecutive *.cc instructions; callers keep a chain in straight-line
// (fully unrolled) code and never put another carry-writing operation inside
// one.
//
// On the host the same functions emulate the flag in a thread-local word, so
// the device algorithms built from them (mont.cuh) also run, and are tested,
// on a machine without a GPU. The emulation is for tests, not for speed.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define CUZK_PTX_FN __host__ __device__ __forceinline__
#else
#define CUZK_PTX_FN inline
#endif

namespace cuzk::ff::cuda::ptx {

#if !defined(__CUDA_ARCH__)
namespace host {
inline thread_local uint32_t cc = 0;
// r = a + b + cin; sets the emulated flag when `set`.
inline uint32_t add(uint32_t a, uint32_t b, uint32_t cin, bool set) {
  const uint64_t s = uint64_t(a) + b + cin;
  if (set) cc = uint32_t(s >> 32);
  return uint32_t(s);
}
inline uint32_t sub(uint32_t a, uint32_t b, uint32_t bin, bool set) {
  const uint64_t d = uint64_t(a) - b - bin;
  if (set) cc = uint32_t(d >> 63);
  return uint32_t(d);
}
inline uint32_t lo(uint32_t a, uint32_t b) { return uint32_t(uint64_t(a) * b); }
inline uint32_t hi(uint32_t a, uint32_t b) { return uint32_t((uint64_t(a) * b) >> 32); }
}  // namespace host
#define CUZK_PTX_ASM(dev, host_expr) return host_expr
#else
#define CUZK_PTX_ASM(dev, host_expr) dev
#endif

// a + b, sets CC.
CUZK_PTX_FN uint32_t add_cc(uint32_t a, uint32_t b) {
  CUZK_PTX_ASM(uint32_t r; asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r,
               host::add(a, b, 0, true));
}
// a + b + CC, sets CC.
CUZK_PTX_FN uint32_t addc_cc(uint32_t a, uint32_t b) {
  CUZK_PTX_ASM(uint32_t r; asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r,
               host::add(a, b, host::cc, true));
}
// a + b + CC.
CUZK_PTX_FN uint32_t addc(uint32_t a, uint32_t b) {
  CUZK_PTX_ASM(uint32_t r; asm volatile("addc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r,
               host::add(a, b, host::cc, false));
}
// a - b, sets borrow.
CUZK_PTX_FN uint32_t sub_cc(uint32_t a, uint32_t b) {
  CUZK_PTX_ASM(uint32_t r; asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r,
               host::sub(a, b, 0, true));
}
// a - b - borrow, sets borrow.
CUZK_PTX_FN uint32_t subc_cc(uint32_t a, uint32_t b) {
  CUZK_PTX_ASM(uint32_t r; asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r,
               host::sub(a, b, host::cc, true));
}
// a - b - borrow.
CUZK_PTX_FN uint32_t subc(uint32_t a, uint32_t b) {
  CUZK_PTX_ASM(uint32_t r; asm volatile("subc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r,
               host::sub(a, b, host::cc, false));
}

// Two-word products. Each one keeps the low and the high half of the same
// product a·b next to each other in one chain, writing words k and k+1 of an
// accumulator; ptxas turns such a pair into one wide multiply-add instead of
// a low and a (half-rate) high multiply.

// (hi:lo) = a·b.
CUZK_PTX_FN void mul_wide(uint32_t& lo, uint32_t& hi, uint32_t a, uint32_t b) {
  CUZK_PTX_ASM(asm volatile("mul.lo.u32 %0, %2, %3;\n\tmul.hi.u32 %1, %2, %3;" : "=r"(lo), "=r"(hi) : "r"(a), "r"(b)),
               (lo = host::lo(a, b), hi = host::hi(a, b), void()));
}
// (hi:lo) += a·b, starting a chain: sets CC to the carry out of hi.
CUZK_PTX_FN void mad_wide_cc(uint32_t& lo, uint32_t& hi, uint32_t a, uint32_t b) {
  CUZK_PTX_ASM(asm volatile("mad.lo.cc.u32 %0, %2, %3, %0;\n\tmadc.hi.cc.u32 %1, %2, %3, %1;"
                            : "+r"(lo), "+r"(hi)
                            : "r"(a), "r"(b)),
               (lo = host::add(host::lo(a, b), lo, 0, true), hi = host::add(host::hi(a, b), hi, host::cc, true),
                void()));
}
// (hi:lo) += a·b + CC, sets CC.
CUZK_PTX_FN void madc_wide_cc(uint32_t& lo, uint32_t& hi, uint32_t a, uint32_t b) {
  CUZK_PTX_ASM(asm volatile("madc.lo.cc.u32 %0, %2, %3, %0;\n\tmadc.hi.cc.u32 %1, %2, %3, %1;"
                            : "+r"(lo), "+r"(hi)
                            : "r"(a), "r"(b)),
               (lo = host::add(host::lo(a, b), lo, host::cc, true),
                hi = host::add(host::hi(a, b), hi, host::cc, true), void()));
}
// (hi:lo) = a·b + (in_hi:in_lo) + CC, sets CC: a chain that also moves the
// accumulator down by two words.
CUZK_PTX_FN void madc_wide_from_cc(uint32_t& lo, uint32_t& hi, uint32_t a, uint32_t b, uint32_t in_lo,
                                   uint32_t in_hi) {
  CUZK_PTX_ASM(asm volatile("madc.lo.cc.u32 %0, %2, %3, %4;\n\tmadc.hi.cc.u32 %1, %2, %3, %5;"
                            : "=r"(lo), "=r"(hi)
                            : "r"(a), "r"(b), "r"(in_lo), "r"(in_hi)),
               (lo = host::add(host::lo(a, b), in_lo, host::cc, true),
                hi = host::add(host::hi(a, b), in_hi, host::cc, true), void()));
}
// (hi:lo) = a·b + CC, ending a chain (the caller guarantees no carry out).
CUZK_PTX_FN void madc_wide_end(uint32_t& lo, uint32_t& hi, uint32_t a, uint32_t b) {
  CUZK_PTX_ASM(asm volatile("madc.lo.cc.u32 %0, %2, %3, 0;\n\tmadc.hi.u32 %1, %2, %3, 0;" : "=r"(lo), "=r"(hi) : "r"(a), "r"(b)),
               (lo = host::add(host::lo(a, b), 0, host::cc, true), hi = host::add(host::hi(a, b), 0, host::cc, false),
                void()));
}

}  // namespace cuzk::ff::cuda::ptx

#undef CUZK_PTX_ASM
#undef CUZK_PTX_FN
