// Arguments of `cuzk prove` with key files (the daemon client adds --addr and
// --circuit to the same command).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "cuzk/base/status.h"
#include "cuzk/groth16/prover.h"
#include "cuzk/r1cs/circuit.h"

#include "backend_select.h"

namespace cuzk::app {

struct FileProveArgs {
  std::string command = "prove";  // how messages name the command ("groth16 prove")
  std::string zkey;         // snarkjs proving key
  std::string params;       // bellperson parameters (needs r1cs)
  std::string r1cs;         // circom .r1cs or cuzk precompiled circuit
  std::string wtns;         // circom witness
  std::string proof;        // output: *.json (or snarkjs_json) = snarkjs proof.json, else 192-byte proof
  std::string public_json;  // output: snarkjs public.json
  bool no_check = false;    // accepted for older scripts: the default already skips them
  bool full_check = false;  // subgroup checks of every key point (remembered by content digest)
  std::string cache_dir;    // where the record of checked keys lives ("" = the default cache)
  bool json = false;        // a JSON summary on stdout
  // What stderr gets on success. kQuiet (snarkjs's commands, as snarkjs):
  // nothing. kSummary (`cuzk prove`): the backend line and the times.
  // kVerbose adds the stage times and why no GPU was used.
  enum class Talk { kQuiet, kSummary, kVerbose } talk = Talk::kSummary;
  // `groth16 prove`: the proof is snarkjs's proof.json whatever its name, as
  // snarkjs and rapidsnark write it (scripts pass names from mktemp).
  bool snarkjs_json = false;
  bool positional = false;  // the files came in snarkjs's order: messages name places, not options
  int threads = 0;          // 0 = all cores
  BackendChoice backend;
};

int run_file_prove(const FileProveArgs& args);

// --full-check, --no-check, --cache-dir on a prove command.
void add_key_check_options(CLI::App* cmd, FileProveArgs* args);
// snarkjs's positional order (circuit.zkey witness.wtns [proof.json
// [public.json]]) into args; with `snarkjs_defaults`, missing outputs are
// proof.json and public.json as snarkjs writes them. Errors: positional files
// together with the options they stand for, or fewer than two.
Status take_positional_prove_files(const std::vector<std::string>& files, FileProveArgs* args,
                                   bool snarkjs_defaults = false);

// Checks made before any work (prove_file_support.cc): exactly one key
// option, a witness, every input of the kind its option takes, outputs that
// are not inputs.
Status check_prove_inputs(const FileProveArgs& args);
// With --r1cs: the key's counts (from its header) against the circuit's, so
// that a key of another circuit is named before the witness is checked.
// Errors: INVALID_ARGUMENT "<key> is not a key of <r1cs>: ...", or the
// header's own errors.
Status check_key_fits_circuit(const FileProveArgs& args, const r1cs::CircuitShape& shape);
// A .params load that failed: when the key does not fit the circuit's
// counts, says so naming both files; otherwise the error with the path.
Status key_circuit_mismatch(const Status& load_error, const std::string& params, const std::string& r1cs);
// The --json summary of a successful `cuzk prove` (key files).
std::string prove_summary_json(const FileProveArgs& args, const groth16::StageTimes& times, double load_s,
                               double attach_s, double verify_s, const std::string& key_note);

}  // namespace cuzk::app
