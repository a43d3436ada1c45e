#include "witness_header.h"

#include <cstring>

#include "cuzk/ff/fr.h"
#include "cuzk/io/zkey.h"

namespace cuzk::engine {

Status check_wtns_header(ByteSpan bytes, uint64_t expected_vars) {
  ASSIGN_OR_RETURN(io::Iden3Container c, io::parse_iden3_container(bytes, "wtns"));
  if (c.version != kWtnsVersion)
    return invalid_argument("witness: .wtns version " + std::to_string(c.version) + " (byte offset 4); only " +
                            std::to_string(kWtnsVersion) + " is supported");
  if (c.end_offset != bytes.size())
    return invalid_argument("witness: " + std::to_string(bytes.size() - c.end_offset) +
                            " bytes after the last section (byte offset " + std::to_string(c.end_offset) + ")");
  const io::Iden3Section* header = c.find(1);
  const io::Iden3Section* values = c.find(2);
  if (!header || !values) return invalid_argument("witness: .wtns without section 1 or 2");
  if (header->size < 4 + 32 + 4) return invalid_argument("witness: .wtns header section too short");
  const uint8_t* h = bytes.data() + header->offset;
  if (load_u32le(h) != 32) return invalid_argument("witness: field size " + std::to_string(load_u32le(h)) +
                                                   ", expected 32 (BLS12-381)");
  uint8_t r_le[32];
  ff::Fr r_minus_one = -ff::Fr::one();
  r_minus_one.to_bytes_le(r_le);
  r_le[0] += 1;  // r − 1 ends in ...00 00 00 00 (r = ...00000001), so +1 cannot carry
  if (std::memcmp(h + 4, r_le, 32) != 0) {
    // BN254's r, little-endian: circom's default prime.
    static constexpr uint64_t kBn254R[4] = {0x43e1f593f0000001, 0x2833e84879b97091, 0xb85045b68181585d,
                                            0x30644e72e131a029};
    bool bn254 = true;
    for (int i = 0; i < 4; ++i) bn254 = bn254 && load_u64le(h + 4 + 8 * i) == kBn254R[i];
    return invalid_argument(bn254 ? "witness: the .wtns is over BN254's scalar field, not BLS12-381's: compile the "
                                    "circuit with `circom --prime bls12381` and compute the witness again"
                                  : "witness: prime is not the BLS12-381 scalar field");
  }
  uint64_t n = load_u32le(h + 36);
  if (n != expected_vars)
    return invalid_argument("witness has " + std::to_string(n) + " values, the circuit has " +
                            std::to_string(expected_vars) + " variables");
  if (values->size != 32 * n)
    return invalid_argument("witness: section 2 holds " + std::to_string(values->size) + " bytes, expected " +
                            std::to_string(32 * n));
  return ok_status();
}

}  // namespace cuzk::engine
