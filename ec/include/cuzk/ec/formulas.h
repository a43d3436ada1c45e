// The curve formulas of y^2 = x^3 + b (a = 0), written once for the host
// (ec/point.h, over ff::Fp and ff::Fp2) and the device
// (ec/cuda/point.cuh, over ff::cuda::Fp and ff::cuda::Fp2), as templates over
// the point types. A field F provides +, −, *, unary −, dbl(), sqr() and
// is_zero(); a point type provides identity() (and Xyzz from_affine()).
// Names are the Explicit-Formulas Database's; costs count field
// multiplications M and squarings S. Every formula handles infinity operands,
// P + P and P + (−P). Nothing here is constant time.
#pragma once

#if defined(__CUDACC__)
#define CUZK_EC_FN __host__ __device__ __forceinline__
// The templates are instantiated for host-only fields from host code and for
// device fields from device code; either instantiation is fine.
#define CUZK_EC_EXEC_CHECK _Pragma("nv_exec_check_disable")
#else
#define CUZK_EC_FN inline
#define CUZK_EC_EXEC_CHECK
#endif

namespace cuzk::ec::formulas {

// mdbl-2008-s-1: 2·a for an affine a, in XYZZ. 4M + 3S.
CUZK_EC_EXEC_CHECK
template <class X, class A>
CUZK_EC_FN X xyzz_dbl_affine(const A& a) {
  if (a.is_infinity()) return X::identity();
  auto u = a.y.dbl();
  auto v = u.sqr();
  auto w = u * v;
  auto s = a.x * v;
  auto xx = a.x.sqr();
  auto m = xx.dbl() + xx;
  X r;
  r.x = m.sqr() - s.dbl();
  r.y = m * (s - r.x) - w * a.y;
  r.zz = v;
  r.zzz = w;
  return r;
}

// dbl-2008-s-1: 6M + 3S.
CUZK_EC_EXEC_CHECK
template <class X>
CUZK_EC_FN X xyzz_dbl(const X& p) {
  if (p.is_infinity()) return p;
  auto u = p.y.dbl();
  auto v = u.sqr();
  auto w = u * v;
  auto s = p.x * v;
  auto xx = p.x.sqr();
  auto m = xx.dbl() + xx;
  X r;
  r.x = m.sqr() - s.dbl();
  r.y = m * (s - r.x) - w * p.y;
  r.zz = v * p.zz;
  r.zzz = w * p.zzz;
  return r;
}

// madd-2008-s: p += q for an affine q. 8M + 2S.
CUZK_EC_EXEC_CHECK
template <class X, class A>
CUZK_EC_FN void xyzz_add_affine(X& p, const A& q) {
  if (q.is_infinity()) return;
  if (p.is_infinity()) {
    p = X::from_affine(q);
    return;
  }
  auto u2 = q.x * p.zz;
  auto s2 = q.y * p.zzz;
  auto h = u2 - p.x;
  auto r = s2 - p.y;
  if (h.is_zero()) {
    p = r.is_zero() ? xyzz_dbl_affine<X>(q) : X::identity();
    return;
  }
  auto pp = h.sqr();
  auto ppp = h * pp;
  auto qq = p.x * pp;
  auto x3 = r.sqr() - ppp - qq.dbl();
  p.y = r * (qq - x3) - p.y * ppp;
  p.x = x3;
  p.zz = p.zz * pp;
  p.zzz = p.zzz * ppp;
}

// add-2008-s: a + b. 12M + 2S.
CUZK_EC_EXEC_CHECK
template <class X>
CUZK_EC_FN X xyzz_add(const X& a, const X& b) {
  if (a.is_infinity()) return b;
  if (b.is_infinity()) return a;
  auto u1 = a.x * b.zz;
  auto u2 = b.x * a.zz;
  auto s1 = a.y * b.zzz;
  auto s2 = b.y * a.zzz;
  auto p = u2 - u1;
  auto r = s2 - s1;
  if (p.is_zero()) return r.is_zero() ? xyzz_dbl(a) : X::identity();
  auto pp = p.sqr();
  auto ppp = p * pp;
  auto qq = u1 * pp;
  X out;
  out.x = r.sqr() - ppp - qq.dbl();
  out.y = r * (qq - out.x) - s1 * ppp;
  out.zz = a.zz * b.zz * pp;
  out.zzz = a.zzz * b.zzz * ppp;
  return out;
}

// dbl-2009-l: 2M + 5S.
CUZK_EC_EXEC_CHECK
template <class J>
CUZK_EC_FN J jacobian_dbl(const J& p) {
  if (p.is_infinity()) return p;
  auto a = p.x.sqr();
  auto b = p.y.sqr();
  auto c = b.sqr();
  auto d = ((p.x + b).sqr() - a - c).dbl();
  auto e = a.dbl() + a;
  auto f = e.sqr();
  J r;
  r.x = f - d.dbl();
  r.y = e * (d - r.x) - c.dbl().dbl().dbl();
  r.z = (p.y * p.z).dbl();
  return r;
}

// add-2007-bl: 11M + 5S.
CUZK_EC_EXEC_CHECK
template <class J>
CUZK_EC_FN J jacobian_add(const J& p, const J& q) {
  if (p.is_infinity()) return q;
  if (q.is_infinity()) return p;
  auto z1z1 = p.z.sqr();
  auto z2z2 = q.z.sqr();
  auto u1 = p.x * z2z2;
  auto u2 = q.x * z1z1;
  auto s1 = p.y * q.z * z2z2;
  auto s2 = q.y * p.z * z1z1;
  auto h = u2 - u1;
  auto rr = (s2 - s1).dbl();
  if (h.is_zero()) return rr.is_zero() ? jacobian_dbl(p) : J::identity();
  auto i = h.dbl().sqr();
  auto j = h * i;
  auto v = u1 * i;
  J r;
  r.x = rr.sqr() - j - v.dbl();
  r.y = rr * (v - r.x) - (s1 * j).dbl();
  r.z = ((p.z + q.z).sqr() - z1z1 - z2z2) * h;
  return r;
}

// madd-2007-bl (second operand affine, Z2 = 1): 7M + 4S.
CUZK_EC_EXEC_CHECK
template <class J, class A>
CUZK_EC_FN J jacobian_add_affine(const J& p, const A& q) {
  if (q.is_infinity()) return p;
  if (p.is_infinity()) return J{q.x, q.y, decltype(q.x)::one()};
  auto z1z1 = p.z.sqr();
  auto u2 = q.x * z1z1;
  auto s2 = q.y * p.z * z1z1;
  auto h = u2 - p.x;
  auto rr = (s2 - p.y).dbl();
  if (h.is_zero()) return rr.is_zero() ? jacobian_dbl(p) : J::identity();
  auto hh = h.sqr();
  auto i = hh.dbl().dbl();
  auto j = h * i;
  auto v = p.x * i;
  J r;
  r.x = rr.sqr() - j - v.dbl();
  r.y = rr * (v - r.x) - (p.y * j).dbl();
  r.z = (p.z + h).sqr() - z1z1 - hh;
  return r;
}

}  // namespace cuzk::ec::formulas
