// A kernel compiled for the same architectures as every other device kernel
// of the build: whether the runtime finds an image of it for a GPU says
// whether the build's device code runs there.
#include <cuda_runtime_api.h>

#include "cuzk/gpu/check.h"
#include "cuzk/gpu/device.h"

namespace cuzk::gpu::detail {
namespace {
__global__ void arch_probe_kernel(int* out) {
  if (out != nullptr) *out = 1;
}
}  // namespace

Status probe_kernel_image(int ordinal, int* binary_version, int* ptx_version) {
  ASSIGN_OR_RETURN(ScopedDevice scope, ScopedDevice::create(ordinal));
  cudaFuncAttributes a{};
  const cudaError_t err = cudaFuncGetAttributes(&a, arch_probe_kernel);
  if (err != cudaSuccess) {
    cudaGetLastError();
    const std::string what = std::string(cudaGetErrorName(err)) + ": " + cudaGetErrorString(err);
    // Only "no code for this GPU" says the build cannot run there; another
    // error (a busy or failing device) is for the work itself to report.
    if (err == cudaErrorNoKernelImageForDevice || err == cudaErrorInvalidDeviceFunction ||
        err == cudaErrorUnsupportedPtxVersion || err == cudaErrorInvalidPtx)
      return failed_precondition(what);
    return unavailable(what);
  }
  *binary_version = a.binaryVersion;
  *ptx_version = a.ptxVersion;
  return ok_status();
}

}  // namespace cuzk::gpu::detail
