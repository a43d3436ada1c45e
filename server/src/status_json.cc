#include "cuzk/server/status_json.h"

#include <nlohmann/json.hpp>

#include "cuzk/base/utf8.h"

namespace cuzk::server {
namespace {

using nlohmann::json;

json partition_json(const engine::PartitionStatus& p) {
  return json{{"index", p.index},
              {"state", engine::partition_state_name(p.state)},
              {"worker", p.worker},
              {"stage_ms",
               {{"queue", p.queue_ms},
                {"admit", p.admit_ms},
                {"prepare", p.prep_ms},
                {"wait_worker", p.wait_worker_ms},
                {"prove", p.prove_ms},
                {"matvec", p.matvec_ms},
                {"h", p.h_ms},
                {"msm", p.msm_ms},
                {"assembly", p.assembly_ms},
                {"finalize", p.finalize_ms},
                {"verify", p.verify_ms}}}};
}

json job_json(const engine::JobStatus& j) {
  json parts = json::array();
  for (const auto& p : j.partitions) parts.push_back(partition_json(p));
  return json{{"job_id", valid_utf8(j.job_id)},
              {"request_id", valid_utf8(j.request_id)},
              {"circuit_id", valid_utf8(j.circuit_id)},
              {"kind", engine::proof_kind_name(j.kind)},
              {"priority", engine::priority_name(j.priority)},
              {"state", engine::job_state_name(j.state)},
              {"outcome", j.state == engine::JobState::kDone ? json(engine::job_outcome_name(j.outcome)) : json()},
              {"age_s", j.age_s},
              {"error_message", valid_utf8(j.error_message)},
              {"sector", j.has_sector ? json{{"miner_id", j.miner_id}, {"sector_number", j.sector_number}} : json()},
              {"partitions", parts}};
}

// A configured circuit's state: loading (with its step), ready, or failed
// (with its reason).
json circuit_json(const engine::CircuitLoadStatus& c) {
  return json{{"circuit_id", c.id},
              {"state", engine::circuit_state_name(c.state)},
              {"step", c.step},
              {"error", valid_utf8(c.error)},
              {"elapsed_s", c.elapsed_s},
              {"step_s", c.step_s}};
}

json key_json(const engine::KeyStatus& k) {
  return json{{"circuit_id", k.id},
              {"tier", engine::key_tier_name(k.tier)},
              {"size_bytes", k.size_bytes},
              {"ref_count", k.ref_count},
              {"idle_s", k.idle_s},
              {"loading", k.loading},
              {"load_progress", k.load_progress},
              {"last_load_ms", k.last_load_ms},
              {"loads", k.loads},
              {"last_error", valid_utf8(k.last_error)}};
}

// Stage name -> {"sum_ms", "count"} (totals since the start).
json stages_json(const engine::StageTotals& stages) {
  json out = json::object();
  for (const auto& [name, t] : stages) out[name] = json{{"sum_ms", t.sum_ms}, {"count", t.count}};
  return out;
}

// Every DeviceStatus field: bytes as integers, fallbacks as an object
// cause -> count, resident keys as an array of objects.
json device_json(const engine::DeviceStatus& d) {
  json keys = json::array(), fallbacks = json::object();
  for (const auto& k : d.keys)
    keys.push_back(json{{"circuit_id", k.circuit_id},
                        {"device_bytes", k.device_bytes},
                        {"placement", k.placement},
                        {"in_use", k.in_use},
                        {"idle_s", k.idle_s}});
  for (const auto& [cause, count] : d.fallbacks) fallbacks[cause] = count;
  return json{{"name", d.name},
              {"description", d.description},
              {"vram_total_bytes", d.vram_total_bytes},
              {"vram_budget_bytes", d.vram_budget_bytes},
              {"vram_used_bytes", d.vram_used_bytes},
              {"vram_peak_bytes", d.vram_peak_bytes},
              {"key_budget_bytes", d.key_budget_bytes},
              {"busy_fraction", d.busy_fraction},
              {"workers", d.workers},
              {"keys", keys},
              {"fallbacks", fallbacks},
              {"bytes_uploaded", d.bytes_uploaded},
              {"stages", stages_json(d.stages)}};
}

}  // namespace

std::string status_json(const engine::EngineStatus& s) {
  json jobs = json::array(), workers = json::array(), keys = json::array(), queues = json::array(),
       devices = json::array();
  for (const auto& d : s.device_status) devices.push_back(device_json(d));
  for (const auto& j : s.jobs) jobs.push_back(job_json(j));
  for (const auto& w : s.workers)
    workers.push_back(json{{"name", w.name},
                           {"device", w.device},
                           {"state", w.busy ? "busy" : "idle"},
                           {"job_id", w.job_id},
                           {"busy_fraction", w.busy_fraction}});
  for (const auto& k : s.keys) keys.push_back(key_json(k));
  json circuits = json::array();
  for (const auto& c : s.circuits) circuits.push_back(circuit_json(c));
  for (const auto& q : s.queues)
    queues.push_back(
        json{{"proof_kind", engine::proof_kind_name(q.kind)}, {"pending", q.pending}, {"in_progress", q.in_progress}});
  json out{{"uptime_s", s.uptime_s},
           {"version", s.version},
           {"shutting_down", s.shutting_down},
           {"memory", {{"budget_used_bytes", s.budget_used_bytes},
                       {"budget_total_bytes", s.budget_total_bytes},
                       {"budget_peak_bytes", s.budget_peak_bytes},
                       {"pinned_idle_bytes", s.pinned_idle_bytes},
                       {"pinned_buffers_allocated", s.pinned_allocated},
                       {"pinned_buffers_freed", s.pinned_freed}}},
           {"proofs", {{"completed", s.proofs_completed}, {"failed", s.proofs_failed}, {"cancelled", s.proofs_cancelled}}},
           {"devices", s.devices},
           {"device_status", devices},
           {"prover_threads", s.prover_threads},
           {"stages", stages_json(s.stages)},
           {"queues", queues},
           {"workers", workers},
           {"circuits", circuits},
           {"keys", keys},
           {"jobs", jobs}};
  // Strings that carry input are escaped above; should one still hold a byte
  // that is not UTF-8, it becomes U+FFFD rather than an exception: the status
  // of every job must not fail because of one (dump() throws by default).
  return out.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace cuzk::server
