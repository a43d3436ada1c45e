#include "metrics_catalog.h"

#include "cuzk/engine/types.h"

namespace cuzk::engine {
namespace {

struct FamilyDoc {
  const char* name;
  MetricType type;
  const char* help;
};

constexpr FamilyDoc kFamilies[] = {
    {"cuzk_jobs_submitted_total", MetricType::kCounter, "Jobs accepted by SubmitProof or Prove, by proof kind."},
    {"cuzk_proofs_completed_total", MetricType::kCounter, "Jobs that ended with their proofs, by proof kind."},
    {"cuzk_proofs_failed_total", MetricType::kCounter, "Jobs that ended FAILED, by proof kind."},
    {"cuzk_proofs_cancelled_total", MetricType::kCounter, "Jobs that ended CANCELLED, by proof kind."},
    {"cuzk_submit_rejected_total", MetricType::kCounter, "Submissions refused before queueing, by status code."},
    {"cuzk_self_verify_failures_total", MetricType::kCounter,
     "Proofs that failed self-verification (never returned; their job fails)."},
    {"cuzk_key_loads_total", MetricType::kCounter, "Proving keys decoded into host memory, by circuit."},
    {"cuzk_key_evictions_total", MetricType::kCounter, "Keys demoted or dropped, by reason (idle, request)."},
    {"cuzk_bytes_uploaded_total", MetricType::kCounter, "Bytes copied to devices by proofs, by device (0 on the CPU)."},
    {"cuzk_fallbacks_total", MetricType::kCounter,
     "Proofs that took a slower path, by cause: pageable_upload (inputs not in pinned memory), pinned_alloc "
     "(pinning failed), key_streamed (the key did not fit the device budget and streams from host memory)."},
    {"cuzk_device_busy_fraction", MetricType::kGauge,
     "Fraction of the time since start each device computed proofs (device times from CUDA events)."},
    {"cuzk_device_stage_seconds", MetricType::kHistogram,
     "Device stages of proofs (upload, h, classify, msm_h, msm_lab: L, A, B1, B2 side by side; msm_l.ones, msm_l.tail, ... for each query; beside.* where a stage overlapped others), by device."},
    {"cuzk_device_key_bytes", MetricType::kGauge, "Device memory held by each attached key, by device and circuit."},
    {"cuzk_upload_gigabytes_per_second", MetricType::kGauge, "Upload rate of the last proof's inputs, by device."},
    {"cuzk_vram_budget_bytes", MetricType::kGauge, "Each GPU's device memory budget (free at start, or vram_limit)."},
    {"cuzk_vram_used_bytes", MetricType::kGauge, "Device memory reserved now (keys and lanes), by device."},
    {"cuzk_vram_peak_bytes", MetricType::kGauge, "The most device memory reserved at once, by device."},
    {"cuzk_prover_batches_total", MetricType::kCounter, "Batches taken by prover workers."},
    {"cuzk_prover_batched_partitions_total", MetricType::kCounter, "Partitions in those batches."},
    {"cuzk_queue_depth", MetricType::kGauge, "Partitions waiting, by queue (prepare, prove, finalize)."},
    {"cuzk_jobs_unfinished", MetricType::kGauge, "Jobs accepted and not yet ended."},
    {"cuzk_build_info", MetricType::kGauge, "Always 1; the label names the version of the running cuzk."},
    {"cuzk_uptime_seconds", MetricType::kGauge, "Seconds since the engine started."},
    {"cuzk_worker_busy_fraction", MetricType::kGauge, "Fraction of the time since start each prover worker was busy."},
    {"cuzk_budget_used_bytes", MetricType::kGauge, "Host memory reserved now (keys and partitions)."},
    {"cuzk_budget_total_bytes", MetricType::kGauge, "The host memory budget (memory.total_budget)."},
    {"cuzk_budget_peak_bytes", MetricType::kGauge, "The most host memory reserved at once since start."},
    {"cuzk_pinned_buffers_allocated", MetricType::kGauge,
     "Pinned input buffers made since the start (a steady pipeline makes none: buffers are reused)"},
    {"cuzk_pinned_buffers_freed", MetricType::kGauge,
     "Pinned input buffers freed since the start (idle ones freed when memory was short)"},
    {"cuzk_pinned_idle_bytes", MetricType::kGauge,
     "Pinned host buffers kept for reuse, not in use (counted in cuzk_budget_used_bytes)."},
    {"cuzk_key_bytes", MetricType::kGauge, "Bytes of proving keys by tier (HOT: decoded, WARM: mapped)."},
    {"cuzk_stage_seconds", MetricType::kHistogram, "Time partitions spent in each stage."},
    {"cuzk_job_seconds", MetricType::kHistogram, "Submit to end of completed jobs, by proof kind."},
    {"cuzk_key_load_seconds", MetricType::kHistogram, "Time to decode a proving key."},
    {"cuzk_span_seconds", MetricType::kHistogram, "Prover trace spans (matvec, h, msm, assembly, total)."},
};

constexpr ProofKind kKinds[] = {ProofKind::kPorepSealCommit, ProofKind::kSnapDealsUpdate,
                                ProofKind::kWindowPostPartition, ProofKind::kWinningPost,
                                ProofKind::kGroth16Circuit};

// The codes submit can refuse with (engine.h).
constexpr const char* kRefusalCodes[] = {"INVALID_ARGUMENT", "NOT_FOUND", "ALREADY_EXISTS", "RESOURCE_EXHAUSTED",
                                         "UNAVAILABLE"};

}  // namespace

void describe_engine_metrics(MetricsRegistry& m, const std::vector<std::string>& circuit_ids) {
  for (const FamilyDoc& f : kFamilies) m.describe(f.name, f.type, f.help);
  for (ProofKind k : kKinds) {
    const std::string label = "kind=\"" + std::string(proof_kind_name(k)) + "\"";
    for (const char* name : {"cuzk_jobs_submitted_total", "cuzk_proofs_completed_total", "cuzk_proofs_failed_total",
                             "cuzk_proofs_cancelled_total"})
      m.add_counter(name, 0, label);
  }
  for (const char* code : kRefusalCodes) m.add_counter("cuzk_submit_rejected_total", 0, "code=\"" + std::string(code) + "\"");
  for (const std::string& id : circuit_ids) m.add_counter("cuzk_key_loads_total", 0, "circuit=\"" + id + "\"");
  for (const char* reason : {"idle", "request"})
    m.add_counter("cuzk_key_evictions_total", 0, "reason=\"" + std::string(reason) + "\"");
}

}  // namespace cuzk::engine
