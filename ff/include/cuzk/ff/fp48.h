// The BLS12-381 base field product on the FP64 pipe: an experiment.
//
// The device's field product (ff/cuda, 12 × 32-bit words) runs on the
// integer multiply-add pipe, which bounds the MSM (docs/perf.md §4). The FP64
// pipe does 64 fused multiply-adds a cycle per SM beside it. This is a
// Montgomery product over 8 limbs of 48 bits held in doubles, with the same
// R = 2^384 as ff::Fp, so an element's Montgomery form is the same number in
// both (only sliced differently), for `cuzk-gpu-bench pipes` to measure
// whether the two pipes together multiply faster than one.
//
// Every step is exact in IEEE binary64:
//   * a limb product a·b (a, b < 2^48) is split as hi·2^48 + lo by
//     h = fma_rz(a·2^-48, b, 2^52) = 2^52 + ⌊ab/2^48⌋ (the sum lies in
//     [2^52, 2^53), where the spacing is 1 and rounding toward zero floors),
//     hi = h − 2^52, and lo/2^48 = fma(a·2^-48, b, −hi) (< 1, 48 fraction
//     bits: representable, so the fused operation is exact);
//   * the column sums stay below 2^53: the product puts at most 15 terms
//     < 2^48 in a column, the reduction at most 15 more, and the carries are
//     below 2^5 (30·2^48 + 32 < 2^53);
//   * the reduction is word by word: column i is brought below 2^48 (its
//     carry to column i + 1), m = (T_i·p') mod 2^48 with p' = −p^-1 mod 2^48
//     by the same split, then m·p is added from column i, which leaves column i
//     at 0 or 2^48 (carried on).
// Inputs below 2p give an output below 2p (4p < 2^384), so products chain
// without a final subtraction; to_canonical() reduces.
//
// Cost: ≈ 764 FP64 operations a product (64 limb products of 5 — the split's
// three and two accumulations — and the reduction's 8 × 49), against the
// IMAD product's ≈ 276 wide multiply-adds at half rate: on its own the FP64
// product is ≈ 12 SM-cycles against ≈ 9.4; only the two pipes at once could
// pay.
//
// Ops supplies the two roundings: fma_rz (toward zero) and fma (to nearest).
// DeviceOps is below; a host version needs the rounding mode switched around
// fma_rz (ff/tests/fp48_test.cc).
#pragma once

#include <cstdint>

#ifdef __CUDACC__
#define CUZK_FP48_HD __host__ __device__ __forceinline__
#define CUZK_FP48_UNROLL _Pragma("unroll")
#else
#define CUZK_FP48_HD inline
#define CUZK_FP48_UNROLL
#endif

