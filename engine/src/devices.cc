// The engine's devices: which backends `pipeline.devices` names, the
// fallbacks they count, and the proving step of a prover worker (stage
// outside the device interlock, run inside). Keys on devices: device_keys.cc.
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
  d->caps = d->backend->caps();
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
  d->caps = d->backend->caps();
  return d;
}
#endif

// The CUDA devices present (0 without a usable driver, reason in *why), and
// those this build's device code runs on (the others' reasons in *why).
struct CudaDevices {
  int present = 0;
  std::vector<int> usable;
};
CudaDevices cuda_devices(std::string* why) {
  CudaDevices d;
#ifdef CUZK_ENGINE_CUDA
  StatusOr<int> n = gpu::device_count();
  if (!n.ok() || *n == 0) {
    *why = n.ok() ? "no CUDA device" : gpu::device_unavailable_reason();
    return d;
  }
  d.present = *n;
  d.usable = gpu::usable_devices(why);
#else
  *why = "this build has no CUDA backend";
#endif
  return d;
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

bool is_device_name(const std::string& name) {
  return name == "auto" || name == "cpu" || name == "cpu0" || name == "cuda" || cuda_ordinal(name) >= 0;
}

StatusOr<std::vector<std::unique_ptr<Device>>> make_devices(const EngineConfig& config, ThreadPool* pool) {
  std::vector<std::unique_ptr<Device>> out;
  std::string why;
  const CudaDevices cuda = cuda_devices(&why);
  const int present = cuda.present;
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
      if (cuda.usable.empty()) {
        CUZK_LOG(Info) << "devices = auto: proving on the CPU (" << why << ")";
        ASSIGN_OR_RETURN(auto d, cpu_device(pool));
        out.push_back(std::move(d));
      }
      if (!cuda.usable.empty() && !why.empty()) {
        CUZK_LOG(Warn) << "devices = auto: left out: " << why;
      }
      for (int i : cuda.usable) RETURN_IF_ERROR(add_cuda(i));
    } else if (name == "cpu" || name == "cpu0") {
      ASSIGN_OR_RETURN(auto d, cpu_device(pool));
      out.push_back(std::move(d));
    } else if (name == "cuda") {
      if (present == 0) return invalid_argument("pipeline.devices: \"cuda\" asks for every CUDA device, and " + why);
      if (cuda.usable.size() != size_t(present))
        return failed_precondition("pipeline.devices: \"cuda\" asks for every CUDA device, and " + why);
      for (int i : cuda.usable) RETURN_IF_ERROR(add_cuda(i));
    } else if (int ordinal = cuda_ordinal(name); ordinal >= 0) {
      if (ordinal >= present)
        return invalid_argument("pipeline.devices: no device " + name + " (" +
                                (present ? std::to_string(present) + " CUDA devices present" : why) + ")");
      RETURN_IF_ERROR(add_cuda(ordinal));
    } else {
      StatusOr<std::unique_ptr<groth16::Backend>> b =
          config.backend_factory ? config.backend_factory(name) : StatusOr<std::unique_ptr<groth16::Backend>>(not_found(""));
      if (!b.ok() && b.status().code() != StatusCode::kNotFound)
        return b.status().with_context("pipeline.devices: " + name);
      if (!b.ok())
        return invalid_argument("pipeline.devices: unknown device \"" + name +
                                "\" (expected auto, cpu, cuda or cuda:N)");
      auto d = std::make_unique<Device>();
      d->name = name;
      d->backend = std::move(*b);
      d->caps = d->backend->caps();
      out.push_back(std::move(d));
    }
  }
  for (size_t i = 0; i < out.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (out[i]->name == out[j]->name && out[i]->name != "cpu")
        return invalid_argument("pipeline.devices: " + out[i]->name + " is listed twice");
  for (auto& d : out) CUZK_LOG(Info) << "device " << d->name << ": " << d->backend->describe();
  return out;
}

namespace {

// What a fallback means, for the one warning each cause gets.
const char* fallback_meaning(groth16::Fallback f) {
  using groth16::Fallback;
  switch (f) {
    case Fallback::kPinnedAlloc:
      return "pinned host memory could not be allocated for partition inputs; they stay in pageable memory (slower "
             "uploads)";
    case Fallback::kPageableUpload: return "partition inputs were not in pinned memory; uploads run at pageable speed";
    case Fallback::kPlainPath:
      return "device memory holds one set of partition inputs, not one per worker: uploads run inside the device region";
    case Fallback::kKeyStreamed:
      return "a key does not fit the device's memory or key budget; its points stream from host memory";
    case Fallback::kDeviceError: return "a device error failed a job; the device goes on with other work";
    case Fallback::kHostMatvec:
      return "a key's circuit is not on the device (a streamed key, or no room beside it): the host makes a, b, c";
  }
  return "a fallback";
}

}  // namespace

void Engine::Impl::count_fallback(Device* device, groth16::Fallback cause) {
  const std::string name(groth16::fallback_name(cause));
  metrics_.add_counter("cuzk_fallbacks_total", 1, "cause=\"" + name + "\"");
  bool first = false;
  {
    MutexLock lock(mu_);
    if (device) device->fallbacks[cause]++;
    first = warned_fallbacks_.insert(cause).second;
  }
  if (!first) return;
  const std::string where = device ? device->name + ": " : std::string();
  CUZK_LOG(Warn) << where << fallback_meaning(cause) << " (counted in cuzk_fallbacks_total{cause=\"" << name
                 << "\"}; logged once)";
}

