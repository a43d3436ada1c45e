#include "rows.h"

#include "cuzk/ff/cuda/fields.cuh"
#include "cuzk/gpu/check.h"

namespace cuzk::groth16::cuda {
namespace {

using DFr = ff::cuda::Fr;

static __global__ void finish_rows_kernel(DFr* a, DFr* b, DFr* c, uint64_t m, uint64_t n, const DFr* w,
                                          uint64_t input_rows, bool c_is_ab) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (i < m) {
    if (c_is_ab) c[i] = a[i] * b[i];
    return;
  }
  a[i] = i - m < input_rows ? w[i - m] : DFr::zero();
  b[i] = DFr::zero();
  c[i] = DFr::zero();
}

}  // namespace

Status finish_rows(ff::Fr* d_a, ff::Fr* d_b, ff::Fr* d_c, uint64_t m, uint64_t n, const ff::Fr* d_w,
                   uint64_t input_rows, bool c_is_ab, cudaStream_t stream) {
  if (m > n || input_rows > n - m)
    return invalid_argument("finish_rows: " + std::to_string(m) + " rows and " + std::to_string(input_rows) +
                            " input rows do not fit a domain of " + std::to_string(n));
  const uint64_t first = c_is_ab ? 0 : m;  // rows below m need no work without the product rule
  if (n == first) return ok_status();
  constexpr unsigned kThreads = 256;
  const uint64_t count = n - first;
  // Threads start at `first`: offset the pointers rather than the index.
  finish_rows_kernel<<<unsigned((count + kThreads - 1) / kThreads), kThreads, 0, stream>>>(
      reinterpret_cast<DFr*>(d_a) + first, reinterpret_cast<DFr*>(d_b) + first, reinterpret_cast<DFr*>(d_c) + first,
      m - first, count, reinterpret_cast<const DFr*>(d_w), input_rows, c_is_ab);
  return CUZK_CUDA_LAUNCH_CHECK();
}

}  // namespace cuzk::groth16::cuda
