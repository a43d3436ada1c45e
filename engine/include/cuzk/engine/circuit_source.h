// Where a registered circuit's proving key comes from, and what a loaded
// (HOT) key holds. The key manager decides when to load; a CircuitSource
// knows how.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cuzk/base/env.h"
#include "cuzk/base/mapped_file.h"
#include "cuzk/base/status.h"
#include "cuzk/base/thread_pool.h"
#include "cuzk/engine/config.h"
#include "cuzk/groth16/keys.h"
#include "cuzk/groth16/verifier.h"
#include "cuzk/r1cs/circuit.h"

namespace cuzk::engine {

// What a request's witness must look like; read from file headers without
// loading the key.
struct CircuitInfo {
  uint64_t num_vars = 0;    // witness length, ONE included
  uint64_t num_public = 0;  // public inputs, ONE excluded
  int lg_n = 0;             // domain 2^lg_n
  uint64_t key_file_bytes = 0;
  uint64_t est_key_bytes = 0;  // host bytes the key takes once loaded (an upper estimate)
  bool generates_witness = false;  // a bench circuit: requests may bring empty witnesses
};

// A key decoded into host memory with everything the prover needs.
// Immutable once built; shared by every partition that uses it.
struct LoadedCircuit {
  groth16::ProvingKey pk;
  // The rows the prover multiplies: the key's A/B rows with the input rows
  // for a snarkjs key (c_rule kProductOfAB), the circuit's own rows for a
  // bellperson key (kMatrix).
  r1cs::Circuit prove_circuit;
  groth16::CRule c_rule = groth16::CRule::kMatrix;
  // Full rows (with C) each witness is checked against before proving, when
  // known; a failed check names the constraint.
  std::optional<r1cs::Circuit> check_circuit;
  std::shared_ptr<const groth16::PreparedVerifyingKey> pvk;
  // Mapped files that arrays of the key view while it is HOT (a precompiled
  // circuit is used in place). A file shrinking under the key is seen by
  // check_files(), never as a crash.
  std::vector<std::shared_ptr<const MappedFile>> files;
  // A bench circuit's witness, proved by partitions that bring none.
  std::vector<ff::Fr> bench_witness;

  uint64_t host_bytes() const;
  // DATA_LOSS naming the first of `files` that changed while in use.
  Status check_files() const;
};

class CircuitSource {
 public:
  virtual ~CircuitSource() = default;
  virtual const std::string& id() const = 0;
  // Reads headers only. Errors: FAILED_PRECONDITION naming the file.
  virtual StatusOr<CircuitInfo> describe() = 0;
  // The key file the WARM tier maps; empty when the key has no file (a
  // bench circuit built in memory).
  virtual std::string key_path() const = 0;
  // Decodes the key; `mapped`, when given, is a mapping of key_path().
  // progress receives fractions in [0, 1] from the calling thread.
  virtual StatusOr<std::shared_ptr<const LoadedCircuit>> load(const MappedFile* mapped,
                                                              const std::function<void(double)>& progress) = 0;
};

struct SourceOptions {
  // Subgroup checks of every key point on load; a key whose content passed
  // them once is recorded in <cache_dir>/checked-keys and not checked again.
  bool check_points = true;
  ThreadPool* pool = nullptr;
  std::string cache_dir;     // demo circuits, the record of checked keys
  Env* env = nullptr;        // how files are mapped; null: Env::posix()
  // Nothing is written (`cuzk serve --check-config`): a Filecoin circuit's
  // rows are not synthesized into the cache and no directory is made; the
  // source is only good for describe(), which reads the key file's header.
  bool check_only = false;
  // Called (from the calling thread) as each slow step of making the source
  // begins, with what it does ("synthesizing the circuit's rows", ...), so
  // that a caller can show and time it; an error it returns stops the making
  // there and is returned (the daemon is stopping). Empty: not told.
  std::function<Status(const std::string& step)> on_step;
};

// The source for a validated spec. Demo circuits are generated here when
// their cached files are missing (seconds for 2^12; logs a line saying the
// key is INSECURE); a Filecoin circuit's key file is checked against the
// circuit before its rows are synthesized into the cache. Errors:
// FAILED_PRECONDITION naming the file or step.
StatusOr<std::unique_ptr<CircuitSource>> make_circuit_source(const CircuitSpec& spec, const SourceOptions& options);

// Files of a demo circuit in the cache directory.
struct DemoFiles {
  std::string zkey;     // INSECURE dev key, snarkjs layout
  std::string circuit;  // the full circuit (with C), cuzk precompiled format
  std::string wtns;     // one satisfying witness
  std::string vk_json;  // the verifying key, snarkjs verification_key.json
};
DemoFiles demo_files(const DemoCircuitSpec& spec, const std::string& cache_dir);

// Generates the demo circuit's files unless they all exist. Returns whether
// it generated them.
StatusOr<bool> ensure_demo_files(const DemoCircuitSpec& spec, const std::string& cache_dir, ThreadPool* pool);

}  // namespace cuzk::engine
