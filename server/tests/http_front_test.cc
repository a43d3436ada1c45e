// HttpFront's limits with small values: connections beyond the cap push out
// the oldest idle one, unfinished heads time out, large answers reach slow
// readers, and a stop() with connections open returns.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <thread>
#include <vector>

#include "../src/http_front.h"
#include "cuzk/base/random.h"

namespace cuzk::server {
namespace {

using namespace std::chrono_literals;

int connect_to(uint16_t port) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// Whether the peer closed the connection within `limit`.
bool closed_within(int fd, std::chrono::milliseconds limit) {
  pollfd p{fd, POLLIN, 0};
  if (::poll(&p, 1, int(limit.count())) <= 0) return false;
  char c;
  return ::recv(fd, &c, 1, MSG_PEEK) <= 0;  // an orderly close, or a reset
}

std::string read_all(int fd, std::chrono::milliseconds limit) {
  std::string out;
  auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 50) <= 0) continue;
    char buf[64 << 10];
    ssize_t r = ::recv(fd, buf, sizeof buf, 0);
    if (r <= 0) break;
    out.append(buf, size_t(r));
  }
  return out;
}

std::unique_ptr<HttpFront> start(HttpLimits limits, HttpFront::Answer answer) {
  auto f = HttpFront::start("127.0.0.1", 0, limits, std::move(answer));
  EXPECT_TRUE(f.ok()) << f.status().to_string();
  return f.ok() ? std::move(*f) : nullptr;
}

HttpFront::Answer echo_ok() {
  return [](const HttpHead& h) { return http_plain_response(200, "OK", "from " + h.peer_ip + "\n"); };
}

TEST(HttpFront, ConnectionsBeyondTheCapPushOutTheOldestIdleOne) {
  HttpLimits l;
  l.max_connections = 16;
  auto f = start(l, echo_ok());
  ASSERT_TRUE(f);
  std::vector<int> fds;
  for (int i = 0; i < 32; ++i) fds.push_back(connect_to(f->port()));
  // The first 16 were dropped to make room (oldest first); a request still gets through.
  EXPECT_TRUE(closed_within(fds[0], 60s));
  EXPECT_TRUE(closed_within(fds[15], 60s));
  int c = connect_to(f->port());
  std::string req = "GET / HTTP/1.1\r\n\r\n";
  ASSERT_EQ(::send(c, req.data(), req.size(), 0), ssize_t(req.size()));
  EXPECT_NE(read_all(c, 60s).find("from 127.0.0.1"), std::string::npos);
  ::close(c);
  for (int fd : fds) ::close(fd);
}

TEST(HttpFront, AHeadNotFinishedInTimeIsDropped) {
  HttpLimits l;
  l.head_timeout = 300ms;
  auto f = start(l, echo_ok());
  ASSERT_TRUE(f);
  auto begin = std::chrono::steady_clock::now();  // before the connection: its timeout starts later
  int fd = connect_to(f->port());
  std::string partial = "GET / HTTP/1.1\r\nHost: x\r\n";
  ::send(fd, partial.data(), partial.size(), 0);
  EXPECT_TRUE(closed_within(fd, 60s));  // dropped (a guard against a hang, not a measure of speed)
  EXPECT_GE(std::chrono::steady_clock::now() - begin, 300ms);  // not before its time
  ::close(fd);
}

TEST(HttpFront, LargeAnswersReachSlowReadersWithoutHoldingOthersUp) {
  TestRng rng(fresh_test_seed());
  std::string body(8 << 20, '\0');
  for (auto& ch : body) ch = char('a' + rng() % 26);
  auto f = start({}, [&](const HttpHead& h) {
    return h.bytes.find("/big") != std::string::npos ? http_plain_response(200, "OK", body)
                                                     : http_plain_response(200, "OK", "small\n");
  });
  ASSERT_TRUE(f);
  int slow = connect_to(f->port());
  std::string req = "GET /big HTTP/1.1\r\n\r\n";
  ::send(slow, req.data(), req.size(), 0);
  std::this_thread::sleep_for(100ms);  // the big answer fills the socket buffers
  int quick = connect_to(f->port());
  std::string q = "GET /small HTTP/1.1\r\n\r\n";
  ::send(quick, q.data(), q.size(), 0);
  EXPECT_NE(read_all(quick, 60s).find("small"), std::string::npos);  // the slow reader never reads meanwhile
  ::close(quick);
  std::string got = read_all(slow, 60s);
  ASSERT_GT(got.size(), body.size());
  EXPECT_EQ(got.substr(got.size() - body.size()), body);
  ::close(slow);
}

