// The development setup (groth16/setup.h) with its fixed-base
// multiplications on the device: a 2^27 PoRep-shaped key in minutes instead
// of hours. INSECURE, like every dev setup: for tests and benchmarks.
#pragma once

#include "cuzk/base/status.h"
#include "cuzk/base/thread_pool.h"
#include "cuzk/groth16/setup.h"

namespace cuzk::groth16::cuda {

// Sets options->fixed_base_g1 and fixed_base_g2 to device versions on
// `device`: chunks of scalars go up, Jacobian points come back and are
// normalised to affine on `pool` (default pool when null) while the device
// computes the next chunk. Errors: UNAVAILABLE without a device.
Status use_device_fixed_base(DevSetupOptions* options, int device = 0, ThreadPool* pool = nullptr);

}  // namespace cuzk::groth16::cuda
