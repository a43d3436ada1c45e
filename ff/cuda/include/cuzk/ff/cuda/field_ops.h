// Element-wise field operations over device arrays (host API; include from
// .cc files). Used by tests as the device side of the CPU cross-check and by
// callers that need vector arithmetic on resident data.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "cuzk/base/status.h"
#include "cuzk/ff/fp.h"
#include "cuzk/ff/fp2.h"
#include "cuzk/ff/fr.h"

namespace cuzk::ff::cuda {

enum class FieldOp { kAdd, kSub, kMul, kSqr, kNeg, kDbl, kInv };

// out[i] = a[i] op b[i] for i < n (b is ignored by the unary ops kSqr, kNeg,
// kDbl, kInv and may be null; kInv maps zero to zero). All pointers are device memory; out may alias a or b.
// Stream-ordered; returns a launch error, if any.
Status fr_elementwise(FieldOp op, const Fr* a, const Fr* b, Fr* out, size_t n, cudaStream_t stream);
Status fp_elementwise(FieldOp op, const Fp* a, const Fp* b, Fp* out, size_t n, cudaStream_t stream);
Status fp2_elementwise(FieldOp op, const Fp2* a, const Fp2* b, Fp2* out, size_t n, cudaStream_t stream);

}  // namespace cuzk::ff::cuda
