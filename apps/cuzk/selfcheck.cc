#include "selfcheck.h"

#include <cstring>

#include "cuzk/base/random.h"
#include "cuzk/ff/fp.h"
#include "cuzk/ff/fp2.h"
#include "cuzk/ff/fr.h"

namespace cuzk::app {
namespace {

using ff::Fp;
using ff::Fp2;
using ff::Fr;

template <class F>
std::string field_identities(const char* name) {
  OsRng rng;
  for (int i = 0; i < 64; ++i) {
    F a = F::random(rng), b = F::random(rng), c = F::random(rng);
    if (a * (b + c) != a * b + a * c) return std::string(name) + ": distributivity failed";
    if (!a.is_zero() && a * a.inverse() != F::one()) return std::string(name) + ": inverse failed";
    F r;
    if (!a.square().sqrt(&r) || (r != a && r != -a)) return std::string(name) + ": sqrt failed";
    if (F::from_decimal(a.to_decimal()).value() != a) return std::string(name) + ": decimal round trip failed";
  }
  return {};
}

std::string fr_constants() {
  const uint8_t one_le[32] = {0xfe, 0xff, 0xff, 0xff, 0x01, 0x00, 0x00, 0x00, 0x02, 0x48, 0x03,
                              0x00, 0xfa, 0xb7, 0x84, 0x58, 0xf5, 0x4f, 0xbc, 0xec, 0xef, 0x4f,
                              0x8c, 0x99, 0x6f, 0x05, 0xc5, 0xac, 0x59, 0xb1, 0x24, 0x18};
  if (std::memcmp(Fr::one().mont().data(), one_le, 32) != 0) return "Fr one is not R mod r";
  if (ff::root_of_unity(27, ff::RootConvention::kBellperson).to_hex() !=
      "23397a9300f8f98bece8ea224f31d25db94f1101b1d7a628e2d0a7869f0319ed")
    return "omega(2^27), generator 7, differs from bellperson/sppark";
  if (ff::root_of_unity(27, ff::RootConvention::kSnarkjs).to_hex() !=
      "350fe98d37b7a1144307987fe64cfc70ac96c38ff010ea74eb162203fd88f133")
    return "omega(2^27), generator 5, differs from ffjavascript";
  return {};
}

std::string fp2_identities() {
  OsRng rng;
  Fp2 u(Fp::zero(), Fp::one());
  if (u.square() != -Fp2::one()) return "u^2 != -1";
  for (int i = 0; i < 16; ++i) {
    Fp2 a = Fp2::random(rng), r;
    if (a * a.inverse() != Fp2::one()) return "Fp2 inverse failed";
    if (!a.square().sqrt(&r) || (r != a && r != -a)) return "Fp2 sqrt failed";
  }
  return {};
}

}  // namespace

std::vector<SelfCheck> selfchecks() {
  std::vector<SelfCheck> checks = {
      {"fp.identities", [] { return field_identities<Fp>("Fp"); }},
      {"fr.identities", [] { return field_identities<Fr>("Fr"); }},
      {"fr.constants", fr_constants},
      {"fp2.identities", fp2_identities},
  };
  return checks;
}

}  // namespace cuzk::app
