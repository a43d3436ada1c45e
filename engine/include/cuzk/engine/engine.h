// The proving engine: jobs in, verified proofs out.
//
//   submit ─> prep queue (priority) ─> preparation workers: key lease,
//   memory reservation (admission), witness intake and checks
//   ─> prover queue (priority, same-circuit batches) ─> prover workers
//   (workers_per_device per device, sharing the device's interlock)
//   ─> finalizers (self-verification, encoding) ─> per-job assembly in
//   partition order ─> await()
//
// Every public method is thread-safe. The engine owns every thread it uses.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cuzk/base/status.h"
#include "cuzk/base/trace.h"
#include "cuzk/engine/config.h"
#include "cuzk/engine/filecoin.h"
#include "cuzk/engine/key_manager.h"
#include "cuzk/engine/types.h"

namespace cuzk::engine {

struct JobRequest {
  std::string request_id;  // idempotency key; empty = none
  ProofKind kind = ProofKind::kUnspecified;
  Priority priority = Priority::kUnspecified;
  std::string circuit_id;
  std::vector<std::string> witnesses;  // .wtns bytes, one per partition
  std::optional<bool> self_verify;
  // For kinds other than GROTH16_CIRCUIT: the request's remaining fields,
  // serialized deterministically (they enter the idempotency digest only).
  std::string other_payload;
  // The Filecoin kinds' fields (vanilla proofs, randomness, commitments). Its
  // circuit is circuit_id when set, else the registered Filecoin circuit of
  // the kind and sector size.
  std::shared_ptr<const FilecoinRequest> filecoin;
};

struct SubmitResult {
  std::string job_id;
  uint32_t queue_position = 0;  // partitions served before this job's first
  bool deduplicated = false;    // an earlier job with the same request_id
};

struct JobTimings {
  uint64_t queue_wait_ms = 0;  // submit until the first partition is picked up
  uint64_t srs_load_ms = 0;    // waiting for the key to load (sum over partitions)
  uint64_t synthesis_ms = 0;   // witness intake, checks and a,b,c (sum)
  uint64_t compute_ms = 0;     // NTT/H, MSMs and assembly (sum)
  uint64_t verify_ms = 0;      // self-verification (sum)
  uint64_t total_ms = 0;       // submit until done
};

struct JobResult {
  std::string job_id;
  JobOutcome outcome = JobOutcome::kUnknown;
  std::string proof;  // 192 bytes per partition, in partition order
  std::vector<std::array<uint8_t, 32>> public_inputs;  // big-endian, all partitions in order
  std::string error_message;
  JobTimings timings;
  uint64_t finish_seq = 0;  // 1 for the first job the engine finished, 2 for the next...
};

struct PartitionStatus {
  uint32_t index = 0;
  PartitionState state = PartitionState::kQueued;
  // Stage durations so far, ms: queue, admission (key + memory), preparation,
  // waiting for a worker, proving (matvec, h, msm, assembly), finalization.
  double queue_ms = 0, admit_ms = 0, prep_ms = 0, wait_worker_ms = 0, prove_ms = 0, finalize_ms = 0;
  double matvec_ms = 0, h_ms = 0, msm_ms = 0, assembly_ms = 0, verify_ms = 0;
  std::string worker;
};

struct JobStatus {
  std::string job_id, request_id, circuit_id;
  // The Filecoin kinds: the sector the request names (miner id and sector
  // number, as the request gave them).
  bool has_sector = false;
  uint64_t miner_id = 0, sector_number = 0;
  ProofKind kind = ProofKind::kUnspecified;
  Priority priority = Priority::kNormal;
  JobState state = JobState::kQueued;
  JobOutcome outcome = JobOutcome::kUnknown;
  double age_s = 0;
  std::string error_message;
  std::vector<PartitionStatus> partitions;
};

struct WorkerStatus {
  std::string name;    // "prep0", "cpu0/w1", "final0"
  std::string device;  // for prover workers
  bool busy = false;
  std::string job_id;
  ProofKind kind = ProofKind::kUnspecified;
  double busy_fraction = 0;  // of the time since start
};

// Time spent in one stage since the start: the sum and how many times.
struct StageTotal {
  double sum_ms = 0;
  uint64_t count = 0;
  double mean_ms() const { return count ? sum_ms / double(count) : 0; }
};
// By stage name: the pipeline's stages of a partition (queue, admit,
// prepare, wait_worker, stage, interlock_wait, prove, finalize, verify) in
// EngineStatus, a device's own stages (upload, matvec, h, msm_h, ...) in
// DeviceStatus. The same figures as cuzk_stage_seconds and
// cuzk_device_stage_seconds, for readers that want numbers, not text.
using StageTotals = std::map<std::string, StageTotal>;

// One proving device as /status shows it.
struct DeviceStatus {
  std::string name;         // "cuda:0", "cpu"
  std::string description;  // the backend's one-line summary (model, budget)
  // Device memory (all 0 on the CPU): the device's own size, the budget the
  // engine may use of it (free memory at start, lowered by
  // pipeline.vram_limit), what keys and lanes hold now, and the peak.
  uint64_t vram_total_bytes = 0, vram_budget_bytes = 0, vram_used_bytes = 0, vram_peak_bytes = 0;
  uint64_t key_budget_bytes = 0;  // keys.device_budget per device (0: only the VRAM budget limits keys)
  double busy_fraction = 0;       // device time of finished proofs / uptime (CUDA events on a GPU)
  std::vector<std::string> workers;
  struct ResidentKey {
    std::string circuit_id;
    uint64_t device_bytes = 0;
    std::string placement;  // "device-resident: ...", "streamed from pinned host memory: ..."
    bool in_use = false;    // a lane holds it now
    double idle_s = 0;      // since it was last used
  };
  std::vector<ResidentKey> keys;  // the DEVICE tier on this device
  // Fallbacks seen on this device, by cause (pageable_upload, pinned_alloc,
  // key_streamed, plain_path, device_error); only causes seen are listed.
  std::vector<std::pair<std::string, uint64_t>> fallbacks;
  uint64_t bytes_uploaded = 0;
  StageTotals stages;
};

struct QueueDepth {
  ProofKind kind = ProofKind::kUnspecified;
  uint32_t pending = 0;      // partitions not yet in a prover worker
  uint32_t in_progress = 0;  // partitions proving or finalizing
};

// Where a configured circuit stands (EngineConfig::load_in_background).
enum class CircuitState { kLoading, kReady, kFailed };
std::string_view circuit_state_name(CircuitState state);  // "loading", "ready", "failed"

struct CircuitLoadStatus {
  std::string id;
  CircuitState state = CircuitState::kLoading;
  std::string step;   // loading: what it does now ("waiting for the circuits before it", ...)
  std::string error;  // failed: why
  // loading: seconds since its load began (0 while it waits its turn), and
  // in its current step; ready or failed: how long the load took.
  double elapsed_s = 0, step_s = 0;
};

struct EngineStatus {
  double uptime_s = 0;
  std::string version;  // EngineConfig::version
  uint64_t budget_used_bytes = 0, budget_total_bytes = 0, budget_peak_bytes = 0;
  uint64_t pinned_idle_bytes = 0;  // pinned buffers kept for reuse (part of budget_used_bytes)
  uint64_t pinned_allocated = 0, pinned_freed = 0;  // pinned input buffers made and freed since the start
  uint64_t proofs_completed = 0, proofs_failed = 0, proofs_cancelled = 0;
  bool shutting_down = false;
  std::vector<JobStatus> jobs;
  std::vector<WorkerStatus> workers;
  std::vector<KeyStatus> keys;
  std::vector<CircuitLoadStatus> circuits;  // every configured circuit, in configuration order
  std::vector<QueueDepth> queues;
  std::vector<std::string> devices;         // names, in configuration order
  std::vector<DeviceStatus> device_status;  // the same devices in detail
  uint32_t prover_threads = 0;  // the compute pool's threads (pipeline.prover_threads, or all cores)
  StageTotals stages;           // partitions' stages, all devices together
};

// Allocator settings for a process that runs an engine (glibc; elsewhere a
// no-op). glibc raises its mmap threshold after the first large buffer is
// freed, after which witnesses, a, b and c come from per-thread heaps that
// keep the memory: after queue floods the RSS stayed far above its baseline
// (docs/hardening.md). A fixed threshold of 64 KiB keeps every allocation of
// that size or more in a mapping of its own, returned to the OS when freed;
// the engine trims the heaps when it goes idle (memory.trim_when_idle).
// Engine::create calls it, so that every process that runs an engine (the
// daemon, `cuzk bench pipeline`, the tests) allocates the same way.
void tune_allocator();

// The checks submit() makes before it looks at circuits or witnesses:
// circuit_id and request_id at most 512 bytes, kind and priority values of
// the wire enums. Errors: INVALID_ARGUMENT naming the field.
Status check_request_fields(const JobRequest& request);

class Engine {
 public:
  // Starts the workers and, unless config.load_in_background, builds the
  // circuit sources (generating demo circuits when needed). Errors:
  // INVALID_ARGUMENT from config.validate(), FAILED_PRECONDITION when a
  // circuit's files are unusable (only without load_in_background).
  static StatusOr<std::unique_ptr<Engine>> create(const EngineConfig& config);
  // With load_in_background: starts making the circuits ready, in
  // configuration order, on a thread of the engine (a second call does
  // nothing). Each step is logged with its time; status().circuits shows
  // where each one stands. Without it: nothing (create() did it).
  void start_loading();
  // Waits up to `timeout` until no circuit is loading; returns whether none is.
  bool wait_for_circuits(std::chrono::milliseconds timeout);
  // Cancels what is left and joins every thread.
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Queues a job. The same request_id with the same payload returns the
  // existing job. Errors: INVALID_ARGUMENT (bad kind, missing or malformed
  // witness, wrong witness length), NOT_FOUND (unknown circuit),
  // ALREADY_EXISTS (request_id reused with another payload),
  // RESOURCE_EXHAUSTED (queue full, or a partition can never fit the
  // budget), UNAVAILABLE (shutting down, or the circuit is still loading:
  // the message names its step), FAILED_PRECONDITION (the circuit failed to
  // load: the message says why).
  StatusOr<SubmitResult> submit(JobRequest request);

