// Device point arithmetic on y^2 = x^3 + b (a = 0), templated over the
// coordinate field F (cuda::Fp for G1, cuda::Fp2 for G2). Layouts match
// ec/point.h byte for byte:
//   Affine  {x, y}           infinity: x = y = 0
//   Jacobian{x, y, z}        infinity: z = 0
//   Xyzz    {x, y, zz, zzz}  infinity: zz = 0 (all-zero bytes are infinity)
// The formulas are ec/formulas.h, the one text the host points (ec/point.h)
// use too (EFD names; M = multiplication, S = squaring); every function
// handles infinity, P + P and P + (−P). The curve constant b is never needed
// by these formulas.
#pragma once

#include "cuzk/ec/formulas.h"
#include "cuzk/ff/cuda/fields.cuh"

namespace cuzk::ec::cuda {

template <class F>
struct Affine {
  F x, y;
  __device__ __forceinline__ bool is_infinity() const { return x.is_zero() && y.is_zero(); }
  __device__ __forceinline__ static Affine identity() { return {F::zero(), F::zero()}; }
  __device__ __forceinline__ Affine neg_if(bool flag) const { return {x, y.cneg(flag)}; }
};

template <class F>
struct Jacobian {
  F x, y, z;
  __device__ __forceinline__ bool is_infinity() const { return z.is_zero(); }
  __device__ __forceinline__ static Jacobian identity() { return {F::one(), F::one(), F::zero()}; }
};

template <class F>
struct Xyzz {
  F x, y, zz, zzz;
  __device__ __forceinline__ bool is_infinity() const { return zz.is_zero(); }
  __device__ __forceinline__ static Xyzz identity() { return {F::zero(), F::zero(), F::zero(), F::zero()}; }
  __device__ __forceinline__ static Xyzz from_affine(const Affine<F>& a) {
    return a.is_infinity() ? identity() : Xyzz{a.x, a.y, F::one(), F::one()};
  }
  __device__ __forceinline__ Xyzz neg() const { return {x, -y, zz, zzz}; }
};

// mdbl-2008-s-1: 2·a for affine a. 4M + 3S.
template <class F>
__device__ __forceinline__ Xyzz<F> xyzz_dbl_affine(const Affine<F>& a) {
  return formulas::xyzz_dbl_affine<Xyzz<F>>(a);
}

// dbl-2008-s-1: 6M + 3S.
template <class F>
__device__ __forceinline__ Xyzz<F> xyzz_dbl(const Xyzz<F>& p) {
  return formulas::xyzz_dbl(p);
}

// madd-2008-s: p += q (q affine). 8M + 2S.
template <class F>
__device__ __forceinline__ void xyzz_add_affine(Xyzz<F>& p, const Affine<F>& q) {
  formulas::xyzz_add_affine(p, q);
}

// add-2008-s: a + b. 12M + 2S.
template <class F>
__device__ __forceinline__ Xyzz<F> xyzz_add(const Xyzz<F>& a, const Xyzz<F>& b) {
  return formulas::xyzz_add(a, b);
}

// (X, Y, ZZ, ZZZ) -> (X·ZZ, Y·ZZZ, ZZ). 2M.
template <class F>
__device__ __forceinline__ Jacobian<F> xyzz_to_jacobian(const Xyzz<F>& p) {
  if (p.is_infinity()) return Jacobian<F>::identity();
  return {p.x * p.zz, p.y * p.zzz, p.zz};
}

// (X, Y, Z) -> (X, Y, Z^2, Z^3). 1M + 1S.
template <class F>
__device__ __forceinline__ Xyzz<F> jacobian_to_xyzz(const Jacobian<F>& p) {
  if (p.is_infinity()) return Xyzz<F>::identity();
  F z2 = p.z.sqr();
  return {p.x, p.y, z2, z2 * p.z};
}

// dbl-2009-l: 2M + 5S.
template <class F>
__device__ __forceinline__ Jacobian<F> jacobian_dbl(const Jacobian<F>& p) {
  return formulas::jacobian_dbl(p);
}

// add-2007-bl: 11M + 5S.
template <class F>
__device__ __forceinline__ Jacobian<F> jacobian_add(const Jacobian<F>& p, const Jacobian<F>& q) {
  return formulas::jacobian_add(p, q);
}

// madd-2007-bl: 7M + 4S.
template <class F>
__device__ __forceinline__ Jacobian<F> jacobian_add_affine(const Jacobian<F>& p, const Affine<F>& q) {
  return formulas::jacobian_add_affine(p, q);
}

// k·p for a small unsigned k (double and add, MSB first): bits(k) doublings
// and popcount(k) additions.
template <class F>
__device__ Xyzz<F> xyzz_mul_small(const Xyzz<F>& p, uint64_t k) {
  Xyzz<F> r = Xyzz<F>::identity();
  if (k == 0) return r;
  for (int i = 63 - __clzll((long long)k); i >= 0; --i) {
    r = xyzz_dbl(r);
    if ((k >> i) & 1) r = xyzz_add(r, p);
  }
  return r;
}

}  // namespace cuzk::ec::cuda
