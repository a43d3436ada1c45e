// The engine's internals, shared by engine.cc (API, bookkeeping) and
// pipeline.cc (worker loops).
//
// Ownership: a partition's buffers (wtns bytes, witness, reservation, key
// lease) belong to whoever popped it from a queue; the queue owns them while
// it is queued. Its state and timing fields are GUARDED_BY(Impl::mu_).
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "cuzk/base/mutex.h"
#include "cuzk/base/thread_pool.h"
#include "cuzk/base/trace.h"
#include "cuzk/engine/engine.h"
#include "cuzk/engine/interlock.h"
#include "cuzk/engine/key_manager.h"
#include "cuzk/engine/memory_budget.h"
#include "cuzk/engine/work_queue.h"
#include "cuzk/groth16/backend.h"
#include "cuzk/groth16/prover.h"
#include "input_window.h"
#include "pinned_pool.h"

namespace cuzk::engine {

using Clock = std::chrono::steady_clock;

// Whether a stage time point was recorded (the default-constructed one is "not yet").
inline bool is_set(Clock::time_point t) { return t.time_since_epoch().count() != 0; }

// 0 when either point is not set.
inline void add_stage(StageTotals& totals, const std::string& stage, double ms) {
  StageTotal& t = totals[stage];
  t.sum_ms += ms;
  ++t.count;
}

inline double ms_between(Clock::time_point a, Clock::time_point b) {
  return !is_set(a) || !is_set(b) ? 0 : std::chrono::duration<double, std::milli>(b - a).count();
}

// Who makes a partition's a, b, c: decided once, at admission
// (Engine::Impl::plan_inputs), from what the devices hold then.
enum class RowsBy : uint8_t {
  kHost,    // the preparation stage: into pinned buffers (GPU devices) or rows (the CPU)
  kDevice,  // the prover's device, from the witness (its key's circuit is kept there)
};

// What a partition proves with, from admission to the end of its proof.
// Owned by whoever holds the partition (see above).
struct PartitionInputs {
  RowsBy rows_by = RowsBy::kHost;
  // The reservation includes a, b, c on the host (false only when every GPU
  // was known to make them at admission).
  bool rows_reserved = true;
  // The witness has not been checked against the circuit's rows yet: the
  // device checks it where it makes a, b, c (kDevice), else the host.
  bool rows_unchecked = false;
  std::vector<ff::Fr> witness;          // parsed; what the CPU device proves with
  groth16::HostBuffer pinned_witness;   // the copy a GPU uploads (the parsed one is dropped then)
  groth16::HostBuffer a, b, c;          // pinned rows made on the host for a GPU
  groth16::RowValues rows;              // rows made on the host for the CPU device
  // Idle pooled buffers the admission took (with their budget charges) for
  // the buffers above; each is used by the first buffer of its size.
  std::vector<groth16::HostBuffer> claimed;
  // With kDevice: every GPU's attached key, held so that none leaves its
  // device (and with it the circuit that makes the rows) before the proof.
  std::vector<std::shared_ptr<const groth16::AttachedKey>> row_keys;
  double matvec_ms = 0;  // the host matvec's wall time

