// Which GPUs this build can run on. The device code is compiled for a list
// of architectures (CMake's CMAKE_CUDA_ARCHITECTURES: "75-real;80-real;…;120"):
// machine code (SASS) for some, and PTX, which the driver compiles for any
// later GPU. A GPU runs the build when the build carries SASS of its major
// version and a minor version not above its own (sm_80 code runs on sm_86),
// or PTX of a version not above its own; otherwise the runtime has no kernel
// for it and cuzk proves on the CPU, saying why.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "cuzk/base/status.h"

namespace cuzk::gpu {

struct BuildArchitectures {
  std::vector<int> sass;  // e.g. 75, 80, 86, 89, 90, 100, 120 (major·10 + minor), ascending
  std::vector<int> ptx;   // virtual architectures carried as PTX, ascending
  // "sm_75 sm_80 sm_86 sm_89 sm_90 sm_100 sm_120, PTX compute_120".
  std::string describe() const;
};

// Parses CMake's list ("75-real;80;120-virtual", also with spaces or commas;
// an entry without a suffix is both SASS and PTX). Architecture-specific
// entries ("90a") count as their family's number. INVALID_ARGUMENT for an
// entry that is not of that form ("all", "native" must be resolved by CMake
// before they reach here).
StatusOr<BuildArchitectures> parse_cuda_architectures(std::string_view list);

// The architectures this binary's device code was compiled for.
const BuildArchitectures& build_architectures();

// The code a GPU of compute capability major.minor runs from `archs`:
// "sm_86" (SASS), "PTX compute_120 (compiled by the driver)", or
// FAILED_PRECONDITION naming the GPU's architecture and what the build
// carries. `device` names the GPU in the message ("NVIDIA GeForce GTX 1080").
StatusOr<std::string> code_for_device(int cc_major, int cc_minor, const BuildArchitectures& archs,
                                      std::string_view device);

// As above for device `ordinal` against this build, confirmed by asking the
// runtime for a kernel's attributes: FAILED_PRECONDITION when either says the
// build has no code for the GPU. Another runtime error there (a device in a
// bad state) is left to the work that uses the device to report.
// UNAVAILABLE without a driver.
StatusOr<std::string> device_code(int ordinal);

}  // namespace cuzk::gpu
