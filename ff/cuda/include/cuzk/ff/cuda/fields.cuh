// Device Fp (12 × 32-bit words), Fr (8 × 32-bit words) and Fp2 = Fp[u]/(u^2+1),
// with the byte layout of ff::Fp, ff::Fr and ff::Fp2 on the host.
#pragma once

#include "cuzk/ff/cuda/mont.cuh"
#include "cuzk/ff/params.h"

namespace cuzk::ff::cuda {

using Fp = Mont<FpParams>;
using Fr = Mont<FrParams>;
static_assert(sizeof(Fp) == 48 && sizeof(Fr) == 32);

struct Fp2 {
  Fp c0, c1;

  __device__ __forceinline__ static Fp2 zero() { return {Fp::zero(), Fp::zero()}; }
  __device__ __forceinline__ static Fp2 one() { return {Fp::one(), Fp::zero()}; }
  __device__ __forceinline__ bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  __device__ __forceinline__ bool operator==(const Fp2& o) const { return c0 == o.c0 && c1 == o.c1; }
  __device__ __forceinline__ bool operator!=(const Fp2& o) const { return !(*this == o); }

  __device__ __forceinline__ friend Fp2 operator+(const Fp2& a, const Fp2& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
  __device__ __forceinline__ friend Fp2 operator-(const Fp2& a, const Fp2& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
  __device__ __forceinline__ Fp2 operator-() const { return {-c0, -c1}; }
  // Karatsuba: 3M.
  __device__ __forceinline__ friend Fp2 operator*(const Fp2& a, const Fp2& b) {
    Fp t0 = a.c0 * b.c0;
    Fp t1 = a.c1 * b.c1;
    Fp t2 = (a.c0 + a.c1) * (b.c0 + b.c1);
    return {t0 - t1, t2 - t0 - t1};
  }
  __device__ __forceinline__ Fp2& operator+=(const Fp2& b) { return *this = *this + b; }
  __device__ __forceinline__ Fp2& operator-=(const Fp2& b) { return *this = *this - b; }
  __device__ __forceinline__ Fp2& operator*=(const Fp2& b) { return *this = *this * b; }
  __device__ __forceinline__ Fp2 dbl() const { return {c0.dbl(), c1.dbl()}; }
  // (c0 + c1)(c0 − c1) + 2·c0·c1·u: 2M.
  __device__ __forceinline__ Fp2 sqr() const {
    Fp t = c0 * c1;
    return {(c0 + c1) * (c0 - c1), t.dbl()};
  }
  // Norm c0^2 + c1^2 in Fp (zero only for zero: −1 is not a square mod p).
  __device__ __forceinline__ Fp norm() const { return c0.sqr() + c1.sqr(); }
  // conj(this)·norm_inv: the inverse, given norm_inv = 1/norm(). 2M.
  __device__ __forceinline__ Fp2 inverse_from_norm(const Fp& norm_inv) const {
    return {c0 * norm_inv, -(c1 * norm_inv)};
  }
  // Inverse via the norm; the inverse of zero is zero.
  __device__ Fp2 inverse() const { return inverse_from_norm(norm().inverse()); }
  __device__ __forceinline__ Fp2 cneg(bool flag) const { return flag ? -*this : *this; }
};
static_assert(sizeof(Fp2) == 96);

}  // namespace cuzk::ff::cuda
