#include <array>
#include <mutex>

#include "cuzk/ff/fp.h"
#include "cuzk/ff/fr.h"

namespace cuzk::ff {

template class MontField<FpParams>;
template class MontField<FrParams>;

std::string_view root_convention_name(RootConvention c) {
  return c == RootConvention::kBellperson ? "bellperson (generator 7)" : "snarkjs (generator 5)";
}

Fr fr_generator(RootConvention c) {
  return Fr::from_uint(c == RootConvention::kBellperson ? kFrGeneratorBellperson : kFrGeneratorSnarkjs);
}

namespace {

// Both tables are computed once and never change (immutable after init).
struct RootTable {
  std::array<Fr, 33> roots;  // roots[k] has order 2^k
  explicit RootTable(RootConvention c) {
    Limbs<4> t = Fr::kModulus;
    t[0] -= 1;
    for (int i = 0; i < FrParams::kTwoAdicity; ++i) t = limbs_shr1<4>(t);
    roots[32] = fr_generator(c).pow(t);
    for (int k = 31; k >= 0; --k) roots[k] = roots[k + 1].square();
  }
};

}  // namespace

Fr root_of_unity(int lg_n, RootConvention c) {
  static const RootTable bellperson(RootConvention::kBellperson);
  static const RootTable snarkjs(RootConvention::kSnarkjs);
  if (lg_n < 0 || lg_n > 32) return Fr::zero();
  return (c == RootConvention::kBellperson ? bellperson : snarkjs).roots[size_t(lg_n)];
}

}  // namespace cuzk::ff
