#include "fixed_base.h"

#include "cuzk/ec/cuda/curve_traits.cuh"
#include "cuzk/ff/cuda/fields.cuh"
#include "cuzk/gpu/check.h"

namespace cuzk::groth16::cuda {
namespace {

template <class F>
static __global__ void __launch_bounds__(128) fixed_base_kernel(const ec::cuda::Affine<F>* table,
                                                                const ff::cuda::Fr* scalars, size_t n,
                                                                ec::cuda::Jacobian<F>* out) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const ff::cuda::Fr k = scalars[i].canonical();
  ec::cuda::Xyzz<F> acc = ec::cuda::Xyzz<F>::identity();
#pragma unroll 1
  for (int w = 0; w < kFixedBaseWindows; ++w) {
    const uint32_t d = (k.w[w / 4] >> (8 * (w % 4))) & 0xff;
    if (d != 0) ec::cuda::xyzz_add_affine(acc, table[w * kFixedBaseDigits + int(d) - 1]);
  }
  out[i] = ec::cuda::xyzz_to_jacobian(acc);
}

}  // namespace

template <class C>
Status fixed_base_mul(const ec::Affine<C>* d_table, const ff::Fr* d_scalars, size_t n, ec::Jacobian<C>* d_out,
                      cudaStream_t stream) {
  if (n == 0) return ok_status();
  using F = typename ec::cuda::DeviceCurve<C>::F;
  constexpr unsigned kThreads = 128;
  fixed_base_kernel<F><<<unsigned((n + kThreads - 1) / kThreads), kThreads, 0, stream>>>(
      ec::cuda::dev<C>(d_table), reinterpret_cast<const ff::cuda::Fr*>(d_scalars), n, ec::cuda::dev<C>(d_out));
  return CUZK_CUDA_LAUNCH_CHECK();
}

template Status fixed_base_mul<ec::G1Curve>(const ec::G1Affine*, const ff::Fr*, size_t, ec::G1Jacobian*, cudaStream_t);
template Status fixed_base_mul<ec::G2Curve>(const ec::G2Affine*, const ff::Fr*, size_t, ec::G2Jacobian*, cudaStream_t);

}  // namespace cuzk::groth16::cuda
