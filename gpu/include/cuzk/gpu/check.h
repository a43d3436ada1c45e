// The one checked-call macro for the CUDA runtime. Every CUDA call in cuzk goes
// through CUZK_CUDA_CHECK, which turns a failing cudaError_t into a
// cuzk::Status that records the expression, file and line:
//
//   RETURN_IF_ERROR(CUZK_CUDA_CHECK(cudaMemcpyAsync(...)));
//   RETURN_IF_ERROR(CUZK_CUDA_LAUNCH_CHECK());   // after a kernel launch
//
// Out-of-memory maps to RESOURCE_EXHAUSTED, a missing or unusable device to
// UNAVAILABLE, invalid arguments to INVALID_ARGUMENT, everything else to
// INTERNAL.
#pragma once

#include <cuda_runtime_api.h>

#include "cuzk/base/status.h"

namespace cuzk::gpu {

// OK for cudaSuccess; otherwise a Status naming the error, expression and place.
Status cuda_status(cudaError_t err, const char* expr, const char* file, int line);

// The canonical code a CUDA error maps to: RESOURCE_EXHAUSTED (out of
// memory), UNAVAILABLE (no usable device), else INTERNAL.
StatusCode cuda_error_code(cudaError_t err);

}  // namespace cuzk::gpu

#define CUZK_CUDA_CHECK(expr) ::cuzk::gpu::cuda_status((expr), #expr, __FILE__, __LINE__)
// Checks the launch configuration of the kernel launched just before.
#define CUZK_CUDA_LAUNCH_CHECK() ::cuzk::gpu::cuda_status(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)
