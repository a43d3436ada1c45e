// Engine's public wrappers and the status snapshot.
#include <algorithm>

#include "engine_impl.h"

namespace cuzk::engine {
namespace {

constexpr size_t kMaxJobsInStatus = 256;  // the newest unfinished first, then the newest finished

JobState job_state_of(const Job& job) {
  if (job.outcome != JobOutcome::kUnknown) return JobState::kDone;
  JobState least = JobState::kFinalizing;
  for (const auto& p : job.partitions) {
    JobState s = JobState::kFinalizing;
    switch (p->state) {
      case PartitionState::kQueued: s = JobState::kQueued; break;
      case PartitionState::kAdmitting:
      case PartitionState::kPreparing: s = JobState::kPreparing; break;
      case PartitionState::kWaitingWorker: s = JobState::kWaitingWorker; break;
      case PartitionState::kProving: s = JobState::kRunning; break;
      default: break;
    }
    least = std::min(least, s);
  }
  return least;
}

}  // namespace

JobStatus Engine::Impl::job_status_locked(const Job& job, Clock::time_point now) const {
  JobStatus js;
  js.job_id = job.id;
  js.request_id = job.request_id;
  js.circuit_id = job.circuit_id;
  js.has_sector = job.has_sector;
  js.miner_id = job.miner_id;
  js.sector_number = job.sector_number;
  js.kind = job.kind;
  js.priority = job.priority;
  js.state = job_state_of(job);
  js.outcome = job.outcome;
  js.age_s = ms_between(job.submitted, now) / 1000;
  js.error_message = job.error;
  for (const auto& p : job.partitions) {
    PartitionStatus ps;
    ps.index = p->index;
    ps.state = p->state;
    // A stage lasts from its start to its end; one still open runs until now,
    // or until the job finished (failed or cancelled partitions stop there);
    // one never reached lasts 0.
    const Clock::time_point horizon = job.outcome != JobOutcome::kUnknown ? job.finished_at : now;
    auto stage_ms = [&](Clock::time_point begin, Clock::time_point end) {
      return std::max(0.0, ms_between(begin, is_set(end) ? std::min(end, horizon) : horizon));
    };
    ps.queue_ms = stage_ms(job.submitted, p->picked);
    ps.admit_ms = stage_ms(p->picked, p->admitted);
    ps.prep_ms = stage_ms(p->admitted, p->prepared);
    ps.wait_worker_ms = stage_ms(p->prepared, p->prove_start);
    ps.prove_ms = stage_ms(p->prove_start, p->prove_end);
    ps.finalize_ms = stage_ms(p->prove_end, p->done);
    ps.matvec_ms = p->stages.matvec_s * 1000;
    ps.h_ms = p->stages.h_s * 1000;
    ps.msm_ms = p->stages.msm_s * 1000;
    ps.assembly_ms = p->stages.assembly_s * 1000;
    ps.verify_ms = p->verify_ms;
    ps.worker = p->worker;
    js.partitions.push_back(std::move(ps));
  }
  return js;
}

EngineStatus Engine::Impl::status() const {
  EngineStatus st;
  st.keys = keys_->status();
  st.circuits = circuit_status();
  MutexLock lock(mu_);
  auto now = Clock::now();
  st.uptime_s = ms_between(started_, now) / 1000;
  st.version = config_.version;
  st.budget_total_bytes = budget_->total();
  st.budget_used_bytes = budget_->used();
  st.budget_peak_bytes = budget_->peak();
  st.pinned_idle_bytes = pinned_pool_.idle_bytes();
  st.pinned_allocated = pinned_pool_.allocations();
  st.pinned_freed = pinned_pool_.frees();
  st.proofs_completed = completed_;
  st.proofs_failed = failed_;
  st.proofs_cancelled = cancelled_;
  st.shutting_down = !accepting_;
  std::vector<const Job*> order;
  for (const auto& [id, job] : jobs_) order.push_back(job.get());
  std::sort(order.begin(), order.end(), [](const Job* a, const Job* b) {
    bool da = a->outcome != JobOutcome::kUnknown, db = b->outcome != JobOutcome::kUnknown;
    return da != db ? !da : a->seq > b->seq;
  });
  if (order.size() > kMaxJobsInStatus) order.resize(kMaxJobsInStatus);
  std::map<ProofKind, QueueDepth> queues;
  for (const auto& [id, job] : jobs_) {
    if (job->outcome != JobOutcome::kUnknown) continue;
    QueueDepth& q = queues[job->kind];
    q.kind = job->kind;
    for (const auto& p : job->partitions) {
      if (p->state == PartitionState::kProving || p->state == PartitionState::kFinalizing) q.in_progress++;
      else if (p->state != PartitionState::kDone) q.pending++;
    }
  }
  for (const Job* job : order) st.jobs.push_back(job_status_locked(*job, now));
  for (auto& [kind, q] : queues) st.queues.push_back(q);
  double up_ms = ms_between(started_, now);
  for (const auto& s : slots_) {
    WorkerStatus w;
    w.name = s->name;
    w.device = s->device;
    w.busy = s->busy;
    w.job_id = s->job_id;
    w.kind = s->kind;
    double busy = s->busy_ms + (s->busy ? ms_between(s->busy_since, now) : 0);
    w.busy_fraction = up_ms > 0 ? busy / up_ms : 0;
    st.workers.push_back(std::move(w));
  }
  for (const auto& d : devices_) {
    st.devices.push_back(d->name);
    DeviceStatus ds;
    ds.name = d->name;
    ds.description = d->backend->describe();
    const groth16::DeviceMemory m = d->backend->device_memory();
    ds.vram_total_bytes = m.total_bytes;
    ds.vram_budget_bytes = m.budget_bytes;
    ds.vram_used_bytes = m.used_bytes;
    ds.vram_peak_bytes = m.peak_bytes;
    ds.key_budget_bytes = d->caps.keeps_keys ? config_.key_device_budget_bytes : 0;
    ds.busy_fraction = up_ms > 0 ? std::min(1.0, device_busy_ms_locked(*d, now) / up_ms) : 0;
    for (const auto& s : slots_)
      if (s->device == d->name) ds.workers.push_back(s->name);
    for (const auto& [cause, n] : d->fallbacks) ds.fallbacks.emplace_back(std::string(groth16::fallback_name(cause)), n);
    ds.bytes_uploaded = d->bytes_uploaded;
    ds.stages = d->stages;
    {
      std::lock_guard<std::mutex> view_lock(d->view_mu);  // never waits for an attach
      for (const Device::KeyView& v : d->view) {
        DeviceStatus::ResidentKey k;
        k.circuit_id = v.circuit_id;
        k.device_bytes = v.device_bytes;
        k.placement = v.placement;
        k.in_use = v.key.use_count() > 1;  // the device's entry and a lane
        k.idle_s = std::chrono::duration<double>(now - v.last_used).count();
        ds.keys.push_back(std::move(k));
      }
    }
    st.device_status.push_back(std::move(ds));
  }
  st.prover_threads = pool_->size();
  st.stages = stage_totals_;
  return st;
}

Engine::Engine(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Engine::~Engine() = default;

StatusOr<std::unique_ptr<Engine>> Engine::create(const EngineConfig& config) {
  RETURN_IF_ERROR(config.validate());
  tune_allocator();  // the process allocates as the daemon does, whoever runs the engine
  auto impl = std::make_unique<Impl>(config);
  RETURN_IF_ERROR(impl->start());
  return std::unique_ptr<Engine>(new Engine(std::move(impl)));
}

void Engine::start_loading() { impl_->start_loading(); }
bool Engine::wait_for_circuits(std::chrono::milliseconds timeout) { return impl_->wait_for_circuits(timeout); }
StatusOr<SubmitResult> Engine::submit(JobRequest request) { return impl_->submit(std::move(request)); }
StatusOr<Reservation> Engine::reserve_request_memory(uint64_t bytes) {
  StatusOr<Reservation> r = impl_->keys_->reserve_now(bytes);
  if (!r.ok())
    impl_->metrics_.add_counter("cuzk_submit_rejected_total", 1,
                                "code=\"" + std::string(status_code_name(r.status().code())) + "\"");
  return r;
}
StatusOr<JobResult> Engine::await(const std::string& job_id, std::optional<std::chrono::milliseconds> timeout) {
  return impl_->await(job_id, timeout);
}
StatusOr<bool> Engine::cancel(const std::string& job_id) { return impl_->cancel(job_id); }
StatusOr<CircuitInfo> Engine::circuit_info(const std::string& id) {
  RETURN_IF_ERROR(impl_->check_circuit_ready(id));
  return impl_->keys_->info(id);
}
StatusOr<uint64_t> Engine::partition_reservation_bytes(const std::string& id, uint64_t wtns_bytes) {
  RETURN_IF_ERROR(impl_->check_circuit_ready(id));
  ASSIGN_OR_RETURN(CircuitInfo info, impl_->keys_->info(id));
  return impl_->partition_estimate(info, wtns_bytes);
}
// PreloadSRS: the key HOT in host memory, then attached to every GPU device
// where it fits (the DEVICE tier). EvictSRS: out of both (the DEVICE copies go
// when the host key leaves HOT).
StatusOr<KeyManager::PreloadResult> Engine::preload(const std::string& id) {
  RETURN_IF_ERROR(impl_->ready_or_retry(id));
  ASSIGN_OR_RETURN(KeyManager::PreloadResult r, impl_->keys_->preload(id));
  RETURN_IF_ERROR(impl_->place_on_devices(id));
  impl_->make_pinned_inputs(id);
  return r;
}
StatusOr<KeyManager::EvictResult> Engine::evict(const std::string& id) {
  RETURN_IF_ERROR(impl_->check_circuit_ready(id));
  return impl_->keys_->evict(id);
}
EngineStatus Engine::status() const { return impl_->status(); }
MetricsRegistry& Engine::metrics() { return impl_->metrics_; }
void Engine::stop_accepting() { impl_->stop_accepting(); }
bool Engine::drain(std::chrono::milliseconds grace) { return impl_->drain(grace); }
void Engine::cancel_all(const std::string& reason) { impl_->cancel_all(reason); }

double Engine::Impl::device_busy_ms_locked(const Device& d, Clock::time_point now) const {
  Clock::time_point running{};
  for (const auto& s : slots_)
    if (s->busy && s->device == d.name && (!is_set(running) || s->busy_since < running)) running = s->busy_since;
  return d.busy_ms + (is_set(running) ? ms_between(running, now) : 0);
}

std::string Engine::metrics_text() const {
  {
    MutexLock lock(impl_->mu_);
    impl_->publish_gauges_locked();
  }
  return impl_->metrics_.render_prometheus();
}

}  // namespace cuzk::engine