// Stage (uploads queued) outside the interlock, the device stages inside it,
// assembly after it.
Status Engine::Impl::prove_one(Device* device, Item& item, WorkerSlot* slot) {
  Partition& p = item.part();
  PartitionInputs& pin = p.inputs;
  ASSIGN_OR_RETURN(auto key, device_key(*device, item.job->circuit_id, p.key));
  if (!pin.have_rows() && !key->computes_rows()) RETURN_IF_ERROR(rows_for_device(device, item));
  // The host made the rows (in preparation, or just now) where the device
  // would have made them had it kept the key's circuit.
  if (config_.matvec_on_device && device->caps.can_make_rows && !key->computes_rows()) count_fallback(device, groth16::Fallback::kHostMatvec);
  groth16::ProofInputs in;
  in.witness = pin.witness_span();
  if (!pin.rows.a.empty()) {
    in.a = pin.rows.a, in.b = pin.rows.b, in.c = pin.rows.c;
  } else if (pin.a.data() != nullptr) {
    in.a = pin.a.span(), in.b = pin.b.span(), in.c = pin.c.span();
  } else {
    in.check_rows = pin.rows_unchecked;  // the device makes a, b, c and checks them
  }
  // The lane stops between its stages once the job has ended (a cancel),
  // so that this worker is free for the next partition in seconds.
  const std::atomic<bool>* finished = &item.job->finished;
  in.cancelled = [finished] { return finished->load(); };
  auto t0 = Clock::now();
  RETURN_IF_ERROR(slot->lane->stage(key, in));
  const double stage_ms = ms_between(t0, Clock::now());
  if (!in.rows_given() && pin.rows_reserved) {
    // The host never holds this partition's a, b, c: their share of its
    // reservation goes back now, so that the next partition is admitted.
    pin.rows_reserved = false;
    p.reservation.release(3 * sizeof(ff::Fr) * p.key->pk.domain_size());
  }
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
  if (!sums.ok()) {
    // Not the device's fault: FAILED_PRECONDITION, or INVALID_ARGUMENT from
    // the device's row check (the witness does not satisfy the circuit), and
    // CANCELLED (the lane stopped at a stage boundary because the job was
    // cancelled, ProofInputs::cancelled). Anything else from inside the device
    // region is the device's (CUDA errors map to INTERNAL, RESOURCE_EXHAUSTED
    // or UNAVAILABLE, never to those three).
    const StatusCode code = sums.status().code();
    if (code == StatusCode::kFailedPrecondition || code == StatusCode::kInvalidArgument ||
        code == StatusCode::kCancelled)
      return sums.status();
    // A device error: this job fails, its memory goes back, the device serves the others.
    count_fallback(device, groth16::Fallback::kDeviceError);
    return sums.status().with_context(device->name + " (the job fails; the device goes on with other work)");
  }
  groth16::StageTimes times;
  times.matvec_s = in.rows_given() ? pin.matvec_ms / 1000 : lt.get("matvec") / 1000;
  times.stage_s = stage_ms / 1000;
  times.h_s = lt.get("h") / 1000;
  times.msm_s = std::max(0.0, run_ms / 1000 - times.h_s);
  times.lane = lt;
  auto ta = Clock::now();
  p.proof = groth16::assemble(p.key->pk.vk, *sums, groth16::Blinding::random());
  times.assembly_s = ms_between(ta, Clock::now()) / 1000;
  times.total_s = times.matvec_s + times.stage_s + run_ms / 1000 + times.assembly_s;
  {
    MutexLock lock(mu_);
    p.stages = times;
  }
  pin.clear();  // pooled buffers go back to the pool
  p.window.reset();
  if (p.reservation.bytes() > kFinalizeReserveBytes) p.reservation.release(p.reservation.bytes() - kFinalizeReserveBytes);
  return ok_status();
}

// Metrics of one proof's device work: bytes uploaded, fallbacks, stage
// histograms, and the device's busy time (from the lane's event times).
void Engine::Impl::record_lane(Device& device, const groth16::LaneTimes& lt, double stage_ms, double wait_ms,
                               double run_ms) {
  const std::string dev = "device=\"" + device.name + "\"";
  metrics_.add_counter("cuzk_bytes_uploaded_total", double(lt.upload_bytes), dev);
  for (groth16::Fallback cause : lt.fallbacks) count_fallback(&device, cause);
  metrics_.observe_seconds("cuzk_stage_seconds", stage_ms / 1000, "stage=\"stage\"");
  metrics_.observe_seconds("cuzk_stage_seconds", wait_ms / 1000, "stage=\"interlock_wait\"");
  for (const auto& [name, ms] : lt.stages_ms)
    metrics_.observe_seconds("cuzk_device_stage_seconds", ms / 1000, dev + ",stage=\"" + name + "\"");
  const double upload_ms = lt.get("upload");
  if (upload_ms > 0)
    metrics_.set_gauge("cuzk_upload_gigabytes_per_second", double(lt.upload_bytes) / (upload_ms * 1e6), dev);
  MutexLock lock(mu_);
  add_stage(stage_totals_, "stage", stage_ms);
  add_stage(stage_totals_, "interlock_wait", wait_ms);
  for (const auto& [name, ms] : lt.stages_ms) add_stage(device.stages, name, ms);
  device.bytes_uploaded += lt.upload_bytes;
  // Device time from the lane's events, unless stages ran side by side (the
  // overlapped streamed plan): then the device region's wall time.
  device.busy_ms += device.caps.device_timed && !lt.overlapped() ? std::max(0.0, lt.total_ms() - upload_ms) : run_ms;
}

}  // namespace cuzk::engine
