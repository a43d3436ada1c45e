#include "listen_address.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace cuzk::server {

bool ListenAddress::is_loopback() const {
  if (!is_tcp()) return true;
  if (host == "localhost") return true;
  // Addresses are parsed, not matched as text: "127.evil.example" is a name
  // that may resolve anywhere.
  in_addr v4{};
  if (::inet_pton(AF_INET, host.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  in6_addr v6{};
  if (::inet_pton(AF_INET6, host.c_str(), &v6) != 1) return false;
  if (IN6_IS_ADDR_LOOPBACK(&v6)) return true;
  return IN6_IS_ADDR_V4MAPPED(&v6) && v6.s6_addr[12] == 127;  // ::ffff:127.x.y.z
}

std::string ListenAddress::grpc_uri() const {
  if (!is_tcp()) return "unix://" + unix_path;
  return (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

StatusOr<ListenAddress> parse_listen_address(const std::string& text, const std::string& key) {
  ListenAddress a;
  if (text.rfind("unix:", 0) == 0) {
    std::string path = text.substr(5);
    if (path.rfind("//", 0) == 0) path = path.substr(2);
    if (path.empty() || path[0] != '/')
      return invalid_argument(key + ": \"" + text + "\" needs an absolute path (unix:///run/cuzk.sock)");
    if (path.size() >= sizeof(sockaddr_un::sun_path))
      return invalid_argument(key + ": socket path longer than " + std::to_string(sizeof(sockaddr_un::sun_path) - 1) +
                              " bytes");
    a.unix_path = path;
    return a;
  }
  size_t colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == text.size())
    return invalid_argument(key + ": \"" + text + "\" is neither unix:///path nor host:port");
  a.host = text.substr(0, colon);
  if (a.host.size() > 2 && a.host.front() == '[' && a.host.back() == ']') a.host = a.host.substr(1, a.host.size() - 2);
  std::string port = text.substr(colon + 1);
  char* end = nullptr;
  long p = std::strtol(port.c_str(), &end, 10);
  if (*end != '\0' || p < 0 || p > 65535) return invalid_argument(key + ": bad port \"" + port + "\"");
  a.port = uint16_t(p);
  return a;
}

namespace {

// Whether some process accepts connections on the socket at path.
bool socket_is_live(const std::string& path) {
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, path.c_str(), sizeof(addr.sun_path) - 1);
  bool live = ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
  ::close(fd);
  return live;
}

}  // namespace

Status prepare_unix_socket(const std::string& path) {
  namespace fs = std::filesystem;
  fs::path parent = fs::path(path).parent_path();
  std::error_code ec;
  if (!fs::exists(parent, ec)) {
    fs::create_directories(parent, ec);
    if (ec) return failed_precondition("cannot create the socket directory " + parent.string() + ": " + ec.message());
    fs::permissions(parent, fs::perms::owner_all, ec);
  }
  struct stat st{};
  if (::lstat(path.c_str(), &st) != 0) return ok_status();  // nothing there
  if (!S_ISSOCK(st.st_mode))
    return failed_precondition(path + " exists and is not a socket; refusing to replace it");
  if (socket_is_live(path)) return already_exists("another process is listening on " + path);
  if (::unlink(path.c_str()) != 0) return io_error("cannot remove the stale socket " + path, errno);
  return ok_status();
}

Status restrict_unix_socket(const std::string& path) {
  if (::chmod(path.c_str(), 0600) != 0) return io_error("chmod 0600 " + path, errno);
  return ok_status();
}

}  // namespace cuzk::server
