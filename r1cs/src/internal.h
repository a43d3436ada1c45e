// Helpers shared by the r1cs sources; not part of the public API.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "cuzk/base/thread_pool.h"
#include "cuzk/r1cs/circuit.h"

namespace cuzk::r1cs {

// Runs fn over [0, n) on the pool when given and n is large enough, else inline.
void run_chunks(ThreadPool* pool, uint64_t n, size_t min_chunk, const std::function<void(size_t, size_t)>& fn);

// Whether the Montgomery limbs of x are >= r (x not reduced).
bool limbs_geq_modulus(const Fr& x);

enum : uint8_t { kCoeffGeneral = 0, kCoeffOne = 1, kCoeffMinusOne = 2 };
using CoeffKinds = std::vector<uint8_t>;
// The kind of every table entry, so that ±1 cost an addition.
CoeffKinds classify_coeffs(std::span<const Fr> coeffs);

// <row, w>. REQUIRES: a validated circuit and |w| = num_vars.
inline Fr row_dot(const Circuit& circuit, std::span<const Term> row, const CoeffKinds& kinds,
                  std::span<const Fr> w) {
  Fr acc = Fr::zero();
  const Fr* coeffs = circuit.coeffs().data();
  for (const Term& t : row) {
    const Fr& x = w[t.var];
    switch (kinds[t.coeff]) {
      case kCoeffOne: acc += x; break;
      case kCoeffMinusOne: acc -= x; break;
      default: acc += coeffs[t.coeff] * x; break;
    }
  }
  return acc;
}

}  // namespace cuzk::r1cs
