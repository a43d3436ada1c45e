// BLS12-381 scalar field Fr (255 bits) and its roots of unity.
#pragma once

#include "cuzk/ff/mont.h"
#include "cuzk/ff/params.h"

namespace cuzk::ff {

using Fr = MontField<FrParams>;
extern template class MontField<FrParams>;

// The two conventions for NTT domains (docs: formats.md §1). They agree for
// n <= 4 and differ from n = 8 on; a prover must use the key's convention.
enum class RootConvention {
  kBellperson,  // generator 7: bellperson, supraseal, sppark, Filecoin .params
  kSnarkjs,     // generator 5: ffjavascript / snarkjs .zkey
};

std::string_view root_convention_name(RootConvention c);

// The multiplicative generator g of the convention (7 or 5).
Fr fr_generator(RootConvention c);

// A primitive 2^lg_n-th root of unity: (g^t)^(2^(32 - lg_n)), r - 1 = 2^32 · t.
// REQUIRES: 0 <= lg_n <= 32.
Fr root_of_unity(int lg_n, RootConvention c);

}  // namespace cuzk::ff
