#include "http_status.h"

#include <httplib.h>

#include <strings.h>

#include <cstring>
#include <string_view>

#include "cuzk/base/utf8.h"
#include "cuzk/server/server.h"
#include "cuzk/server/status_json.h"
#include "http_front.h"
#include "status_page.h"

namespace cuzk::server {
namespace {

// A request already read in full, answered in memory.
class MemoryStream : public httplib::Stream {
 public:
  explicit MemoryStream(const HttpHead& head) : head_(head) {}
  bool is_readable() const override { return true; }
  bool is_writable() const override { return true; }
  ssize_t read(char* p, size_t n) override {
    n = std::min(n, head_.bytes.size() - pos_);
    std::memcpy(p, head_.bytes.data() + pos_, n);
    pos_ += n;
    return ssize_t(n);
  }
  ssize_t write(const char* p, size_t n) override {
    out_.append(p, n);
    return ssize_t(n);
  }
  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    ip = head_.peer_ip;
    port = head_.peer_port;
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    ip.clear();
    port = 0;
  }
  socket_t socket() const override { return INVALID_SOCKET; }
  std::string& out() { return out_; }

 private:
  const HttpHead& head_;
  size_t pos_ = 0;
  std::string out_;
};

// The head without its Range header lines. httplib answers every range of a
// multi-range request with a copy of the body (2,600 ranges of /status made a
// 90 MB reply from an 8 KB request); nothing served here needs ranges, so
// they are ignored and the whole body is sent (RFC 9110 allows that).
HttpHead without_ranges(const HttpHead& head) {
  HttpHead out{std::string(), head.peer_ip, head.peer_port};
  out.bytes.reserve(head.bytes.size());
  size_t pos = 0;
  while (pos < head.bytes.size()) {
    size_t eol = head.bytes.find("\r\n", pos);
    eol = eol == std::string::npos ? head.bytes.size() : eol + 2;
    const std::string_view line(head.bytes.data() + pos, eol - pos);
    const bool range = line.size() >= 6 && ::strncasecmp(line.data(), "range:", 6) == 0;
    if (!range) out.bytes.append(line);
    pos = eol;
  }
  return out;
}

// httplib's routing (Get handlers) and response writing, without its
// network loop (HttpFront does the network).
class Routes : public httplib::Server {
 public:
  std::string answer(const HttpHead& request) {
    const HttpHead head = without_ranges(request);
    MemoryStream stream(head);
    bool closed = true;
    if (!process_request(stream, /*close_connection=*/true, closed, nullptr) && stream.out().empty())
      return http_plain_response(400, "Bad Request", "malformed request\n");
    return std::move(stream.out());
  }
};

}  // namespace

struct StatusHttp::State {
  Routes http;
  std::unique_ptr<HttpFront> front;
};

StatusOr<std::unique_ptr<StatusHttp>> StatusHttp::start(const std::string& host, uint16_t port,
                                                        engine::Engine* engine, HttpLimits limits) {
  std::unique_ptr<StatusHttp> s(new StatusHttp());
  s->state_ = std::make_unique<State>();
  httplib::Server& http = s->state_->http;
  http.Get("/", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(std::string(status_page_html()), "text/html; charset=utf-8");
  });
  http.Get("/status", [engine](const httplib::Request&, httplib::Response& res) {
    res.set_content(status_json(engine->status()), "application/json");
  });
  http.Get("/metrics", [engine](const httplib::Request&, httplib::Response& res) {
    res.set_content(engine->metrics_text(), "text/plain; version=0.0.4");
  });
  Routes* routes = &s->state_->http;
  ASSIGN_OR_RETURN(s->state_->front,
                   HttpFront::start(host, port, limits, [routes](const HttpHead& head) { return routes->answer(head); }));
  s->address_ = host + ":" + std::to_string(s->state_->front->port());
  return s;
}

void StatusHttp::stop() {
  if (state_ && state_->front) state_->front->stop();
}

StatusHttp::~StatusHttp() { stop(); }

}  // namespace cuzk::server
