// Device matvec (matvec.h): kernels, launchers, and the upload of a circuit.
#include <algorithm>
#include <cstring>
#include <vector>

#include "cuzk/ff/cuda/fields.cuh"
#include "cuzk/gpu/check.h"
#include "cuzk/r1cs/cuda/matvec.h"
#include "cuzk/r1cs/eval.h"

namespace cuzk::r1cs::cuda {
namespace {

using DFr = ff::cuda::Fr;
constexpr unsigned kThreads = 256;
constexpr unsigned kWarp = 32;

struct Outputs {
  DFr *a, *b, *c;
  // Segment k's destination (selects, so that nothing is indexed in local memory).
  __device__ __forceinline__ DFr* at(size_t k) const {
    const size_t m = k % 3;
    return (m == 0 ? a : m == 1 ? b : c) + k / 3;
  }
};

__device__ __forceinline__ DFr term_value(const CircuitView& c, const DFr* w, size_t t) {
  const uint2 tm = __ldg(reinterpret_cast<const uint2*>(c.terms) + t);
  const DFr* coeffs = reinterpret_cast<const DFr*>(c.coeffs);
  return coeffs[tm.y] * w[tm.x];
}

// One thread per segment k = 3·row + matrix; long segments are left to
// long_segments_kernel.
static __global__ void short_segments_kernel(CircuitView c, const DFr* w, Outputs o) {
  const size_t k = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= 3 * c.rows) return;
  const uint32_t s = c.offsets[k], e = c.offsets[k + 1];
  if (e - s > kLongSegmentTerms) return;
  DFr acc = DFr::zero();
  for (uint32_t t = s; t < e; ++t) acc += term_value(c, w, t);
  *o.at(k) = acc;
}

// Σ over a warp's lanes, left in lane 0. 5 rounds of 8 shuffles and an addition.
__device__ __forceinline__ DFr warp_sum(DFr x) {
#pragma unroll
  for (unsigned d = kWarp / 2; d > 0; d /= 2) {
    DFr y;
#pragma unroll
    for (int j = 0; j < DFr::N; ++j) y.w[j] = __shfl_down_sync(0xffffffffu, x.w[j], d);
    x += y;
  }
  return x;
}

// One warp per long segment: lane j sums terms j, j + 32, ...
static __global__ void long_segments_kernel(CircuitView c, const DFr* w, Outputs o) {
  const size_t g = (size_t(blockIdx.x) * blockDim.x + threadIdx.x) / kWarp;
  const unsigned lane = threadIdx.x % kWarp;
  if (g >= c.num_long) return;  // the whole warp leaves together
  const uint32_t k = c.long_segments[g];
  const uint32_t s = c.offsets[k], e = c.offsets[k + 1];
  DFr acc = DFr::zero();
  for (uint32_t t = s + lane; t < e; t += kWarp) acc += term_value(c, w, t);
  acc = warp_sum(acc);
  if (lane == 0) *o.at(k) = acc;
}

static __global__ void first_unsatisfied_kernel(const DFr* a, const DFr* b, const DFr* c, uint64_t rows,
                                                uint32_t* first) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  if (a[i] * b[i] != c[i]) atomicMin(first, uint32_t(i));
}

unsigned blocks_for(size_t threads) { return unsigned((threads + kThreads - 1) / kThreads); }

