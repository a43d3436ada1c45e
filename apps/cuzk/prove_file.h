// Arguments of `cuzk prove` with key files (the daemon client adds --addr and
// --circuit to the same command).
#pragma once

#include <string>

#include "backend_select.h"

namespace cuzk::app {

struct FileProveArgs {
  std::string zkey;         // snarkjs proving key
  std::string params;       // bellperson parameters (needs r1cs)
  std::string r1cs;         // circom .r1cs or cuzk precompiled circuit
  std::string wtns;         // circom witness
  std::string proof;        // output: *.json = snarkjs proof.json, else 192-byte proof
  std::string public_json;  // output: snarkjs public.json
  bool no_check = false;    // skip subgroup checks of key points (trusted files)
  int threads = 0;          // 0 = all cores
  BackendChoice backend;
};

int run_file_prove(const FileProveArgs& args);

}  // namespace cuzk::app
