// HTTP GET /status (JSON) and GET /metrics (Prometheus text): routes in
// cpp-httplib, the network in HttpFront (one poll thread; idle or slow
// connections hold no thread, non-GET methods get 405 at once, request heads
// are capped).
#pragma once

#include <memory>
#include <string>

#include "cuzk/base/status.h"
#include "cuzk/engine/engine.h"
#include "http_front.h"

namespace cuzk::server {

class StatusHttp {
 public:
  // Binds host:port (port 0: any free port) and starts serving.
  // Errors: UNAVAILABLE when the address cannot be bound.
  static StatusOr<std::unique_ptr<StatusHttp>> start(const std::string& host, uint16_t port, engine::Engine* engine,
                                                     HttpLimits limits = {});
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
