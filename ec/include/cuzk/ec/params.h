// BLS12-381 curve parameters (docs: formats.md §1) as the plain structs the
// point templates in point.h are instantiated with.
//
//   G1: E(Fp):   y^2 = x^3 + 4
//   G2: E'(Fp2): y^2 = x^3 + 4(u + 1)   (M-twist)
//
// Constants are written as canonical little-endian limbs and converted to
// Montgomery form at compile time, so each one can be compared with the
// hexadecimal values quoted in formats.md.
#pragma once

#include <cstdint>

#include "cuzk/ff/fp.h"
#include "cuzk/ff/fp2.h"
#include "cuzk/ff/params.h"

namespace cuzk::ec {

namespace detail {

// The Fp element with canonical value c (c < p), computed at compile time.
constexpr ff::Fp fp_const(const ff::Limbs<6>& c) {
  return ff::Fp::from_mont(ff::Fp::mont_mul(c, ff::to_limbs<6>(ff::FpParams::kR2)));
}

}  // namespace detail

struct G1Curve {
  using Field = ff::Fp;
  static constexpr const char* kName = "G1";
  static constexpr Field kB = detail::fp_const({4, 0, 0, 0, 0, 0});
  // Generator (formats.md §1).
  static constexpr Field kGenX = detail::fp_const(
      {0xfb3af00adb22c6bb, 0x6c55e83ff97a1aef, 0xa14e3a3f171bac58, 0xc3688c4f9774b905, 0x2695638c4fa9ac0f,
       0x17f1d3a73197d794});
  static constexpr Field kGenY = detail::fp_const(
      {0x0caa232946c5e7e1, 0xd03cc744a2888ae4, 0x00db18cb2c04b3ed, 0xfcf5e095d5d00af6, 0xa09e30ed741d8ae4,
       0x08b3f481e3aaa0f1});
};

struct G2Curve {
  using Field = ff::Fp2;
  static constexpr const char* kName = "G2";
  static constexpr Field kB = Field(detail::fp_const({4, 0, 0, 0, 0, 0}), detail::fp_const({4, 0, 0, 0, 0, 0}));
  static constexpr Field kGenX = Field(
      detail::fp_const({0xd48056c8c121bdb8, 0x0bac0326a805bbef, 0xb4510b647ae3d177, 0xc6e47ad4fa403b02,
                        0x260805272dc51051, 0x024aa2b2f08f0a91}),
      detail::fp_const({0xe5ac7d055d042b7e, 0x334cf11213945d57, 0xb5da61bbdc7f5049, 0x596bd0d09920b61a,
                        0x7dacd3a088274f65, 0x13e02b6052719f60}));
  static constexpr Field kGenY = Field(
      detail::fp_const({0xe193548608b82801, 0x923ac9cc3baca289, 0x6d429a695160d12c, 0xadfd9baa8cbdd3a7,
                        0x8cc9cdc6da2e351a, 0x0ce5d527727d6e11}),
      detail::fp_const({0xaaa9075ff05f79be, 0x3f370d275cec1da1, 0x267492ab572e99ab, 0xcb3e287e85a763af,
                        0x32acd2b02bc28b99, 0x0606c4a02ea734cc}));
};

// β: the primitive cube root of unity in Fp for which the GLV endomorphism
// φ(x, y) = (β·x, y) acts on G1 as multiplication by λ = −x² (x the BLS
// parameter). The tests re-derive it (β³ = 1, φ(G) = [−x²]G).
inline constexpr ff::Fp kG1Beta = detail::fp_const(
    {0x2e01fffffffefffe, 0xde17d813620a0002, 0xddb3a93be6f89688, 0xba69c6076a0f77ea, 0x5f19672fdf76ce51, 0});

// ψ (untwist-Frobenius-twist) on the M-twist: ψ(x, y) = (conj(x)·kPsiX, conj(y)·kPsiY)
// with kPsiX = 1/(u+1)^((p−1)/3) (purely imaginary) and kPsiY = 1/(u+1)^((p−1)/2).
// On G2, ψ acts as multiplication by x. The tests re-derive both constants.
inline constexpr ff::Fp2 kG2PsiX = ff::Fp2(
    ff::Fp::zero(), detail::fp_const({0x8bfd00000000aaad, 0x409427eb4f49fffd, 0x897d29650fb85f9b,
                                      0xaa0d857d89759ad4, 0xec02408663d4de85, 0x1a0111ea397fe699}));
inline constexpr ff::Fp2 kG2PsiY = ff::Fp2(
    detail::fp_const({0xf1ee7b04121bdea2, 0x304466cf3e67fa0a, 0xef396489f61eb45e, 0x1c3dedd930b1cf60,
                      0xe2e9c448d77a2cd9, 0x135203e60180a68e}),
    detail::fp_const({0xc81084fbede3cc09, 0xee67992f72ec05f4, 0x77f76e17009241c5, 0x48395dabc2d3435e,
                      0x6831e36d6bd17ffe, 0x06af0e0437ff400b}));
// ψ²(x, y) = (x·kPsi2X, −y), kPsi2X = kPsiX·conj(kPsiX) ∈ Fp (a cube root of unity).
inline constexpr ff::Fp kG2Psi2X = detail::fp_const(
    {0x8bfd00000000aaac, 0x409427eb4f49fffd, 0x897d29650fb85f9b, 0xaa0d857d89759ad4, 0xec02408663d4de85,
     0x1a0111ea397fe699});

// The group order r as limbs (for the slow subgroup test [r]P = O) and the
// G1 cofactor h1 = (p + 1 − t)/r = 0x396c8c005555e1568c00aaab0000aaab.
inline constexpr ff::Limbs<4> kGroupOrder = ff::to_limbs<4>(ff::FrParams::kModulus);
inline constexpr ff::Limbs<2> kG1Cofactor = {0x8c00aaab0000aaab, 0x396c8c005555e156};

}  // namespace cuzk::ec