  // The witness the prover uses: the pinned copy when there is one.
  std::span<const ff::Fr> witness_span() const {
    return pinned_witness.data() ? std::span<const ff::Fr>(pinned_witness.span()) : std::span<const ff::Fr>(witness);
  }
  bool have_rows() const { return !rows.a.empty() || a.data() != nullptr; }
  // A claimed buffer of n values, or an empty one.
  groth16::HostBuffer use_claimed(uint64_t n);
  // Frees everything (pooled buffers go back to the pool).
  void clear();
};

struct Partition {
  uint32_t index = 0;
  // GUARDED_BY(Impl::mu_):
  PartitionState state = PartitionState::kQueued;
  Clock::time_point picked, admitted, prepared, prove_start, prove_end, done;
  double srs_wait_ms = 0, verify_ms = 0;
  groth16::StageTimes stages;
  std::string worker;
  std::array<uint8_t, 192> proof_bytes{};
  std::vector<ff::Fr> public_inputs;  // written by its holder before it reaches kDone
  // Owned by the holder (see above):
  std::string wtns;
  PartitionInputs inputs;
  Reservation reservation;
  KeyLease key;
  InputWindow::Slot window;  // its place among the partitions holding inputs
  groth16::Proof proof;
};

struct Job {
  std::string id, request_id, circuit_id;
  uint64_t seq = 0;
  ProofKind kind = ProofKind::kUnspecified;
  Priority priority = Priority::kNormal;
  bool self_verify = true;
  std::array<uint64_t, 2> digest{};
  uint64_t witness_bytes = 0;
  uint64_t est_partition_bytes = 0;
  Clock::time_point submitted;
  std::vector<std::unique_ptr<Partition>> partitions;  // the vector is fixed after submit
  std::shared_ptr<const FilecoinWork> filecoin;        // Filecoin kinds: the decoded request
  std::string decode_error;                            // Filecoin kinds: why decoding failed
  bool has_sector = false;                             // Filecoin kinds: the sector the request names
  uint64_t miner_id = 0, sector_number = 0;
  std::atomic<bool> finished{false};  // mirrors outcome != kUnknown, for lock-free checks

  // GUARDED_BY(Impl::mu_):
  JobOutcome outcome = JobOutcome::kUnknown;
  Clock::time_point finished_at;
  Clock::time_point forget_at;  // on the Env's clock: when retention drops the job
  std::string error;
  uint32_t partitions_done = 0;
  JobResult result;
};

struct Item {
  std::shared_ptr<Job> job;
  uint32_t index = 0;
  Partition& part() const { return *job->partitions[index]; }
};

struct WorkerSlot {
  std::string name, device;
  std::unique_ptr<groth16::Lane> lane;  // prover workers: their lane on their device
  // GUARDED_BY(Impl::mu_):
  bool busy = false;
  std::string job_id;
  ProofKind kind = ProofKind::kUnspecified;
  Clock::time_point busy_since;
  double busy_ms = 0;
};

struct Device {
  std::string name;
  DeviceInterlock interlock;
  std::unique_ptr<groth16::Backend> backend;
  // Keys attached to this device (on a GPU, the DEVICE tier), by circuit id;
  // each keeps the host key it views alive. GUARDED_BY(keys_mu).
  struct AttachedEntry {
    std::shared_ptr<const LoadedCircuit> host;
    std::shared_ptr<const groth16::AttachedKey> key;  // destroyed before host
    std::chrono::steady_clock::time_point last_used;
  };
  // Held across an attach (seconds for a large key): never taken by code
  // that others wait on (the queues, status, the key manager's callbacks).
  std::mutex keys_mu;
  std::map<std::string, AttachedEntry> keys;
  groth16::BackendCaps caps;  // backend->caps(), read once

  // What `keys` holds, for readers that must not wait for an attach.
  // GUARDED_BY(view_mu).
  struct KeyView {
    std::string circuit_id;
    std::weak_ptr<const groth16::AttachedKey> key;
    uint64_t device_bytes = 0;
    std::string placement;
    std::chrono::steady_clock::time_point last_used;
  };
  std::mutex view_mu;
  std::vector<KeyView> view;
  std::vector<std::string> pending_drops;  // asked for while an attach held keys_mu
  // Rebuilds `view` from `keys`. REQUIRES: keys_mu held.
  void publish_keys();
  // Applies pending_drops to `keys`. REQUIRES: keys_mu held.
  void apply_pending_drops();
  // Whether `circuit_id` is attached here (the CPU attaches per partition:
  // never). Takes view_mu only.
  bool holds(const std::string& circuit_id);
  // The key of `circuit_id` attached here, or null. Takes view_mu only.
  std::shared_ptr<const groth16::AttachedKey> attached(const std::string& circuit_id);
  std::atomic<uint32_t> idle_workers{0};  // prover workers waiting for a partition
  // GUARDED_BY(Impl::mu_):
  double busy_ms = 0;  // device time of finished proofs (CUDA events)
  std::map<groth16::Fallback, uint64_t> fallbacks;
  uint64_t bytes_uploaded = 0;
  StageTotals stages;  // its own stages (cuzk_device_stage_seconds)
};

// The devices `pipeline.devices` names (auto, cpu, cuda, cuda:N).
// Errors: INVALID_ARGUMENT naming the setting and the device.
StatusOr<std::vector<std::unique_ptr<Device>>> make_devices(const EngineConfig& config, ThreadPool* pool);


class Engine::Impl {
 public:
  explicit Impl(const EngineConfig& config);
  ~Impl();
  Status start();

