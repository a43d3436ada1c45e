// Checks and products over a Circuit: validation, satisfiability and the
// sparse matrix-vector products a = A·w, b = B·w, c = C·w.
#pragma once

#include <span>

#include "cuzk/base/status.h"
#include "cuzk/base/thread_pool.h"
#include "cuzk/r1cs/circuit.h"

namespace cuzk::r1cs {

// Checks the canonical form described in circuit.h: offsets length,
// monotonicity and end, vars strictly increasing per row and < num_vars,
// coefficient indices in range, table entries non-zero and < r, layout
// within the u32 limits. Errors: INVALID_ARGUMENT naming the first problem
// (row, matrix, term index). Cost: one pass over offsets and terms; runs on
// `pool` when given.
Status validate(const Circuit& circuit, ThreadPool* pool = nullptr);

// What a failed satisfaction check may say. Witness values are secrets of
// whoever asked for the proof: messages that can reach a log carry indices
// only; a local tool may ask for the values when debugging a circuit.
enum class SatisfiedDetail { kIndices, kValues };

// Checks |w| = num_vars, w[0] = 1 and a_i·b_i = c_i for every row.
// Errors: INVALID_ARGUMENT; for a violated row the message starts
// "constraint <i> is not satisfied", i being the smallest such index (with
// kValues, followed by <A,w>·<B,w> and <C,w>).
Status is_satisfied(const Circuit& circuit, std::span<const Fr> w, ThreadPool* pool = nullptr,
                    SatisfiedDetail detail = SatisfiedDetail::kIndices);

// a = A·w, b = B·w, c = C·w over the circuit's rows (no per-input rows).
// Coefficients 1 and −1 cost an addition; others one Fr multiplication.
// REQUIRES: w.size() == num_vars and a, b, c sized num_constraints.
// Errors: INVALID_ARGUMENT on size mismatch. Runs on `pool` when given.
Status compute_abc(const Circuit& circuit, std::span<const Fr> w, std::span<Fr> a, std::span<Fr> b,
                   std::span<Fr> c, ThreadPool* pool = nullptr);

}  // namespace cuzk::r1cs
