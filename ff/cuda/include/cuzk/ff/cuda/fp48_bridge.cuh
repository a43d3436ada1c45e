// The FP64-pipe product (ff/fp48.h) for device Fp and Fr values: conversions
// between the 12 × 32-bit Montgomery words and the 8 × 48-bit limbs in
// doubles (the same Montgomery form, R = 2^384: only the slicing differs),
// and the product through them. An experiment (docs/perf.md §5, "Prepared
// without a device"): kernels that are bound by the integer multiply pipe can
// hand some products to the otherwise idle FP64 pipe.
#pragma once

#include "cuzk/ff/cuda/fields.cuh"
#include "cuzk/ff/fp48.h"

namespace cuzk::ff::cuda {

// Limbs 2k and 2k + 1 are words 3k .. 3k + 2: limb 2k is word 3k and the low
// half of word 3k + 1, limb 2k + 1 the high half of word 3k + 1 and word
// 3k + 2. A limb x < 2^48 becomes the double 2^52 + x by writing its bits
// under 2^52's exponent, then 2^52 is taken off (exact).
__device__ __forceinline__ fp48::Elem to_fp48(const Fp& a) {
  fp48::Elem e;
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    const uint32_t w0 = a.w[3 * k], w1 = a.w[3 * k + 1], w2 = a.w[3 * k + 2];
    e.v[2 * k] = __hiloint2double(int(0x43300000u | (w1 & 0xffffu)), int(w0)) - fp48::kTwo52;
    e.v[2 * k + 1] = __hiloint2double(int(0x43300000u | (w2 >> 16)), int(__funnelshift_r(w1, w2, 16))) - fp48::kTwo52;
  }
  return e;
}

// Limbs below 2^48 whose value is below 2p, to words below p.
__device__ __forceinline__ Fp from_fp48(const fp48::Elem& e) {
  uint32_t lo[fp48::kLimbs], hi[fp48::kLimbs];
#pragma unroll
  for (int i = 0; i < fp48::kLimbs; ++i) {
    const double y = e.v[i] + fp48::kTwo52;  // bits: 2^52's exponent, then the limb
    lo[i] = uint32_t(__double2loint(y));
    hi[i] = uint32_t(__double2hiint(y)) & 0xffffu;
  }
  uint32_t t[12];
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    t[3 * k] = lo[2 * k];
    t[3 * k + 1] = hi[2 * k] | (lo[2 * k + 1] << 16);
    t[3 * k + 2] = (lo[2 * k + 1] >> 16) | (hi[2 * k + 1] << 16);
  }
  Fp r;
  uint32_t p[12];
  Fp::modulus(p);
  detail::reduce_once<12>(r.w, t, p);
  return r;
}

// a·b on the FP64 pipe; the same value as a * b (a, b below p).
__device__ __forceinline__ Fp fp48_mul(const Fp& a, const Fp& b) {
  fp48::Elem r;
  fp48::mont_mul<fp48::DeviceOps, fp48::FpShape>(r, to_fp48(a), to_fp48(b));
  return from_fp48(r);
}

// Fr (8 words, R = 2^256) to 6 limbs: as Fp's first six limbs, then limb 4
// from words 6 and 7, limb 5 the top half of word 7 (below 2^16).
__device__ __forceinline__ fp48::FrElem to_fr48(const Fr& a) {
  fp48::FrElem e;
#pragma unroll
  for (int k = 0; k < 3; ++k) {
    const uint32_t w0 = a.w[3 * k], w1 = a.w[3 * k + 1], w2 = k < 2 ? a.w[3 * k + 2] : 0u;
    e.v[2 * k] = __hiloint2double(int(0x43300000u | (w1 & 0xffffu)), int(w0)) - fp48::kTwo52;
    e.v[2 * k + 1] = __hiloint2double(int(0x43300000u | (w2 >> 16)), int(__funnelshift_r(w1, w2, 16))) - fp48::kTwo52;
  }
  return e;
}

// 6 limbs whose value is below 2^256 to Fr's 8 words, unreduced (the NTT's
// passes keep values below 2r).
__device__ __forceinline__ Fr from_fr48(const fp48::FrElem& e) {
  uint32_t lo[fp48::FrShape::kLimbs], hi[fp48::FrShape::kLimbs];
#pragma unroll
  for (int i = 0; i < fp48::FrShape::kLimbs; ++i) {
    const double y = e.v[i] + fp48::kTwo52;
    lo[i] = uint32_t(__double2loint(y));
    hi[i] = uint32_t(__double2hiint(y)) & 0xffffu;
  }
  Fr r;
#pragma unroll
  for (int k = 0; k < 3; ++k) {
    r.w[3 * k] = lo[2 * k];
    r.w[3 * k + 1] = hi[2 * k] | (lo[2 * k + 1] << 16);
    if (k < 2) r.w[3 * k + 2] = (lo[2 * k + 1] >> 16) | (hi[2 * k + 1] << 16);
  }
  return r;
}

// a·b·2^-288 on the FP64 pipe, below 2r for a, b below 2r: ff::cuda::Fr's
// product (a·b·2^-256) when b was taken times 2^32.
__device__ __forceinline__ Fr fr48_mul_x32(const Fr& a, const Fr& b_times_2_32) {
  fp48::FrElem r;
  fp48::mont_mul<fp48::DeviceOps, fp48::FrShape>(r, to_fr48(a), to_fr48(b_times_2_32));
  return from_fr48(r);
}

}  // namespace cuzk::ff::cuda
