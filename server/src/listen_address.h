// Listen addresses: "unix:///abs/path" (also "unix:/abs/path") or
// "host:port" ("[v6]:port"), and preparing a unix socket's path.
#pragma once

#include <cstdint>
#include <string>

#include "cuzk/base/status.h"

namespace cuzk::server {

struct ListenAddress {
  std::string unix_path;  // set for unix sockets
  std::string host;       // set for TCP
  uint16_t port = 0;
  bool is_tcp() const { return unix_path.empty(); }
  // A unix socket, "localhost", or an IPv4/IPv6 address in 127.0.0.0/8, ::1
  // or ::ffff:127.0.0.0/104. Host names other than localhost are not
  // loopback (they resolve wherever DNS says).
  bool is_loopback() const;
  // The form gRPC takes: unix:///path or host:port.
  std::string grpc_uri() const;
};

// Errors: INVALID_ARGUMENT naming `key`.
StatusOr<ListenAddress> parse_listen_address(const std::string& text, const std::string& key);

// Creates the socket's parent directory (mode 0700 when it is created) and
// removes a stale socket at the path (refusing to remove anything that is not
// a socket, or a socket some process still accepts on). Errors:
// FAILED_PRECONDITION / ALREADY_EXISTS naming the path.
Status prepare_unix_socket(const std::string& path);

// Sets the socket file's mode to 0600 (owner only).
Status restrict_unix_socket(const std::string& path);

}  // namespace cuzk::server
