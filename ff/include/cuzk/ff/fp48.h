// The BLS12-381 field products on the FP64 pipe: an experiment.
//
// The device's field products (ff/cuda, 32-bit words) run on the integer
// multiply-add pipe, which bounds the MSM and the NTT (docs/perf.md §4–§5).
// The FP64 pipe does 64 fused multiply-adds a cycle per SM beside it. This is
// a Montgomery product over limbs of 48 bits held in doubles: for Fp 8 limbs
// with the same R = 2^384 as ff::Fp, so an element's Montgomery form is the
// same number in both (only sliced differently); for Fr 6 limbs (FrShape
// below). `cuzk-gpu-bench pipes` measures whether the two pipes together
// multiply faster than one.
//
// Every step is exact in IEEE binary64:
//   * a limb product a·b (a, b < 2^48) is split as hi·2^48 + lo by
//     h = fma_rz(a·2^-48, b, 2^52) = 2^52 + ⌊ab/2^48⌋ (the sum lies in
//     [2^52, 2^53), where the spacing is 1 and rounding toward zero floors),
//     hi = h − 2^52, and lo/2^48 = fma(a·2^-48, b, −hi) (< 1, 48 fraction
//     bits: representable, so the fused operation is exact);
//   * the column sums stay below 2^53: a column takes at most 16 low halves
//     (< 1 scaled, 48 fraction bits: below 16 in 52 bits) and the previous
//     column's at most 16 high halves and carries (< 2^52 + 2^6); at most 30
//     terms below 2^48 in all with the carries, 30·2^48 + 64 < 2^53;
//   * the reduction is interleaved with the product (product scanning):
//     column k (k < 8) is brought below 2^48, m_k = (column·p') mod 2^48 with
//     p' = −p^-1 mod 2^48 by the same split, and m_k·p_0 makes it 0 or 2^48,
//     carried on; m_k·p_j joins column k + j.
// Inputs below 2p give an output below 2p (4p < R), so products chain
// without a final subtraction; the caller reduces where it needs to
// (ff/cuda/fp48_bridge.cuh: one conditional subtraction).
//
// Cost for Fp: ≈ 770 FP64 operations a product (120 limb products of 5 —
// the split's three and two accumulations — and each column's carry and m),
// against the IMAD product's ≈ 276 wide multiply-adds at half rate: on its
// own the FP64 product is ≈ 12 SM-cycles against ≈ 9.4; only the two pipes at
// once could pay.
//
// Ops supplies the two roundings: fma_rz (toward zero) and fma (to nearest).
// DeviceOps is below; a host version needs the rounding mode switched around
// fma_rz (ff/tests/fp48_test.cc).
#pragma once

#include <cstdint>
#include <cstring>

#ifdef __CUDACC__
#define CUZK_FP48_HD __host__ __device__ __forceinline__
#define CUZK_FP48_UNROLL _Pragma("unroll")
#else
#define CUZK_FP48_HD inline
#define CUZK_FP48_UNROLL
#endif

