// HTTP GET /status (JSON) and GET /metrics (Prometheus text) with
// cpp-httplib, served on its own thread.
#pragma once

#include <memory>
#include <string>

#include "cuzk/base/status.h"
#include "cuzk/engine/engine.h"

namespace cuzk::server {

class StatusHttp {
 public:
  // Binds host:port (port 0: any free port) and starts serving.
  // Errors: UNAVAILABLE when the address cannot be bound.
  static StatusOr<std::unique_ptr<StatusHttp>> start(const std::string& host, uint16_t port, engine::Engine* engine);
  ~StatusHttp();
  // host:port actually bound.
  const std::string& address() const { return address_; }
  void stop();

 private:
  struct State;
  StatusHttp() = default;
  std::unique_ptr<State> state_;
  std::string address_;
};

}  // namespace cuzk::server
