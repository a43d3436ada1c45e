// Helpers shared by the daemon client commands.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>
#include <utility>

#include "cuzk/base/status.h"
#include "cuzk/engine/config.h"
#include "cuzk/ff/fr.h"
#include "cuzk/server/client.h"
#include "cuzk/server/config.h"

namespace cuzk::app {

// The exit code for a status: 2 for bad input (INVALID_ARGUMENT, NOT_FOUND,
// ALREADY_EXISTS), 1 otherwise.
inline int exit_code_for(const Status& s) {
  const StatusCode c = s.code();
  return c == StatusCode::kInvalidArgument || c == StatusCode::kNotFound || c == StatusCode::kAlreadyExists ? 2 : 1;
}

// An error found here, before or after talking to the daemon: prints
// "cuzk: <what>: <message>" and returns its exit code.
inline int client_fail(const std::string& what, const Status& s) {
  std::fprintf(stderr, "cuzk: %s: %s\n", what.c_str(), s.message().c_str());
  return exit_code_for(s);
}

// An error the daemon answered: the same, with its gRPC code
// ("cuzk: prove: NOT_FOUND: unknown circuit ...").
inline int rpc_fail(const std::string& what, const Status& s) {
  std::fprintf(stderr, "cuzk: %s: %s\n", what.c_str(), s.to_string().c_str());
  return exit_code_for(s);
}

// The exit status after Ctrl-C (128 + SIGINT), as shells report it.
inline constexpr int kExitInterrupted = 130;

// Whether SIGINT arrived while submit_and_await() was waiting.
bool interrupted();

// Submits the job, says its id on stderr (unless quiet), and waits for it;
// Ctrl-C while waiting cancels the job and returns its CANCELLED result
// (interrupted() then says so). Errors: the daemon's.
StatusOr<engine::JobResult> submit_and_await(server::Client& client, const server::SubmitArgs& args, bool quiet);

// public.json for the proofs of one job: snarkjs's flat list for one proof,
// one list per proof for several (io::write_public_json_lists).
Status write_publics(const std::string& path, size_t proofs, const std::vector<ff::Fr>& publics);

// A job's result as one JSON object (job id, outcome, counts, timings).
std::string job_result_json(const engine::JobResult& r, double client_ms);

// The address to dial: the given one, else $CUZK_ADDR, else the user's own
// daemon's socket or the packaged service's (server::client_default_address).
inline std::string resolve_addr(const std::string& addr) {
  if (!addr.empty()) return addr;
  return server::client_default_address(server::read_config_env());
}

// A circuit spec by id from a config file (or the embedded default), with
// the cache directory it uses.
inline StatusOr<std::pair<engine::CircuitSpec, std::string>> find_circuit_spec(const std::string& config_path,
                                                                                const std::string& id) {
  server::ConfigEnv env = server::read_config_env();
  std::vector<std::string> warnings;
  server::ServerConfig c;
  if (config_path.empty()) {
    c = server::default_config(env);
  } else {
    ASSIGN_OR_RETURN(c, server::load_config_file(config_path, env, &warnings));
  }
  for (const auto& spec : c.engine.circuits)
    if (spec.id == id) return std::make_pair(spec, c.engine.cache_dir);
  return not_found("no circuit \"" + id + "\" in " + (config_path.empty() ? "the default config" : config_path));
}

inline bool has_subcommand(CLI::App& app, const std::string& name) {
  for (CLI::App* s : app.get_subcommands([](CLI::App*) { return true; }))
    if (s->get_name() == name) return true;
  return false;
}

}  // namespace cuzk::app
