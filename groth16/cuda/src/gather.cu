#include "gather.h"

#include <string>

#include "cuzk/gpu/check.h"

namespace cuzk::groth16::cuda {
namespace {

// One thread per 16-byte piece: the pieces of one point are adjacent threads,
// so each point is read as one contiguous run.
static __global__ void gather_kernel(const uint4* src, uint32_t pieces, const uint32_t* index, size_t count,
                                     uint4* dst) {
  const size_t k = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= count * pieces) return;
  const size_t t = k / pieces, piece = k % pieces;
  dst[k] = src[size_t(index[t]) * pieces + piece];
}

}  // namespace

Status gather_points(const void* src, size_t point_bytes, const uint32_t* index, size_t count, void* dst,
                     cudaStream_t stream) {
  if (point_bytes == 0 || point_bytes % 16 != 0)
    return invalid_argument("gather_points: point size " + std::to_string(point_bytes) + " is not a multiple of 16");
  if (count == 0) return ok_status();
  const uint32_t pieces = uint32_t(point_bytes / 16);
  constexpr unsigned kThreads = 256;
  const size_t threads = count * pieces;
  gather_kernel<<<unsigned((threads + kThreads - 1) / kThreads), kThreads, 0, stream>>>(
      static_cast<const uint4*>(src), pieces, index, count, static_cast<uint4*>(dst));
  return CUZK_CUDA_LAUNCH_CHECK();
}

}  // namespace cuzk::groth16::cuda