  StatusOr<SubmitResult> submit(JobRequest request);
  StatusOr<SubmitResult> submit_unmetered(JobRequest request);
  // circuit_loader.cc: making the configured circuits ready.
  void start_loading();
  bool wait_for_circuits(std::chrono::milliseconds timeout) EXCLUDES(circuits_mu_);
  // OK for a ready circuit (or one not configured: NOT_FOUND comes later),
  // UNAVAILABLE naming the step of one still loading, FAILED_PRECONDITION
  // saying why one failed to load.
  Status check_circuit_ready(const std::string& id) const EXCLUDES(circuits_mu_);
  // check_circuit_ready(), but a circuit kept as failed is first loaded again
  // on the caller's thread (see EngineConfig::circuit_retry_interval_ms);
  // callers that come meanwhile get UNAVAILABLE naming the retry's step.
  // The retry ends at its next step once the engine stops accepting work
  // (the circuit stays failed; the caller gets UNAVAILABLE).
  Status ready_or_retry(const std::string& id) EXCLUDES(circuits_mu_);
  std::vector<CircuitLoadStatus> circuit_status() const EXCLUDES(circuits_mu_);
  StatusOr<JobResult> await(const std::string& job_id, std::optional<std::chrono::milliseconds> timeout);
  StatusOr<bool> cancel(const std::string& job_id);
  EngineStatus status() const;
  void stop_accepting();
  bool drain(std::chrono::milliseconds grace);
  void cancel_all(const std::string& reason);
  uint64_t partition_estimate(const CircuitInfo& info, uint64_t wtns_bytes) const;

  const std::string job_id_prefix_;  // "job-<start time>-": ids do not repeat across restarts
  EngineConfig config_;
  Env* env_;  // config_.env or Env::posix()
  MetricsRegistry metrics_;
  std::unique_ptr<MemoryBudget> budget_;   // before the pinned pool, whose idle buffers hold reservations
  PinnedPool pinned_pool_;                 // before the queues and jobs, which hold its buffers
  std::unique_ptr<InputWindow> window_;    // likewise (partitions hold its slots); made by start()
  groth16::Backend* host_alloc_ = nullptr;  // the backend partition inputs are allocated for (a GPU's), or none
  std::unique_ptr<ThreadPool> pool_;
  std::unique_ptr<KeyManager> keys_;
  std::vector<std::unique_ptr<Device>> devices_;
  WorkQueue<Item> prep_queue_;
  WorkQueue<Item> prove_queue_;
  WorkQueue<Item> final_queue_;
  Clock::time_point started_ = Clock::now();

 private:
  // circuit_loader.cc
  // Makes the configured circuit `index` ready (its source, its header facts,
  // its entry in keys_); returns why it failed.
  Status load_circuit(size_t index, std::stop_token stop);
  // Every configured circuit in order; each failure is kept, and logged.
  void load_circuits(std::stop_token stop);
  // Circuit `index` begins `step`: shown in status, logged with the time the
  // step before it took.
  void begin_step(size_t index, std::string step) EXCLUDES(circuits_mu_);
  // Stops the loader thread and retries on callers' threads: no circuit
  // starts loading after this; the step in progress (which cannot be
  // interrupted) ends first, and every retry has ended on return.
  void stop_loading() EXCLUDES(circuits_mu_);
  void end_load(size_t index, const Status& result) EXCLUDES(circuits_mu_);
  // Circuit `id` when it is failed and due for another attempt (it is then
  // marked loading, and counted in retries_in_flight_), else nullopt: its
  // index, and the attempt this is (the first load was attempt 1).
  struct RetryClaim {
    size_t index;
    uint32_t attempt;
  };
  std::optional<RetryClaim> claim_retry(const std::string& id) EXCLUDES(circuits_mu_);

