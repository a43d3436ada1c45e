#include "listen_address.h"

#include <arpa/inet.h>
#include <grp.h>
#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace cuzk::server {

bool ListenAddress::is_loopback() const {
  if (is_abstract()) return false;
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
  if (is_abstract()) return "unix-abstract:" + abstract_name;
  if (!is_tcp()) return "unix://" + unix_path;
  return (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

StatusOr<ListenAddress> parse_listen_address(const std::string& text, const std::string& key) {
  ListenAddress a;
  if (text.rfind("unix-abstract:", 0) == 0) {
    a.abstract_name = text.substr(14);
    if (a.abstract_name.empty()) return invalid_argument(key + ": \"" + text + "\" names no socket");
    if (a.abstract_name.size() >= sizeof(sockaddr_un::sun_path) - 1)
      return invalid_argument(key + ": abstract socket name longer than " +
                              std::to_string(sizeof(sockaddr_un::sun_path) - 2) + " bytes");
    return a;
  }
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

namespace {

std::string mode_text(mode_t mode) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%04o", unsigned(mode & 07777));
  return buf;
}

// Only root can create or replace entries in `dir`: owned by root, not
// writable by group or others (as /run is).
bool only_root_writes(const std::string& dir) {
  struct stat st{};
  return ::stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == 0 && (st.st_mode & 022) == 0;
}

}  // namespace

Status check_socket_directory(const std::string& socket_path, uid_t uid) {
  namespace fs = std::filesystem;
  const std::string dir = fs::path(socket_path).parent_path().string();
  struct stat st{};
  if (::lstat(dir.c_str(), &st) != 0) return io_error("the socket directory " + dir, errno);
  if (!S_ISDIR(st.st_mode))
    return failed_precondition("the socket directory " + dir + " is not a directory (a symbolic link?); refusing to use it");
  const bool owner_trusted = st.st_uid == uid || st.st_uid == 0 ||
                             only_root_writes(fs::path(dir).parent_path().string());
  if (owner_trusted && (st.st_mode & 022) == 0) return ok_status();
  return failed_precondition(
      "the socket directory " + dir + " is owned by uid " + std::to_string(st.st_uid) + " with mode " +
      mode_text(st.st_mode) + "; it must belong to uid " + std::to_string(uid) +
      " (or root) and not be writable by group or others, or another user could put a socket of their own there. "
      "Remove it, or choose another path");
}

Status prepare_unix_socket(const std::string& path, bool* replaced_stale) {
  namespace fs = std::filesystem;
  fs::path parent = fs::path(path).parent_path();
  std::error_code ec;
  if (!fs::exists(parent, ec)) {
    fs::create_directories(parent, ec);
    if (ec) return failed_precondition("cannot create the socket directory " + parent.string() + ": " + ec.message());
    fs::permissions(parent, fs::perms::owner_all, ec);
  }
  // Checked whether it was made now or found: a directory another user made
  // first (/tmp/cuzk-<uid> is predictable) must not be trusted.
  RETURN_IF_ERROR(check_socket_directory(path, ::geteuid()));
  struct stat st{};
  if (::lstat(path.c_str(), &st) != 0) return ok_status();  // nothing there
  if (!S_ISSOCK(st.st_mode))
    return failed_precondition(path + " exists and is not a socket; refusing to replace it");
  if (socket_is_live(path)) return already_exists("another process is listening on " + path);
  if (::unlink(path.c_str()) != 0) return io_error("cannot remove the stale socket " + path, errno);
  if (replaced_stale) *replaced_stale = true;
  return ok_status();
}

namespace {

std::string user_name(uid_t uid) {
  const passwd* pw = ::getpwuid(uid);
  return pw ? std::string(pw->pw_name) : "uid " + std::to_string(uid);
}

std::string group_name(gid_t gid) {
  const group* gr = ::getgrgid(gid);
  return gr ? std::string(gr->gr_name) : "gid " + std::to_string(gid);
}

// Why this user may not connect to the socket at `path`: its owner, group
// and mode, or the directory that cannot be searched.
std::string permission_text(const std::string& path) {
  struct stat st{};
  if (::stat(path.c_str(), &st) != 0) {
    const std::string dir = std::filesystem::path(path).parent_path().string();
    if (::stat(dir.c_str(), &st) != 0) return "permission denied";
    return "permission denied: its directory " + dir + " belongs to " + user_name(st.st_uid) + ", group " +
           group_name(st.st_gid) + ", mode " + mode_text(st.st_mode) + ", and " + user_name(::geteuid()) +
           " may not enter it";
  }
  std::string text = "permission denied: the socket belongs to " + user_name(st.st_uid) + ", group " +
                     group_name(st.st_gid) + ", mode " + mode_text(st.st_mode);
  if (st.st_mode & 0020)
    text += "; members of the group " + group_name(st.st_gid) + " may connect (`sudo usermod -aG " +
            group_name(st.st_gid) + " " + user_name(::geteuid()) + "`, then log in again)";
  else
    text += "; only its owner may connect (server.socket_group lets a group in)";
  return text;
}

}  // namespace

Status probe_unix_socket(const std::string& path) {
  const std::string at = "cannot connect to cuzk at unix://" + path + ": ";
  struct stat dir_st{};
  const std::string dir = std::filesystem::path(path).parent_path().string();
  if (::stat(dir.c_str(), &dir_st) != 0 && errno == ENOENT)
    return unavailable(at + "the directory " + dir + " does not exist (is `cuzk serve` running, listening there?)");
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return ok_status();  // gRPC says what it finds
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, path.c_str(), sizeof(addr.sun_path) - 1);
  const int err = ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0 ? 0 : errno;
  ::close(fd);
  switch (err) {
    case ENOENT:
      return unavailable(at + "no socket there (is `cuzk serve` running, listening there?)");
    case ECONNREFUSED:
      return unavailable(at + "nothing accepts connections on the socket (a daemon that was stopped without "
                              "removing it? `cuzk serve` replaces it when it starts)");
    case EACCES:
    case EPERM:
      return Status(StatusCode::kPermissionDenied, at + permission_text(path));
    default:
      return ok_status();  // connected, or an error gRPC reports as well
  }
}

Status restrict_unix_socket(const std::string& path) {
  if (::chmod(path.c_str(), 0600) != 0) return io_error("chmod 0600 " + path, errno);
  return ok_status();
}

}  // namespace cuzk::server
