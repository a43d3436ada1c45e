#include "http_status.h"

#include <httplib.h>

#include <nlohmann/json.hpp>
#include <thread>

#include "cuzk/server/server.h"
#include "status_page.h"

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
  return json{{"job_id", j.job_id},
              {"request_id", j.request_id},
              {"circuit_id", j.circuit_id},
              {"kind", engine::proof_kind_name(j.kind)},
              {"priority", engine::priority_name(j.priority)},
              {"state", engine::job_state_name(j.state)},
              {"outcome", j.state == engine::JobState::kDone ? json(engine::job_outcome_name(j.outcome)) : json()},
              {"age_s", j.age_s},
              {"error_message", j.error_message},
              {"partitions", parts}};
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
              {"last_error", k.last_error}};
}

}  // namespace

std::string status_json(const engine::EngineStatus& s) {
  json jobs = json::array(), workers = json::array(), keys = json::array(), queues = json::array();
  for (const auto& j : s.jobs) jobs.push_back(job_json(j));
  for (const auto& w : s.workers)
    workers.push_back(json{{"name", w.name},
                           {"device", w.device},
                           {"state", w.busy ? "busy" : "idle"},
                           {"job_id", w.job_id},
                           {"busy_fraction", w.busy_fraction}});
  for (const auto& k : s.keys) keys.push_back(key_json(k));
  for (const auto& q : s.queues)
    queues.push_back(
        json{{"proof_kind", engine::proof_kind_name(q.kind)}, {"pending", q.pending}, {"in_progress", q.in_progress}});
  json out{{"uptime_s", s.uptime_s},
           {"shutting_down", s.shutting_down},
           {"memory", {{"budget_used_bytes", s.budget_used_bytes},
                       {"budget_total_bytes", s.budget_total_bytes},
                       {"budget_peak_bytes", s.budget_peak_bytes}}},
           {"proofs", {{"completed", s.proofs_completed}, {"failed", s.proofs_failed}, {"cancelled", s.proofs_cancelled}}},
           {"devices", s.devices},
           {"prover_threads", s.prover_threads},
           {"queues", queues},
           {"workers", workers},
           {"keys", keys},
           {"jobs", jobs}};
  return out.dump(2) + "\n";
}

struct StatusHttp::State {
  httplib::Server http;
  std::thread thread;
};

StatusOr<std::unique_ptr<StatusHttp>> StatusHttp::start(const std::string& host, uint16_t port,
                                                        engine::Engine* engine) {
  std::unique_ptr<StatusHttp> s(new StatusHttp());
  s->state_ = std::make_unique<State>();
  httplib::Server& http = s->state_->http;
  http.Get("/", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(std::string(status_page_html()), "text/html; charset=utf-8");
  });
  http.Get("/status", [engine](const httplib::Request&, httplib::Response& res) {
    res.set_content(status_json(engine->status()), "application/json");
  });
  http.Get("/metrics", [engine](const httplib::Request&, httplib::Response& res) {
    res.set_content(engine->metrics_text(), "text/plain; version=0.0.4");
  });
  // SO_REUSEADDR only (the library's default adds SO_REUSEPORT, which would
  // let a second daemon share the port).
  http.set_socket_options([](socket_t sock) {
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  int bound = port == 0 ? http.bind_to_any_port(host) : (http.bind_to_port(host, port) ? port : -1);
  if (bound < 0) return unavailable("cannot listen for HTTP on " + host + ":" + std::to_string(port));
  s->address_ = host + ":" + std::to_string(bound);
  s->state_->thread = std::thread([st = s->state_.get()] { st->http.listen_after_bind(); });
  // stop() before the loop runs would be lost: wait until it is serving.
  for (int i = 0; i < 2000 && !http.is_running(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return s;
}

void StatusHttp::stop() {
  if (!state_) return;
  state_->http.stop();
  if (state_->thread.joinable()) state_->thread.join();
}

StatusHttp::~StatusHttp() { stop(); }

}  // namespace cuzk::server
