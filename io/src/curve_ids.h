// Telling curves apart by the primes iden3 files carry (little-endian), so
// that a file made for another curve is named for what it is. Internal to io/.
#pragma once

#include <cstdint>
#include <string>

#include "cuzk/base/bytes.h"
#include "cuzk/ff/fp.h"
#include "cuzk/ff/fr.h"

namespace cuzk::io::internal {

// BN254 (circom's and snarkjs's default "bn128"): base field q and group order r.
inline constexpr uint64_t kBn254Q[4] = {0x3c208c16d87cfd47, 0x97816a916871ca8d, 0xb85045b68181585d,
                                        0x30644e72e131a029};
inline constexpr uint64_t kBn254R[4] = {0x43e1f593f0000001, 0x2833e84879b97091, 0xb85045b68181585d,
                                        0x30644e72e131a029};

inline bool equals_limbs(ByteSpan b, const uint64_t* limbs, size_t n) {
  if (b.size() != 8 * n) return false;
  for (size_t i = 0; i < n; ++i) {
    if (load_u64le(b.data() + 8 * i) != limbs[i]) return false;
  }
  return true;
}

enum class CurveId { kBls12381, kBn254, kUnknown };

inline CurveId curve_of_scalar_prime(ByteSpan prime) {
  if (equals_limbs(prime, ff::Fr::kModulus.data(), 4)) return CurveId::kBls12381;
  if (equals_limbs(prime, kBn254R, 4)) return CurveId::kBn254;
  return CurveId::kUnknown;
}

inline CurveId curve_of_base_prime(ByteSpan prime) {
  if (equals_limbs(prime, ff::Fp::kModulus.data(), 6)) return CurveId::kBls12381;
  if (equals_limbs(prime, kBn254Q, 4)) return CurveId::kBn254;
  return CurveId::kUnknown;
}

// "bls12381", "bn128 (BN254; not supported by cuzk)", or the prime in hex.
inline std::string curve_description(CurveId id, ByteSpan prime) {
  switch (id) {
    case CurveId::kBls12381:
      return "bls12381";
    case CurveId::kBn254:
      return "bn128 (BN254; not supported by cuzk, which proves on BLS12-381)";
    case CurveId::kUnknown:
      break;
  }
  return "unknown prime 0x" + to_hex(prime) + " (little-endian)";
}

// How to get a BLS12-381 file instead of a BN254 one.
inline constexpr const char* kBls12381Hint =
    "compile the circuit with `circom --prime bls12381` and make the key from a bls12381 .ptau "
    "(`snarkjs powersoftau new bls12381 ...`)";

}  // namespace cuzk::io::internal
