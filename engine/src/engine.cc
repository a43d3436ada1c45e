// Engine API and job bookkeeping: intake, idempotency, await, cancel,
// retention, status. The worker loops are in pipeline.cc.
#include <algorithm>
#include <chrono>

#include "cuzk/base/log.h"
#include "cuzk/base/utf8.h"
#include "cuzk/r1cs/checksum.h"
#include "engine_impl.h"
#include "witness_header.h"

namespace cuzk::engine {
namespace {

constexpr uint64_t kPartitionSlackBytes = uint64_t(1) << 20;
// Longest circuit_id, request_id or job_id a request may carry. Ids echo into
// messages and logs (through bounded_quote()); unbounded ones were a way to make
// answers too large for a client's metadata limit.
constexpr size_t kMaxIdBytes = 512;

// Timeouts longer than this (about 31 years) mean "until the job ends".
constexpr std::chrono::milliseconds kLongestTimeout(uint64_t(1) << 40);

Status check_id(std::string_view field, const std::string& value) {
  if (value.size() <= kMaxIdBytes) return ok_status();
  return invalid_argument(std::string(field) + " " + bounded_quote(value) + " is longer than " + std::to_string(kMaxIdBytes) +
                          " bytes");
}

// " (miner f01000, sector 7)" for a job naming a sector, else "".
std::string sector_text(const Job& job) {
  if (!job.has_sector) return "";
  return " (miner f0" + std::to_string(job.miner_id) + ", sector " + std::to_string(job.sector_number) + ")";
}

std::string kind_label(ProofKind kind) { return "kind=\"" + std::string(proof_kind_name(kind)) + "\""; }

// A 128-bit digest of everything in a request but its request_id.
std::array<uint64_t, 2> request_digest(const JobRequest& r) {
  std::string head = std::to_string(int(r.kind)) + "|" + std::to_string(int(r.priority)) + "|" + r.circuit_id + "|" +
                     (r.self_verify ? (*r.self_verify ? "1" : "0") : "-") + "|" + std::to_string(r.witnesses.size());
  auto bytes = [](const std::string& s) { return ByteSpan(reinterpret_cast<const uint8_t*>(s.data()), s.size()); };
  std::array<uint64_t, 2> d = {r1cs::hash64(bytes(head), 0x9e3779b97f4a7c15ull),
                               r1cs::hash64(bytes(head), 0xc2b2ae3d27d4eb4full)};
  for (const std::string& w : r.witnesses) {
    d[0] = r1cs::hash64(bytes(w), d[0]);
    d[1] = r1cs::hash64(bytes(w), d[1] ^ 0x165667b19e3779f9ull);
  }
  d[0] = r1cs::hash64(bytes(r.other_payload), d[0]);
  d[1] = r1cs::hash64(bytes(r.other_payload), d[1]);
  return d;
}

}  // namespace

namespace {

// "job-<start time in ms, base 36>-": ids of one run share it, so that ids do
// not repeat across restarts (clients may keep them in logs and databases).
std::string job_id_prefix() {
  uint64_t ms = uint64_t(std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count());
  std::string digits;
  do {
    digits.insert(digits.begin(), "0123456789abcdefghijklmnopqrstuvwxyz"[ms % 36]);
    ms /= 36;
  } while (ms > 0);
  return "job-" + digits + "-";
}

}  // namespace

Engine::Impl::Impl(const EngineConfig& config)
    : job_id_prefix_(job_id_prefix()),
      config_(config),
      env_(config.env ? config.env : Env::posix()),
      budget_(std::make_unique<MemoryBudget>(config.total_budget_bytes)),
      pool_(std::make_unique<ThreadPool>(config.prover_threads)) {}

Engine::Impl::~Impl() {
  stop_loading();
  std::vector<Item> leftovers;
  {
    MutexLock lock(mu_);
    stopping_ = true;
    accepting_ = false;
    for (auto& [id, job] : jobs_) {
      if (job->outcome != JobOutcome::kUnknown) continue;
      auto items = finish_job_locked(*job, JobOutcome::kCancelled, "the engine is shutting down");
      for (auto& i : items) leftovers.push_back(std::move(i));
    }
  }
  housekeeping_cv_.notify_all();
  budget_->close();
  if (window_) window_->close();
  if (keys_) keys_->close();
  for (WorkQueue<Item>* q : {&prep_queue_, &prove_queue_, &final_queue_})
    for (auto& i : q->close()) leftovers.push_back(std::move(i));
  for (auto& t : threads_) t.join();
  threads_.clear();
  for (auto& i : leftovers) release_buffers(i.part());
  // Jobs may still hold leases and reservations in finished partitions.
  std::map<std::string, std::shared_ptr<Job>> jobs;
  {
    MutexLock lock(mu_);
    jobs.swap(jobs_);
  }
}

uint64_t Engine::Impl::partition_estimate(const CircuitInfo& info, uint64_t wtns_bytes) const {
  // wtns bytes + witness (32·vars) + a, b, c (3·32·n) + MSM scalars and H
  // scalars (32·(vars + n)) + slack (CPU devices).
  uint64_t n = uint64_t(1) << info.lg_n;
  // On a GPU device the MSM and H scalars live in device memory; the host
  // holds the witness and its pinned copy, and a, b, c (pinned).
  if (host_alloc_ != nullptr) {
    const uint64_t witness_copies = info.generates_witness && wtns_bytes == 0 ? 1 : 2;
    return wtns_bytes + witness_copies * 32 * info.num_vars + 3 * 32 * n + kPartitionSlackBytes;
  }
  return wtns_bytes + 32 * info.num_vars + 3 * 32 * n + 32 * (info.num_vars + n) + kPartitionSlackBytes;
}

Status Engine::Impl::validate_request(const JobRequest& r, uint64_t* est_partition_bytes) {
  if (is_filecoin_kind(r.kind)) return validate_filecoin_request(r, est_partition_bytes);
  if (r.kind != ProofKind::kGroth16Circuit) return ok_status();  // fails as a job (no synthesis)
  if (r.circuit_id.empty()) return invalid_argument("GROTH16_CIRCUIT needs circuit_id");
  if (!keys_->has(r.circuit_id)) return not_found("unknown circuit " + bounded_quote(r.circuit_id));
  if (r.witnesses.empty()) return invalid_argument("GROTH16_CIRCUIT needs a witness (.wtns bytes)");
  if (r.witnesses.size() > config_.max_partitions_per_job)
    return invalid_argument(std::to_string(r.witnesses.size()) + " witnesses; at most " +
                            std::to_string(config_.max_partitions_per_job) + " partitions per job");
  ASSIGN_OR_RETURN(CircuitInfo info, keys_->info(r.circuit_id));
  uint64_t largest = 0;
  for (size_t i = 0; i < r.witnesses.size(); ++i) {
    const std::string& w = r.witnesses[i];
    if (w.empty() && info.generates_witness) continue;  // a bench circuit proves its own witness
    Status s = check_wtns_header(ByteSpan(reinterpret_cast<const uint8_t*>(w.data()), w.size()), info.num_vars);
    if (!s.ok()) return r.witnesses.size() == 1 ? s : s.with_context("partition " + std::to_string(i));
    largest = std::max<uint64_t>(largest, w.size());
  }
  *est_partition_bytes = partition_estimate(info, largest);
  const uint64_t key_bytes = keys_->key_bytes(r.circuit_id);
  if (config_.key_host_budget_bytes && key_bytes > config_.key_host_budget_bytes)
    return resource_exhausted("the key of circuit " + bounded_quote(r.circuit_id) + " needs about " + std::to_string(key_bytes) +
                              " bytes of host memory; keys.host_budget is " +
                              std::to_string(config_.key_host_budget_bytes));
  uint64_t need = *est_partition_bytes + key_bytes;
  if (need > budget_->total())
    return resource_exhausted("a partition of circuit " + bounded_quote(r.circuit_id) + " needs about " + std::to_string(need) +
                              " bytes (key included); the memory budget is " + std::to_string(budget_->total()));
  return ok_status();
}

// Every refusal is counted by its code (shutting down, a reused request id,
// a bad request, a full queue).
StatusOr<SubmitResult> Engine::Impl::submit(JobRequest request) {
  StatusOr<SubmitResult> r = submit_unmetered(std::move(request));
  if (!r.ok())
    metrics_.add_counter("cuzk_submit_rejected_total", 1,
                         "code=\"" + std::string(status_code_name(r.status().code())) + "\"");
  return r;
}

Status check_request_fields(const JobRequest& request) {
  RETURN_IF_ERROR(check_id("request_id", request.request_id));
  RETURN_IF_ERROR(check_id("circuit_id", request.circuit_id));
  if (!is_known_kind(int(request.kind)) || request.kind == ProofKind::kUnspecified)
    return invalid_argument("proof_kind " + std::to_string(int(request.kind)) + " is not a valid kind");
  if (!is_known_priority(int(request.priority)))
    return invalid_argument("priority " + std::to_string(int(request.priority)) +
                            " is not a valid priority (0 unspecified, 1 LOW, 2 NORMAL, 3 HIGH, 4 CRITICAL)");
  return ok_status();
}

StatusOr<SubmitResult> Engine::Impl::submit_unmetered(JobRequest request) {
  RETURN_IF_ERROR(check_request_fields(request));
  request.priority = effective_priority(request.kind, request.priority);
  if (is_filecoin_kind(request.kind)) RETURN_IF_ERROR(route_filecoin_request(request));
  if (!request.circuit_id.empty()) RETURN_IF_ERROR(ready_or_retry(request.circuit_id));
  auto digest = request_digest(request);
  {
    MutexLock lock(mu_);
    if (!accepting_) return unavailable("the daemon is shutting down and accepts no new jobs");
    if (!request.request_id.empty()) {
      auto it = request_ids_.find(request.request_id);
      if (it != request_ids_.end()) {
        const Job& old = *jobs_.at(it->second);
        if (old.digest != digest)
          return already_exists("request_id " + bounded_quote(request.request_id) + " was used for job " + old.id +
                                " with a different payload");
        return SubmitResult{old.id, 0, true};
      }
    }
  }
  uint64_t est = 0;
  Status valid = validate_request(request, &est);
  if (!valid.ok()) return valid;
  auto job = std::make_shared<Job>();
  job->request_id = request.request_id;
  job->circuit_id = request.circuit_id;
  job->kind = request.kind;
  job->priority = request.priority;
  job->self_verify = request.self_verify.value_or(config_.self_verify);
  job->digest = digest;
  job->est_partition_bytes = est;
  job->submitted = Clock::now();
  if (request.filecoin) {
    job->has_sector = true;
    job->miner_id = request.filecoin->miner_id;
    job->sector_number = request.filecoin->sector_number;
  }
  if (is_filecoin_kind(request.kind)) add_filecoin_partitions(request, *job);
  for (size_t i = 0; i < request.witnesses.size(); ++i) {
    auto p = std::make_unique<Partition>();
    p->index = uint32_t(i);
    job->witness_bytes += request.witnesses[i].size();
    p->wtns = std::move(request.witnesses[i]);
    job->partitions.push_back(std::move(p));
  }
  return enqueue(std::move(job));
}

StatusOr<SubmitResult> Engine::Impl::enqueue(std::shared_ptr<Job> job) {
  MutexLock lock(mu_);
  if (!accepting_) return unavailable("the daemon is shutting down and accepts no new jobs");
  if (!job->request_id.empty()) {  // a concurrent submit with the same id may have won
    auto it = request_ids_.find(job->request_id);
    if (it != request_ids_.end()) {
      const Job& old = *jobs_.at(it->second);
      if (old.digest != job->digest)
        return already_exists("request_id " + bounded_quote(job->request_id) + " was used for job " + old.id +
                              " with a different payload");
      return SubmitResult{old.id, 0, true};
    }
  }
  if (unfinished_ >= config_.max_queued_jobs) {
    return resource_exhausted("the queue is full (" + std::to_string(unfinished_) +
                              " unfinished jobs; scheduler.max_queued_jobs = " +
                              std::to_string(config_.max_queued_jobs) + ")");
  }
  job->seq = next_seq_++;
  job->id = job_id_prefix_ + std::to_string(job->seq);
  jobs_[job->id] = job;
  if (!job->request_id.empty()) request_ids_[job->request_id] = job->id;
  unfinished_++;
  metrics_.add_counter("cuzk_jobs_submitted_total", 1, kind_label(job->kind));
  SubmitResult out{job->id, 0, false};
  if (!job->decode_error.empty()) {
    finish_job_locked(*job, JobOutcome::kFailed, job->decode_error);
    return out;
  }
  if (job->kind != ProofKind::kGroth16Circuit && !job->filecoin) {
    std::string kind(proof_kind_name(job->kind));
    finish_job_locked(*job, JobOutcome::kFailed,
                                  "UNIMPLEMENTED: proof kind " + kind +
                                      " needs circuit synthesis from vanilla proofs, which this build of cuzk does "
                                      "not have; use GROTH16_CIRCUIT with a registered circuit");
    return out;
  }
  SchedKey first{job->priority, job->seq, 0};
  out.queue_position = uint32_t(prep_queue_.count_before(first) + prove_queue_.count_before(first));
  for (uint32_t i = 0; i < job->partitions.size(); ++i)
    prep_queue_.push(SchedKey{job->priority, job->seq, i}, job->circuit_id, Item{job, i});
  CUZK_LOG(Debug) << "queued " << job->id << " (" << job->partitions.size() << " partition(s), circuit \""
                  << job->circuit_id << "\", " << priority_name(job->priority) << ")";
  return out;
}

StatusOr<JobResult> Engine::Impl::await(const std::string& job_id,
                                        std::optional<std::chrono::milliseconds> timeout) {
  MutexLock lock(mu_);
  auto it = jobs_.find(job_id);
  if (it == jobs_.end())
    return not_found("unknown job " + bounded_quote(job_id) + " (finished jobs are kept for " +
                     std::to_string(config_.result_retention_ms / 1000) + " s)");
  std::shared_ptr<Job> job = it->second;
  // A deadline past what the clock can hold is no deadline (computing it
  // would overflow); a negative one is none to wait for.
  if (timeout && *timeout > kLongestTimeout) timeout.reset();
  if (timeout && timeout->count() < 0) timeout = std::chrono::milliseconds(0);
  const Clock::time_point deadline = timeout ? Clock::now() + *timeout : Clock::time_point();
  while (job->outcome == JobOutcome::kUnknown) {
    if (!timeout) {
      done_cv_.wait(mu_);
    } else if (Clock::now() >= deadline) {
      JobResult r;
      r.job_id = job_id;
      r.outcome = JobOutcome::kTimeout;
      r.error_message = "the job is still running after " + std::to_string(timeout->count()) + " ms";
      return r;
    } else {
      done_cv_.wait_until(mu_, deadline);
    }
  }
  return job->result;
}

StatusOr<bool> Engine::Impl::cancel(const std::string& job_id) {
  std::vector<Item> removed;
  bool was_running = false;
  {
    MutexLock lock(mu_);
    auto it = jobs_.find(job_id);
    if (it == jobs_.end()) return not_found("unknown job " + bounded_quote(job_id));
    Job& job = *it->second;
    if (job.outcome != JobOutcome::kUnknown) return false;
    for (const auto& p : job.partitions)
      was_running |= p->state == PartitionState::kProving || p->state == PartitionState::kFinalizing;
    removed = finish_job_locked(job, JobOutcome::kCancelled, "cancelled by request");
  }
  for (auto& i : removed) release_buffers(i.part());
  keys_->wake();  // a partition waiting for admission sees the cancellation now
  return was_running;
}

std::vector<Item> Engine::Impl::finish_job_locked(Job& job, JobOutcome outcome, const std::string& error) {
  if (job.outcome != JobOutcome::kUnknown) return {};
  job.outcome = outcome;
  job.finished.store(true);
  job.finished_at = Clock::now();
  job.forget_at = env_->now() + std::chrono::milliseconds(config_.result_retention_ms);
  job.error = valid_utf8(error);  // shown in status JSON and AwaitProof; may quote client input
  job.result.finish_seq = ++finished_count_;
  for (auto& p : job.partitions)
    if (p->state != PartitionState::kDone)
      p->state = outcome == JobOutcome::kCancelled ? PartitionState::kCancelled : PartitionState::kFailed;
  fill_result_locked(job);
  unfinished_--;
  // One line per finished job in the log (a failure's says why).
  const JobTimings& t = job.result.timings;
  if (outcome == JobOutcome::kCompleted) {
    completed_++;
    metrics_.add_counter("cuzk_proofs_completed_total", 1, kind_label(job.kind));
    metrics_.observe_seconds("cuzk_job_seconds", double(t.total_ms) / 1000, kind_label(job.kind));
    CUZK_LOG(Info) << job.id << " completed: " << proof_kind_name(job.kind) << " " << bounded_quote(job.circuit_id)
                   << sector_text(job) << ", " << job.partitions.size() << " partition(s) in " << t.total_ms << " ms (queue "
                   << t.queue_wait_ms << ", key " << t.srs_load_ms << ", synthesis " << t.synthesis_ms << ", compute "
                   << t.compute_ms << ", verify " << t.verify_ms << ")";
  } else if (outcome == JobOutcome::kCancelled) {
    cancelled_++;
    metrics_.add_counter("cuzk_proofs_cancelled_total", 1, kind_label(job.kind));
    CUZK_LOG(Info) << job.id << " cancelled" << sector_text(job) << ": " << error;
  } else {
    failed_++;
    metrics_.add_counter("cuzk_proofs_failed_total", 1, kind_label(job.kind));
    CUZK_LOG(Warn) << job.id << " failed" << sector_text(job) << ": " << error;
  }
  done_cv_.notify_all();
  auto mine = [&job](const Item& i) { return i.job.get() == &job; };
  std::vector<Item> out = prep_queue_.remove_if(mine);
  for (WorkQueue<Item>* q : {&prove_queue_, &final_queue_})
    for (auto& i : q->remove_if(mine)) out.push_back(std::move(i));
  return out;
}

void Engine::Impl::fill_result_locked(Job& job) {
  JobResult& r = job.result;
  r.job_id = job.id;
  r.outcome = job.outcome;
  r.error_message = job.error;
  JobTimings& t = r.timings;
  Clock::time_point first_pick{};
  for (const auto& p : job.partitions) {
    if (is_set(p->picked) && (!is_set(first_pick) || p->picked < first_pick)) first_pick = p->picked;
    t.srs_load_ms += uint64_t(p->srs_wait_ms);
    t.synthesis_ms += uint64_t(ms_between(p->admitted, p->prepared) + p->stages.matvec_s * 1000);
    t.compute_ms += uint64_t((p->stages.h_s + p->stages.msm_s + p->stages.assembly_s) * 1000);
    t.verify_ms += uint64_t(p->verify_ms);
  }
  // Never picked (cancelled or failed in the queue): it waited until the end.
  t.queue_wait_ms = uint64_t(ms_between(job.submitted, is_set(first_pick) ? first_pick : job.finished_at));
  t.total_ms = uint64_t(ms_between(job.submitted, job.finished_at));
  if (job.outcome != JobOutcome::kCompleted) return;
  r.proof.clear();
  r.public_inputs.clear();
  for (const auto& p : job.partitions) {
    r.proof.append(reinterpret_cast<const char*>(p->proof_bytes.data()), p->proof_bytes.size());
    for (const ff::Fr& x : p->public_inputs) {
      std::array<uint8_t, 32> be;
      x.to_bytes_be(be.data());
      r.public_inputs.push_back(be);
    }
  }
}

void Engine::Impl::release_buffers(Partition& p) {
  std::string().swap(p.wtns);
  p.inputs.clear();  // pooled buffers go back to the pool
  p.window.reset();
  p.reservation.release_all();
  p.key.reset();
}

void Engine::Impl::stop_accepting() {
  {
    MutexLock lock(mu_);
    accepting_ = false;
  }
  MutexLock lock(circuits_mu_);
  loader_.request_stop();  // no circuit starts loading after this
  retry_stop_.request_stop();  // nor loading again; a retry in flight ends at its next step
}

bool Engine::Impl::drain(std::chrono::milliseconds grace) {
  MutexLock lock(mu_);
  const Clock::time_point deadline = Clock::now() + grace;
  while (unfinished_ != 0) {
    if (Clock::now() >= deadline) return false;
    done_cv_.wait_until(mu_, deadline);
  }
  return true;
}

void Engine::Impl::cancel_all(const std::string& reason) {
  std::vector<Item> removed;
  {
    MutexLock lock(mu_);
    for (auto& [id, job] : jobs_)
      for (auto& i : finish_job_locked(*job, JobOutcome::kCancelled, reason)) removed.push_back(std::move(i));
  }
  for (auto& i : removed) release_buffers(i.part());
}

size_t Engine::Impl::purge_expired_locked() {
  size_t purged = 0;
  const auto now = env_->now();
  for (auto it = jobs_.begin(); it != jobs_.end();) {
    const Job& job = *it->second;
    bool expired = job.outcome != JobOutcome::kUnknown && now >= job.forget_at;
    if (!expired) {
      ++it;
      continue;
    }
    if (!job.request_id.empty()) request_ids_.erase(job.request_id);
    it = jobs_.erase(it);
    purged++;
  }
  return purged;
}

}  // namespace cuzk::engine
