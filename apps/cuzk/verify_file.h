// `cuzk verify` (and `cuzk groth16 verify`): a verifying key, public inputs
// and a proof file, with snarkjs's exit status (0 valid, 1 invalid, 2 bad
// input).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cuzk/base/status.h"

namespace cuzk::app {

struct VerifyArgs {
  std::string vkey_json;    // snarkjs verification_key.json, or a .zkey (its verifying key)
  std::string vk_bin;       // bellperson .vk, or a .params (the verifying key at its head)
  std::string public_json;  // public.json: one list, or one list per proof
  std::string proof;        // proof.json, or a file of 192-byte proofs
  int64_t index = -1;       // a multi-proof file: which proof (-1: all of them)
  bool json = false;        // a JSON result on stdout
  bool positional = false;  // the files came in snarkjs's order: messages name places, not options
};

// Messages name `command` ("verify", "groth16 verify"); with --json a
// failure is also a JSON error object on stdout.
int run_verify(const VerifyArgs& args, const char* command = "verify");

// snarkjs's positional order (verification_key.json public.json proof.json)
// into args; with `snarkjs_defaults` missing ones take snarkjs's default
// names. Errors: positional files together with the options, or fewer than
// three without defaults.
Status take_positional_verify_files(const std::vector<std::string>& files, VerifyArgs* args, bool snarkjs_defaults);

}  // namespace cuzk::app
