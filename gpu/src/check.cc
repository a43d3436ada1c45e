#include "cuzk/gpu/check.h"

#include <string>

namespace cuzk::gpu {

StatusCode cuda_error_code(cudaError_t err) {
  switch (err) {
    case cudaSuccess:
      return StatusCode::kOk;
    case cudaErrorMemoryAllocation:
      return StatusCode::kResourceExhausted;
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorDevicesUnavailable:
    case cudaErrorInvalidDevice:
    case cudaErrorNotSupported:
      return StatusCode::kUnavailable;
    // A CUDA call with bad arguments (cudaErrorInvalidValue and the like)
    // is a fault of the device code, never of a request: no request's bytes
    // reach a CUDA call unchecked. INTERNAL keeps it apart from the
    // INVALID_ARGUMENT a bad witness gets.
    default:
      return StatusCode::kInternal;
  }
}

Status cuda_status(cudaError_t err, const char* expr, const char* file, int line) {
  if (err == cudaSuccess) return ok_status();
  std::string msg = std::string("CUDA error ") + cudaGetErrorName(err) + " (" + cudaGetErrorString(err) +
                    ") in `" + expr + "` at " + file + ":" + std::to_string(line);
  return Status(cuda_error_code(err), std::move(msg));
}

}  // namespace cuzk::gpu
