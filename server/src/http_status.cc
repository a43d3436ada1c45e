#include "http_status.h"

#include <httplib.h>

#include <nlohmann/json.hpp>
#include <strings.h>

#include <cstring>
#include <string_view>

#include "cuzk/base/utf8.h"
#include "cuzk/server/server.h"
#include "http_front.h"
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
  return json{{"job_id", valid_utf8(j.job_id)},
              {"request_id", valid_utf8(j.request_id)},
              {"circuit_id", valid_utf8(j.circuit_id)},
              {"kind", engine::proof_kind_name(j.kind)},
              {"priority", engine::priority_name(j.priority)},
              {"state", engine::job_state_name(j.state)},
              {"outcome", j.state == engine::JobState::kDone ? json(engine::job_outcome_name(j.outcome)) : json()},
              {"age_s", j.age_s},
              {"error_message", valid_utf8(j.error_message)},
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
           {"keys", keys},
           {"jobs", jobs}};
  // Strings that carry input are escaped above; should one still hold a byte
  // that is not UTF-8, it becomes U+FFFD rather than an exception: the status
  // of every job must not fail because of one (dump() throws by default).
  return out.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

namespace {

// A request already read in full, answered in memory.
class MemoryStream : public httplib::Stream {
 public:
  explicit MemoryStream(const HttpHead& head) : head_(head) {}
  bool is_readable() const override { return true; }
  bool is_writable() const override { return true; }
  ssize_t read(char* p, size_t n) override {
    n = std::min(n, head_.bytes.size() - pos_);
    std::memcpy(p, head_.bytes.data() + pos_, n);
    pos_ += n;
    return ssize_t(n);
  }
  ssize_t write(const char* p, size_t n) override {
    out_.append(p, n);
    return ssize_t(n);
  }
  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    ip = head_.peer_ip;
    port = head_.peer_port;
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    ip.clear();
    port = 0;
  }
  socket_t socket() const override { return INVALID_SOCKET; }
  std::string& out() { return out_; }

 private:
  const HttpHead& head_;
  size_t pos_ = 0;
  std::string out_;
};

// The head without its Range header lines. httplib answers every range of a
// multi-range request with a copy of the body (2,600 ranges of /status made a
// 90 MB reply from an 8 KB request); nothing served here needs ranges, so
// they are ignored and the whole body is sent (RFC 9110 allows that).
HttpHead without_ranges(const HttpHead& head) {
  HttpHead out{std::string(), head.peer_ip, head.peer_port};
  out.bytes.reserve(head.bytes.size());
  size_t pos = 0;
  while (pos < head.bytes.size()) {
    size_t eol = head.bytes.find("\r\n", pos);
    eol = eol == std::string::npos ? head.bytes.size() : eol + 2;
    const std::string_view line(head.bytes.data() + pos, eol - pos);
    const bool range = line.size() >= 6 && ::strncasecmp(line.data(), "range:", 6) == 0;
    if (!range) out.bytes.append(line);
    pos = eol;
  }
  return out;
}

// httplib's routing (Get handlers) and response writing, without its
// network loop (HttpFront does the network).
class Routes : public httplib::Server {
 public:
  std::string answer(const HttpHead& request) {
    const HttpHead head = without_ranges(request);
    MemoryStream stream(head);
    bool closed = true;
    if (!process_request(stream, /*close_connection=*/true, closed, nullptr) && stream.out().empty())
      return http_plain_response(400, "Bad Request", "malformed request\n");
    return std::move(stream.out());
  }
};

}  // namespace

struct StatusHttp::State {
  Routes http;
  std::unique_ptr<HttpFront> front;
};

StatusOr<std::unique_ptr<StatusHttp>> StatusHttp::start(const std::string& host, uint16_t port,
                                                        engine::Engine* engine, HttpLimits limits) {
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
  Routes* routes = &s->state_->http;
  ASSIGN_OR_RETURN(s->state_->front,
                   HttpFront::start(host, port, limits, [routes](const HttpHead& head) { return routes->answer(head); }));
  s->address_ = host + ":" + std::to_string(s->state_->front->port());
  return s;
}

void StatusHttp::stop() {
  if (state_ && state_->front) state_->front->stop();
}

StatusHttp::~StatusHttp() { stop(); }

}  // namespace cuzk::server