  // pipeline.cc
  void remove_stale_cache_files();
  void prep_loop(WorkerSlot* slot);
  void prover_loop(Device* device, WorkerSlot* slot);
  void final_loop(WorkerSlot* slot);
  void housekeeping_loop();
  // Pinned buffers for a full input window of `circuit_id`, made ahead of
  // its first job where the budget has room (PreloadSRS).
  void make_pinned_inputs(const std::string& circuit_id);
  // partition_inputs.cc: from a queued partition to its inputs, ready for
  // a prover worker (admission, witness intake, the row check, the matvec
  // where the host makes the rows).
  Status admit_and_prepare(Item& item, WorkerSlot* slot);
  // Who makes the rows of `circuit_id`'s partitions, from what the devices
  // hold now: the host; every GPU, whose attached keys (with their circuits)
  // go into *keys when keys is set; or the GPUs, once the key is attached.
  enum class RowsPlan { kHost, kDevice, kDeviceOnceAttached };
  RowsPlan rows_plan(const std::string& circuit_id, std::vector<std::shared_ptr<const groth16::AttachedKey>>* keys);
  // The pinned buffers (their sizes in values) one partition fills.
  std::vector<uint64_t> pinned_sizes(const CircuitInfo& info, RowsBy rows_by) const;
  // The one place that decides who makes a partition's a, b, c (sets
  // p.inputs.rows_by and holds the keys that make them) and returns the host
  // bytes the partition needs beyond its key.
  uint64_t plan_inputs(Item& item, const CircuitInfo& info);
  Status prepare(Item& item);
  Status prepare_bench(Item& item);
  // A pinned copy of `witness` (GPU devices; nothing on the CPU).
  Status pin_witness(Partition& p, std::span<const ff::Fr> witness);
  // a, b, c from the partition's witness on the host: into pinned buffers
  // (GPU devices) or p.inputs.rows (the CPU).
  Status host_rows(Partition& p);
  // A pinned buffer of n values: one the admission claimed, else from the pool.
  StatusOr<groth16::HostBuffer> pinned_buffer(Partition& p, uint64_t n);
  // The matvec in the prover worker for a device that turned out not to
  // make the rows (its key left it after admission): the rows' memory is
  // reserved first (prove_one counts the host_matvec fallback).
  Status rows_for_device(Device* device, Item& item);
  Status prove_one(Device* device, Item& item, WorkerSlot* slot);
  // devices.cc
  // The key of `circuit_id` attached to `device` (the DEVICE tier on a GPU),
  // attaching it when needed within keys.device_budget and the device's
  // memory, dropping idle keys least recently used to make room.
  StatusOr<std::shared_ptr<const groth16::AttachedKey>> device_key(Device& device, const std::string& circuit_id,
                                                                   const KeyLease& lease);
  // How well a partition of `circuit_id` suits `device` now: 2 its key is
  // attached there, 1 it may go there, 0 it should wait for another device
  // that holds the key and has an idle worker.
  int affinity(const Device& device, const std::string& circuit_id);
  // Places the key on every GPU device where it fits (PreloadSRS).
  Status place_on_devices(const std::string& circuit_id);
  // Drops the key from every device (its host key left the HOT tier).
  void drop_from_devices(const std::string& circuit_id);
  void count_fallback(Device* device, groth16::Fallback cause);
  void record_lane(Device& device, const groth16::LaneTimes& lt, double stage_ms, double wait_ms, double run_ms);
  Status finalize_one(Item& item);
  Status self_verify_failure(Item& item);

