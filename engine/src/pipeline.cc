// The worker loops: preparation (admission and witness intake), proving
// (inside the device interlock), finalization (self-verification and
// encoding), and housekeeping (retention, gauges).
#include <malloc.h>

#include <algorithm>

#include "cuzk/base/log.h"
#include "cuzk/io/bellperson.h"
#include "engine_impl.h"
#include "metrics_catalog.h"

namespace cuzk::engine {
namespace {

// Hands the allocator's free pages back to the OS (glibc keeps freed
// memory in its heaps, one per thread that allocated).
void trim_free_memory() {
#ifdef __GLIBC__
  ::malloc_trim(0);
#endif
}

SchedKey key_of(const Item& item) { return SchedKey{item.job->priority, item.job->seq, item.index}; }

// Runs one stage of a partition. An exception (an allocation that failed,
// the OS random generator failing) fails that partition's job like any
// error, and the worker goes on; the caller then frees the partition's
// memory as for any failure.
template <class Stage>
Status run_stage(const char* what, Stage&& stage) {
  try {
    return stage();
  } catch (const std::bad_alloc&) {
    return resource_exhausted(std::string("out of memory while ") + what +
                              " (an allocation failed); the partition's memory is given back");
  } catch (const std::exception& e) {
    return internal_error(std::string("unexpected error while ") + what + ": " + e.what());
  } catch (...) {
    return internal_error(std::string("unexpected error while ") + what);
  }
}

}  // namespace

Status Engine::Impl::start() {
  remove_stale_cache_files();
  KeyManagerOptions ko;
  ko.host_cap_bytes = config_.key_host_budget_bytes;
  ko.min_idle_ms = config_.eviction_min_idle_ms;
  ko.env = env_;
  ko.on_demote = [this](const std::string& id) { drop_from_devices(id); };
  ko.reclaim = [this](uint64_t short_by) { return pinned_pool_.reclaim(short_by); };
  keys_ = std::make_unique<KeyManager>(std::vector<std::unique_ptr<CircuitSource>>(), budget_.get(), ko, &metrics_);
  std::vector<std::string> ids;
  {
    MutexLock lock(circuits_mu_);
    for (const CircuitSpec& spec : config_.circuits) {
      circuits_.push_back(CircuitLoad{.id = spec.id});
      ids.push_back(spec.id);
    }
  }
  if (!config_.load_in_background) {
    for (size_t i = 0; i < config_.circuits.size(); ++i) {
      Status s = load_circuit(i, std::stop_token());
      end_load(i, s);
      RETURN_IF_ERROR(s);
    }
  }
  ASSIGN_OR_RETURN(devices_, make_devices(config_, pool_.get()));
  for (auto& d : devices_)
    if (d->caps.uploads_inputs && host_alloc_ == nullptr) host_alloc_ = d->backend.get();
  // Enough partitions with inputs to keep every worker fed: one being
  // prepared per preparation worker, one being proved per prover worker,
  // and one waiting for the next prover worker that comes free.
  window_ = std::make_unique<InputWindow>(config_.preparation_workers +
                                          config_.workers_per_device * uint32_t(devices_.size()) + 1);
  pinned_pool_.set_max_idle(std::max<size_t>(16, 4 * size_t(window_->size())));  // a, b, c and the witness each
  // Every prover worker's lane, before any thread starts.
  std::vector<std::unique_ptr<groth16::Lane>> lanes;
  for (auto& d : devices_)
    for (uint32_t w = 0; w < config_.workers_per_device; ++w) {
      ASSIGN_OR_RETURN(auto lane, d->backend->make_lane());
      lanes.push_back(std::move(lane));
    }
  auto slot = [this](std::string name, std::string device) {
    slots_.push_back(std::make_unique<WorkerSlot>());
    slots_.back()->name = std::move(name);
    slots_.back()->device = std::move(device);
    return slots_.back().get();
  };
  for (uint32_t i = 0; i < config_.preparation_workers; ++i) {
    WorkerSlot* s = slot("prep" + std::to_string(i), "");
    threads_.emplace_back([this, s] { prep_loop(s); });
  }
  size_t next_lane = 0;
  for (auto& d : devices_) {
    for (uint32_t w = 0; w < config_.workers_per_device; ++w) {
      WorkerSlot* s = slot(d->name + "/w" + std::to_string(w), d->name);
      s->lane = std::move(lanes[next_lane++]);
      Device* dev = d.get();
      threads_.emplace_back([this, dev, s] { prover_loop(dev, s); });
    }
  }
  for (uint32_t i = 0; i < config_.finalizer_threads; ++i) {
    WorkerSlot* s = slot("final" + std::to_string(i), "");
    threads_.emplace_back([this, s] { final_loop(s); });
  }
  threads_.emplace_back([this] { housekeeping_loop(); });
  for (const auto& d : devices_) metrics_.add_counter("cuzk_bytes_uploaded_total", 0, "device=\"" + d->name + "\"");
  for (groth16::Fallback cause : groth16::kAllFallbacks)
    metrics_.add_counter("cuzk_fallbacks_total", 0, "cause=\"" + std::string(groth16::fallback_name(cause)) + "\"");
  describe_engine_metrics(metrics_, ids);
  return ok_status();
}

// Partial files a killed writer left in the cache directory (demo key
// generation interrupted, say) would stay forever: they go at start.
void Engine::Impl::remove_stale_cache_files() {
  if (config_.cache_dir.empty()) return;
  auto removed = remove_stale_partials(config_.cache_dir);
  if (!removed.ok()) {
    CUZK_LOG(Warn) << "cache directory " << config_.cache_dir << ": " << removed.status().message();
  } else if (*removed > 0) {
    CUZK_LOG(Info) << "removed " << *removed << " partial file(s) left in " << config_.cache_dir
                   << " by writers that no longer run";
  }
}

void Engine::Impl::set_state(Item& item, PartitionState state, WorkerSlot* slot) {
  MutexLock lock(mu_);
  Partition& p = item.part();
  if (item.job->finished.load()) return;
  p.state = state;
  auto now = Clock::now();
  switch (state) {
    case PartitionState::kAdmitting: p.picked = now; break;
    case PartitionState::kPreparing: p.admitted = now; break;
    case PartitionState::kWaitingWorker: p.prepared = now; break;
    case PartitionState::kProving: p.prove_start = now; break;
    case PartitionState::kFinalizing: p.prove_end = now; break;
    default: break;
  }
  if (slot) p.worker = slot->name;
}

void Engine::Impl::set_busy(WorkerSlot* slot, const Item* item) {
  MutexLock lock(mu_);
  auto now = Clock::now();
  if (slot->busy) slot->busy_ms += ms_between(slot->busy_since, now);
  slot->busy = item != nullptr;
  slot->job_id = item ? item->job->id : std::string();
  slot->kind = item ? item->job->kind : ProofKind::kUnspecified;
  slot->busy_since = now;
}

void Engine::Impl::fail_job(Job& job, const Status& status) {
  std::vector<Item> removed;
  {
    MutexLock lock(mu_);
    removed = finish_job_locked(job, JobOutcome::kFailed, status.to_string());
  }
  for (auto& i : removed) release_buffers(i.part());
}

// Runs one stage step for `item`; on error fails its job; drops the
// partition when its job has ended. Returns whether it should move on.
bool Engine::Impl::after_stage(Item& item, const Status& s) {
  if (!s.ok() && !item.job->finished.load()) {
    Status ctx = item.job->partitions.size() == 1 ? s : s.with_context("partition " + std::to_string(item.index));
    fail_job(*item.job, ctx);
  }
  if (item.job->finished.load()) {
    release_buffers(item.part());
    return false;
  }
  return true;
}

void Engine::Impl::prep_loop(WorkerSlot* slot) {
  while (true) {
    std::vector<Item> items = prep_queue_.pop();
    if (items.empty()) return;
    Item& item = items[0];
    if (!after_stage(item, ok_status())) continue;
    set_busy(slot, &item);
    Status s = run_stage("preparing", [&] { return admit_and_prepare(item, slot); });
    set_busy(slot, nullptr);
    if (!after_stage(item, s)) continue;
    set_state(item, PartitionState::kWaitingWorker);
    SchedKey key = key_of(item);
    std::string group = item.job->circuit_id;
    prove_queue_.push(key, std::move(group), std::move(item));
  }
}

void Engine::Impl::prover_loop(Device* device, WorkerSlot* slot) {
  const size_t max_batch = config_.max_batch_size;
  const std::chrono::milliseconds wait(config_.max_batch_wait_ms);
  // A partition whose key is attached to another device with an idle worker
  // is left for that device.
  auto rank = [this, device](const std::string& circuit_id) { return affinity(*device, circuit_id); };
  while (true) {
    device->idle_workers.fetch_add(1);
    std::vector<Item> batch = prove_queue_.pop_batch_ranked(max_batch, wait, rank, std::chrono::milliseconds(5));
    device->idle_workers.fetch_sub(1);
    if (batch.empty()) return;
    metrics_.add_counter("cuzk_prover_batches_total", 1);
    metrics_.add_counter("cuzk_prover_batched_partitions_total", double(batch.size()));
    for (Item& item : batch) {
      if (!after_stage(item, ok_status())) continue;
      set_busy(slot, &item);
      Status s = run_stage("proving", [&] { return prove_one(device, item, slot); });
      set_busy(slot, nullptr);
      if (!after_stage(item, s)) continue;
      set_state(item, PartitionState::kFinalizing);
      SchedKey key = key_of(item);
      std::string group = item.job->circuit_id;
      final_queue_.push(key, std::move(group), std::move(item));
    }
  }
}


void Engine::Impl::final_loop(WorkerSlot* slot) {
  while (true) {
    std::vector<Item> items = final_queue_.pop();
    if (items.empty()) return;
    Item& item = items[0];
    if (!after_stage(item, ok_status())) continue;
    set_busy(slot, &item);
    Status s = run_stage("finalizing", [&] { return finalize_one(item); });
    set_busy(slot, nullptr);
    if (!after_stage(item, s)) continue;
    complete_partition(item);
  }
}

Status Engine::Impl::finalize_one(Item& item) {
  Partition& p = item.part();
  if (item.job->self_verify) {
    auto start = Clock::now();
    StatusOr<bool> ok = p.key->pvk->verify(p.public_inputs, p.proof);
    double ms = ms_between(start, Clock::now());
    {
      MutexLock lock(mu_);
      p.verify_ms = ms;
      add_stage(stage_totals_, "verify", ms);
    }
    metrics_.observe_seconds("cuzk_stage_seconds", ms / 1000, "stage=\"verify\"");
    if (!ok.ok()) return ok.status();
    if (!*ok) {
      metrics_.add_counter("cuzk_self_verify_failures_total", 1);
      return self_verify_failure(item);
    }
  }
  std::array<uint8_t, 192> bytes = io::serialize_proof(p.proof);
  MutexLock lock(mu_);
  p.proof_bytes = bytes;
  return ok_status();
}

// A proof that failed self-verification (never returned). When the witness
// was checked against the circuit's rows, the witness is not the cause: the
// key's proving points disagree with its verifying key (a damaged or
// mismatched key file). The key is dropped once its partitions end, so that
// the next job loads it again instead of every job failing on it. Without
// rows to check against, the witness may be the cause: no eviction (a client
// could otherwise make the daemon reload a large key at will).
Status Engine::Impl::self_verify_failure(Item& item) {
  const std::string& id = item.job->circuit_id;
  const std::string key = bounded_quote(id) + " (" + keys_->key_path(id) + ")";
  if (item.part().key->check_circuit) {
    keys_->invalidate(id, item.part().key.get());
    return data_loss("the proof made with the key of circuit " + key +
                     " failed self-verification although the witness satisfies the circuit: the key's proving "
                     "points disagree with its verifying key (a damaged or mismatched key file). The proof was "
                     "not returned; the key is evicted and will be loaded again");
  }
  return failed_precondition("the proof made with the key of circuit " + key +
                             " failed self-verification and was not returned: the witness does not satisfy the "
                             "circuit (the key carries no constraint rows to check it against), or the key is damaged");
}

void Engine::Impl::complete_partition(Item& item) {
  Job& job = *item.job;
  Partition& p = item.part();
  release_buffers(p);
  MutexLock lock(mu_);
  if (job.finished.load()) return;
  p.state = PartitionState::kDone;
  p.done = Clock::now();
  observe_stages_locked(p, job);
  if (++job.partitions_done == job.partitions.size()) finish_job_locked(job, JobOutcome::kCompleted, "");
}

void Engine::Impl::observe_stages_locked(const Partition& p, const Job& job) {
  const std::pair<const char*, double> stages[] = {
      {"queue", ms_between(job.submitted, p.picked)},  {"admit", ms_between(p.picked, p.admitted)},
      {"prepare", ms_between(p.admitted, p.prepared)}, {"wait_worker", ms_between(p.prepared, p.prove_start)},
      {"prove", ms_between(p.prove_start, p.prove_end)}, {"finalize", ms_between(p.prove_end, p.done)},
      {"matvec", p.stages.matvec_s * 1000},             {"h", p.stages.h_s * 1000},
      {"msm", p.stages.msm_s * 1000},                   {"assembly", p.stages.assembly_s * 1000}};
  for (const auto& [stage, ms] : stages) {
    metrics_.observe_seconds("cuzk_stage_seconds", ms / 1000, std::string("stage=\"") + stage + "\"");
    add_stage(stage_totals_, stage, ms);
  }
}

void Engine::Impl::housekeeping_loop() {
  MutexLock lock(mu_);
  uint64_t trimmed_at = 0;  // finished_count_ when memory was last handed back
  while (!stopping_) {
    size_t purged = purge_expired_locked();
    publish_gauges_locked();
    bool went_idle = unfinished_ == 0 && (finished_count_ != trimmed_at || purged > 0);
    if (went_idle && config_.trim_memory_when_idle) {
      trimmed_at = finished_count_;
      lock.unlock();
      trim_free_memory();
      lock.lock();
    }
    housekeeping_cv_.wait_for(mu_, std::chrono::milliseconds(250));
  }
}

void Engine::Impl::publish_gauges_locked() {
  metrics_.set_gauge("cuzk_budget_total_bytes", double(budget_->total()));
  metrics_.set_gauge("cuzk_budget_used_bytes", double(budget_->used()));
  metrics_.set_gauge("cuzk_budget_peak_bytes", double(budget_->peak()));
  metrics_.set_gauge("cuzk_pinned_idle_bytes", double(pinned_pool_.idle_bytes()));
  metrics_.set_gauge("cuzk_pinned_buffers_allocated", double(pinned_pool_.allocations()));
  metrics_.set_gauge("cuzk_pinned_buffers_freed", double(pinned_pool_.frees()));
  metrics_.set_gauge("cuzk_queue_depth", double(prep_queue_.size()), "queue=\"prepare\"");
  metrics_.set_gauge("cuzk_queue_depth", double(prove_queue_.size()), "queue=\"prove\"");
  metrics_.set_gauge("cuzk_queue_depth", double(final_queue_.size()), "queue=\"finalize\"");
  metrics_.set_gauge("cuzk_jobs_unfinished", double(unfinished_));
  double up_ms = ms_between(started_, Clock::now());
  metrics_.set_gauge("cuzk_uptime_seconds", up_ms / 1000);
  metrics_.set_gauge("cuzk_build_info", 1, "version=\"" + config_.version + "\"");
  for (const auto& s : slots_) {
    double busy = s->busy_ms + (s->busy ? ms_between(s->busy_since, Clock::now()) : 0);
    metrics_.set_gauge("cuzk_worker_busy_fraction", up_ms > 0 ? busy / up_ms : 0, "worker=\"" + s->name + "\"");
  }
  // Per device: busy fraction from the lanes' device times (CUDA events), and
  // the device memory budget.
  for (const auto& d : devices_) {
    const std::string dev = "device=\"" + d->name + "\"";
    metrics_.set_gauge("cuzk_device_busy_fraction",
                       up_ms > 0 ? std::min(1.0, device_busy_ms_locked(*d, Clock::now()) / up_ms) : 0, dev);
    const groth16::DeviceMemory m = d->backend->device_memory();
    metrics_.set_gauge("cuzk_vram_budget_bytes", double(m.budget_bytes), dev);
    metrics_.set_gauge("cuzk_vram_used_bytes", double(m.used_bytes), dev);
    metrics_.set_gauge("cuzk_vram_peak_bytes", double(m.peak_bytes), dev);
  }
}

void tune_allocator() {
#ifdef __GLIBC__
  ::mallopt(M_MMAP_THRESHOLD, 64 << 10);
#endif
}

}  // namespace cuzk::engine
