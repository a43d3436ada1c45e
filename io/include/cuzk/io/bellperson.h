// bellperson / rust-fil-proofs files (formats.md §2, §3): verifying keys
// (.vk), parameter files (.params) and 192-byte Groth16 proofs. Points use the
// ZCash encoding (ec/zcash_codec.h): canonical big-endian, Fp2 as c1 ‖ c0,
// flags in the top bits; counts are u32 big-endian.
//
// .vk (also the head of a .params file):
//   alpha_g1, beta_g1 (G1, 96 uncompressed each), beta_g2, gamma_g2 (G2, 192),
//   delta_g1 (96), delta_g2 (192), u32be ic_len, ic_len × G1 (96)
//   = 868 + 96·ic_len bytes.
// .params: the VK, then H, L, A, B_G1 (G1) and B_G2 (G2), each a u32be count
//   followed by that many uncompressed points; trailing bytes (phase-2
//   contribution records) are ignored.
// Proof: A (G1 compressed, 48) ‖ B (G2 compressed, 96) ‖ C (48) = 192 bytes;
//   a multi-partition proof is the concatenation in partition order.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "cuzk/base/bytes.h"
#include "cuzk/base/status.h"
#include "cuzk/base/thread_pool.h"
#include "cuzk/ec/curves.h"
#include "cuzk/groth16/keys.h"
#include "cuzk/r1cs/density.h"

namespace cuzk::io {

inline constexpr uint64_t kVkFixedBytes = 868;  // the six points and ic_len
inline constexpr size_t kProofBytes = 192;

// ---- verifying key (.vk) ------------------------------------------------

// Decodes a VK from the start of `bytes` (trailing bytes are left alone;
// *consumed, when given, receives the VK's length). Every point is checked
// canonical and on the curve, in the subgroup unless `check` is kSkip; IC
// points at infinity are rejected (as bellperson does), and so are gamma_g2
// and delta_g2 at infinity (a key anyone could forge proofs for; in .params
// delta_g1 too, which blinds proofs). Errors name the
// field and byte offset.
StatusOr<groth16::VerifyingKey> parse_vk(ByteSpan bytes, ec::SubgroupCheck check = ec::SubgroupCheck::kCheck,
                                         uint64_t* consumed = nullptr);
// Errors: INVALID_ARGUMENT when an IC point is infinity (bellperson could not
// read the result) or IC has more than 2^32 − 1 points.
StatusOr<std::vector<uint8_t>> serialize_vk(const groth16::VerifyingKey& vk);
StatusOr<groth16::VerifyingKey> read_vk(const std::string& path, ec::SubgroupCheck check = ec::SubgroupCheck::kCheck);
// A verifying key (a .vk, or the head of a .params) read for verifying: α, β,
// γ and δ tested in the subgroup, the IC points canonical and on the curve.
// groth16::PreparedVerifyingKey::verify tests the one point the pairing sees
// of them, IC(x): with any component of an IC point outside the subgroup it
// is outside too (or the point verifies exactly as its prime-order part
// would). One test instead of one per input: a 32 GiB Window PoSt key has
// 25,840 IC points, 0.8 s of tests (docs/perf.md).
StatusOr<groth16::VerifyingKey> parse_vk_for_verifier(ByteSpan bytes);
StatusOr<groth16::VerifyingKey> read_vk_for_verifier(const std::string& path);
Status write_vk(const std::string& path, const groth16::VerifyingKey& vk);

// ---- parameter file (.params) -------------------------------------------

struct ParamsVector {
  uint32_t count = 0;
  uint64_t offset = 0;  // first point (after the u32be count)
};

// Where everything lies in a .params file, from the counts alone (no point
// is decoded). Every vector is checked to fit in the file.
struct ParamsLayout {
  uint32_t ic_len = 0;
  uint64_t vk_bytes = 0;
  ParamsVector h, l, a, b_g1, b_g2;
  uint64_t end_offset = 0;      // first byte after B_G2
  uint64_t trailing_bytes = 0;  // file size − end_offset
};

// Errors (INVALID_ARGUMENT, naming the vector and byte offset): a count or
// vector running past the end of the file.
StatusOr<ParamsLayout> scan_params(ByteSpan file);

struct ParamsReadOptions {
  // Subgroup checks on every point. Canonical coordinates, on-curve and "not
  // infinity" are always checked, and the verifying key's points are always
  // checked to be in the subgroup (cheap); off, the bulk query points skip
  // the subgroup test and the caller checks what it makes from them
  // (key_check.h).
  bool check_subgroup = true;
  ThreadPool* pool = nullptr;  // default_thread_pool() when null
};

// Begins the message of every error that says the file's counts do not fit
// the density given (the key belongs to another circuit).
inline constexpr const char* kNotThisCircuit = "the key does not fit the circuit: ";

// Reads a .params file into a ProvingKey with layout kBellperson. The file
// holds only the points of variables with a non-zero A (B) polynomial, so the
// density bitmaps come from the caller (r1cs::compute_density over the
// circuit with the per-input rows) and are checked against the counts
// (formats.md §3 "Derived sizes"): ic_len = inputs (all A-input bits set),
// L = aux, A = inputs + popcount(A aux), B_G1 = B_G2 = popcount(B inputs) +
// popcount(B aux), H + 1 = n a power of two. Points are decoded in parallel;
// any point at infinity outside the VK's six is rejected, as are IC points at
// infinity.
StatusOr<groth16::ProvingKey> parse_params(ByteSpan file, const r1cs::DensityBitmaps& density,
                                           const ParamsReadOptions& options = {});
StatusOr<groth16::ProvingKey> read_params(const std::string& path, const r1cs::DensityBitmaps& density,
                                          const ParamsReadOptions& options = {});

// Writes `pk` as a .params file. Errors (INVALID_ARGUMENT): layout other than
// kBellperson, check_shape() failing, an input missing from the A density,
// any H/L/A/B/IC point at infinity (bellperson rejects them), counts over u32.
Status write_params(const std::string& path, const groth16::ProvingKey& pk, ThreadPool* pool = nullptr);

// ---- proofs -------------------------------------------------------------

std::array<uint8_t, kProofBytes> serialize_proof(const groth16::Proof& proof);
// Exactly 192 bytes. Decompression checks the flags, x < p, the square root,
// and the subgroup (unless kSkip); A, B or C at infinity is rejected.
StatusOr<groth16::Proof> parse_proof(ByteSpan bytes, ec::SubgroupCheck check = ec::SubgroupCheck::kCheck);

// Concatenation of several proofs (partitions, in order).
std::vector<uint8_t> serialize_proofs(std::span<const groth16::Proof> proofs);
// Errors: an empty input or a length that is not a multiple of 192; the first
// bad proof (its index and byte offset).
StatusOr<std::vector<groth16::Proof>> parse_proofs(ByteSpan bytes, ec::SubgroupCheck check = ec::SubgroupCheck::kCheck);
StatusOr<std::vector<groth16::Proof>> read_proofs(const std::string& path);
Status write_proofs(const std::string& path, std::span<const groth16::Proof> proofs);

}  // namespace cuzk::io
