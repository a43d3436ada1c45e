// Helpers shared by the daemon client commands.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>
#include <utility>

#include "cuzk/base/status.h"
#include "cuzk/engine/config.h"
#include "cuzk/server/config.h"

namespace cuzk::app {

// Prints "cuzk: <what>: <status>" and returns the exit code for it (2 for
// bad input, 1 otherwise).
inline int client_fail(const std::string& what, const Status& s) {
  std::fprintf(stderr, "cuzk: %s: %s\n", what.c_str(), s.to_string().c_str());
  return s.code() == StatusCode::kInvalidArgument || s.code() == StatusCode::kNotFound ? 2 : 1;
}

// The address to dial: the given one, else the default daemon socket.
inline std::string resolve_addr(const std::string& addr) {
  if (!addr.empty()) return addr;
  return server::default_config(server::read_config_env()).listen;
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
