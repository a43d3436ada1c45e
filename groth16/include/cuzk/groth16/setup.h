// An INSECURE development setup: every secret (τ, α, β, γ, δ) is derived from
// a seed, so anyone who knows the seed can forge proofs. For tests, demos and
// benchmarks only; everything that uses it says "insecure, for testing".
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "cuzk/base/status.h"
#include "cuzk/base/thread_pool.h"
#include "cuzk/groth16/keys.h"
#include "cuzk/r1cs/circuit.h"

namespace cuzk::groth16 {

struct DevSetupOptions {
  KeyLayout layout = KeyLayout::kSnarkjs;
  uint64_t seed = 0;
  ThreadPool* pool = nullptr;  // default_thread_pool() when null
  // Called with a fraction in [0, 1] as points are computed (from one thread).
  std::function<void(double)> progress;
  // The fixed-base multiplications [k_i]·G (the bulk of the work), normalised
  // to affine: the CPU when empty; the CUDA backend offers device versions
  // (groth16/cuda/cuda_setup.h) for circuits of 2^20 rows and more.
  std::function<StatusOr<std::vector<G1Affine>>(std::span<const Fr>)> fixed_base_g1;
  std::function<StatusOr<std::vector<G2Affine>>(std::span<const Fr>)> fixed_base_g2;
};

// The toxic waste a seed stands for.
struct ToxicWaste {
  Fr tau, alpha, beta, gamma, delta;
  static ToxicWaste from_seed(uint64_t seed);
};

// Builds a proving key for `circuit` (its rows WITHOUT the per-input rows;
// setup appends one A-only row "input_i · 0 = 0" per input, ONE included, as
// both bellperson and snarkjs do). Domain: the smallest 2^k holding
// constraints + inputs rows. Errors: INVALID_ARGUMENT when the circuit is too
// large (k > 28) or when a bellperson L point would be infinity.
StatusOr<ProvingKey> dev_setup(const r1cs::Circuit& circuit, const DevSetupOptions& options);

// lg of the domain for a circuit with `rows` rows including the input rows.
int domain_lg_for_rows(uint64_t rows);

// The circuit's rows followed by the per-input rows, with the C matrix kept
// (keep_c) or dropped (as a snarkjs key stores it: A and B only).
StatusOr<r1cs::Circuit> append_input_rows(const r1cs::Circuit& circuit, bool keep_c);

}  // namespace cuzk::groth16
