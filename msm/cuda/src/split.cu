// The device 0/1 split (split.h): classification by warp ballots, the tail by
// CUB's stream compaction over the point indices.
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/reverse_iterator.h>

#include <algorithm>
#include <cstring>

#include <string>

#include "cuzk/gpu/check.h"
#include "cuzk/gpu/nvtx.h"
#include "cuzk/msm/cuda/split.h"

namespace cuzk::msm::cuda {
namespace {

struct Limbs4 {
  uint64_t v[4];
};

__device__ __forceinline__ size_t scalar_of(const uint32_t* index, uint32_t offset, uint32_t j) {
  return index != nullptr ? size_t(index[j]) : size_t(offset) + j;
}

// 0: zero, 1: one, 2: anything else.
__device__ __forceinline__ int class_of(const ff::Fr& s, const Limbs4& one) {
  const uint64_t* w = reinterpret_cast<const uint64_t*>(&s);
  const uint64_t a = w[0], b = w[1], c = w[2], d = w[3];
  if ((a | b | c | d) == 0) return 0;
  if (a == one.v[0] && b == one.v[1] && c == one.v[2] && d == one.v[3]) return 1;
  return 2;
}

// One thread per point; each warp writes one 32-bit half of a bitmap word.
static __global__ void ones_bitmap_kernel(const ff::Fr* scalars, const uint32_t* index, uint32_t offset, uint32_t m,
                                          Limbs4 one, uint32_t* ones_halves) {
  const uint32_t j = blockIdx.x * blockDim.x + threadIdx.x;
  const bool is_one = j < m && class_of(scalars[scalar_of(index, offset, j)], one) == 1;
  const uint32_t bits = __ballot_sync(0xffffffffu, is_one);
  if ((threadIdx.x & 31) == 0 && j < m) ones_halves[j >> 5] = bits;
}

// Selects the points of one class (1: the ones, 2: the tail).
template <int kClass>
struct OfClass {
  const ff::Fr* scalars;
  const uint32_t* index;
  uint32_t offset;
  Limbs4 one;
  __device__ __forceinline__ bool operator()(uint32_t j) const {
    return class_of(scalars[scalar_of(index, offset, j)], one) == kClass;
  }
};
using IsOne = OfClass<1>;
using IsTail = OfClass<2>;

static __global__ void tail_scalars_kernel(const uint32_t* tail_points, const uint32_t* tail_count,
                                           const uint32_t* index, uint32_t offset, uint32_t m,
                                           uint32_t* tail_scalars) {
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= m || t >= *tail_count) return;
  tail_scalars[t] = uint32_t(scalar_of(index, offset, tail_points[t]));
}

// The ones' scalar indices beside their positions, both from the arrays' far
// end (SplitBuffers::ones_count).
static __global__ void ones_scalars_kernel(const uint32_t* points, const uint32_t* ones_count, const uint32_t* index,
                                           uint32_t offset, uint32_t m, uint32_t* scalars) {
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= m || t >= *ones_count) return;
  const uint32_t e = m - 1 - t;
  scalars[e] = uint32_t(scalar_of(index, offset, points[e]));
}

static __global__ void gather_kernel(const ff::Fr* in, const uint32_t* index, size_t m, ff::Fr* out) {
  const size_t j = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (j < m) out[j] = in[index[j]];
}

Limbs4 mont_one() {
  Limbs4 o{};
  const ff::Fr one = ff::Fr::one();
  static_assert(sizeof(ff::Fr) == sizeof(Limbs4));
  std::memcpy(o.v, &one, sizeof o.v);
  return o;
}

size_t select_temp_bytes(size_t m) {
  size_t bytes = 0, ones = 0;
  IsTail pred{nullptr, nullptr, 0, {}};
  thrust::counting_iterator<uint32_t> in(0);
  if (cub::DeviceSelect::If(nullptr, bytes, in, (uint32_t*)nullptr, (uint32_t*)nullptr, int(m), pred) !=
      cudaSuccess)
    return 0;
  thrust::reverse_iterator<uint32_t*> rev(nullptr);
  if (cub::DeviceSelect::If(nullptr, ones, in, rev, (uint32_t*)nullptr, int(m), IsOne{nullptr, nullptr, 0, {}}) !=
      cudaSuccess)
    return 0;
  return std::max(bytes, ones);
}

}  // namespace

