#include "cuzk/ff/fp2.h"

namespace cuzk::ff {

bool Fp2::sqrt(Fp2* out) const {
  if (is_zero()) {
    *out = zero();
    return true;
  }
  // (p - 3) / 4 and (p - 1) / 2.
  Limbs<6> p_minus_3_over_4 = limbs_shr1<6>(limbs_shr1<6>(limbs_sub_small<6>(Fp::kModulus, 3)));
  Limbs<6> p_minus_1_over_2 = limbs_shr1<6>(limbs_sub_small<6>(Fp::kModulus, 1));
  Fp2 a1 = pow(p_minus_3_over_4);
  Fp2 alpha = a1.square() * *this;  // a^((p-1)/2)
  Fp2 x0 = a1 * *this;              // a^((p+1)/4)
  Fp2 x;
  if (alpha == -one()) {
    x = Fp2(-x0.c1, x0.c0);  // u · x0
  } else {
    Fp2 b = (one() + alpha).pow(p_minus_1_over_2);
    x = b * x0;
  }
  if (x.square() != *this) return false;
  *out = x;
  return true;
}

}  // namespace cuzk::ff
