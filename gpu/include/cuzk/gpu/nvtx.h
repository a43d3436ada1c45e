// NVTX ranges: named spans that Nsight Systems shows on the timeline.
// Cheap when no profiler is attached (the nvtx3 header-only library).
#pragma once

#include <nvtx3/nvToolsExt.h>

namespace cuzk::gpu {

class NvtxRange {
 public:
  explicit NvtxRange(const char* name) { nvtxRangePushA(name); }
  ~NvtxRange() { nvtxRangePop(); }
  NvtxRange(const NvtxRange&) = delete;
  NvtxRange& operator=(const NvtxRange&) = delete;
};

}  // namespace cuzk::gpu

#define CUZK_NVTX_RANGE(name) ::cuzk::gpu::NvtxRange CUZK_NVTX_CONCAT(_cuzk_nvtx_, __LINE__)(name)
#define CUZK_NVTX_CONCAT_INNER(a, b) a##b
#define CUZK_NVTX_CONCAT(a, b) CUZK_NVTX_CONCAT_INNER(a, b)