// The segments with more than kLongSegmentTerms terms, ascending (chunks of
// the offsets scanned in parallel, then joined in order).
std::vector<uint32_t> list_long_segments(const Circuit& c, ThreadPool* pool) {
  const std::span<const uint32_t> off = c.offsets();
  const size_t segments = off.empty() ? 0 : off.size() - 1;
  constexpr size_t kChunk = size_t(1) << 20;
  const size_t chunks = (segments + kChunk - 1) / kChunk;
  std::vector<std::vector<uint32_t>> parts(chunks);
  auto scan = [&](size_t j) {
    for (size_t k = j * kChunk; k < std::min(segments, (j + 1) * kChunk); ++k)
      if (off[k + 1] - off[k] > kLongSegmentTerms) parts[j].push_back(uint32_t(k));
  };
  if (pool != nullptr) {
    pool->parallel_tasks(chunks, scan);
  } else {
    for (size_t j = 0; j < chunks; ++j) scan(j);
  }
  std::vector<uint32_t> out;
  for (auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

}  // namespace

uint64_t DeviceCircuit::device_bytes(const Circuit& c) {
  const uint64_t max_long = c.num_nonzeros() / (kLongSegmentTerms + 1);
  return c.offsets().size_bytes() + c.terms().size_bytes() + c.coeffs().size_bytes() + max_long * 4;
}

StatusOr<DeviceCircuit> DeviceCircuit::upload(const Circuit& c, cudaStream_t stream, ThreadPool* pool) {
  RETURN_IF_ERROR(validate(c, pool));
  if (3 * c.num_constraints() >= (uint64_t(1) << 32))
    return invalid_argument("the device matvec takes fewer than 2^32 / 3 rows; the circuit has " +
                            std::to_string(c.num_constraints()));
  const std::vector<uint32_t> longs = list_long_segments(c, pool);
  DeviceCircuit d;
  ASSIGN_OR_RETURN(d.offsets_, gpu::DeviceBuffer<uint32_t>::allocate(c.offsets().size()));
  ASSIGN_OR_RETURN(d.terms_, gpu::DeviceBuffer<Term>::allocate(c.terms().size()));
  ASSIGN_OR_RETURN(d.coeffs_, gpu::DeviceBuffer<ff::Fr>::allocate(c.coeffs().size()));
  ASSIGN_OR_RETURN(d.long_, gpu::DeviceBuffer<uint32_t>::allocate(longs.size()));
  RETURN_IF_ERROR(d.offsets_.upload(c.offsets().data(), c.offsets().size(), stream));
  RETURN_IF_ERROR(d.terms_.upload(c.terms().data(), c.terms().size(), stream));
  RETURN_IF_ERROR(d.coeffs_.upload(c.coeffs().data(), c.coeffs().size(), stream));
  RETURN_IF_ERROR(d.long_.upload(longs.data(), longs.size(), stream));
  RETURN_IF_ERROR(CUZK_CUDA_CHECK(cudaStreamSynchronize(stream)));  // `longs` is a local
  d.view_.rows = c.num_constraints();
  d.view_.num_vars = c.num_vars();
  d.view_.offsets = d.offsets_.data();
  d.view_.terms = d.terms_.data();
  d.view_.coeffs = d.coeffs_.data();
  d.view_.long_segments = d.long_.data();
  d.view_.num_long = longs.size();
  return d;
}

Status compute_abc(const CircuitView& c, const ff::Fr* d_w, ff::Fr* d_a, ff::Fr* d_b, ff::Fr* d_c,
                   cudaStream_t stream) {
  if (c.rows == 0) return ok_status();
  const Outputs o{reinterpret_cast<DFr*>(d_a), reinterpret_cast<DFr*>(d_b), reinterpret_cast<DFr*>(d_c)};
  const DFr* w = reinterpret_cast<const DFr*>(d_w);
  short_segments_kernel<<<blocks_for(3 * c.rows), kThreads, 0, stream>>>(c, w, o);
  RETURN_IF_ERROR(CUZK_CUDA_LAUNCH_CHECK());
  if (c.num_long == 0) return ok_status();
  long_segments_kernel<<<blocks_for(c.num_long * kWarp), kThreads, 0, stream>>>(c, w, o);
  return CUZK_CUDA_LAUNCH_CHECK();
}

Status first_unsatisfied(const ff::Fr* d_a, const ff::Fr* d_b, const ff::Fr* d_c, uint64_t rows, uint32_t* d_first,
                         cudaStream_t stream) {
  RETURN_IF_ERROR(CUZK_CUDA_CHECK(cudaMemsetAsync(d_first, 0xff, sizeof(uint32_t), stream)));
  if (rows == 0) return ok_status();
  first_unsatisfied_kernel<<<blocks_for(rows), kThreads, 0, stream>>>(reinterpret_cast<const DFr*>(d_a),
                                                                      reinterpret_cast<const DFr*>(d_b),
                                                                      reinterpret_cast<const DFr*>(d_c), rows, d_first);
  return CUZK_CUDA_LAUNCH_CHECK();
}

}  // namespace cuzk::r1cs::cuda
