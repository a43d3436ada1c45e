#include "cuzk/server/server.h"

#include <grp.h>
#include <grpcpp/grpcpp.h>
#include <grpcpp/resource_quota.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <thread>
#include <vector>

#include "cuzk/base/log.h"
#include "cuzk/base/mutex.h"
#include "http_status.h"
#include "listen_address.h"
#include "service.h"

namespace cuzk::server {

// How long a closing daemon answers every call UNAVAILABLE before its
// listener closes.
constexpr std::chrono::milliseconds kClosingWindow(300);

class Server::Impl {
 public:
  ServerConfig config;
  ListenAddress grpc_listen;
  std::string grpc_address, status_address;
  std::unique_ptr<engine::Engine> engine;
  std::unique_ptr<ProvingService> service;
  std::unique_ptr<grpc::Server> grpc;
  std::unique_ptr<StatusHttp> http;
  Mutex shutdown_mu;
  bool shut_down GUARDED_BY(shutdown_mu) = false;
  bool drained GUARDED_BY(shutdown_mu) = true;

  Status start_grpc();
  Status start_http();
};

namespace {

// A PEM file named by a config key. Errors: FAILED_PRECONDITION naming both.
StatusOr<std::string> read_pem(const std::string& path, const char* key) {
  constexpr size_t kMaxPemBytes = 1 << 20;
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in && !in.eof()) return failed_precondition(std::string(key) + ": cannot read " + path);
  if (text.empty() || text.size() > kMaxPemBytes || text.find("-----BEGIN ") == std::string::npos)
    return failed_precondition(std::string(key) + ": " + path + " is not a PEM file");
  return text;
}

// gRPC's own TLS when server.tls_cert is set, else plaintext.
StatusOr<std::shared_ptr<grpc::ServerCredentials>> server_credentials(const ServerConfig& c) {
  if (c.tls_cert.empty()) return grpc::InsecureServerCredentials();
  grpc::SslServerCredentialsOptions o(c.tls_client_ca.empty()
                                          ? GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE
                                          : GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
  grpc::SslServerCredentialsOptions::PemKeyCertPair pair;
  ASSIGN_OR_RETURN(pair.cert_chain, read_pem(c.tls_cert, "server.tls_cert"));
  ASSIGN_OR_RETURN(pair.private_key, read_pem(c.tls_key, "server.tls_key"));
  o.pem_key_cert_pairs.push_back(std::move(pair));
  if (!c.tls_client_ca.empty()) {
    ASSIGN_OR_RETURN(o.pem_root_certs, read_pem(c.tls_client_ca, "server.tls_client_ca"));
  }
  return grpc::SslServerCredentials(o);
}

// The id of server.socket_group. Errors: FAILED_PRECONDITION naming it.
StatusOr<gid_t> socket_group_id(const std::string& group) {
  std::vector<char> buf(16384);
  struct group g{};
  struct group* found = nullptr;
  const int err = ::getgrnam_r(group.c_str(), &g, buf.data(), buf.size(), &found);
  if (err != 0 || found == nullptr)
    return failed_precondition("server.socket_group: no group \"" + group + "\" on this system");
  return found->gr_gid;
}

// Gives the socket to `group` with mode 0660, so that the group's members
// (Curio's user beside the packaged service) may connect.
Status share_socket(const std::string& path, const std::string& group) {
  ASSIGN_OR_RETURN(gid_t gid, socket_group_id(group));
  if (::chown(path.c_str(), uid_t(-1), gid) != 0)
    return io_error("server.socket_group: cannot give " + path + " to group " + group, errno);
  if (::chmod(path.c_str(), 0660) != 0) return io_error("chmod 0660 " + path, errno);
  return ok_status();
}

}  // namespace

Status check_listener_files(const ServerConfig& config) {
  RETURN_IF_ERROR(server_credentials(config).status());
  if (!config.socket_group.empty()) RETURN_IF_ERROR(socket_group_id(config.socket_group).status());
  ASSIGN_OR_RETURN(ListenAddress a, parse_listen_address(config.listen, "server.listen"));
  if (a.unix_path.empty()) return ok_status();
  // A directory that is not there yet is made at start; one that is there
  // must be trustworthy now.
  struct stat st{};
  const std::string dir = std::filesystem::path(a.unix_path).parent_path().string();
  if (::lstat(dir.c_str(), &st) != 0 && errno == ENOENT) return ok_status();
  return check_socket_directory(a.unix_path, ::geteuid());
}

Status Server::Impl::start_grpc() {
  ASSIGN_OR_RETURN(std::shared_ptr<grpc::ServerCredentials> credentials, server_credentials(config));
  service = std::make_unique<ProvingService>(engine.get());
  grpc::ServerBuilder builder;
  int selected_port = 0;
  builder.AddListeningPort(grpc_listen.grpc_uri(), credentials, &selected_port);
  builder.RegisterService(service.get());
  builder.SetMaxReceiveMessageSize(int(config.max_message_bytes));
  builder.SetMaxSendMessageSize(int(config.max_message_bytes));
  grpc::ResourceQuota quota("cuzk");
  quota.SetMaxThreads(ProvingService::kMaxRpcThreads);  // AwaitProof holds a thread while it waits
  builder.SetResourceQuota(quota);
  // A second daemon on the same TCP port must fail to start, not share it.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  // The socket is created owner-only (no window with wider permissions).
  mode_t old_mask = ::umask(0077);
  grpc = builder.BuildAndStart();
  ::umask(old_mask);
  if (!grpc || selected_port == 0)
    return unavailable("cannot listen for gRPC on " + config.listen + " (address in use or not permitted)");
  if (grpc_listen.is_tcp()) {
    grpc_listen.port = uint16_t(selected_port);
  } else if (!grpc_listen.unix_path.empty()) {
    RETURN_IF_ERROR(restrict_unix_socket(grpc_listen.unix_path));
    if (!config.socket_group.empty()) RETURN_IF_ERROR(share_socket(grpc_listen.unix_path, config.socket_group));
  }
  grpc_address = grpc_listen.grpc_uri();
  return ok_status();
}

Status Server::Impl::start_http() {
  if (config.status_listen.empty()) return ok_status();
  ASSIGN_OR_RETURN(ListenAddress a, parse_listen_address(config.status_listen, "server.status_listen"));
  ASSIGN_OR_RETURN(http, StatusHttp::start(a.host, a.port, engine.get()));
  status_address = http->address();
  return ok_status();
}

Server::Server(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Server::~Server() { shutdown(std::chrono::milliseconds(0)); }

StatusOr<std::unique_ptr<Server>> Server::start(const ServerConfig& config) {
  RETURN_IF_ERROR(validate_config(config));
  auto impl = std::make_unique<Impl>();
  impl->config = config;
  // The socket's directory is checked before anything slow starts: a
  // directory another user could have made refuses the start at once.
  ASSIGN_OR_RETURN(impl->grpc_listen, parse_listen_address(config.listen, "server.listen"));
  if (!impl->grpc_listen.unix_path.empty()) {
    bool stale = false;
    RETURN_IF_ERROR(prepare_unix_socket(impl->grpc_listen.unix_path, &stale));
    if (stale) {
      CUZK_LOG(Info) << "removed a stale socket at " << impl->grpc_listen.unix_path
                     << " (nothing accepted on it: a daemon that stopped without removing it)";
    }
  }
  // The listeners come up before any circuit is made ready (minutes for
  // Filecoin circuits whose rows or development keys are generated): a port
  // that is taken fails the start at once, and /status shows the loading.
  engine::EngineConfig engine_config = config.engine;
  engine_config.load_in_background = true;
  ASSIGN_OR_RETURN(impl->engine, engine::Engine::create(engine_config));
  RETURN_IF_ERROR(impl->start_grpc());
  Status http = impl->start_http();
  if (!http.ok()) {
    impl->grpc->Shutdown();
    if (!impl->grpc_listen.unix_path.empty()) ::unlink(impl->grpc_listen.unix_path.c_str());
    return http;
  }
  CUZK_LOG(Info) << "cuzk serving cuzk.v1 on " << impl->grpc_address << (config.tls_cert.empty() ? "" : " (TLS)")
                 << (impl->status_address.empty() ? "" : ", status on http://" + impl->status_address) << "; "
                 << config.engine.circuits.size() << " circuit(s) to load, each served once ready";
  impl->engine->start_loading();
  for (const std::string& w : config_warnings(config, std::thread::hardware_concurrency()))
    CUZK_LOG(Warn) << "WARNING: " << w;
  return std::unique_ptr<Server>(new Server(std::move(impl)));
}

const std::string& Server::grpc_address() const { return impl_->grpc_address; }
const std::string& Server::status_address() const { return impl_->status_address; }
engine::Engine& Server::engine() { return *impl_->engine; }

bool Server::shutdown(std::chrono::milliseconds grace) {
  MutexLock lock(impl_->shutdown_mu);
  if (impl_->shut_down) return impl_->drained;
  impl_->shut_down = true;
  engine::Engine& e = *impl_->engine;
  e.stop_accepting();
  CUZK_LOG(Info) << "shutting down: no new jobs; waiting up to " << grace.count() << " ms for unfinished ones";
  impl_->drained = e.drain(grace);
  if (!impl_->drained) {
    CUZK_LOG(Warn) << "grace period over; cancelling the jobs still running";
    e.cancel_all("the daemon is shutting down");
  }
  // Waiting callers have their answers now. For a moment every new call is
  // answered UNAVAILABLE, so that clients still calling learn of the
  // shutdown from an answer: calls caught by the listener closing were cut
  // off as CANCELLED.
  impl_->service->close();
  std::this_thread::sleep_for(kClosingWindow);
  impl_->grpc->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
  impl_->grpc->Wait();
  if (impl_->http) impl_->http->stop();
  if (!impl_->grpc_listen.unix_path.empty()) ::unlink(impl_->grpc_listen.unix_path.c_str());
  CUZK_LOG(Info) << "cuzk stopped";
  return impl_->drained;
}

}  // namespace cuzk::server
