// Identifies a key, circuit, witness or proof file and summarises it for
// humans (the CLI's `cuzk inspect`). Only headers and counts are read: no
// point is decoded except for proof files, which are small.
#pragma once

#include <string>

#include "cuzk/base/bytes.h"
#include "cuzk/base/status.h"

namespace cuzk::io {

enum class FileKind {
  kUnknown,
  kZkey,        // snarkjs proving key (iden3 "zkey")
  kR1cs,        // circom constraint system (iden3 "r1cs")
  kWtns,        // circom witness (iden3 "wtns")
  kPtau,        // powers of tau (iden3 "ptau")
  kPrecompiled, // cuzk precompiled circuit ("CUZKR1CS", r1cs/precompiled.h)
  kParams,      // bellperson parameter file
  kVk,          // bellperson verifying key
  kProofs,      // 192·k bytes of compressed Groth16 proofs
  kProofJson,   // snarkjs proof.json
  kVkJson,      // snarkjs verification_key.json
  kPublicJson,  // snarkjs public.json
};

const char* file_kind_name(FileKind kind);

// Detection: iden3 magic; the precompiled circuit's magic; JSON text by its top-level shape (object with
// "pi_a" / "vk_alpha_1", array); a positive multiple of 192 bytes whose first
// byte has the compression flag (0x80) → proofs; 868 + 96·ic_len bytes with a
// matching ic_len → .vk; a VK followed by five vectors that fit → .params.
FileKind detect_file_kind(ByteSpan bytes);

// "kind: ...", curve (files for BN254 are described and said to be
// unsupported), counts, sizes; for iden3 containers every section's id,
// name, payload offset and size; for .ptau files the power. With `json`, the
// same as one JSON object (snake_case keys; "sections" an array). Errors:
// NOT_FOUND etc. from opening the file; INVALID_ARGUMENT for an
// unrecognised or damaged file, naming the path.
StatusOr<std::string> inspect_file(const std::string& path, bool json = false);
StatusOr<std::string> inspect_bytes(ByteSpan bytes);
StatusOr<std::string> inspect_bytes_json(ByteSpan bytes);

}  // namespace cuzk::io