namespace cuzk::ff::fp48 {

inline constexpr double kTwo48 = 281474976710656.0;          // 2^48
inline constexpr double kTwoMinus48 = 1.0 / 281474976710656.0;  // 2^-48
inline constexpr double kTwo52 = 4503599627370496.0;          // 2^52
inline constexpr uint64_t kMask48 = (uint64_t(1) << 48) - 1;

// Σ v[i]·2^(48 i), every v[i] an integer in [0, 2^48).
template <int L>
struct Limbs {
  double v[L];
};

// The fields: their modulus in 64-bit words (ff/params.h), −modulus^-1 mod
// 2^64 (its low 48 bits are what the product needs), and the limbs that hold
// twice the modulus. Fp: 8 limbs, R = 2^384, the R of ff::Fp, so Montgomery
// forms convert by re-slicing bits. Fr: 6 limbs, R = 2^288 where ff::Fr's is
// 2^256 — the product of a and b is a·b·2^-288, so one factor taken times
// 2^32 (a twiddle table, say) gives ff::Fr's product.
struct FpShape {
  static constexpr int kLimbs = 8, kWords = 6;
  static constexpr uint64_t kModulus[6] = {0xb9feffffffffaaab, 0x1eabfffeb153ffff, 0x6730d2a0f6b0f624,
                                           0x64774b84f38512bf, 0x4b1ba7b6434bacd7, 0x1a0111ea397fe69a};
  static constexpr uint64_t kInv = 0x89f3fffcfffcfffd;
};
struct FrShape {
  static constexpr int kLimbs = 6, kWords = 4;
  static constexpr uint64_t kModulus[4] = {0xffffffff00000001, 0x53bda402fffe5bfe, 0x3339d80809a1d805,
                                           0x73eda753299d7d48};
  static constexpr uint64_t kInv = 0xfffffffeffffffff;
};
using Elem = Limbs<FpShape::kLimbs>;
using FrElem = Limbs<FrShape::kLimbs>;
inline constexpr int kLimbs = FpShape::kLimbs;

// 48-bit limb i of a little-endian array of kWords 64-bit words.
template <class S = FpShape>
CUZK_FP48_HD constexpr uint64_t limb48(const uint64_t* w, int i) {
  const int bit = 48 * i, word = bit / 64, shift = bit % 64;
  if (word >= S::kWords) return 0;
  uint64_t x = w[word] >> shift;
  if (shift > 16 && word + 1 < S::kWords) x |= w[word + 1] << (64 - shift);
  return x & kMask48;
}

// A limb x < 2^48 as a double: its bits written under 2^52's exponent make
// 2^52 + x, and 2^52 is taken off (exact); and back, by adding 2^52 and
// reading the low bits. The same bit patterns on the host (memcpy) and the
// device (the hi/lo intrinsics), so the host test checks the device's trick.
CUZK_FP48_HD double limb_to_double(uint64_t x) {
#ifdef __CUDA_ARCH__
  return __hiloint2double(int(0x43300000u | uint32_t(x >> 32)), int(uint32_t(x))) - kTwo52;
#else
  const uint64_t bits = 0x4330000000000000ull | x;
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d - kTwo52;
#endif
}
CUZK_FP48_HD uint64_t double_to_limb(double v) {
  const double y = v + kTwo52;
#ifdef __CUDA_ARCH__
  return (uint64_t(uint32_t(__double2hiint(y))) << 32 | uint32_t(__double2loint(y))) & kMask48;
#else
  uint64_t bits;
  std::memcpy(&bits, &y, sizeof bits);
  return bits & kMask48;
#endif
}

// From and to little-endian 32-bit words (kWords·2 of them: Fp's 12, Fr's 8):
// limb 2k is word 3k and the low half of word 3k + 1, limb 2k + 1 the high
// half of word 3k + 1 and word 3k + 2. to_words32 needs the value below
// 2^(64·kWords).
template <class S>
CUZK_FP48_HD Limbs<S::kLimbs> from_words32(const uint32_t* w) {
  constexpr int kW = 2 * S::kWords;
  Limbs<S::kLimbs> e;
  CUZK_FP48_UNROLL
  for (int k = 0; 2 * k < S::kLimbs; ++k) {
    const uint64_t w0 = 3 * k < kW ? w[3 * k] : 0, w1 = 3 * k + 1 < kW ? w[3 * k + 1] : 0,
                   w2 = 3 * k + 2 < kW ? w[3 * k + 2] : 0;
    e.v[2 * k] = limb_to_double(w0 | (w1 & 0xffff) << 32);
    if (2 * k + 1 < S::kLimbs) e.v[2 * k + 1] = limb_to_double(w1 >> 16 | w2 << 16);
  }
  return e;
}
template <class S>
CUZK_FP48_HD void to_words32(const Limbs<S::kLimbs>& e, uint32_t* w) {
  constexpr int kW = 2 * S::kWords;
  CUZK_FP48_UNROLL
  for (int k = 0; 2 * k < S::kLimbs; ++k) {
    const uint64_t a = double_to_limb(e.v[2 * k]), b = 2 * k + 1 < S::kLimbs ? double_to_limb(e.v[2 * k + 1]) : 0;
    if (3 * k < kW) w[3 * k] = uint32_t(a);
    if (3 * k + 1 < kW) w[3 * k + 1] = uint32_t(a >> 32) | uint32_t(b << 16);
    if (3 * k + 2 < kW) w[3 * k + 2] = uint32_t(b >> 16);
  }
}

// The modulus in limbs (at compile time).
template <class S>
CUZK_FP48_HD constexpr Limbs<S::kLimbs> modulus_limbs() {
  Limbs<S::kLimbs> m{};
  for (int j = 0; j < S::kLimbs; ++j) m.v[j] = double(limb48<S>(S::kModulus, j));
  return m;
}

// ⌊x·y⌋ for 0 ≤ x·y < 2^52 (see the header).
template <class Ops>
CUZK_FP48_HD double floor_product(double x, double y) {
  return Ops::fma_rz(x, y, kTwo52) - kTwo52;
}

// r = a·b·2^-48L mod p (L = S::kLimbs), below 2p for a, b below 2p (r may
// alias a or b).
// Product scanning (column by column, the reduction interleaved): column k
// sums the halves of a_i·b_(k−i) and of m_i·p_(k−i) (i < k) — the low
// halves in `lo` (scaled by 2^-48), the high ones, which belong to column
// k + 1, in `hi` — then, for k < 8, m_k = (column mod 2^48)·p' mod 2^48
// makes the column 0 mod 2^48 with m_k·p_0; from k = 8 the columns are the
// result's limbs. Only the column in hand is live: a, b, m and three sums.
template <class Ops, class S = FpShape>
CUZK_FP48_HD void mont_mul(Limbs<S::kLimbs>& r, const Limbs<S::kLimbs>& a, const Limbs<S::kLimbs>& b) {
  constexpr int kLimbs = S::kLimbs;
  constexpr double kPInv = double(S::kInv & kMask48);
  constexpr Limbs<kLimbs> kMod = modulus_limbs<S>();
  const double* kP = kMod.v;
  double as[kLimbs], m[kLimbs], bv[kLimbs];  // a·2^-48; m_i·2^-48; b (r may alias b)
  CUZK_FP48_UNROLL
  for (int i = 0; i < kLimbs; ++i) as[i] = a.v[i] * kTwoMinus48, bv[i] = b.v[i], m[i] = 0;
  double acc = 0;  // column k's integer part carried in: column k − 1's high halves and carries
  CUZK_FP48_UNROLL
  for (int k = 0; k < 2 * kLimbs - 1; ++k) {
    double lo = 0, hi = 0;
    CUZK_FP48_UNROLL
    for (int i = 0; i < kLimbs; ++i) {
      const int j = k - i;
      if (j < 0 || j >= kLimbs) continue;
      const double h = floor_product<Ops>(as[i], bv[j]);
      lo += Ops::fma(as[i], bv[j], -h);
      hi += h;
      if (i < k) {  // m_i·p_j, j ≥ 1 (m_k·p_0 is taken below)
        const double hm = floor_product<Ops>(m[i], kP[j]);
        lo += Ops::fma(m[i], kP[j], -hm);
        hi += hm;
      }
    }
    double t = Ops::fma(lo, kTwo48, acc);  // column k, below 2^53
    const double q = floor_product<Ops>(t, kTwoMinus48);
    t = Ops::fma(-q, kTwo48, t);  // column k mod 2^48
    if (k < kLimbs) {
      const double ts = t * kTwoMinus48;
      m[k] = Ops::fma(ts, kPInv, -floor_product<Ops>(ts, kPInv));  // (t·p' mod 2^48)·2^-48
      const double h0 = floor_product<Ops>(m[k], kP[0]);
      // t + (m_k·p_0 mod 2^48) is 0 or 2^48: its carry is 0 or 1.
      const double c = Ops::fma(Ops::fma(m[k], kP[0], -h0), kTwo48, t) * kTwoMinus48;
      acc = hi + h0 + q + c;
    } else {
      r.v[k - kLimbs] = t;
      acc = hi + q;
    }
  }
  r.v[kLimbs - 1] = acc;  // the top column: below 2^48, as r < 2p
}

#ifdef __CUDACC__
struct DeviceOps {
  __device__ __forceinline__ static double fma_rz(double x, double y, double z) { return __fma_rz(x, y, z); }
  __device__ __forceinline__ static double fma(double x, double y, double z) { return __fma_rn(x, y, z); }
};
#endif

}  // namespace cuzk::ff::fp48
