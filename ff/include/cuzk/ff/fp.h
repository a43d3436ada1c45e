// BLS12-381 base field Fp (381 bits).
#pragma once

#include "cuzk/ff/mont.h"
#include "cuzk/ff/params.h"

namespace cuzk::ff {
using Fp = MontField<FpParams>;
extern template class MontField<FpParams>;
}  // namespace cuzk::ff
