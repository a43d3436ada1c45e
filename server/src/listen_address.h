// Listen addresses: "unix:///abs/path" (also "unix:/abs/path"),
// "unix-abstract:NAME" or "host:port" ("[v6]:port"), and preparing a unix
// socket's path.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>

#include "cuzk/base/status.h"

namespace cuzk::server {

struct ListenAddress {
  std::string unix_path;      // set for unix sockets
  std::string abstract_name;  // set for abstract unix sockets ("unix-abstract:NAME")
  std::string host;           // set for TCP
  uint16_t port = 0;
  bool is_tcp() const { return unix_path.empty() && abstract_name.empty(); }
  bool is_abstract() const { return !abstract_name.empty(); }
  // A unix socket with a path, "localhost", or an IPv4/IPv6 address in
  // 127.0.0.0/8, ::1 or ::ffff:127.0.0.0/104. Host names other than
  // localhost are not loopback (they resolve wherever DNS says). An abstract
  // socket is not: it has no file permissions, so every local user (and
  // every process in the network namespace) can connect to it.
  bool is_loopback() const;
  // The form gRPC takes: unix:///path or host:port.
  std::string grpc_uri() const;
};

// "unix:///abs/path", "unix-abstract:NAME" or "host:port".
// Errors: INVALID_ARGUMENT naming `key`.
StatusOr<ListenAddress> parse_listen_address(const std::string& text, const std::string& key);

// Whether the directory holding `socket_path` can be trusted by user `uid`
// (as ssh-agent and gpg-agent decide): a real directory (not a symbolic
// link), not writable by group or others, and owned by `uid` or root, or else
// inside a directory only root can write (/run/cuzk, made by systemd for the
// service's user). Otherwise another local user may have made it first and
// put a socket of their own in it. Errors: FAILED_PRECONDITION naming the
// path, its owner and its mode; the OS error when it cannot be read.
Status check_socket_directory(const std::string& socket_path, uid_t uid);

// Creates the socket's parent directory (mode 0700 when it is created),
// checks it (check_socket_directory, for the effective uid, whether it was
// found or made) and removes a stale socket at the path (refusing to remove
// anything that is not a socket, or a socket some process still accepts on;
// *replaced_stale says whether one was removed).
// Errors: FAILED_PRECONDITION / ALREADY_EXISTS naming the path.
Status prepare_unix_socket(const std::string& path, bool* replaced_stale = nullptr);

// What a client finds at a unix socket, before gRPC tries (which would wait
// its whole timeout and then say only that it could not connect): OK when a
// process accepts there (or on an error gRPC will report anyway);
// UNAVAILABLE when the directory or the socket is missing or nothing accepts
// on it; PERMISSION_DENIED naming the socket's owner, group and mode (or the
// directory that cannot be entered). Each message starts "cannot connect to
// cuzk at unix://PATH: ".
Status probe_unix_socket(const std::string& path);

// Sets the socket file's mode to 0600 (owner only).
Status restrict_unix_socket(const std::string& path);

}  // namespace cuzk::server
