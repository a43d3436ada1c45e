// The engine's configuration, as values (no environment, no files: the
// server parses the TOML file and the flags and hands this over).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cuzk/base/env.h"
#include "cuzk/base/status.h"
#include "cuzk/groth16/backend.h"

namespace cuzk::engine {

// The generated demo circuit: a synthetic satisfiable circuit whose
// INSECURE development key (every secret derived from `seed`) is made on
// first use and cached. For demos, tests and benchmarks only.
struct DemoCircuitSpec {
  uint32_t lg_domain = 12;          // domain 2^lg_domain; constraints fill it up to the input rows
  uint32_t num_public_inputs = 4;   // ONE excluded
  double zero_one_fraction = 0.8;   // share of aux values that are 0 or 1
  uint64_t seed = 1;                // circuit, witness and key seed
};

// A Filecoin circuit that cuzk synthesizes itself (PoRep, Winning and Window
// PoSt, SnapDeals at one sector size). Its rows are synthesized once and
// cached in the engine's cache_dir; its key is the CircuitSpec's `params`
// (an official Filecoin .params file, checked against the synthesized
// circuit) or, with dev_key, an INSECURE development key generated into
// cache_dir on first use.
struct FilecoinCircuitSpec {
  std::string kind;          // "porep", "winning-post", "window-post", "snap-deals"
  uint64_t sector_size = 0;  // bytes
  bool dev_key = false;
  uint64_t dev_seed = 1;
};

// A benchmark circuit the engine builds in memory at its first use: the
// PoRep-shaped synthetic circuit of domain 2^lg (r1cs::generate_porep_shaped;
// the exact counts of a 32 GiB PoRep partition at lg = 27), an INSECURE
// development key (its fixed-base work on a GPU when there is one), and one
// satisfying witness that every partition of a request without witnesses
// proves (each with fresh blinding). For measuring the pipeline at sizes
// whose witnesses (4.2 GB at 2^27) no request could carry.
struct LoadedCircuit;
class CircuitSource;
struct SourceOptions;
struct BenchCircuitSpec {
  std::string shape;  // "porep"
  int lg = 0;         // 8..27
  uint64_t seed = 1;
  // In-process only: the circuit, key and witness already built (so that a
  // benchmark comparing engine settings builds them once).
  std::shared_ptr<const LoadedCircuit> prebuilt;
};

// A registered circuit: a proving key and what the prover needs besides it.
// Exactly one source: `zkey` (a snarkjs key, which carries its A/B
// coefficients), `params` with `r1cs` (a bellperson key and its circuit),
// `demo`, or `filecoin` (with `params` or a dev key, no r1cs).
struct CircuitSpec {
  std::string id;
  std::string zkey;
  std::string params;
  std::string r1cs;
  // Optional: the full circuit (circom .r1cs or precompiled, with C) to check
  // each witness row by row before proving, so that an unsatisfying witness
  // is reported with the failing constraint instead of as a failed
  // self-verification. Only useful with `zkey` (a zkey has no C matrix).
  std::string check_r1cs;
  bool demo = false;
  DemoCircuitSpec demo_spec;
  FilecoinCircuitSpec filecoin;  // used when filecoin.kind is set
  bool is_filecoin() const { return !filecoin.kind.empty(); }
  BenchCircuitSpec bench;  // used when bench.shape is set
  bool is_bench() const { return !bench.shape.empty(); }
};

struct EngineConfig {
  // The program's version, shown in /status and as cuzk_build_info (the
  // caller knows it; the engine is a library).
  std::string version;
  // Host memory the engine may reserve: proving keys in the HOT tier plus the
  // working sets of the partitions in flight. REQUIRES: > 0.
  uint64_t total_budget_bytes = uint64_t(8) << 30;
  // When no job is unfinished, give the allocator's free memory back to the
  // OS (malloc_trim): large job buffers otherwise stay in per-thread heaps
  // and the RSS stays high after a burst.
  bool trim_memory_when_idle = true;
  // Cap on HOT-tier key bytes (0: limited only by the total budget).
  uint64_t key_host_budget_bytes = 0;
  // Cap on DEVICE-tier key bytes per device (0: only the device's memory
  // budget limits them). A key whose points do not fit what is left after
  // idle keys are dropped is streamed from host memory instead.
  uint64_t key_device_budget_bytes = 0;
  // A key unused for at least this long may be demoted to make room.
  uint64_t eviction_min_idle_ms = 30'000;
  // Subgroup checks on every point of a key when it is loaded.
  bool check_key_points = true;

