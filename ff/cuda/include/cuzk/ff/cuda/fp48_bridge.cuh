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

__device__ __forceinline__ fp48::Elem to_fp48(const Fp& a) { return fp48::from_words32<fp48::FpShape>(a.w); }

// Limbs whose value is below 2p, to words below p.
__device__ __forceinline__ Fp from_fp48(const fp48::Elem& e) {
  uint32_t t[12];
  fp48::to_words32<fp48::FpShape>(e, t);
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

// Fr's 8 words (R = 2^256) in 6 limbs, and back unreduced (the NTT's passes
// keep values below 2r < 2^256).
__device__ __forceinline__ fp48::FrElem to_fr48(const Fr& a) { return fp48::from_words32<fp48::FrShape>(a.w); }
__device__ __forceinline__ Fr from_fr48(const fp48::FrElem& e) {
  Fr r;
  fp48::to_words32<fp48::FrShape>(e, r.w);
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
