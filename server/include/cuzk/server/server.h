// The daemon: the cuzk.v1 gRPC service on a unix socket or TCP address, and
// HTTP GET /status (JSON) and /metrics (Prometheus) on the status address,
// around one Engine.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "cuzk/base/status.h"
#include "cuzk/engine/engine.h"
#include "cuzk/server/config.h"

namespace cuzk::server {

// What the listeners need from the system, checked as Server::start would
// but without binding anything (`cuzk serve --check-config`): the TLS PEM
// files readable, server.socket_group a group of this system, and the unix
// socket's directory trustworthy when it exists (check_socket_directory).
// Errors: FAILED_PRECONDITION naming the key or the path.
Status check_listener_files(const ServerConfig& config);

class Server {
 public:
  // Starts the engine and both listeners, then makes the circuits ready in
  // the background (generating demo circuits, Filecoin rows and development
  // keys when needed; engine().status().circuits shows each one's state, and
  // engine().wait_for_circuits() waits for them): a request for a circuit
  // still loading is answered UNAVAILABLE, one whose load failed
  // FAILED_PRECONDITION, and the ready ones are served meanwhile.
  // Errors: INVALID_ARGUMENT (config), FAILED_PRECONDITION / ALREADY_EXISTS
  // (socket path), UNAVAILABLE (a port cannot be bound), each before any
  // circuit is loaded.
  static StatusOr<std::unique_ptr<Server>> start(const ServerConfig& config);
  // Stops everything (shutdown(0) when not done yet).
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // The address clients dial: unix:///path or host:port (actual port).
  const std::string& grpc_address() const;
  // host:port of the HTTP listener (actual port), or empty when off.
  const std::string& status_address() const;
  engine::Engine& engine();

  // Graceful stop: refuse new jobs (UNAVAILABLE), let unfinished jobs run
  // for up to `grace`, cancel what is left, then close the listeners and
  // remove the socket. Returns true when every job finished in time.
  // Idempotent; thread-safe.
  bool shutdown(std::chrono::milliseconds grace);

 private:
  class Impl;
  explicit Server(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace cuzk::server
