// Host API of the device point kernels (include from .cc files): a suite of
// point operations over arrays (the device side of the CPU cross-check) and
// a generator of many distinct points for tests and benchmarks.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "cuzk/base/status.h"
#include "cuzk/ec/curves.h"

namespace cuzk::ec::cuda {

// For i < n, with all results in Jacobian form (device pointers; out holds 6n):
//   out[0n+i] = a[i] + c[i]  (XYZZ madd-2008-s)     out[3n+i] = a[i] + b[i]  (Jacobian add-2007-bl)
//   out[1n+i] = a[i] + b[i]  (XYZZ add-2008-s)      out[4n+i] = a[i] + c[i]  (Jacobian madd-2007-bl)
//   out[2n+i] = 2·a[i]       (XYZZ dbl-2008-s-1)    out[5n+i] = 2·a[i]       (Jacobian dbl-2009-l)
template <class C>
Status point_op_suite(const ::cuzk::ec::Jacobian<C>* a, const ::cuzk::ec::Jacobian<C>* b,
                      const ::cuzk::ec::Affine<C>* c, ::cuzk::ec::Jacobian<C>* out, size_t n, cudaStream_t stream);

// out[i] = start + i·step in affine form, i < n (device pointer out).
// `scratch` must hold n XYZZ points (device); pass null to get its size in
// *scratch_bytes and return. Work: one madd per point plus a batch inversion
// per 256 points (about 20 field multiplications per point).
// REQUIRES: start + i·step is never the point at infinity for i < n (true
// with overwhelming probability for random start and step).
template <class C>
Status fill_progression(::cuzk::ec::Affine<C>* out, size_t n, const ::cuzk::ec::Affine<C>& start,
                        const ::cuzk::ec::Affine<C>& step, void* scratch, size_t* scratch_bytes, cudaStream_t stream);

extern template Status point_op_suite<G1Curve>(const G1Jacobian*, const G1Jacobian*, const G1Affine*, G1Jacobian*,
                                               size_t, cudaStream_t);
extern template Status point_op_suite<G2Curve>(const G2Jacobian*, const G2Jacobian*, const G2Affine*, G2Jacobian*,
                                               size_t, cudaStream_t);
extern template Status fill_progression<G1Curve>(G1Affine*, size_t, const G1Affine&, const G1Affine&, void*,
                                                 size_t*, cudaStream_t);
extern template Status fill_progression<G2Curve>(G2Affine*, size_t, const G2Affine&, const G2Affine&, void*,
                                                 size_t*, cudaStream_t);

}  // namespace cuzk::ec::cuda
