// The network side of the HTTP status listener: one thread, poll(2) over
// every connection, so idle or slow clients cost a file descriptor and a few
// kilobytes each, never a thread. A connection is answered once its whole
// request head has arrived; then the connection is closed.
//
// - GET and HEAD heads go to the `answer` callback, which returns the
//   complete response bytes (routing lives there).
// - Any other method is answered 405 at once; a body is never read.
// - A head larger than max_head_bytes gets 431 (however many reads brought
//   it); one not complete within
//   head_timeout is dropped, as is a response not taken within
//   write_timeout.
// - With max_connections open, the oldest connection still waiting for its
//   head is dropped to make room.
// - Responses not yet sent hold at most max_pending_response_bytes in all;
//   past that, a new request gets 503.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "cuzk/base/status.h"

namespace cuzk::server {

struct HttpLimits {
  size_t max_connections = 512;
  size_t max_head_bytes = 16 << 10;  // the head through its blank line, however it arrives
  // Response bytes all connections may hold together (a reader that never
  // reads keeps its response): a response that would pass this gets 503.
  size_t max_pending_response_bytes = 64 << 20;
  std::chrono::milliseconds head_timeout{10'000};
  std::chrono::milliseconds write_timeout{10'000};
};

// A request head as received, with the peer's address.
struct HttpHead {
  std::string bytes;  // through the blank line that ends the head
  std::string peer_ip;
  int peer_port = 0;
};

class HttpFront {
 public:
  using Answer = std::function<std::string(const HttpHead& head)>;

  // Binds host:port (0: any free port) with SO_REUSEADDR only (no port
  // sharing) and starts the thread. `answer` runs on that thread.
  // Errors: UNAVAILABLE when the address cannot be bound.
  static StatusOr<std::unique_ptr<HttpFront>> start(const std::string& host, uint16_t port, HttpLimits limits,
                                                    Answer answer);
  ~HttpFront();  // stop()
  HttpFront(const HttpFront&) = delete;
  HttpFront& operator=(const HttpFront&) = delete;

  uint16_t port() const { return port_; }
  // Closes the listener and every connection; joins the thread. Idempotent.
  void stop();

 private:
  struct Loop;
  HttpFront() = default;
  std::unique_ptr<Loop> loop_;
  uint16_t port_ = 0;
};

// A response with a plain-text body that closes the connection.
std::string http_plain_response(int code, const std::string& reason, const std::string& body,
                                const std::string& extra_headers = "");

}  // namespace cuzk::server