// The 16 KiB head limit held only for heads that came in pieces: a head sent
// at once was taken up to about twice the limit.
TEST(HttpFront, AHeadOverTheLimitIsRefusedHoweverItArrives) {
  TestRng rng(fresh_test_seed());
  auto f = start({}, echo_ok());
  ASSERT_TRUE(f);
  const size_t limit = HttpLimits{}.max_head_bytes;
  auto head_of = [](size_t bytes) {  // a complete head of exactly `bytes` bytes
    std::string h = "GET / HTTP/1.1\r\nX-Pad: ";
    h += std::string(bytes - h.size() - 4, 'p');
    return h + "\r\n\r\n";
  };
  for (size_t bytes : {limit + 1, limit + 1 + size_t(rng() % limit), 2 * limit - 10, limit, limit - size_t(rng() % 4096)}) {
    const std::string head = head_of(bytes);
    ASSERT_EQ(head.size(), bytes);
    int fd = connect_to(f->port());
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::send(fd, head.data(), head.size(), 0), ssize_t(head.size()));  // one write
    const std::string r = read_all(fd, 60s);
    ::close(fd);
    if (bytes > limit) {
      EXPECT_EQ(r.rfind("HTTP/1.1 431", 0), 0u) << bytes << ": " << r.substr(0, 40);
    } else {
      EXPECT_EQ(r.rfind("HTTP/1.1 200", 0), 0u) << bytes << ": " << r.substr(0, 40);
    }
  }
}

// Readers that never read keep their responses in the daemon: all of them
// together hold at most max_pending_response_bytes; past it a request gets
// 503, and once a response is taken there is room again.
TEST(HttpFront, ResponsesNotReadAreBoundedInAll) {
  TestRng rng(fresh_test_seed());
  std::string body(32 << 20, '\0');  // more than the loopback socket buffers take
  for (auto& ch : body) ch = char('a' + rng() % 26);
  HttpLimits l;
  l.max_pending_response_bytes = 48 << 20;
  auto f = start(l, [&](const HttpHead&) { return http_plain_response(200, "OK", body); });
  ASSERT_TRUE(f);
  const std::string req = "GET / HTTP/1.1\r\n\r\n";
  int holder = connect_to(f->port());
  ASSERT_EQ(::send(holder, req.data(), req.size(), 0), ssize_t(req.size()));
  pollfd p{holder, POLLIN, 0};
  ASSERT_EQ(::poll(&p, 1, 60'000), 1);  // its response is being sent (and held)
  int second = connect_to(f->port());
  ASSERT_EQ(::send(second, req.data(), req.size(), 0), ssize_t(req.size()));
  const std::string refused = read_all(second, 60s);
  ::close(second);
  EXPECT_EQ(refused.rfind("HTTP/1.1 503", 0), 0u) << refused.substr(0, 40);
  const std::string got = read_all(holder, 60s);
  ::close(holder);
  ASSERT_GT(got.size(), body.size());
  EXPECT_EQ(got.rfind("HTTP/1.1 200", 0), 0u);
  EXPECT_EQ(got.substr(got.size() - body.size()), body);
  int third = connect_to(f->port());
  ASSERT_EQ(::send(third, req.data(), req.size(), 0), ssize_t(req.size()));
  const std::string again = read_all(third, 60s);
  ::close(third);
  EXPECT_EQ(again.rfind("HTTP/1.1 200", 0), 0u) << again.substr(0, 40);
}

TEST(HttpFront, StopWithConnectionsOpenReturns) {
  auto f = start({}, echo_ok());
  ASSERT_TRUE(f);
  std::vector<int> fds;
  for (int i = 0; i < 10; ++i) fds.push_back(connect_to(f->port()));
  f->stop();
  f->stop();  // idempotent
  for (int fd : fds) {
    EXPECT_TRUE(closed_within(fd, 60s));
    ::close(fd);
  }
  EXPECT_LT(connect_to(f->port()), 0);  // nothing listens any more
}

}  // namespace
}  // namespace cuzk::server
