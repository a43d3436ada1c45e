// Device point arithmetic on y^2 = x^3 + b (a = 0), templated over the
// coordinate field F (cuda::Fp for G1, cuda::Fp2 for G2). Layouts match
// ec/point.h byte for byte:
//   Affine  {x, y}           infinity: x = y = 0
//   Jacobian{x, y, z}        infinity: z = 0
//   Xyzz    {x, y, zz, zzz}  infinity: zz = 0 (all-zero bytes are infinity)
// Formulas are those of ec/point.h (EFD names; M = multiplication,
// S = squaring); every function handles infinity, P + P and P + (−P).
// The curve constant b is never needed by these formulas.
#pragma once

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
  if (a.is_infinity()) return Xyzz<F>::identity();
  F u = a.y.dbl();
  F v = u.sqr();
  F w = u * v;
  F s = a.x * v;
  F xx = a.x.sqr();
  F m = xx.dbl() + xx;
  Xyzz<F> r;
  r.x = m.sqr() - s.dbl();
  r.y = m * (s - r.x) - w * a.y;
  r.zz = v;
  r.zzz = w;
  return r;
}

// dbl-2008-s-1: 6M + 3S.
template <class F>
__device__ __forceinline__ Xyzz<F> xyzz_dbl(const Xyzz<F>& p) {
  if (p.is_infinity()) return p;
  F u = p.y.dbl();
  F v = u.sqr();
  F w = u * v;
  F s = p.x * v;
  F xx = p.x.sqr();
  F m = xx.dbl() + xx;
  Xyzz<F> r;
  r.x = m.sqr() - s.dbl();
  r.y = m * (s - r.x) - w * p.y;
  r.zz = v * p.zz;
  r.zzz = w * p.zzz;
  return r;
}

// madd-2008-s: p += q (q affine). 8M + 2S.
template <class F>
__device__ __forceinline__ void xyzz_add_affine(Xyzz<F>& p, const Affine<F>& q) {
  if (q.is_infinity()) return;
  if (p.is_infinity()) {
    p = Xyzz<F>::from_affine(q);
    return;
  }
  F u2 = q.x * p.zz;
  F s2 = q.y * p.zzz;
  F pp_ = u2 - p.x;
  F r = s2 - p.y;
  if (pp_.is_zero()) {
    p = r.is_zero() ? xyzz_dbl_affine(q) : Xyzz<F>::identity();
    return;
  }
  F pp = pp_.sqr();
  F ppp = pp_ * pp;
  F qq = p.x * pp;
  F x3 = r.sqr() - ppp - qq.dbl();
  p.y = r * (qq - x3) - p.y * ppp;
  p.x = x3;
  p.zz = p.zz * pp;
  p.zzz = p.zzz * ppp;
}

// add-2008-s: a + b. 12M + 2S.
template <class F>
__device__ __forceinline__ Xyzz<F> xyzz_add(const Xyzz<F>& a, const Xyzz<F>& b) {
  if (a.is_infinity()) return b;
  if (b.is_infinity()) return a;
  F u1 = a.x * b.zz;
  F u2 = b.x * a.zz;
  F s1 = a.y * b.zzz;
  F s2 = b.y * a.zzz;
  F p = u2 - u1;
  F r = s2 - s1;
  if (p.is_zero()) return r.is_zero() ? xyzz_dbl(a) : Xyzz<F>::identity();
  F pp = p.sqr();
  F ppp = p * pp;
  F qq = u1 * pp;
  Xyzz<F> out;
  out.x = r.sqr() - ppp - qq.dbl();
  out.y = r * (qq - out.x) - s1 * ppp;
  out.zz = a.zz * b.zz * pp;
  out.zzz = a.zzz * b.zzz * ppp;
  return out;
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
  if (p.is_infinity()) return p;
  F a = p.x.sqr();
  F b = p.y.sqr();
  F c = b.sqr();
  F d = ((p.x + b).sqr() - a - c).dbl();
  F e = a.dbl() + a;
  F f = e.sqr();
  Jacobian<F> r;
  r.x = f - d.dbl();
  r.y = e * (d - r.x) - c.dbl().dbl().dbl();
  r.z = (p.y * p.z).dbl();
  return r;
}

// add-2007-bl: 11M + 5S.
template <class F>
__device__ __forceinline__ Jacobian<F> jacobian_add(const Jacobian<F>& p, const Jacobian<F>& q) {
  if (p.is_infinity()) return q;
  if (q.is_infinity()) return p;
  F z1z1 = p.z.sqr();
  F z2z2 = q.z.sqr();
  F u1 = p.x * z2z2;
  F u2 = q.x * z1z1;
  F s1 = p.y * q.z * z2z2;
  F s2 = q.y * p.z * z1z1;
  F h = u2 - u1;
  F rr = (s2 - s1).dbl();
  if (h.is_zero()) return rr.is_zero() ? jacobian_dbl(p) : Jacobian<F>::identity();
  F i = h.dbl().sqr();
  F j = h * i;
  F v = u1 * i;
  Jacobian<F> r;
  r.x = rr.sqr() - j - v.dbl();
  r.y = rr * (v - r.x) - (s1 * j).dbl();
  r.z = ((p.z + q.z).sqr() - z1z1 - z2z2) * h;
  return r;
}

// madd-2007-bl: 7M + 4S.
template <class F>
__device__ __forceinline__ Jacobian<F> jacobian_add_affine(const Jacobian<F>& p, const Affine<F>& q) {
  if (q.is_infinity()) return p;
  if (p.is_infinity()) return {q.x, q.y, F::one()};
  F z1z1 = p.z.sqr();
  F u2 = q.x * z1z1;
  F s2 = q.y * p.z * z1z1;
  F h = u2 - p.x;
  F rr = (s2 - p.y).dbl();
  if (h.is_zero()) return rr.is_zero() ? jacobian_dbl(p) : Jacobian<F>::identity();
  F hh = h.sqr();
  F i = hh.dbl().dbl();
  F j = h * i;
  F v = p.x * i;
  Jacobian<F> r;
  r.x = rr.sqr() - j - v.dbl();
  r.y = rr * (v - r.x) - (p.y * j).dbl();
  r.z = (p.z + h).sqr() - z1z1 - hh;
  return r;
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