  uint32_t preparation_workers = 2;
  uint32_t workers_per_device = 2;
  uint32_t finalizer_threads = 1;
  uint32_t prover_threads = 0;  // compute pool size; 0 = all hardware threads
  // auto (every CUDA device, else the CPU), cpu, cuda (every CUDA device) or
  // cuda:N; see make_devices.
  std::vector<std::string> devices = {"auto"};
  // Device memory the engine may use per GPU (0: its free memory at start).
  uint64_t vram_limit_bytes = 0;
  // Keys are attached to GPUs with their circuits, so that a, b, c are made
  // on the device from the witness (only the witness crosses PCIe) wherever
  // the circuit fits beside a resident key; false: the host makes them.
  bool matvec_on_device = true;
  // Backends for device names the engine does not know itself (tests: fake
  // devices with scripted latencies and faults, or a CUDA backend with faults
  // injected). Called once per such entry of `devices`; NOT_FOUND means "not
  // mine" and the name is refused as unknown.
  std::function<StatusOr<std::unique_ptr<groth16::Backend>>(const std::string& name)> backend_factory;

  uint32_t max_queued_jobs = 1024;  // unfinished jobs; beyond: RESOURCE_EXHAUSTED
  uint32_t max_batch_size = 1;      // partitions of one circuit a prover worker takes at once
  uint32_t max_batch_wait_ms = 0;   // how long a worker waits to fill a batch
  uint32_t max_partitions_per_job = 256;

  bool self_verify = true;                // default when a request does not say
  uint64_t result_retention_ms = 600'000;  // finished jobs are forgotten after this

  // Key and circuit files are mapped, and idle times and retention are
  // timed, through this (tests pass one that fails on purpose). Not owned;
  // null: Env::posix().
  Env* env = nullptr;
  // Where generated demo keys are cached (created when missing).
  std::string cache_dir;
  std::vector<CircuitSpec> circuits;
  // How the circuits are made ready (their sources built: demo keys and
  // Filecoin rows generated, development keys made; key headers read).
  // false: Engine::create does it, in order, and fails on the first circuit
  // that fails. true: create() returns at once with every circuit "loading";
  // Engine::start_loading() builds them in order on a thread of the engine,
  // each served as soon as it is ready, one that fails kept as "failed" with
  // its reason while the others are served (the daemon: its listeners are
  // up meanwhile).
  bool load_in_background = false;
  // A circuit kept as "failed" is loaded again when it is asked for (a
  // preload or a proof request: Filecoin .params files still downloading
  // when the daemon started), at most once per this interval, measured on
  // the Env's clock from the end of its last attempt; within it the last
  // error is returned without touching the files.
  uint64_t circuit_retry_interval_ms = 1000;
  // Builds a circuit's source in place of make_circuit_source (tests: a slow
  // or failing circuit). Null: make_circuit_source.
  std::function<StatusOr<std::unique_ptr<CircuitSource>>(const CircuitSpec&, const SourceOptions&)> source_factory;

  // Checks ranges and the circuit list (unique ids, one source each).
  // Errors: INVALID_ARGUMENT naming the offending key.
  Status validate() const;
};

// Whether `name` is one of the device names make_devices knows without a
// backend factory (a config check can refuse the others before the start):
// auto, cpu, cpu0, cuda, cuda:N (N of at most three digits).
bool is_device_name(const std::string& name);

}  // namespace cuzk::engine
