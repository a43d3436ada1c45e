// Gathers of curve points by index, for the tails of the 0/1 split when the
// key's points stay in host memory: the kernel reads mapped pinned host
// memory over PCIe (zero-copy), so only the tail's points cross the bus.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "cuzk/base/status.h"

namespace cuzk::groth16::cuda {

// dst[t] = src[index[t]] for t < count, each element point_bytes long (a
// multiple of 16). src: device memory or mapped pinned host memory (its
// device address); dst: device memory.
Status gather_points(const void* src, size_t point_bytes, const uint32_t* index, size_t count, void* dst,
                     cudaStream_t stream);

}  // namespace cuzk::groth16::cuda
