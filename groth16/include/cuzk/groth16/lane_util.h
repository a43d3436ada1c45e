// Helpers shared by the lanes of every backend (backend.h).
#pragma once

#include <cstdint>
#include <vector>

#include "cuzk/base/status.h"
#include "cuzk/groth16/backend.h"
#include "cuzk/groth16/keys.h"

namespace cuzk::groth16 {

// OK when `in` has the sizes `pk` needs: a, b, c of the domain size (or all
// empty when `rows_optional`: the key computes them) and num_vars witness
// values. Errors: INVALID_ARGUMENT naming the mismatch.
Status check_inputs(const ProvingKey& pk, const ProofInputs& in, bool rows_optional = false);

// OK when `circuit` can be proved with `pk`: the same inputs and aux
// variables, and its rows (with bellperson's per-input rows) fit the domain.
// Errors: FAILED_PRECONDITION naming both counts.
Status check_circuit_of(const ProvingKey& pk, const r1cs::Circuit& circuit);

// The variables whose density bit is set, ascending: the j-th point of the A
// or B query pairs with witness[density_index(...)[j]].
// REQUIRES: density.bit_len < 2^32.
std::vector<uint32_t> density_index(const r1cs::Bitmap& density);

}  // namespace cuzk::groth16
