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
  // A group whose members may connect to the unix socket: the socket gets
  // that group and mode 0660. Empty: the owner only (0600).
  std::string socket_group;
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
  std::string cuzk_addr;  // $CUZK_ADDR: where clients dial when --addr is not given
  // The packaged service's socket (packaging/cuzk.toml), which clients try
  // when the user runs no daemon of their own.
  std::string service_socket = "/run/cuzk/cuzk.sock";
  uint64_t mem_total_bytes = 0;  // /proc/meminfo MemTotal
  bool has_gpu = false;
};

// Reads MemTotal, XDG_RUNTIME_DIR, XDG_CACHE_HOME, HOME, CUZK_ADDR and the
// uid.
ConfigEnv read_config_env();

// The address a client dials without --addr: $CUZK_ADDR, else the user's own
// daemon's default socket when it exists, else the packaged service's socket
// when it exists, else the user's default (which then names the error).
std::string client_default_address(const ConfigEnv& env);

// The embedded default: CPU backend (no GPU backend exists in this build),
// a socket under $XDG_RUNTIME_DIR/cuzk (else /tmp/cuzk-<uid>), the budget
// MemTotal minus 2 GiB, and the demo circuit "demo" cached under
// $XDG_CACHE_HOME/cuzk (else ~/.cache/cuzk).
ServerConfig default_config(const ConfigEnv& env);

// Parses TOML text on top of default_config(env). An unknown key is an
// INVALID_ARGUMENT naming it and the key it most likely meant (all unknown
// keys in one message, a line each), as is a value of the wrong type or out
// of range; each such message starts with "FILE:LINE: " where the value is
// (source_name, and its line). Keys of Curio's earlier cuzk daemon are taken with a line in
// *warnings naming the new key, or refused saying what cuzk does instead
// (curio_keys.h).
StatusOr<ServerConfig> parse_config(const std::string& toml_text, const std::string& source_name,
                                    const ConfigEnv& env, std::vector<std::string>* warnings);
StatusOr<ServerConfig> load_config_file(const std::string& path, const ConfigEnv& env,
                                        std::vector<std::string>* warnings);

// Every key parse_config reads, as "section.key", and "circuits.key" for the
// keys of a [[circuits]] entry (not the keys of Curio's earlier daemon), so
// that a test can hold docs/config.example.toml to them.
std::vector<std::string> config_keys();

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
