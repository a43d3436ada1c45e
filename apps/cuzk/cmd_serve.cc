// `cuzk serve`: the proving daemon, and `cuzk demo-witness`: the demo
// circuit's witness and verifying key for clients.
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <mutex>
#include <thread>

#include "cli_util.h"
#include "cuzk/base/log.h"
#include "cuzk/build_info.h"
#include "cuzk/commands.h"
#include "cuzk/engine/circuit_source.h"
#include "cuzk/engine/engine.h"
#include "cuzk/server/config.h"
#include "cuzk/server/server.h"

namespace cuzk::app {
namespace {

struct ServeArgs {
  std::string config_path, listen, status_listen, log_level;
  bool check_only = false;
};

void install_stderr_log(log::Level level) {
  auto mu = std::make_shared<std::mutex>();
  log::set_sink(
      [mu](log::Level l, std::string_view, int, std::string_view message) {
        std::time_t t = std::time(nullptr);
        char when[32];
        std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S", std::localtime(&t));
        std::lock_guard<std::mutex> lock(*mu);
        std::fprintf(stderr, "%s %-5s %.*s\n", when, log::level_name(l).data(), int(message.size()), message.data());
      },
      level);
}

// Prints "cuzk: serving on ..." once no circuit is loading any more, naming
// those that failed; returns without a word when told to stop first.
void announce_when_loaded(server::Server& s, const std::string& where, std::stop_token stop) {
  while (!stop.stop_requested()) {
    if (!s.engine().wait_for_circuits(std::chrono::milliseconds(200))) continue;
    std::string failed;
    for (const engine::CircuitLoadStatus& c : s.engine().status().circuits)
      if (c.state == engine::CircuitState::kFailed) failed += (failed.empty() ? "" : ", ") + c.id;
    std::printf("cuzk: serving on %s%s\n", where.c_str(),
                failed.empty() ? "" : ("; circuits that failed to load (see the log): " + failed).c_str());
    std::fflush(stdout);
    return;
  }
}

void log_sighup() {
  CUZK_LOG(Warn) << "received SIGHUP; ignored: cuzk does not reload its configuration. Restart it to apply "
                    "changes (SIGTERM drains the jobs in flight first)";
}

// The configuration from the file (or the embedded default) and the flags.
StatusOr<server::ServerConfig> build_config(const ServeArgs& a, std::vector<std::string>* warnings) {
  server::ConfigEnv env = server::read_config_env();
  server::ServerConfig c;
  if (a.config_path.empty()) {
    c = server::default_config(env);
  } else {
    ASSIGN_OR_RETURN(c, server::load_config_file(a.config_path, env, warnings));
  }
  if (!a.listen.empty()) c.listen = a.listen;
  if (!a.status_listen.empty()) c.status_listen = a.status_listen == "off" ? "" : a.status_listen;
  if (!a.log_level.empty()) c.log_level = a.log_level;
  RETURN_IF_ERROR(server::validate_config(c));
  return c;
}

int run_serve(const ServeArgs& a) {
  // SIGTERM/SIGINT are taken by sigwait on this thread: block them before
  // any other thread exists so that every thread inherits the mask.
  // SIGUSR2 only ends the thread that watches for a second signal. SIGHUP
  // (a closed terminal, or `kill -HUP` meant as "reload") would otherwise end
  // the process at once, dropping every job in flight: it is logged instead.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGUSR2);
  sigaddset(&signals, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  std::vector<std::string> warnings;
  auto config = build_config(a, &warnings);
  if (!config.ok()) {
    std::fprintf(stderr, "cuzk serve: %s\n", config.status().message().c_str());
    return 2;
  }
  config->engine.version = CUZK_VERSION;
  log::Level level = log::Level::kInfo;
  log::parse_level(config->log_level, &level);
  install_stderr_log(level);
  if (!a.check_only) {
    // Which binary read which file: the first thing to know about a daemon
    // that does not do what its config says.
    std::error_code ec;
    const std::string config_path =
        a.config_path.empty() ? std::string() : std::filesystem::absolute(a.config_path, ec).lexically_normal().string();
    CUZK_LOG(Info) << "cuzk " << CUZK_VERSION << " (" << CUZK_GIT_REVISION << ", " << CUZK_BUILD_TYPE
                   << ") starting, pid " << ::getpid() << "; config "
                   << (a.config_path.empty() ? "the embedded default (no --config)" : config_path);
  }
  for (const std::string& w : warnings) CUZK_LOG(Warn) << "config: " << w;
  if (a.check_only) {
    // What the listeners need (TLS files, the socket's group and directory),
    // as the start would refuse them.
    if (Status s = server::check_listener_files(*config); !s.ok()) {
      std::fprintf(stderr, "cuzk serve: %s\n", s.message().c_str());
      return 2;
    }
    // The circuits' files too, as `serve` would refuse them at start (headers
    // only; demo circuits, whose files are generated at start, are skipped).
    engine::SourceOptions so;
    so.cache_dir = config->engine.cache_dir;
    so.check_only = true;  // nothing is written: no cache file, no synthesized rows
    for (const engine::CircuitSpec& spec : config->engine.circuits) {
      if (spec.zkey.empty() && spec.params.empty()) continue;
      auto source = engine::make_circuit_source(spec, so);
      Status s = source.ok() ? (*source)->describe().status() : source.status();
      if (!s.ok()) {
        // The message already starts with `circuit "<id>":`. What the start
        // would do with it (the daemon loads circuits in the background).
        std::fprintf(stderr, "cuzk serve: %s\n", s.message().c_str());
        std::fprintf(stderr,
                     "cuzk serve: a start would serve the other circuits and load \"%s\" again at a preload or "
                     "proof request for it once its files are complete\n",
                     spec.id.c_str());
        return 2;
      }
    }
    for (const std::string& w : server::config_warnings(*config, std::thread::hardware_concurrency()))
      std::fprintf(stderr, "cuzk serve: warning: %s\n", w.c_str());
    std::printf("config OK: listen %s, status %s, budget %llu bytes, %zu circuit(s)\n", config->listen.c_str(),
                config->status_listen.empty() ? "off" : config->status_listen.c_str(),
                (unsigned long long)config->engine.total_budget_bytes, config->engine.circuits.size());
    return 0;
  }
  auto srv = server::Server::start(*config);
  if (!srv.ok()) {
    CUZK_LOG(Error) << "cannot start: " << srv.status().to_string();
    return 1;
  }
  const std::string where = (*srv)->grpc_address() +
                            ((*srv)->status_address().empty() ? "" : ", status http://" + (*srv)->status_address());
  std::printf("cuzk: listening on %s; loading %zu circuit(s)\n", where.c_str(), config->engine.circuits.size());
  std::fflush(stdout);
  // "serving on" once every circuit has loaded or failed (scripts wait for it).
  std::jthread announce([s = srv->get(), where](std::stop_token stop) { announce_when_loaded(*s, where, stop); });
  int sig = 0;
  while (sigwait(&signals, &sig) == 0 && (sig == SIGUSR2 || sig == SIGHUP))
    if (sig == SIGHUP) log_sighup();
  announce.request_stop();
  announce.join();
  CUZK_LOG(Info) << "received " << (sig == SIGTERM ? "SIGTERM" : "SIGINT") << "; draining (grace "
                 << config->shutdown_grace_ms << " ms; send it again to cancel running jobs now)";
  server::Server* s = srv->get();
  {
    // Cancels running jobs on a further SIGTERM/SIGINT while the server
    // drains; SIGUSR2 from this thread ends it, and it is joined before the
    // server goes away.
    std::jthread force([s, signals] {
      int again = 0;
      while (sigwait(&signals, &again) == 0 && again != SIGUSR2) {
        if (again == SIGHUP) continue;  // the drain goes on
        s->engine().cancel_all("the daemon was told to stop twice");
      }
    });
    s->shutdown(std::chrono::milliseconds(config->shutdown_grace_ms));
    pthread_kill(force.native_handle(), SIGUSR2);
  }
  srv->reset();
  return 0;
}

int run_demo_witness(const std::string& config_path, const std::string& out, const std::string& vk_out) {
  ServeArgs a;
  a.config_path = config_path;
  std::vector<std::string> warnings;
  auto config = build_config(a, &warnings);
  if (!config.ok()) {
    std::fprintf(stderr, "cuzk demo-witness: %s\n", config.status().message().c_str());
    return 2;
  }
  const engine::CircuitSpec* demo = nullptr;
  for (const auto& c : config->engine.circuits)
    if (c.demo) demo = &c;
  if (!demo) {
    std::fprintf(stderr, "cuzk demo-witness: the configuration has no demo circuit ([demo] enabled = false)\n");
    return 2;
  }
  StatusOr<bool> made = false;
  {
    ElapsedTicker ticker("preparing the demo circuit in " + config->engine.cache_dir);
    made = engine::ensure_demo_files(demo->demo_spec, config->engine.cache_dir, nullptr);
  }
  if (!made.ok()) {
    std::fprintf(stderr, "cuzk demo-witness: %s\n", made.status().message().c_str());
    return 1;
  }
  engine::DemoFiles files = engine::demo_files(demo->demo_spec, config->engine.cache_dir);
  std::error_code ec;
  namespace fs = std::filesystem;
  fs::copy_file(files.wtns, out, fs::copy_options::overwrite_existing, ec);
  if (!ec && !vk_out.empty()) fs::copy_file(files.vk_json, vk_out, fs::copy_options::overwrite_existing, ec);
  if (ec) {
    std::fprintf(stderr, "cuzk demo-witness: %s\n", ec.message().c_str());
    return 1;
  }
  std::printf("demo circuit \"%s\": witness %s%s%s (INSECURE development key, for testing only)\n", demo->id.c_str(),
              out.c_str(), vk_out.empty() ? "" : ", verifying key ", vk_out.c_str());
  return 0;
}

}  // namespace

void add_serve_command(CLI::App& app, Runner* runner) {
  auto args = std::make_shared<ServeArgs>();
  auto* cmd = app.add_subcommand("serve", "Run the proving daemon (gRPC cuzk.v1 + HTTP /status, /metrics)");
  cmd->add_option("--config", args->config_path, "TOML config file (default: the embedded default)");
  cmd->add_option("--listen", args->listen, "gRPC address: unix:///path or host:port (overrides server.listen)");
  cmd->add_option("--status-listen", args->status_listen, "HTTP host:port, or off (overrides server.status_listen)");
  cmd->add_option("--log-level", args->log_level, "trace, debug, info, warn, error, off");
  cmd->add_flag("--check-config", args->check_only, "Validate the configuration and exit");
  cmd->callback([runner, args] { *runner = [args] { return run_serve(*args); }; });

  auto out = std::make_shared<std::string>();
  auto vk_out = std::make_shared<std::string>();
  auto config = std::make_shared<std::string>();
  auto* dw = app.add_subcommand("demo-witness", "Write the demo circuit's witness (and verifying key) for clients");
  dw->add_option("--out", *out, "Where to write the .wtns")->required();
  dw->add_option("--vk", *vk_out, "Where to write the verifying key (snarkjs verification_key.json)");
  dw->add_option("--config", *config, "The daemon's TOML config (for its cache directory and demo settings)");
  dw->callback([runner, out, vk_out, config] {
    *runner = [out, vk_out, config] { return run_demo_witness(*config, *out, *vk_out); };
  });
}

}  // namespace cuzk::app