size_t classify_workspace_bytes(size_t m) { return std::max<size_t>(select_temp_bytes(std::max<size_t>(m, 1)), 1); }

Status classify(const ff::Fr* d_scalars, const uint32_t* d_index, uint32_t offset, size_t m, const SplitBuffers& out,
                void* d_workspace, size_t* workspace_bytes, cudaStream_t stream) {
  if (m >= (size_t(1) << 31)) return invalid_argument("classify: " + std::to_string(m) + " points (limit 2^31 - 1)");
  if (d_index == nullptr && uint64_t(offset) + m >= (uint64_t(1) << 32))
    return invalid_argument("classify: offset + points exceeds 2^32");
  const size_t need = classify_workspace_bytes(m);
  if (d_workspace == nullptr) {
    if (workspace_bytes == nullptr) return invalid_argument("classify: null workspace and null workspace_bytes");
    *workspace_bytes = need;
    return ok_status();
  }
  if (workspace_bytes != nullptr && *workspace_bytes < need)
    return invalid_argument("classify: workspace of " + std::to_string(*workspace_bytes) + " bytes, need " +
                            std::to_string(need));
  if (out.ones == nullptr || out.tail_points == nullptr || out.tail_scalars == nullptr || out.tail_count == nullptr)
    return invalid_argument("classify: null output buffer");
  CUZK_NVTX_RANGE("msm.cuda.classify");
  const Limbs4 one = mont_one();
  const uint32_t mm = uint32_t(m);
  const size_t words = (m + 63) / 64;
  // The last word's upper half is not written by any warp when m % 64 <= 32.
  if (words > 0)
    RETURN_IF_ERROR(CUZK_CUDA_CHECK(cudaMemsetAsync(out.ones + (words - 1), 0, sizeof(uint64_t), stream)));
  if (m == 0) {
    if (out.ones_count != nullptr)
      RETURN_IF_ERROR(CUZK_CUDA_CHECK(cudaMemsetAsync(out.ones_count, 0, sizeof(uint32_t), stream)));
    return CUZK_CUDA_CHECK(cudaMemsetAsync(out.tail_count, 0, sizeof(uint32_t), stream));
  }
  constexpr unsigned kThreads = 256;
  const unsigned grid = unsigned((m + kThreads - 1) / kThreads);
  ones_bitmap_kernel<<<grid, kThreads, 0, stream>>>(d_scalars, d_index, offset, mm, one,
                                                    reinterpret_cast<uint32_t*>(out.ones));
  RETURN_IF_ERROR(CUZK_CUDA_LAUNCH_CHECK());
  size_t temp = need;
  IsTail pred{d_scalars, d_index, offset, one};
  thrust::counting_iterator<uint32_t> in(0);
  RETURN_IF_ERROR(CUZK_CUDA_CHECK(
      cub::DeviceSelect::If(d_workspace, temp, in, out.tail_points, out.tail_count, int(m), pred, stream)));
  tail_scalars_kernel<<<grid, kThreads, 0, stream>>>(out.tail_points, out.tail_count, d_index, offset, mm,
                                                     out.tail_scalars);
  RETURN_IF_ERROR(CUZK_CUDA_LAUNCH_CHECK());
  if (out.ones_count == nullptr) return ok_status();
  // The ones, listed from the far end: the t-th one (ascending) at m − 1 − t.
  temp = need;
  thrust::reverse_iterator<uint32_t*> rev(out.tail_points + m);
  RETURN_IF_ERROR(CUZK_CUDA_CHECK(cub::DeviceSelect::If(d_workspace, temp, in, rev, out.ones_count, int(m),
                                                        IsOne{d_scalars, d_index, offset, one}, stream)));
  ones_scalars_kernel<<<grid, kThreads, 0, stream>>>(out.tail_points, out.ones_count, d_index, offset, mm,
                                                     out.tail_scalars);
  return CUZK_CUDA_LAUNCH_CHECK();
}

Status gather_scalars(const ff::Fr* d_in, const uint32_t* d_index, size_t m, ff::Fr* d_out, cudaStream_t stream) {
  if (m == 0) return ok_status();
  constexpr unsigned kThreads = 256;
  gather_kernel<<<unsigned((m + kThreads - 1) / kThreads), kThreads, 0, stream>>>(d_in, d_index, m, d_out);
  return CUZK_CUDA_LAUNCH_CHECK();
}

}  // namespace cuzk::msm::cuda