  // engine.cc
  StatusOr<SubmitResult> enqueue(std::shared_ptr<Job> job);
  void fill_result_locked(Job& job) REQUIRES(mu_);
  // Frees a partition's buffers, reservation and key reference.
  // REQUIRES: the caller holds the partition (popped it or removed it).
  static void release_buffers(Partition& p);
  Status validate_request(const JobRequest& request, uint64_t* est_partition_bytes);
  // filecoin_jobs.cc: the circuit of a Filecoin request, its partition
  // estimate, and the job's partitions from the decoded vanilla proofs.
  Status route_filecoin_request(JobRequest& request);
  Status validate_filecoin_request(const JobRequest& request, uint64_t* est_partition_bytes);
  void add_filecoin_partitions(const JobRequest& request, Job& job);
  void set_state(Item& item, PartitionState state, WorkerSlot* slot = nullptr);
  void set_busy(WorkerSlot* slot, const Item* item);
  // Ends a job; returns the queued items to destroy outside the lock.
  std::vector<Item> finish_job_locked(Job& job, JobOutcome outcome, const std::string& error) REQUIRES(mu_);
  void fail_job(Job& job, const Status& status);
  bool after_stage(Item& item, const Status& s);
  void complete_partition(Item& item);
  void observe_stages_locked(const Partition& p, const Job& job) REQUIRES(mu_);
  // Forgets jobs past their retention; returns how many.
  size_t purge_expired_locked() REQUIRES(mu_);
  void publish_gauges_locked() REQUIRES(mu_);
  // The device's busy time: its finished proofs' device time, plus the time
  // so far of the proof one of its workers runs now (so that the first proof
  // shows before it ends).
  double device_busy_ms_locked(const Device& d, Clock::time_point now) const REQUIRES(mu_);
  JobStatus job_status_locked(const Job& job, Clock::time_point now) const REQUIRES(mu_);

  mutable Mutex mu_;
  CondVar done_cv_;
  std::map<std::string, std::shared_ptr<Job>> jobs_ GUARDED_BY(mu_);
  std::map<std::string, std::string> request_ids_ GUARDED_BY(mu_);  // request_id → job_id
  std::vector<std::unique_ptr<WorkerSlot>> slots_;             // fixed after start()
  StageTotals stage_totals_ GUARDED_BY(mu_);  // partitions' stages (cuzk_stage_seconds)
  uint64_t next_seq_ GUARDED_BY(mu_) = 1;
  uint64_t finished_count_ GUARDED_BY(mu_) = 0;
  uint64_t unfinished_ GUARDED_BY(mu_) = 0;
  uint64_t completed_ GUARDED_BY(mu_) = 0;
  uint64_t failed_ GUARDED_BY(mu_) = 0;
  uint64_t cancelled_ GUARDED_BY(mu_) = 0;
  std::set<groth16::Fallback> warned_fallbacks_ GUARDED_BY(mu_);  // causes logged once
  bool accepting_ GUARDED_BY(mu_) = true;
  bool stopping_ GUARDED_BY(mu_) = false;
  CondVar housekeeping_cv_;
  std::vector<std::jthread> threads_;

  // Where each configured circuit stands, in configuration order.
  struct CircuitLoad {
    std::string id;
    CircuitState state = CircuitState::kLoading;
    std::string step = "waiting for the circuits before it", error;
    Clock::time_point began, step_began, ended;
    Env::Clock::time_point last_attempt_end;  // on env_'s clock: when its last attempt ended
    uint32_t attempts = 0;
  };
  mutable Mutex circuits_mu_;
  CondVar circuits_cv_;  // a circuit left kLoading, or a retry ended
  std::vector<CircuitLoad> circuits_ GUARDED_BY(circuits_mu_);
  std::jthread loader_;  // load_circuits(), with config_.load_in_background
  // Retries of failed circuits run on their callers' threads: this stops
  // them (stop_accepting(), stop_loading()), which then waits until
  // retries_in_flight_ is 0.
  std::stop_source retry_stop_;
  uint32_t retries_in_flight_ GUARDED_BY(circuits_mu_) = 0;

  friend class Engine;
};

}  // namespace cuzk::engine
