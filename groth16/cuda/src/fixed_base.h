// Fixed-base scalar multiplication on the device, for the development setup
// of large circuits: out[i] = [k_i]·G from a table T[w][d] = d·2^(8w)·G
// (32 windows of 8 bits, d in 1..255): at most 32 mixed additions per point
// and no doublings.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "cuzk/base/status.h"
#include "cuzk/ec/curves.h"
#include "cuzk/ff/fr.h"

namespace cuzk::groth16::cuda {

inline constexpr int kFixedBaseWindows = 32;
inline constexpr int kFixedBaseDigits = 255;

// d_table: kFixedBaseWindows·kFixedBaseDigits affine points (T[w][d−1] at
// w·255 + d − 1); d_scalars, d_out: n entries. Scalars in Montgomery form.
template <class C>
Status fixed_base_mul(const ec::Affine<C>* d_table, const ff::Fr* d_scalars, size_t n, ec::Jacobian<C>* d_out,
                      cudaStream_t stream);

}  // namespace cuzk::groth16::cuda
