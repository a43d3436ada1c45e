#include "http_front.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <list>
#include <thread>
#include <vector>

namespace cuzk::server {
namespace {

using Clock = std::chrono::steady_clock;

// After the response, unread input (a body sent with a refused request) is
// read and thrown away for a moment before closing: closing with unread
// bytes resets the connection, and the client might lose the response.
constexpr auto kDrainTime = std::chrono::milliseconds(300);
constexpr size_t kDrainBytes = 1 << 20;

struct Connection {
  enum class Phase { kReading, kWriting, kDraining };
  int fd = -1;
  Phase phase = Phase::kReading;
  std::string in, out;
  size_t sent = 0, drained = 0;
  Clock::time_point deadline;
  std::string peer_ip;
  int peer_port = 0;
};

std::string peer_of(const sockaddr_storage& a, int* port) {
  char buf[INET6_ADDRSTRLEN] = "";
  if (a.ss_family == AF_INET) {
    auto* v4 = reinterpret_cast<const sockaddr_in*>(&a);
    ::inet_ntop(AF_INET, &v4->sin_addr, buf, sizeof buf);
    *port = ntohs(v4->sin_port);
  } else if (a.ss_family == AF_INET6) {
    auto* v6 = reinterpret_cast<const sockaddr_in6*>(&a);
    ::inet_ntop(AF_INET6, &v6->sin6_addr, buf, sizeof buf);
    *port = ntohs(v6->sin6_port);
  }
  return buf;
}

// A listening, non-blocking TCP socket on host:port; *bound gets the port.
StatusOr<int> listen_tcp(const std::string& host, uint16_t port, uint16_t* bound) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  const std::string where = host + ":" + std::to_string(port);
  if (::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found) != 0 || !found)
    return unavailable("cannot listen for HTTP on " + where + ": the host does not resolve");
  int fd = -1, err = 0;
  for (addrinfo* a = found; a && fd < 0; a = a->ai_next) {
    fd = ::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) continue;
    int yes = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);  // no SO_REUSEPORT: no port sharing
    if (::bind(fd, a->ai_addr, a->ai_addrlen) != 0 || ::listen(fd, 128) != 0) {
      err = errno;
      ::close(fd);
      fd = -1;
    }
  }
  ::freeaddrinfo(found);
  if (fd < 0) return unavailable("cannot listen for HTTP on " + where + ": " + std::strerror(err));
  sockaddr_storage addr{};
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  int p = 0;
  peer_of(addr, &p);
  *bound = uint16_t(p);
  return fd;
}

}  // namespace

std::string http_plain_response(int code, const std::string& reason, const std::string& body,
                                const std::string& extra_headers) {
  return "HTTP/1.1 " + std::to_string(code) + " " + reason + "\r\nContent-Type: text/plain\r\nContent-Length: " +
         std::to_string(body.size()) + "\r\n" + extra_headers + "Connection: close\r\n\r\n" + body;
}

struct HttpFront::Loop {
  HttpLimits limits;
  Answer answer;
  int listen_fd = -1;
  int wake_fd = -1;
  std::list<Connection> conns;  // oldest first
  size_t pending_out = 0;       // response bytes not yet sent, all connections
  std::thread thread;

  void run();
  void accept_all();
  void make_room();
  void on_readable(Connection& c);
  void on_writable(Connection& c);
  void respond(Connection& c);
  void refuse_head(Connection& c);
  void set_output(Connection& c, std::string out);
  void forget(Connection& c);
  int poll_timeout_ms() const;
  void close_all();
};

void HttpFront::Loop::run() {
  std::vector<pollfd> fds;
  std::vector<Connection*> order;
  while (true) {
    fds.assign({{wake_fd, POLLIN, 0}, {listen_fd, POLLIN, 0}});
    order.clear();
    for (Connection& c : conns) {
      fds.push_back({c.fd, short(c.phase == Connection::Phase::kWriting ? POLLOUT : POLLIN), 0});
      order.push_back(&c);
    }
    int n = ::poll(fds.data(), fds.size(), poll_timeout_ms());
    if (n < 0 && errno != EINTR) break;
    if (fds[0].revents) break;  // stop()
    for (size_t i = 0; i < order.size(); ++i) {
      short ev = fds[i + 2].revents;
      if (!ev) continue;
      if (order[i]->phase == Connection::Phase::kWriting) on_writable(*order[i]);
      else on_readable(*order[i]);
    }
    if (fds[1].revents & POLLIN) accept_all();
    auto now = Clock::now();
    conns.remove_if([this, now](Connection& c) {
      if (c.fd >= 0 && now < c.deadline) return false;
      forget(c);
      return true;
    });
  }
  close_all();
}

int HttpFront::Loop::poll_timeout_ms() const {
  auto now = Clock::now();
  auto wait = std::chrono::milliseconds(1000);
  for (const Connection& c : conns)
    wait = std::min(wait, std::chrono::duration_cast<std::chrono::milliseconds>(c.deadline - now) + std::chrono::milliseconds(1));
  return int(std::max<int64_t>(0, wait.count()));
}

