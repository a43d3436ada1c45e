// Single-threaded radix-2 building blocks of the transforms (internal).
//
// A "batch" is `batch` sequences of length 2^lg stored interleaved: element j
// of sequence b sits at x[j·stride + b] (stride >= batch). A contiguous
// sequence is batch = 1, stride = 1; a block of matrix columns is
// stride = row length. `stage` is TwiddleTables::stage of the direction
// wanted; it must cover 2^lg. Each entry point runs the MULX/ADX arithmetic
// when the CPU has it (fr_arith.h), else the portable one: same results.
#pragma once

#include <cstddef>

#include "cuzk/ff/fr.h"

namespace cuzk::ntt::internal {

// Decimation in frequency: natural-order input, bit-reversed output.
// Butterfly (u, v) -> (u + v, (u - v)·w). Cost: 2^(lg-1)·lg butterflies,
// multiplications skipped where w = 1.
void dif(ff::Fr* x, int lg, size_t stride, size_t batch, const ff::Fr* stage);

// Decimation in time: bit-reversed input, natural-order output.
// Butterfly (u, v) -> (u + v·w, u - v·w).
void dit(ff::Fr* x, int lg, size_t stride, size_t batch, const ff::Fr* stage);

// x[c] *= s·w^c for c < len (s = 1 when scale is null). About 2 independent
// multiplications per element (powers come from an 8-entry table and one
// running power per 8 elements, so the loop is not latency bound).
void mul_by_powers(ff::Fr* x, size_t len, const ff::Fr& w, const ff::Fr* scale);

// x[i] *= table[i]·s for i < len. 2 multiplications per element.
void mul_by_scaled_table(ff::Fr* x, size_t len, const ff::Fr* table, const ff::Fr& s);

}  // namespace cuzk::ntt::internal