namespace cuzk::ff::fp48 {

inline constexpr int kLimbs = 8;
inline constexpr double kTwo48 = 281474976710656.0;          // 2^48
inline constexpr double kTwoMinus48 = 1.0 / 281474976710656.0;  // 2^-48
inline constexpr double kTwo52 = 4503599627370496.0;          // 2^52

// Σ v[i]·2^(48 i), every v[i] an integer in [0, 2^48).
struct Elem {
  double v[kLimbs];
};

// p in 48-bit limbs and −p^-1 mod 2^48 (ff::FpParams: p, kInv = −p^-1 mod 2^64).
inline constexpr uint64_t kMask48 = (uint64_t(1) << 48) - 1;
inline constexpr uint64_t kP64[6] = {0xb9feffffffffaaab, 0x1eabfffeb153ffff, 0x6730d2a0f6b0f624,
                                     0x64774b84f38512bf, 0x4b1ba7b6434bacd7, 0x1a0111ea397fe69a};
inline constexpr uint64_t kPInv48 = 0x89f3fffcfffcfffdull & kMask48;

// 48-bit limb i of a little-endian array of six 64-bit words.
CUZK_FP48_HD constexpr uint64_t limb48(const uint64_t w[6], int i) {
  const int bit = 48 * i, word = bit / 64, shift = bit % 64;
  uint64_t x = w[word] >> shift;
  if (shift > 16 && word + 1 < 6) x |= w[word + 1] << (64 - shift);
  return x & kMask48;
}

CUZK_FP48_HD Elem from_words(const uint64_t w[6]) {
  Elem e;
  for (int i = 0; i < kLimbs; ++i) e.v[i] = double(limb48(w, i));
  return e;
}

// Back to six 64-bit words (limbs below 2^48 assumed).
CUZK_FP48_HD void to_words(const Elem& e, uint64_t w[6]) {
  for (int k = 0; k < 6; ++k) w[k] = 0;
  for (int i = 0; i < kLimbs; ++i) {
    const uint64_t x = uint64_t(e.v[i]);
    const int bit = 48 * i, word = bit / 64, shift = bit % 64;
    w[word] |= x << shift;
    if (shift > 16 && word + 1 < 6) w[word + 1] |= x >> (64 - shift);
  }
}

// ⌊x·y⌋ for 0 ≤ x·y < 2^52 (see the header).
template <class Ops>
CUZK_FP48_HD double floor_product(double x, double y) {
  return Ops::fma_rz(x, y, kTwo52) - kTwo52;
}

// r = a·b·2^-384 mod p, below 2p for a, b below 2p (r may alias a or b).
template <class Ops>
CUZK_FP48_HD void mont_mul(Elem& r, const Elem& a, const Elem& b) {
  constexpr double kP[kLimbs] = {double(limb48(kP64, 0)), double(limb48(kP64, 1)), double(limb48(kP64, 2)),
                                 double(limb48(kP64, 3)), double(limb48(kP64, 4)), double(limb48(kP64, 5)),
                                 double(limb48(kP64, 6)), double(limb48(kP64, 7))};
  constexpr double kPInv = double(kPInv48);
  double lo[2 * kLimbs], t[2 * kLimbs + 1];
  CUZK_FP48_UNROLL
  for (int k = 0; k < 2 * kLimbs; ++k) lo[k] = 0, t[k] = 0;
  t[2 * kLimbs] = 0;
  // The product: column sums of the low halves (scaled by 2^-48) and of the
  // high halves, each exact.
  CUZK_FP48_UNROLL
  for (int i = 0; i < kLimbs; ++i) {
    const double ai = a.v[i] * kTwoMinus48;
    CUZK_FP48_UNROLL
    for (int j = 0; j < kLimbs; ++j) {
      const double hi = floor_product<Ops>(ai, b.v[j]);
      lo[i + j] += Ops::fma(ai, b.v[j], -hi);
      t[i + j + 1] += hi;
    }
  }
  CUZK_FP48_UNROLL
  for (int k = 0; k < 2 * kLimbs; ++k) t[k] = Ops::fma(lo[k], kTwo48, t[k]);
  // The reduction, word by word.
  CUZK_FP48_UNROLL
  for (int i = 0; i < kLimbs; ++i) {
    const double q = floor_product<Ops>(t[i], kTwoMinus48);
    t[i] = Ops::fma(-q, kTwo48, t[i]);
    t[i + 1] += q;
    const double ti = t[i] * kTwoMinus48;
    const double m = Ops::fma(ti, kPInv, -floor_product<Ops>(ti, kPInv));  // (t_i·p' mod 2^48) / 2^48
    CUZK_FP48_UNROLL
    for (int j = 0; j < kLimbs; ++j) {
      const double hi = floor_product<Ops>(m, kP[j]);
      t[i + j] = Ops::fma(Ops::fma(m, kP[j], -hi), kTwo48, t[i + j]);
      t[i + j + 1] += hi;
    }
    t[i + 1] = Ops::fma(t[i], kTwoMinus48, t[i + 1]);  // t_i is now 0 or 2^48
  }
  // The result, t[8..15], brought to 48-bit limbs.
  CUZK_FP48_UNROLL
  for (int k = kLimbs; k < 2 * kLimbs - 1; ++k) {
    const double q = floor_product<Ops>(t[k], kTwoMinus48);
    t[k] = Ops::fma(-q, kTwo48, t[k]);
    t[k + 1] += q;
  }
  CUZK_FP48_UNROLL
  for (int i = 0; i < kLimbs; ++i) r.v[i] = t[kLimbs + i];
}

#ifdef __CUDACC__
struct DeviceOps {
  __device__ __forceinline__ static double fma_rz(double x, double y, double z) { return __fma_rz(x, y, z); }
  __device__ __forceinline__ static double fma(double x, double y, double z) { return __fma_rn(x, y, z); }
};
#endif

}  // namespace cuzk::ff::fp48
