#include "status_text.h"

#include <cstdio>

namespace cuzk::app {
namespace {

using nlohmann::json;

std::string bytes_text(double n) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (n >= 1024 && u < 4) {
    n /= 1024;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", n, units[u]);
  return buf;
}

std::string seconds_text(double s) {
  char buf[48];
  if (s < 60) std::snprintf(buf, sizeof buf, "%.1f s", s);
  else if (s < 3600) std::snprintf(buf, sizeof buf, "%d min %d s", int(s / 60), int(s) % 60);
  else std::snprintf(buf, sizeof buf, "%d h %d min", int(s / 3600), int(s) % 3600 / 60);
  return buf;
}

// The value at key as text, "" when absent or null.
std::string str(const json& j, const char* key) {
  if (!j.is_object() || !j.contains(key) || j[key].is_null()) return "";
  return j[key].is_string() ? j[key].get<std::string>() : j[key].dump();
}
double num(const json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_number() ? j[key].get<double>() : 0;
}

void header(const json& s, std::string& o) {
  const json& p = s.value("proofs", json::object());
  const json& m = s.value("memory", json::object());
  o += "cuzk daemon: up " + seconds_text(num(s, "uptime_s")) + "; proofs " + str(p, "completed") + " completed, " +
       str(p, "failed") + " failed, " + str(p, "cancelled") + " cancelled; memory budget " +
       bytes_text(num(m, "budget_used_bytes")) + " of " + bytes_text(num(m, "budget_total_bytes")) + " used (peak " +
       bytes_text(num(m, "budget_peak_bytes")) + ")" + (s.value("shutting_down", false) ? "; SHUTTING DOWN" : "") +
       "\n";
}

// "busy, 1 of 2 prover worker(s) busy (job-...)" for the workers of `device`.
std::string workers_text(const json& s, const std::string& device) {
  int workers = 0, busy = 0;
  std::string jobs;
  for (const json& w : s.value("workers", json::array())) {
    if (str(w, "device") != device) continue;
    ++workers;
    if (str(w, "state") == "busy") {
      ++busy;
      jobs += ' ';  // appends: g++ 12 warns (-Wrestrict) on " " + string
      jobs += str(w, "job_id");
    }
  }
  return std::string(busy ? "busy" : "idle") + ", " + std::to_string(busy) + " of " + std::to_string(workers) +
         " prover worker(s) busy" + (jobs.empty() ? "" : " (" + jobs.substr(1) + ")");
}

// The device's entry of device_status, null when the daemon sends none.
const json* device_detail(const json& s, const std::string& name) {
  if (!s.contains("device_status") || !s["device_status"].is_array()) return nullptr;
  for (const json& d : s["device_status"])
    if (str(d, "name") == name) return &d;
  return nullptr;
}

// Memory, busy fraction, resident keys and fallbacks, one indented line each.
void device_lines(const json& d, std::string& o) {
  char line[320];
  if (num(d, "vram_total_bytes") > 0) {
    std::snprintf(line, sizeof line, "  VRAM %s used of %s budget (%s total, peak %s)",
                  bytes_text(num(d, "vram_used_bytes")).c_str(), bytes_text(num(d, "vram_budget_bytes")).c_str(),
                  bytes_text(num(d, "vram_total_bytes")).c_str(), bytes_text(num(d, "vram_peak_bytes")).c_str());
    o += line;
    if (num(d, "key_budget_bytes") > 0) o += "; keys up to " + bytes_text(num(d, "key_budget_bytes"));
    o += "; " + bytes_text(num(d, "bytes_uploaded")) + " uploaded\n";
  } else {
    o += "  host memory (the budget above)\n";
  }
  std::snprintf(line, sizeof line, "  busy %.1f%% of the uptime\n", 100 * num(d, "busy_fraction"));
  o += line;
  for (const json& k : d.value("keys", json::array())) {
    std::snprintf(line, sizeof line, "  key %-24s %10s  %s", str(k, "circuit_id").c_str(),
                  bytes_text(num(k, "device_bytes")).c_str(),
                  k.value("in_use", false) ? "in use" : ("idle " + seconds_text(num(k, "idle_s"))).c_str());
    o += line;
    if (!str(k, "placement").empty()) o += "  " + str(k, "placement");
    o += "\n";
  }
  const json& fallbacks = d.value("fallbacks", json::object());
  if (fallbacks.is_object() && !fallbacks.empty()) {
    std::string list;
    for (const auto& [cause, count] : fallbacks.items()) list += ", " + cause + " " + count.dump();
    o += "  fallbacks: " + list.substr(2) + "\n";
  }
}

void devices(const json& s, std::string& o) {
  for (const json& n : s.value("devices", json::array())) {
    const std::string name = n.is_string() ? n.get<std::string>() : n.dump();
    const json* d = device_detail(s, name);
    const std::string description = d != nullptr && num(*d, "vram_total_bytes") > 0 ? str(*d, "description") : "";
    std::string title = name;
    if (description.starts_with(name)) title = description;  // "cuda:0 <model>, ..." names itself
    else if (!description.empty()) title += " (" + description + ")";
    else if (name.starts_with("cpu")) title += " (CPU backend, " + str(s, "prover_threads") + " threads)";
    o += "device " + title + ": " + workers_text(s, name) + "\n";
    if (d != nullptr) device_lines(*d, o);
  }
}

// Circuits still loading (with their step) or that failed to load (with
// the reason), then the keys of the ready ones.
void circuits(const json& s, std::string& o) {
  const json& keys = s.value("keys", json::array());
  std::string loads;
  size_t count = keys.size();
  for (const json& c : s.value("circuits", json::array())) {
    const std::string state = str(c, "state");
    if (state == "ready") continue;
    ++count;
    char line[256];
    std::snprintf(line, sizeof line, "  %-24s %-7s ", str(c, "circuit_id").c_str(),
                  state == "failed" ? "FAILED" : "LOADING");
    loads += line;
    loads += state == "failed" ? str(c, "error") : str(c, "step") + " (" + seconds_text(num(c, "step_s")) + ")";
    loads += "\n";
  }
  o += "circuits: " + std::to_string(count) + "\n" + loads;
  for (const json& k : keys) {
    char line[256];
    std::snprintf(line, sizeof line, "  %-24s %-6s %10s  refs %s  loads %s", str(k, "circuit_id").c_str(),
                  str(k, "tier").c_str(), bytes_text(num(k, "size_bytes")).c_str(), str(k, "ref_count").c_str(),
                  str(k, "loads").c_str());
    o += line;
    if (k.value("loading", false)) o += "  loading " + std::to_string(int(100 * num(k, "load_progress"))) + "%";
    if (!str(k, "last_error").empty()) o += "  last error: " + str(k, "last_error");
    o += "\n";
  }
}

void jobs(const json& s, size_t max_jobs, std::string& o) {
  const json& all = s.value("jobs", json::array());
  for (const json& q : s.value("queues", json::array()))
    o += "queue " + str(q, "proof_kind") + ": " + str(q, "pending") + " pending, " + str(q, "in_progress") +
         " in progress\n";
  if (all.empty()) {
    o += "jobs: none yet\n";
    return;
  }
  o += "jobs (unfinished first, then the newest):\n";
  for (size_t n = 0; n < all.size() && n < max_jobs; ++n) {
    const json& j = all[n];  // the daemon's order
    const std::string state = str(j, "state") == "done" ? str(j, "outcome") : str(j, "state");
    const std::string what = str(j, "circuit_id").empty() ? str(j, "kind") : str(j, "circuit_id");
    char line[256];
    std::snprintf(line, sizeof line, "  %-22s %-16s %-8s %-14s %zu partition(s), %s ago", str(j, "job_id").c_str(),
                  what.c_str(), str(j, "priority").c_str(), state.c_str(), j.value("partitions", json::array()).size(),
                  seconds_text(num(j, "age_s")).c_str());
    o += line;
    if (j.contains("sector") && j["sector"].is_object())
      o += ", miner f0" + str(j["sector"], "miner_id") + " sector " + str(j["sector"], "sector_number");
    if (!str(j, "error_message").empty()) o += "\n      error: " + str(j, "error_message");
    o += "\n";
  }
}

}  // namespace

std::string status_text(const json& status, size_t max_jobs) {
  std::string o;
  header(status, o);
  devices(status, o);
  circuits(status, o);
  jobs(status, max_jobs, o);
  return o;
}

}  // namespace cuzk::app
