#include "selfcheck.h"

#include <cstring>

#include "cuzk/base/random.h"
#include "cuzk/ff/fp.h"
#include "cuzk/ff/fp2.h"
#include "cuzk/ff/fr.h"
#ifdef CUZK_HAVE_PAIRING
#include "cuzk/ec/scalar_mul.h"
#include "cuzk/ec/zcash_codec.h"
#include "cuzk/pairing/pairing.h"
#endif

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

#ifdef CUZK_HAVE_PAIRING
std::string curve_checks() {
  OsRng rng;
  // formats.md: the G1 generator compressed starts 97f1d3a7 (x with the 0x80 flag).
  auto g1c = ec::g1_to_zcash_compressed(ec::g1_generator());
  if (g1c[0] != 0x97 || g1c[1] != 0xf1 || g1c[2] != 0xd3 || g1c[3] != 0xa7) return "G1 generator encoding";
  auto g2c = ec::g2_to_zcash_compressed(ec::g2_generator());
  if (g2c[0] != 0x93 || g2c[1] != 0xe0 || g2c[2] != 0x2b || g2c[3] != 0x60) return "G2 generator encoding";
  Fr k = Fr::random(rng);
  ec::G1Affine p = ec::mul(ec::g1_generator(), k).to_affine();
  if (!p.is_on_curve() || !ec::in_subgroup(p)) return "random G1 point not in G1";
  if (!(ec::mul(p, -Fr::one()) == -p)) return "[r-1]P != -P";
  auto back = ec::g1_from_zcash(ec::g1_to_zcash_compressed(p));
  if (!back.ok() || !(*back == p)) return "G1 compressed round trip";
  ec::G2Affine q = ec::mul(ec::g2_generator(), Fr::random(rng)).to_affine();
  auto back2 = ec::g2_from_zcash(ec::g2_to_zcash_compressed(q));
  if (!back2.ok() || !(*back2 == q)) return "G2 compressed round trip";
  return {};
}

std::string pairing_bilinearity() {
  OsRng rng;
  Fr a = Fr::random(rng), b = Fr::random(rng);
  ec::G1Affine p = ec::g1_generator();
  ec::G2Affine q = ec::g2_generator();
  pairing::Gt lhs = pairing::pairing(ec::mul(p, a).to_affine(), ec::mul(q, b).to_affine());
  pairing::Gt rhs = pairing::pairing(p, q).pow((a * b).canonical());
  if (lhs != rhs) return "e(aP, bQ) != e(P, Q)^(ab)";
  if (pairing::pairing(p, q).is_one()) return "pairing is degenerate";
  return {};
}
#endif

}  // namespace

std::vector<SelfCheck> selfchecks() {
  std::vector<SelfCheck> checks = {
      {"fp.identities", [] { return field_identities<Fp>("Fp"); }},
      {"fr.identities", [] { return field_identities<Fr>("Fr"); }},
      {"fr.constants", fr_constants},
      {"fp2.identities", fp2_identities},
#ifdef CUZK_HAVE_PAIRING
      {"ec.g1_g2", curve_checks},
      {"pairing.bilinearity", pairing_bilinearity},
#endif
  };
  return checks;
}

}  // namespace cuzk::app
