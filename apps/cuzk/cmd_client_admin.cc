// Daemon administration: status, metrics, preload, evict, cancel.
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "cuzk/commands.h"
#include "cuzk/server/client.h"
#include "daemon_client_util.h"
#include "status_text.h"

namespace cuzk::app {
namespace {

StatusOr<std::unique_ptr<server::Client>> dial(const std::string& addr) {
  return server::Client::connect(resolve_addr(addr), std::chrono::seconds(5));
}

int run_status(const std::string& addr, bool metrics, bool as_json) {
  auto c = dial(addr);
  if (!c.ok()) return rpc_fail("connect", c.status());
  if (metrics) {
    auto m = (*c)->metrics();
    if (!m.ok()) return rpc_fail("metrics", m.status());
    std::fputs(m->c_str(), stdout);
    return 0;
  }
  auto s = (*c)->status();
  if (!s.ok()) return rpc_fail("status", s.status());
  if (s->json.empty()) {  // a daemon without status_json (an older version): the standard fields
    if (as_json) return client_fail("status", unimplemented("this daemon does not send its status as JSON"));
    std::fputs(s->text.c_str(), stdout);
    return 0;
  }
  if (as_json) {
    std::fputs(s->json.c_str(), stdout);
    return 0;
  }
  auto doc = nlohmann::json::parse(s->json, nullptr, false);
  if (doc.is_discarded()) return client_fail("status", internal_error("the daemon's status is not valid JSON"));
  std::fputs(status_text(doc).c_str(), stdout);
  return 0;
}

int run_preload(const std::string& addr, const std::string& id, bool evict) {
  auto c = dial(addr);
  if (!c.ok()) return rpc_fail("connect", c.status());
  if (evict) {
    auto r = (*c)->evict(id);
    if (!r.ok()) return rpc_fail("evict " + id, r.status());
    std::printf("%s: %s, %llu bytes freed\n", id.c_str(), r->was_loaded ? "evicted" : "was not loaded",
                (unsigned long long)r->freed_bytes);
    return 0;
  }
  auto r = (*c)->preload(id);
  if (!r.ok()) return rpc_fail("preload " + id, r.status());
  if (r->already_loaded) std::printf("%s: already loaded\n", id.c_str());
  else std::printf("%s: loaded in %llu ms\n", id.c_str(), (unsigned long long)r->load_time_ms);
  return 0;
}

int run_cancel(const std::string& addr, const std::string& job) {
  auto c = dial(addr);
  if (!c.ok()) return rpc_fail("connect", c.status());
  auto r = (*c)->cancel(job);
  if (!r.ok()) return rpc_fail("cancel " + job, r.status());
  // The daemon answers only whether a partition was running; cancelling a
  // job that already finished leaves its result as it was.
  std::printf("%s: %s\n", job.c_str(),
              *r ? "cancelled (it was running)" : "cancel accepted (a job that had already finished keeps its result)");
  return 0;
}

}  // namespace

void add_client_admin_commands(CLI::App& app, Runner* runner) {
  auto addr = std::make_shared<std::string>();
  auto metrics = std::make_shared<bool>(false);
  auto as_json = std::make_shared<bool>(false);
  auto* st = app.add_subcommand("status", "Show the daemon's status (or --metrics: its Prometheus metrics)");
  st->add_option("--addr", *addr, "Daemon address (default: the default socket)");
  auto* m = st->add_flag("--metrics", *metrics, "Print the Prometheus metrics instead");
  st->add_flag("--json", *as_json, "Print the whole status as JSON (what GET /status serves)")->excludes(m);
  st->callback([runner, addr, metrics, as_json] {
    *runner = [addr, metrics, as_json] { return run_status(*addr, *metrics, *as_json); };
  });

  for (bool evict : {false, true}) {
    auto id = std::make_shared<std::string>();
    auto a = std::make_shared<std::string>();
    auto* cmd = app.add_subcommand(evict ? "evict" : "preload",
                                   evict ? "Drop a circuit's proving key from memory" : "Load a circuit's proving key");
    cmd->add_option("circuit", *id, "Circuit id")->required();
    cmd->add_option("--addr", *a, "Daemon address (default: the default socket)");
    cmd->callback([runner, id, a, evict] { *runner = [id, a, evict] { return run_preload(*a, *id, evict); }; });
  }

  auto job = std::make_shared<std::string>();
  auto a = std::make_shared<std::string>();
  auto* cancel = app.add_subcommand("cancel", "Cancel a proof job");
  cancel->add_option("job", *job, "Job id")->required();
  cancel->add_option("--addr", *a, "Daemon address (default: the default socket)");
  cancel->callback([runner, job, a] { *runner = [job, a] { return run_cancel(*a, *job); }; });
}

}  // namespace cuzk::app