void HttpFront::Loop::accept_all() {
  while (true) {
    sockaddr_storage addr{};
    socklen_t len = sizeof addr;
    int fd = ::accept4(listen_fd, reinterpret_cast<sockaddr*>(&addr), &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) return;  // EAGAIN, or out of descriptors: the rest wait in the backlog
    make_room();
    Connection c;
    c.fd = fd;
    c.peer_ip = peer_of(addr, &c.peer_port);
    c.deadline = Clock::now() + limits.head_timeout;
    conns.push_back(std::move(c));
  }
}

// At the limit, the oldest connection still waiting for its head goes.
void HttpFront::Loop::make_room() {
  if (conns.size() < limits.max_connections) return;
  for (auto it = conns.begin(); it != conns.end(); ++it) {
    if (it->phase != Connection::Phase::kReading) continue;
    forget(*it);
    conns.erase(it);
    return;
  }
}

void HttpFront::Loop::on_readable(Connection& c) {
  char buf[16 << 10];
  while (c.fd >= 0) {
    ssize_t r = ::recv(c.fd, buf, sizeof buf, 0);
    if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return;
    if (r <= 0) {
      ::close(c.fd);
      c.fd = -1;  // removed after this round
      return;
    }
    if (c.phase == Connection::Phase::kDraining) {
      c.drained += size_t(r);
      if (c.drained > kDrainBytes) c.deadline = Clock::now();
      continue;
    }
    size_t scan_from = c.in.size() < 3 ? 0 : c.in.size() - 3;
    c.in.append(buf, size_t(r));
    size_t end = c.in.find("\r\n\r\n", scan_from);
    // The limit applies to the head itself, whether it came in one read or
    // many (a head that arrived whole used to be taken up to twice the limit).
    if ((end != std::string::npos && end + 4 > limits.max_head_bytes) ||
        (end == std::string::npos && c.in.size() > limits.max_head_bytes)) {
      refuse_head(c);
      return;
    }
    if (end != std::string::npos) {
      c.in.resize(end + 4);  // anything after the head (a body) is never looked at
      respond(c);
      return;
    }
  }
}

void HttpFront::Loop::refuse_head(Connection& c) {
  std::string().swap(c.in);
  set_output(c, http_plain_response(431, "Request Header Fields Too Large",
                                    "request head over " + std::to_string(limits.max_head_bytes) + " bytes\n"));
}

void HttpFront::Loop::respond(Connection& c) {
  std::string method = c.in.substr(0, c.in.find(' '));
  std::string out;
  if (method == "GET" || method == "HEAD") {
    HttpHead head{std::move(c.in), c.peer_ip, c.peer_port};
    out = answer(head);
  } else {
    out = http_plain_response(405, "Method Not Allowed", "only GET and HEAD are served here\n",
                              "Allow: GET, HEAD\r\n");
  }
  std::string().swap(c.in);
  if (pending_out + out.size() > limits.max_pending_response_bytes) {
    out = http_plain_response(503, "Service Unavailable", "too many unread responses; try again\n",
                              "Retry-After: 1\r\n");
  }
  set_output(c, std::move(out));
  on_writable(c);  // most responses fit the socket buffer at once
}

void HttpFront::Loop::set_output(Connection& c, std::string out) {
  pending_out += out.size();
  c.out = std::move(out);
  c.phase = Connection::Phase::kWriting;
  c.deadline = Clock::now() + limits.write_timeout;
}

// Closes the connection (if open) and gives back what its response held.
void HttpFront::Loop::forget(Connection& c) {
  if (c.fd >= 0) ::close(c.fd);
  c.fd = -1;
  pending_out -= c.out.size();
  std::string().swap(c.out);
}

void HttpFront::Loop::on_writable(Connection& c) {
  while (c.sent < c.out.size()) {
    ssize_t w = ::send(c.fd, c.out.data() + c.sent, c.out.size() - c.sent, MSG_NOSIGNAL);
    if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return;
    if (w <= 0) {
      ::close(c.fd);
      c.fd = -1;
      return;
    }
    c.sent += size_t(w);
  }
  pending_out -= c.out.size();
  std::string().swap(c.out);
  ::shutdown(c.fd, SHUT_WR);
  c.phase = Connection::Phase::kDraining;
  c.deadline = Clock::now() + kDrainTime;
}

void HttpFront::Loop::close_all() {
  for (Connection& c : conns) forget(c);
  conns.clear();
}

StatusOr<std::unique_ptr<HttpFront>> HttpFront::start(const std::string& host, uint16_t port, HttpLimits limits,
                                                      Answer answer) {
  std::unique_ptr<HttpFront> f(new HttpFront());
  f->loop_ = std::make_unique<Loop>();
  Loop& loop = *f->loop_;
  loop.limits = limits;
  loop.answer = std::move(answer);
  ASSIGN_OR_RETURN(loop.listen_fd, listen_tcp(host, port, &f->port_));
  loop.wake_fd = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (loop.wake_fd < 0) {
    ::close(loop.listen_fd);
    return io_error("eventfd", errno);
  }
  loop.thread = std::thread([&loop] { loop.run(); });
  return f;
}

void HttpFront::stop() {
  if (!loop_ || !loop_->thread.joinable()) return;
  uint64_t one = 1;
  ssize_t ignored = ::write(loop_->wake_fd, &one, sizeof one);
  (void)ignored;
  loop_->thread.join();
  ::close(loop_->listen_fd);
  ::close(loop_->wake_fd);
}

HttpFront::~HttpFront() { stop(); }

}  // namespace cuzk::server
