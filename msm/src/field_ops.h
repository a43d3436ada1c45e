// Branch-free conditional negation for the bucket kernels: the sign of a
// point's digit is a coin flip for random scalars, so `neg ? -y : y` would
// mispredict half the time. Selects with masks instead (same results, bit for
// bit). MontField's own subtraction is branch-free as well (ff/mont.h).
#pragma once

#include <cstdint>

#include "cuzk/ff/fp2.h"
#include "cuzk/ff/mont.h"

namespace cuzk::msm::detail {

// neg ? −a : a, with −0 = 0. Cost: N subtractions and selections.
template <class P>
[[gnu::always_inline]] inline ff::MontField<P> neg_if(const ff::MontField<P>& a, bool neg) {
  using F = ff::MontField<P>;
  typename F::Repr r;
  const typename F::Repr& x = a.mont();
  uint64_t borrow = 0, any = 0;
  for (int i = 0; i < F::kLimbs; ++i) {
    r[i] = ff::sbb(F::kModulus[i], x[i], borrow);
    any |= x[i];
  }
  const uint64_t mask = uint64_t(0) - (uint64_t(neg) & uint64_t(any != 0));
  for (int i = 0; i < F::kLimbs; ++i) r[i] = (r[i] & mask) | (x[i] & ~mask);
  return F::from_mont(r);
}

[[gnu::always_inline]] inline ff::Fp2 neg_if(const ff::Fp2& a, bool neg) { return {neg_if(a.c0, neg), neg_if(a.c1, neg)}; }

}  // namespace cuzk::msm::detail