  // Counts in the memory budget `bytes` of host memory that a request
  // holds while the server decodes and submits it (the parsed message and
  // what is made from it), making room as an admission does but never
  // waiting (KeyManager::reserve_now: past the total when work in flight
  // holds the rest, so that admissions wait for it); they return when the
  // reservation ends. The job's own memory is reserved when its partitions
  // are admitted. REQUIRES: the reservation ends before the engine. Errors:
  // RESOURCE_EXHAUSTED when bytes exceed the whole budget, naming both
  // (counted as a refused submit).
  StatusOr<Reservation> reserve_request_memory(uint64_t bytes);

  // Waits for the job; with a timeout (nullopt = forever) an unfinished job
  // gives outcome kTimeout and keeps running. A timeout beyond 2^40 ms
  // (about 31 years) is taken as forever, a negative one as zero.
  // Errors: NOT_FOUND.
  StatusOr<JobResult> await(const std::string& job_id, std::optional<std::chrono::milliseconds> timeout);

  // Cancels a job in any state; its queued partitions and their memory are
  // released at once, a partition inside a worker at its next stage
  // boundary. Returns whether a partition was proving. A finished job is left
  // as it is. Errors: NOT_FOUND.
  StatusOr<bool> cancel(const std::string& job_id);

  // Header facts of a registered circuit (estimated key bytes included) and
  // the bytes a partition with `wtns_bytes` of witness reserves.
  StatusOr<CircuitInfo> circuit_info(const std::string& circuit_id);
  StatusOr<uint64_t> partition_reservation_bytes(const std::string& circuit_id, uint64_t wtns_bytes);

  StatusOr<KeyManager::PreloadResult> preload(const std::string& circuit_id);
  StatusOr<KeyManager::EvictResult> evict(const std::string& circuit_id);

  EngineStatus status() const;
  // Prometheus text of every engine metric.
  std::string metrics_text() const;
  MetricsRegistry& metrics();

  // Stops accepting jobs (submit answers UNAVAILABLE).
  void stop_accepting();
  // Waits up to `grace` for unfinished jobs; returns true when none is left.
  bool drain(std::chrono::milliseconds grace);
  // Cancels every unfinished job (their awaiters see CANCELLED with `reason`).
  void cancel_all(const std::string& reason);

 private:
  class Impl;
  explicit Engine(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace cuzk::engine
