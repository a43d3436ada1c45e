// BLS12-381 field constants as plain 64-bit limbs (little-endian limb order,
// limb 0 least significant). No standard-library dependencies, so CUDA code
// can include this header and split the limbs into 32-bit words.
#pragma once

#include <cstdint>

namespace cuzk::ff {

// Base field p (381 bits).
struct FpParams {
  static constexpr int kLimbs = 6;
  static constexpr int kBits = 381;
  static constexpr uint64_t kModulus[6] = {0xb9feffffffffaaab, 0x1eabfffeb153ffff, 0x6730d2a0f6b0f624,
                                           0x64774b84f38512bf, 0x4b1ba7b6434bacd7, 0x1a0111ea397fe69a};
  // R = 2^384 mod p (Montgomery one), R^2 mod p, and -p^-1 mod 2^64.
  static constexpr uint64_t kR[6] = {0x760900000002fffd, 0xebf4000bc40c0002, 0x5f48985753c758ba,
                                     0x77ce585370525745, 0x5c071a97a256ec6d, 0x15f65ec3fa80e493};
  static constexpr uint64_t kR2[6] = {0xf4df1f341c341746, 0x0a76e6a609d104f1, 0x8de5476c4c95b6d5,
                                      0x67eb88a9939d83c0, 0x9a793e85b519952d, 0x11988fe592cae3aa};
  static constexpr uint64_t kInv = 0x89f3fffcfffcfffd;
  // p - 1 = 2^kTwoAdicity * odd; kNonResidue is the smallest quadratic non-residue.
  static constexpr int kTwoAdicity = 1;
  static constexpr uint64_t kNonResidue = 2;
};

// Scalar field r (255 bits), the group order.
struct FrParams {
  static constexpr int kLimbs = 4;
  static constexpr int kBits = 255;
  static constexpr uint64_t kModulus[4] = {0xffffffff00000001, 0x53bda402fffe5bfe, 0x3339d80809a1d805,
                                           0x73eda753299d7d48};
  static constexpr uint64_t kR[4] = {0x00000001fffffffe, 0x5884b7fa00034802, 0x998c4fefecbc4ff5,
                                     0x1824b159acc5056f};
  static constexpr uint64_t kR2[4] = {0xc999e990f3f29c6d, 0x2b6cedcb87925c23, 0x05d314967254398f,
                                      0x0748d9d99f59ff11};
  static constexpr uint64_t kInv = 0xfffffffeffffffff;
  static constexpr int kTwoAdicity = 32;
  static constexpr uint64_t kNonResidue = 5;
};

// Generators of Fr^* used to define roots of unity (docs: formats.md §1):
// bellperson / supraseal / sppark use 7; snarkjs (ffjavascript) uses 5.
constexpr uint64_t kFrGeneratorBellperson = 7;
constexpr uint64_t kFrGeneratorSnarkjs = 5;

// |x| of the BLS parameter x = -0xd201000000010000.
constexpr uint64_t kBlsX = 0xd201000000010000ull;
constexpr bool kBlsXIsNegative = true;

}  // namespace cuzk::ff
