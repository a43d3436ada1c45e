// The 0/1 split of a witness MSM on the device (docs/design.md, "The job a
// proof does"): the scalars of a query are classified into zeros (dropped),
// ones (summed by batch_add() over a bitmap) and the rest (the "tail", an MSM
// over index lists: MsmConfig::point_index / scalar_index), so that nothing of
// the split runs on the host.
//
// A query of m points takes scalar j from d_scalars[scalar_of(j)], where
// scalar_of(j) = d_index[j] when an index is given (the A and B queries, whose
// points follow the density bitmaps) and offset + j otherwise (the L query,
// whose points are the aux variables). Host API (include from .cc files).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "cuzk/base/status.h"
#include "cuzk/ff/fr.h"

namespace cuzk::msm::cuda {

// Where classify() writes, all device memory sized for m points:
//   ones          ⌈m/64⌉ words: bit j set iff scalar j == 1 (bit j%64 of word j/64)
//   tail_points   up to m entries: the j (ascending) whose scalar is neither 0 nor 1
//   tail_scalars  up to m entries: scalar_of(tail_points[t])
//   tail_count    one entry: the number of tail points
//   ones_count    optional (null: not listed): one entry, the number of ones;
//                 then the ones are also listed in the same two arrays from
//                 their far end, where the tail (at most m − ones entries)
//                 never reaches: the ones' positions j, ascending, at
//                 tail_points[m−1], [m−2], …, and scalar_of(j) beside them in
//                 tail_scalars. ones_list() gives both lists' first entries:
//                 `count` entries on from there, positions descending (an MSM
//                 over them with MsmConfig::scalar_bits = 1 sums the ones).
struct SplitBuffers {
  uint64_t* ones = nullptr;
  uint32_t* tail_points = nullptr;
  uint32_t* tail_scalars = nullptr;
  uint32_t* tail_count = nullptr;
  uint32_t* ones_count = nullptr;
};

struct OnesList {
  const uint32_t* points;
  const uint32_t* scalars;
};
inline OnesList ones_list(const SplitBuffers& b, size_t m, uint32_t count) {
  return {b.tail_points + (m - count), b.tail_scalars + (m - count)};
}

// Bytes of device workspace classify() needs for m points.
size_t classify_workspace_bytes(size_t m);

// Classifies the m scalars of a query on `stream` (Montgomery-form Fr; 0 and
// 1 compared as values). With d_workspace == nullptr stores the workspace size
// in *workspace_bytes and returns OK (CUB style). Cost: one pass over the
// scalars, a stream compaction over m, one pass over the tail; with
// ones_count, a second compaction and a pass over the ones.
// Errors: INVALID_ARGUMENT for m ≥ 2^31, offset + m ≥ 2^32, a null buffer or a
// workspace too small; launch errors.
Status classify(const ff::Fr* d_scalars, const uint32_t* d_index, uint32_t offset, size_t m, const SplitBuffers& out,
                void* d_workspace, size_t* workspace_bytes, cudaStream_t stream);

// d_out[j] = d_in[d_index[j]] for j < m (the A/B queries' scalars in point
// order, or any other gather of Fr values). One pass.
Status gather_scalars(const ff::Fr* d_in, const uint32_t* d_index, size_t m, ff::Fr* d_out, cudaStream_t stream);

}  // namespace cuzk::msm::cuda
