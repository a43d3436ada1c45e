#include "cuzk/ff/cuda/field_ops.h"
#include "cuzk/ff/cuda/fields.cuh"
#include "cuzk/gpu/check.h"

namespace cuzk::ff::cuda {
namespace {

template <class F>
__device__ __forceinline__ F apply(FieldOp op, const F& a, const F& b) {
  switch (op) {
    case FieldOp::kAdd:
      return a + b;
    case FieldOp::kSub:
      return a - b;
    case FieldOp::kMul:
      return a * b;
    case FieldOp::kSqr:
      return a.sqr();
    case FieldOp::kNeg:
      return -a;
    case FieldOp::kInv:
      return a.inverse();
    default:
      return a.dbl();
  }
}

template <class F>
static __global__ void elementwise_kernel(FieldOp op, const F* a, const F* b, F* out, size_t n) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const F x = a[i];
  const F y = b ? b[i] : x;
  out[i] = apply(op, x, y);
}

template <class F>
Status launch_elementwise(FieldOp op, const F* a, const F* b, F* out, size_t n, cudaStream_t stream) {
  if (n == 0) return ok_status();
  constexpr unsigned kThreads = 256;
  const unsigned blocks = unsigned((n + kThreads - 1) / kThreads);
  elementwise_kernel<F><<<blocks, kThreads, 0, stream>>>(op, a, b, out, n);
  return CUZK_CUDA_LAUNCH_CHECK();
}

}  // namespace

static_assert(sizeof(ff::Fr) == sizeof(cuda::Fr) && sizeof(ff::Fp) == sizeof(cuda::Fp) &&
              sizeof(ff::Fp2) == sizeof(cuda::Fp2));

Status fr_elementwise(FieldOp op, const ff::Fr* a, const ff::Fr* b, ff::Fr* out, size_t n, cudaStream_t stream) {
  return launch_elementwise(op, reinterpret_cast<const cuda::Fr*>(a), reinterpret_cast<const cuda::Fr*>(b),
                            reinterpret_cast<cuda::Fr*>(out), n, stream);
}
Status fp_elementwise(FieldOp op, const ff::Fp* a, const ff::Fp* b, ff::Fp* out, size_t n, cudaStream_t stream) {
  return launch_elementwise(op, reinterpret_cast<const cuda::Fp*>(a), reinterpret_cast<const cuda::Fp*>(b),
                            reinterpret_cast<cuda::Fp*>(out), n, stream);
}
Status fp2_elementwise(FieldOp op, const ff::Fp2* a, const ff::Fp2* b, ff::Fp2* out, size_t n,
                       cudaStream_t stream) {
  return launch_elementwise(op, reinterpret_cast<const cuda::Fp2*>(a), reinterpret_cast<const cuda::Fp2*>(b),
                            reinterpret_cast<cuda::Fp2*>(out), n, stream);
}

}  // namespace cuzk::ff::cuda
