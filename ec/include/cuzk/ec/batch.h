// Batch conversions to affine form with one field inversion (Montgomery's trick).
#pragma once

#include <cassert>
#include <span>
#include <vector>

#include "cuzk/ec/point.h"

namespace cuzk::ec {

namespace detail {

// Replaces every non-zero element by its inverse, zeros stay zero:
// 1 inversion + 3(n − 1)M, n the number of non-zero elements.
template <class F>
void batch_invert(std::span<F> xs) {
  std::vector<F> prefix(xs.size());
  F acc = F::one();
  for (size_t i = 0; i < xs.size(); ++i) {
    prefix[i] = acc;
    if (!xs[i].is_zero()) acc *= xs[i];
  }
  F inv = acc.inverse();
  for (size_t i = xs.size(); i-- > 0;) {
    if (xs[i].is_zero()) continue;
    F t = inv * prefix[i];
    inv *= xs[i];
    xs[i] = t;
  }
}

}  // namespace detail

// out[i] = in[i].to_affine() for every i, with one inversion in all:
// 1I + 3(n − 1)M + (3M + 1S) per point. Points at infinity become
// Affine::identity(). REQUIRES: out.size() == in.size(); out may not alias in.
template <class C>
void batch_normalize(std::span<const Jacobian<C>> in, std::span<Affine<C>> out) {
  assert(in.size() == out.size());
  using F = typename C::Field;
  std::vector<F> zinv(in.size());
  for (size_t i = 0; i < in.size(); ++i) zinv[i] = in[i].z;
  detail::batch_invert(std::span<F>(zinv));
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i].is_infinity()) {
      out[i] = Affine<C>::identity();
      continue;
    }
    F zi2 = zinv[i].square();
    out[i] = Affine<C>{in[i].x * zi2, in[i].y * zi2 * zinv[i]};
  }
}

// The same for XYZZ points: invert ZZZ, then 1/ZZ = (ZZ/ZZZ)^2.
// Cost: 1I + 3(n − 1)M + (3M + 1S) per point.
template <class C>
void batch_normalize(std::span<const Xyzz<C>> in, std::span<Affine<C>> out) {
  assert(in.size() == out.size());
  using F = typename C::Field;
  std::vector<F> inv(in.size());
  for (size_t i = 0; i < in.size(); ++i) inv[i] = in[i].zzz;
  detail::batch_invert(std::span<F>(inv));
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i].is_infinity()) {
      out[i] = Affine<C>::identity();
      continue;
    }
    F izz = (in[i].zz * inv[i]).square();
    out[i] = Affine<C>{in[i].x * izz, in[i].y * inv[i]};
  }
}

// Convenience forms returning a new vector.
template <class C>
std::vector<Affine<C>> batch_normalize(std::span<const Jacobian<C>> in) {
  std::vector<Affine<C>> out(in.size());
  batch_normalize<C>(in, std::span<Affine<C>>(out));
  return out;
}
template <class C>
std::vector<Affine<C>> batch_normalize(std::span<const Xyzz<C>> in) {
  std::vector<Affine<C>> out(in.size());
  batch_normalize<C>(in, std::span<Affine<C>>(out));
  return out;
}

}  // namespace cuzk::ec
