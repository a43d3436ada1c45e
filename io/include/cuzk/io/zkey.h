// snarkjs Groth16 proving keys (.zkey, curve bls12381; formats.md §5), in
// the iden3 container they share with .r1cs, .wtns and .ptau (iden3.h).
// Sections are found by id in any order; unknown ids are ignored.
//
// .zkey Groth16 sections (magic "zkey", version 1):
//   1 header (u32 protocol, 1 = Groth16)     2 Groth16 header (964 bytes)
//   3 IC (nPublic + 1 G1)                    4 A/B coefficients
//   5 A, 6 B1 (nVars G1), 7 B2 (nVars G2)    8 C (nVars − nPublic − 1 G1)
//   9 H (domainSize G1)                      10 circuit hash + contributions
// Points are "LEM" (little-endian Montgomery, ec/zkey_codec.h); coefficients
// hold v·R² mod r little-endian (R = 2^256).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/base/bytes.h"
#include "cuzk/base/status.h"
#include "cuzk/base/thread_pool.h"
#include "cuzk/groth16/keys.h"
#include "cuzk/io/iden3.h"
#include "cuzk/r1cs/circuit.h"

namespace cuzk::io {

struct ReadOptions {
  // Subgroup checks on every point. Points are always checked to be on the
  // curve with canonical coordinates, and the verifying key's points (alpha,
  // beta, gamma, delta, IC) to be in the subgroup (cheap). Off, the bulk
  // query points skip the subgroup test (~130 doublings per G1 point), and
  // the caller checks what it makes from them (key_check.h).
  bool check_points = true;
  // Pool for the parallel decode; default_thread_pool() when null.
  ThreadPool* pool = nullptr;
};

// ---- .zkey --------------------------------------------------------------

inline constexpr uint32_t kZkeyVersion = 1;
inline constexpr uint32_t kZkeyProtocolGroth16 = 1;
inline constexpr uint64_t kZkeyGroth16HeaderBytes = 964;
inline constexpr uint64_t kZkeyCoeffBytes = 44;  // u32 matrix, u32 row, u32 wire, 32-byte value
inline constexpr uint64_t kZkeyHashBytes = 64;

// Sections 1 and 2 without the points: what inspect_file prints.
struct ZkeyHeader {
  uint32_t protocol = 0;
  uint32_t n8q = 0, n8r = 0;
  uint32_t num_vars = 0;    // nVars, ONE included
  uint32_t num_public = 0;  // nPublic: outputs + public inputs, ONE excluded
  uint32_t domain_size = 0;
};

// Reads and checks sections 1 and 2's counts (magic, version, protocol,
// BLS12-381 q and r, nPublic < nVars, domain size a power of two >= 2).
StatusOr<ZkeyHeader> parse_zkey_header(ByteSpan file, const Iden3Container& container);

struct ZkeyContents {
  // layout kSnarkjs: H has n points, L holds section 8 (C), A/B_G1/B_G2 hold
  // the non-infinity entries of sections 5/6/7 with the density bitmaps
  // marking which wires they belong to.
  groth16::ProvingKey pk;
  // snarkjs keys carry no C matrix: the prover sets c = a ∘ b.
  groth16::CRule c_rule = groth16::CRule::kProductOfAB;
  // Section 4 as a circuit: rows 0 .. num_constraints + nPublic, the last
  // nPublic + 1 being the per-input rows (A: wire s, coefficient 1); A and B
  // from the file, C empty. num_inputs = nPublic + 1, num_aux = nVars − that.
  r1cs::Circuit ab_circuit;
  uint64_t num_constraints = 0;  // circuit rows, without the per-input rows
  // Section 10, when present: the 64-byte circuit hash and the number of
  // phase-2 contributions (whose records are not decoded).
  bool has_contributions = false;
  std::array<uint8_t, kZkeyHashBytes> circuit_hash{};
  uint32_t num_contributions = 0;
};

// Reads a .zkey (mmap). Checks, each an INVALID_ARGUMENT naming the byte
// offset: magic, version, protocol (Groth16 only), curve (q and r of
// BLS12-381), missing sections, section sizes against the header counts
// (before anything is allocated), coefficient entries (matrix, row < domain,
// wire < nVars, value < r, per-input rows present), points (canonical
// coordinates, on the curve; in the subgroup unless !check_points; the
// verifying key's always in the subgroup, gamma and delta not infinity), B1
// and B2 infinite at the same wires.
StatusOr<ZkeyContents> read_zkey(const std::string& path, const ReadOptions& options = {});
StatusOr<ZkeyContents> parse_zkey(ByteSpan file, const ReadOptions& options = {});

// Writes sections 1 .. 10 in order, as snarkjs 0.7.6 reads them. A, B1 and
// B2 are expanded to all nVars wires (infinity = 96/192 zero bytes where the
// density bit is clear); section 10 holds circuit_hash and no contribution
// records (num_contributions is written as 0).
// REQUIRES / errors (INVALID_ARGUMENT): pk.layout == kSnarkjs, pk.check_shape()
// passes, ab_circuit has pk's inputs and aux, rows <= domain size, no C terms,
// counts fit the u32 fields.
Status write_zkey(const std::string& path, const ZkeyContents& contents, ThreadPool* pool = nullptr);

// The 32 bytes section 4 stores for coefficient v (v·R² mod r, LE), and the
// inverse. decode fails when the bytes are not below r.
std::array<uint8_t, 32> encode_zkey_coeff(const ff::Fr& v);
StatusOr<ff::Fr> decode_zkey_coeff(ByteSpan bytes);

}  // namespace cuzk::io
