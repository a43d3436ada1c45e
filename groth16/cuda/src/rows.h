// The rows past the circuit's own, after the device matvec
// (r1cs/cuda/matvec.h), so that a, b, c match prover.h's compute_rows.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "cuzk/base/status.h"
#include "cuzk/ff/fr.h"

namespace cuzk::groth16::cuda {

// For rows m <= i < n: a_i = w_(i−m) for the first input_rows of them (bellperson's
// per-input rows), else 0; b_i = c_i = 0. With c_is_ab, c_i = a_i·b_i for
// i < m (snarkjs keys carry no C). REQUIRES: input_rows <= n − m; d_w holds
// at least input_rows values.
Status finish_rows(ff::Fr* d_a, ff::Fr* d_b, ff::Fr* d_c, uint64_t m, uint64_t n, const ff::Fr* d_w,
                   uint64_t input_rows, bool c_is_ab, cudaStream_t stream);

}  // namespace cuzk::groth16::cuda
