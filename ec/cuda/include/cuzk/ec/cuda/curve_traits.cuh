// Maps a host curve-parameter struct (ec/params.h) to its device coordinate
// field and point types, and host point pointers to device ones (same bytes).
#pragma once

#include "cuzk/ec/curves.h"
#include "cuzk/ec/cuda/point.cuh"

namespace cuzk::ec::cuda {

template <class C>
struct DeviceCurve;
template <>
struct DeviceCurve<G1Curve> {
  using F = ff::cuda::Fp;
};
template <>
struct DeviceCurve<G2Curve> {
  using F = ff::cuda::Fp2;
};

template <class C>
using DAffine = Affine<typename DeviceCurve<C>::F>;
template <class C>
using DJacobian = Jacobian<typename DeviceCurve<C>::F>;
template <class C>
using DXyzz = Xyzz<typename DeviceCurve<C>::F>;

static_assert(sizeof(DAffine<G1Curve>) == sizeof(G1Affine) && sizeof(DAffine<G2Curve>) == sizeof(G2Affine));
static_assert(sizeof(DJacobian<G1Curve>) == sizeof(G1Jacobian) && sizeof(DXyzz<G1Curve>) == sizeof(G1Xyzz));
static_assert(sizeof(DJacobian<G2Curve>) == sizeof(G2Jacobian) && sizeof(DXyzz<G2Curve>) == sizeof(G2Xyzz));

template <class C>
DAffine<C>* dev(::cuzk::ec::Affine<C>* p) {
  return reinterpret_cast<DAffine<C>*>(p);
}
template <class C>
const DAffine<C>* dev(const ::cuzk::ec::Affine<C>* p) {
  return reinterpret_cast<const DAffine<C>*>(p);
}
template <class C>
DJacobian<C>* dev(::cuzk::ec::Jacobian<C>* p) {
  return reinterpret_cast<DJacobian<C>*>(p);
}
template <class C>
const DJacobian<C>* dev(const ::cuzk::ec::Jacobian<C>* p) {
  return reinterpret_cast<const DJacobian<C>*>(p);
}
// Host value -> device value of the same bytes (for kernel arguments).
template <class C>
DAffine<C> dev_value(const ::cuzk::ec::Affine<C>& a) {
  DAffine<C> d;
  static_assert(sizeof(d) == sizeof(a));
  __builtin_memcpy(&d, &a, sizeof(a));
  return d;
}

}  // namespace cuzk::ec::cuda
