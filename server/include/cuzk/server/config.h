// The daemon's configuration: a TOML file (docs/config.example.toml lists
// every key with its default), an embedded default when there is none, and
// command-line overrides. Parsing never reads the environment: the caller
// passes what it needs in ConfigEnv.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cuzk/base/status.h"
#include "cuzk/engine/config.h"

namespace cuzk::server {

struct ServerConfig {
  // gRPC: "unix:///path/cuzk.sock" or "host:port".
  std::string listen;
  // HTTP /status and /metrics: "host:port" (port 0 = any free port), or
  // empty to turn it off.
  std::string status_listen = "127.0.0.1:9821";
  // TCP listeners must be on a loopback address unless this is true.
  bool allow_remote = false;
  // TLS for the gRPC listener (gRPC's own): PEM files of the certificate
  // chain and its private key. With tls_client_ca, every client must present
  // a certificate signed by that CA. Empty: plaintext (warned about when the
  // listener is reachable from other machines).
  std::string tls_cert, tls_key, tls_client_ca;
  std::string log_level = "info";
  uint64_t shutdown_grace_ms = 60'000;
  uint64_t max_message_bytes = uint64_t(128) << 20;
  engine::EngineConfig engine;
};

// What the defaults depend on, gathered by main().
struct ConfigEnv {
  std::string xdg_runtime_dir;  // may be empty
  std::string xdg_cache_home;   // may be empty
  std::string home;
  uint32_t uid = 0;
  uint64_t mem_total_bytes = 0;  // /proc/meminfo MemTotal
  bool has_gpu = false;
};

// Reads MemTotal, XDG_RUNTIME_DIR, XDG_CACHE_HOME, HOME and the uid.
ConfigEnv read_config_env();

// The embedded default: CPU backend (no GPU backend exists in this build),
// a socket under $XDG_RUNTIME_DIR/cuzk (else /tmp/cuzk-<uid>), the budget
// MemTotal minus 2 GiB, and the demo circuit "demo" cached under
// $XDG_CACHE_HOME/cuzk (else ~/.cache/cuzk).
ServerConfig default_config(const ConfigEnv& env);

// Parses TOML text on top of default_config(env). Unknown keys are reported
// in *warnings (one line each, naming the key); a value of the wrong type or
// out of range is an INVALID_ARGUMENT naming the key.
StatusOr<ServerConfig> parse_config(const std::string& toml_text, const std::string& source_name,
                                    const ConfigEnv& env, std::vector<std::string>* warnings);
StatusOr<ServerConfig> load_config_file(const std::string& path, const ConfigEnv& env,
                                        std::vector<std::string>* warnings);

// Checks what parse_config cannot see alone (addresses, the engine config).
Status validate_config(const ServerConfig& config);

// What works but deserves the operator's attention, one line each naming
// the key: listeners reachable from other machines (above all in
// plaintext), and values this machine cannot make use of (a budget too
// small for any key, far more threads than hardware threads).
// REQUIRES: validate_config(config) is OK.
std::vector<std::string> config_warnings(const ServerConfig& config, unsigned hardware_threads);

// Sizes in the file ("16GiB", "16G", 4096) are read by cuzk::parse_byte_size
// (base/byte_size.h): binary units, as on the command line.

}  // namespace cuzk::server
