// The engine's devices: which backends `pipeline.devices` names, keys
// attached per device, the pinned pool for partition inputs, and the proving
// step of a prover worker (stage outside the device interlock, run inside).
#include <algorithm>
#include <string>

#include "cuzk/base/log.h"
#include "engine_impl.h"
#ifdef CUZK_ENGINE_CUDA
#include "cuzk/gpu/device.h"
#include "cuzk/groth16/cuda/cuda_backend.h"
#endif

namespace cuzk::engine {
namespace {

// What a partition keeps reserved from proving to the end of finalization.
constexpr uint64_t kFinalizeReserveBytes = uint64_t(1) << 20;

StatusOr<std::unique_ptr<Device>> cpu_device(ThreadPool* pool) {
  auto d = std::make_unique<Device>();
  d->name = "cpu";
  d->backend = groth16::make_cpu_backend(pool);
  return d;
}

#ifdef CUZK_ENGINE_CUDA
StatusOr<std::unique_ptr<Device>> cuda_device(int ordinal, const EngineConfig& config, ThreadPool* pool) {
  groth16::cuda::CudaBackendOptions o;
  o.device = ordinal;
  o.vram_limit_bytes = config.vram_limit_bytes;
  o.pool = pool;
  ASSIGN_OR_RETURN(auto backend, groth16::cuda::make_cuda_backend(o));
  auto d = std::make_unique<Device>();
  d->name = "cuda:" + std::to_string(ordinal);
  d->backend = std::move(backend);
  return d;
}
#endif

// The CUDA devices present: 0 without a usable driver (reason in *why).
int cuda_devices(std::string* why) {
#ifdef CUZK_ENGINE_CUDA
  StatusOr<int> n = gpu::device_count();
  if (!n.ok() || *n == 0) {
    *why = n.ok() ? "no CUDA device" : gpu::device_unavailable_reason();
    return 0;
  }
  return *n;
#else
  *why = "this build has no CUDA backend";
  return 0;
#endif
}

// Parses "cuda:N"; -1 when `name` is not of that form.
int cuda_ordinal(const std::string& name) {
  if (name.rfind("cuda:", 0) != 0 || name.size() == 5 || name.size() > 8) return -1;
  int v = 0;
  for (char ch : name.substr(5)) {
    if (ch < '0' || ch > '9') return -1;
    v = v * 10 + (ch - '0');
  }
  return v;
}

}  // namespace

StatusOr<std::vector<std::unique_ptr<Device>>> make_devices(const EngineConfig& config, ThreadPool* pool) {
  std::vector<std::unique_ptr<Device>> out;
  std::string why;
  const int present = cuda_devices(&why);
  auto add_cuda = [&](int ordinal) -> Status {
#ifdef CUZK_ENGINE_CUDA
    ASSIGN_OR_RETURN(auto d, cuda_device(ordinal, config, pool));
    out.push_back(std::move(d));
    return ok_status();
#else
    (void)ordinal;
    return invalid_argument("pipeline.devices: this build has no CUDA backend");
#endif
  };
  for (const std::string& name : config.devices) {
    if (name == "auto") {
      if (present == 0) {
        CUZK_LOG(Info) << "devices = auto: proving on the CPU (" << why << ")";
        ASSIGN_OR_RETURN(auto d, cpu_device(pool));
        out.push_back(std::move(d));
      }
      for (int i = 0; i < present; ++i) RETURN_IF_ERROR(add_cuda(i));
    } else if (name == "cpu" || name == "cpu0") {
      ASSIGN_OR_RETURN(auto d, cpu_device(pool));
      out.push_back(std::move(d));
    } else if (name == "cuda") {
      if (present == 0) return invalid_argument("pipeline.devices: \"cuda\" asks for every CUDA device, and " + why);
      for (int i = 0; i < present; ++i) RETURN_IF_ERROR(add_cuda(i));
    } else if (int ordinal = cuda_ordinal(name); ordinal >= 0) {
      if (ordinal >= present)
        return invalid_argument("pipeline.devices: no device " + name + " (" +
                                (present ? std::to_string(present) + " CUDA devices present" : why) + ")");
      RETURN_IF_ERROR(add_cuda(ordinal));
    } else {
      return invalid_argument("pipeline.devices: unknown device \"" + name +
                              "\" (expected auto, cpu, cuda or cuda:N)");
    }
  }
  for (size_t i = 0; i < out.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (out[i]->name == out[j]->name && out[i]->name != "cpu")
        return invalid_argument("pipeline.devices: " + out[i]->name + " is listed twice");
  for (auto& d : out) CUZK_LOG(Info) << "device " << d->name << ": " << d->backend->describe();
  return out;
}

// A key attached to `device` for the partition's circuit: the CPU attaches
// per partition (nothing to upload); a GPU keeps keys attached (the DEVICE
// tier), each holding a lease on its host key, and drops the least recently
// used idle ones when a new key does not fit.
StatusOr<std::shared_ptr<const groth16::AttachedKey>> Engine::Impl::attached_key(Device& device, Item& item) {
  Partition& p = item.part();
  if (device.backend->name() == "cpu") return device.backend->attach(p.key->pk);
  std::lock_guard<std::mutex> lock(device.keys_mu);
  auto it = device.keys.find(item.job->circuit_id);
  if (it != device.keys.end() && it->second.host.get() == p.key.get()) {
    it->second.last_used = Clock::now();
    return it->second.key;
  }
  if (it != device.keys.end()) device.keys.erase(it);  // the host key was reloaded since
  for (;;) {
    StatusOr<std::shared_ptr<const groth16::AttachedKey>> key = device.backend->attach(p.key->pk);
    if (key.ok()) {
      CUZK_LOG(Info) << "circuit \"" << item.job->circuit_id << "\" on " << device.name << ": " << (*key)->placement();
      Device::AttachedEntry& e = device.keys[item.job->circuit_id];
      e.host = p.key.share();
      e.key = *key;
      e.last_used = Clock::now();
      metrics_.set_gauge("cuzk_device_key_bytes", double((*key)->device_bytes()),
                         "device=\"" + device.name + "\",circuit=\"" + item.job->circuit_id + "\"");
      return *key;
    }
    if (key.status().code() != StatusCode::kResourceExhausted) return key.status();
    // Drop the least recently used key no lane is using, and try again.
    auto victim = device.keys.end();
    for (auto k = device.keys.begin(); k != device.keys.end(); ++k)
      if (k->second.key.use_count() == 1 && (victim == device.keys.end() || k->second.last_used < victim->second.last_used))
        victim = k;
    if (victim == device.keys.end()) return key.status();
    CUZK_LOG(Info) << "circuit \"" << victim->first << "\" leaves " << device.name << " to make room";
    metrics_.set_gauge("cuzk_device_key_bytes", 0, "device=\"" + device.name + "\",circuit=\"" + victim->first + "\"");
    device.keys.erase(victim);
  }
}

// Stage (uploads queued) outside the interlock, the device stages inside it,
// assembly after it.
Status Engine::Impl::prove_one(Device* device, Item& item, WorkerSlot* slot) {
  Partition& p = item.part();
  ASSIGN_OR_RETURN(auto key, attached_key(*device, item));
  groth16::ProofInputs in{p.rows.a, p.rows.b, p.rows.c, p.witness};
  if (!p.pinned[0].span().empty()) in = {p.pinned[0].span(), p.pinned[1].span(), p.pinned[2].span(), p.pinned[3].span()};
  auto t0 = Clock::now();
  RETURN_IF_ERROR(slot->lane->stage(key, in));
  const double stage_ms = ms_between(t0, Clock::now());
  if (item.job->finished.load()) return ok_status();
  auto t1 = Clock::now();
  DeviceInterlock::Guard guard = device->interlock.acquire();
  const double wait_ms = ms_between(t1, Clock::now());
  if (item.job->finished.load()) return ok_status();
  set_state(item, PartitionState::kProving, slot);
  auto t2 = Clock::now();
  StatusOr<groth16::MsmSums> sums = slot->lane->run();
  guard.release();
  const double run_ms = ms_between(t2, Clock::now());
  const groth16::LaneTimes& lt = slot->lane->times();
  record_lane(*device, lt, stage_ms, wait_ms, run_ms);
  groth16::StageTimes times;
  times.matvec_s = p.matvec_ms / 1000;
  times.stage_s = stage_ms / 1000;
  times.h_s = lt.get("h") / 1000;
  times.msm_s = std::max(0.0, run_ms / 1000 - times.h_s);
  times.lane = lt;
  if (!sums.ok()) return sums.status();
  auto ta = Clock::now();
  p.proof = groth16::assemble(p.key->pk.vk, *sums, groth16::Blinding::random());
  times.assembly_s = ms_between(ta, Clock::now()) / 1000;
  times.total_s = times.matvec_s + times.stage_s + run_ms / 1000 + times.assembly_s;
  {
    MutexLock lock(mu_);
    p.stages = times;
  }
  p.rows = groth16::RowValues{};
  for (auto& b : p.pinned) b = groth16::HostBuffer();
  std::vector<ff::Fr>().swap(p.witness);
  if (p.reservation.bytes() > kFinalizeReserveBytes) p.reservation.release(p.reservation.bytes() - kFinalizeReserveBytes);
  return ok_status();
}

// Metrics of one proof's device work: bytes uploaded, fallbacks, stage
// histograms, and the device's busy time (from the lane's event times).
void Engine::Impl::record_lane(Device& device, const groth16::LaneTimes& lt, double stage_ms, double wait_ms,
                               double run_ms) {
  const std::string dev = "device=\"" + device.name + "\"";
  metrics_.add_counter("cuzk_bytes_uploaded_total", double(lt.upload_bytes), dev);
  if (lt.pageable_upload) {
    metrics_.add_counter("cuzk_fallbacks_total", 1, "cause=\"pageable_upload\"");
    if (!device.warned_pageable.exchange(true)) {
      CUZK_LOG(Warn) << device.name << ": partition inputs were not in pinned memory; uploads run at pageable speed";
    }
  }
  if (lt.plan == "streamed") metrics_.add_counter("cuzk_fallbacks_total", 1, "cause=\"key_streamed\"");
  metrics_.observe_seconds("cuzk_stage_seconds", stage_ms / 1000, "stage=\"stage\"");
  metrics_.observe_seconds("cuzk_stage_seconds", wait_ms / 1000, "stage=\"interlock_wait\"");
  for (const auto& [name, ms] : lt.stages_ms)
    metrics_.observe_seconds("cuzk_device_stage_seconds", ms / 1000, dev + ",stage=\"" + name + "\"");
  const double upload_ms = lt.get("upload");
  if (upload_ms > 0)
    metrics_.set_gauge("cuzk_upload_gigabytes_per_second", double(lt.upload_bytes) / (upload_ms * 1e6), dev);
  MutexLock lock(mu_);
  device.busy_ms += device.backend->name() == "cpu" ? run_ms : std::max(0.0, lt.total_ms() - upload_ms);
}

// Pinned host buffers for a partition's a, b, c when the proving devices
// upload from them (a CUDA device), from a pool so that pinning — slow for
// gigabytes — happens once per buffer, not per partition.
Status Engine::Impl::pin_rows(Partition& p, uint64_t n) {
  if (host_alloc_ == nullptr) return ok_status();
  for (int i = 0; i < 4; ++i) {
    ASSIGN_OR_RETURN(p.pinned[i], pinned_pool_.take(i < 3 ? n : p.witness.size(), *host_alloc_));
    if (!p.pinned[i].pinned()) metrics_.add_counter("cuzk_fallbacks_total", 1, "cause=\"pinned_alloc\"");
  }
  // The witness moves into its pinned buffer (copied in parallel).
  groth16::HostBuffer& w = p.pinned[3];
  pool_->parallel_for(w.size(), 1 << 16, [&](size_t lo, size_t hi) {
    std::copy(p.witness.begin() + long(lo), p.witness.begin() + long(hi), w.data() + lo);
  });
  return ok_status();
}

StatusOr<groth16::HostBuffer> PinnedPool::take(uint64_t n, groth16::Backend& alloc) {
  using ff::Fr;
  groth16::HostBuffer b;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto it = idle_.begin(); it != idle_.end(); ++it)
      if (it->size() == n) {
        b = std::move(*it);
        idle_.erase(it);
        break;
      }
  }
  if (b.data() == nullptr) {
    ASSIGN_OR_RETURN(b, alloc.allocate_inputs(n));
  }
  // Returned to the pool when the partition lets go of it.
  Fr* p = b.data();
  const size_t size = b.size();
  const bool pinned = b.pinned();
  auto shared = std::make_shared<groth16::HostBuffer>(std::move(b));
  return groth16::HostBuffer(p, size, pinned, [this, shared](Fr*) { give_back(std::move(*shared)); });
}

void PinnedPool::give_back(groth16::HostBuffer b) {
  std::lock_guard<std::mutex> lock(mu_);
  if (idle_.size() < max_idle_) idle_.push_back(std::move(b));
}

}  // namespace cuzk::engine
