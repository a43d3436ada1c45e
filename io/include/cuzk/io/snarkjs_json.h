// snarkjs JSON files for curve bls12381 (formats.md §5 "JSON"): proof.json,
// public.json and verification_key.json. Numbers are decimal strings of
// canonical values; G1 = [x, y, "1"], G2 = [[x.c0, x.c1], [y.c0, y.c1],
// ["1", "0"]] (c0 first), infinity G1 = ["0", "1", "0"] (ec/json_codec.h).
//
//   proof.json:  {"pi_a": G1, "pi_b": G2, "pi_c": G1, "protocol": "groth16", "curve": "bls12381"}
//   public.json: ["x1", ..., "xk"]  (outputs, then public inputs; ONE omitted);
//                for several proofs (ours): [["x1", ...], ["y1", ...]]
//   verification_key.json: {"protocol", "curve", "nPublic", "vk_alpha_1",
//     "vk_beta_2", "vk_gamma_2", "vk_delta_2", "vk_alphabeta_12", "IC"}
//
// Writers emit the fields in snarkjs's order with one-space indentation and
// no final newline, as the snarkjs 0.7.6 CLI writes them (the same bytes for
// the same values). Readers take what snarkjs's reader takes as well: "0x"
// hex strings, points as [x, y] (z one), and for public values JSON numbers
// that are exact integers; unlike snarkjs they refuse coordinates >= p (one
// encoding per proof) and z other than one or zero (snarkjs reads Jacobian
// coordinates; no tool writes them). Readers reject with INVALID_ARGUMENT
// naming the JSON field (e.g. "verification_key.json: IC[2]: ..."); a file of
// curve "bn128" is named as BN254's.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/base/status.h"
#include "cuzk/ec/curves.h"
#include "cuzk/ff/fp12.h"
#include "cuzk/groth16/keys.h"

namespace cuzk::io {

// ---- proof.json ---------------------------------------------------------
std::string proof_to_json(const groth16::Proof& proof);
// "protocol" and "curve", when present, must be "groth16" and "bls12381".
// Points: on the curve, in the subgroup unless check is kSkip.
StatusOr<groth16::Proof> proof_from_json(std::string_view text, ec::SubgroupCheck check = ec::SubgroupCheck::kCheck);

// ---- public.json --------------------------------------------------------
std::string public_inputs_to_json(std::span<const ff::Fr> inputs);
// An array of decimal or "0x" hex strings (JSON numbers that are exact
// non-negative integers are accepted too); each value must be < r, otherwise
// the error names its index.
// An array of arrays (one list per proof) is refused, saying so.
StatusOr<std::vector<ff::Fr>> public_inputs_from_json(std::string_view text);
// The public inputs of a multi-proof file: one array per proof, in proof
// order ([["x1", ...], ["y1", ...]]). The reader also takes a flat array (one
// proof's list) and returns it as the only list.
std::string public_input_lists_to_json(std::span<const std::vector<ff::Fr>> lists);
StatusOr<std::vector<std::vector<ff::Fr>>> public_input_lists_from_json(std::string_view text);

// ---- verification_key.json ----------------------------------------------
// vk_alphabeta_12 = e(alpha_1, beta_2) is computed with cuzk::pairing (the
// same convention as snarkjs/ffjavascript, @noble/curves and zkcrypto).
// beta_g1 and delta_g1 are not part of the format.
std::string vk_to_json(const groth16::VerifyingKey& vk);
// Requires protocol "groth16", curve "bls12381", nPublic = |IC| − 1;
// vk_alphabeta_12 is informational and ignored. beta_g1 and delta_g1 of the
// result are the identity.
StatusOr<groth16::VerifyingKey> vk_from_json(std::string_view text,
                                             ec::SubgroupCheck check = ec::SubgroupCheck::kCheck);

// Fp12 as snarkjs writes Gt: [[[c0.c0.c0, c0.c0.c1], [c0.c1...], [c0.c2...]], [[c1.c0...], ...]].
std::vector<std::vector<std::vector<std::string>>> fp12_to_json_strings(const ff::Fp12& v);

// ---- files --------------------------------------------------------------
StatusOr<groth16::Proof> read_proof_json(const std::string& path);
Status write_proof_json(const std::string& path, const groth16::Proof& proof);
StatusOr<std::vector<ff::Fr>> read_public_json(const std::string& path);
Status write_public_json(const std::string& path, std::span<const ff::Fr> inputs);
StatusOr<std::vector<std::vector<ff::Fr>>> read_public_json_lists(const std::string& path);
Status write_public_json_lists(const std::string& path, std::span<const std::vector<ff::Fr>> lists);
StatusOr<groth16::VerifyingKey> read_vk_json(const std::string& path);
Status write_vk_json(const std::string& path, const groth16::VerifyingKey& vk);

}  // namespace cuzk::io
