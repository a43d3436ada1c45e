// Who can reach the daemon: loopback decided by parsing addresses, warnings
// for listeners reachable from other machines, and gRPC's TLS (with and
// without client certificates) on a real listener. Certificates are made
// fresh for each run with the openssl command-line tool.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "../src/listen_address.h"
#include "cuzk/engine/circuit_source.h"
#include "cuzk/groth16/verifier.h"
#include "cuzk/io/bellperson.h"
#include "cuzk/io/snarkjs_json.h"
#include "cuzk/server/client.h"
#include "cuzk/server/config.h"
#include "cuzk/server/server.h"
#include "test_support.h"

namespace cuzk::server {
namespace {

using namespace std::chrono_literals;

bool loopback(const std::string& listen) {
  auto a = parse_listen_address(listen, "server.listen");
  EXPECT_TRUE(a.ok()) << listen;
  return a.ok() && a->is_loopback();
}

TEST(ListenSecurity, LoopbackIsDecidedByParsingTheAddress) {
  for (const char* yes : {"127.0.0.1:1", "127.1.2.3:1", "localhost:1", "[::1]:1", "[::ffff:127.0.0.1]:1", "unix:///x.sock"})
    EXPECT_TRUE(loopback(yes)) << yes;
  for (const char* no : {"127.evil.example:1", "127.0.0.1.nip.io:1", "0.0.0.0:1", "[::]:1", "10.0.0.1:1",
                         "[::ffff:10.0.0.1]:1", "128.0.0.1:1", "example.com:1", "localhost.example:1"})
    EXPECT_FALSE(loopback(no)) << no;
  ServerConfig c = default_config(ConfigEnv{});
  c.listen = "127.evil.example:9000";
  Status s = validate_config(c);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("allow_remote"), std::string::npos) << s.message();
}

TEST(ListenSecurity, ListenersReachableFromOtherMachinesAreWarnedAbout) {
  ServerConfig c = default_config(ConfigEnv{});
  c.listen = "127.0.0.1:9000";
  EXPECT_TRUE(config_warnings(c, 2).empty());
  c.allow_remote = true;
  c.listen = "0.0.0.0:9000";
  auto w = config_warnings(c, 2);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("PLAINTEXT"), std::string::npos) << w[0];
  c.tls_cert = "/etc/cuzk/cert.pem";
  c.tls_key = "/etc/cuzk/key.pem";
  w = config_warnings(c, 2);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("tls_client_ca"), std::string::npos) << w[0];
  c.tls_client_ca = "/etc/cuzk/ca.pem";
  EXPECT_TRUE(config_warnings(c, 2).empty());
  c.status_listen = "0.0.0.0:9821";
  w = config_warnings(c, 2);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("server.status_listen"), std::string::npos);
  c.tls_key.clear();
  EXPECT_EQ(validate_config(c).code(), StatusCode::kInvalidArgument);  // cert without key
}

TEST(ListenSecurity, ValuesTheMachineCannotUseAreWarnedAbout) {
  ServerConfig c = default_config(ConfigEnv{});
  c.listen = "unix:///tmp/x.sock";
  EXPECT_TRUE(config_warnings(c, 2).empty());
  c.engine.total_budget_bytes = 1;
  c.engine.prover_threads = 4096;
  auto w = config_warnings(c, 2);
  ASSERT_EQ(w.size(), 2u);
  EXPECT_EQ(w[0].rfind("memory.total_budget: 1 bytes", 0), 0u) << w[0];
  EXPECT_EQ(w[1].rfind("pipeline.prover_threads: 4096", 0), 0u) << w[1];
}

// A unix socket's directory must be one no other user could have made or
// can write (as ssh-agent checks): the default /tmp/cuzk-<uid> is
// predictable, and whoever listens there receives every witness.
class SocketDirectoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (std::filesystem::temp_directory_path() / "cuzk-sockdir-XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    base_ = tmpl;
    // The parent is like /tmp: anyone may create entries in it.
    ASSERT_EQ(::chmod(base_.c_str(), 01777), 0);
    run_ = base_ + "/cuzk-" + std::to_string(::geteuid());
    ASSERT_EQ(::mkdir(run_.c_str(), 0700), 0);
    sock_ = run_ + "/cuzk.sock";
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(base_, ec);
  }

  // A directory owned by someone else: chown as root; otherwise the same
  // situation seen from another uid.
  Status check_as_if_made_by_another_user() {
    std::random_device rd;
    if (::geteuid() == 0) {
      EXPECT_EQ(::chown(run_.c_str(), uid_t(10000 + rd() % 50000), gid_t(-1)), 0);
      return check_socket_directory(sock_, 0);
    }
    return check_socket_directory(sock_, ::geteuid() + 1 + rd() % 1000);
  }

  ServerConfig server_config() {
    ServerConfig c = default_config(read_config_env());
    c.listen = "unix://" + sock_;
    c.status_listen = "";
    c.engine.cache_dir = base_ + "/cache";
    c.engine.total_budget_bytes = uint64_t(1) << 30;
    c.engine.prover_threads = 2;
    c.engine.circuits[0].demo_spec.lg_domain = 8;
    return c;
  }

  std::string base_, run_, sock_;
};

TEST_F(SocketDirectoryTest, AnOwnDirectoryThatOthersCannotWriteIsTrusted) {
  EXPECT_TRUE(check_socket_directory(sock_, ::geteuid()).ok());
  ASSERT_EQ(::chmod(run_.c_str(), 0755), 0);
  EXPECT_TRUE(check_socket_directory(sock_, ::geteuid()).ok());
  EXPECT_TRUE(prepare_unix_socket(sock_).ok());
}

TEST_F(SocketDirectoryTest, AWritableDirectoryIsRefusedNamingPathOwnerAndMode) {
  for (mode_t mode : {0777, 0770, 0702, 01777}) {
    ASSERT_EQ(::chmod(run_.c_str(), mode), 0);
    for (Status s : {check_socket_directory(sock_, ::geteuid()), prepare_unix_socket(sock_)}) {
      EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition) << mode;
      char m[8];
      std::snprintf(m, sizeof m, "%04o", unsigned(mode));
      EXPECT_NE(s.message().find(run_), std::string::npos) << s.message();
      EXPECT_NE(s.message().find(std::string("mode ") + m), std::string::npos) << s.message();
      EXPECT_NE(s.message().find("owned by uid " + std::to_string(::geteuid())), std::string::npos) << s.message();
    }
  }
}

TEST_F(SocketDirectoryTest, ADirectoryAnotherUserMadeIsRefused) {
  Status s = check_as_if_made_by_another_user();
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find(run_), std::string::npos) << s.message();
  // A symbolic link in its place is refused too (it may point anywhere).
  const std::string link = base_ + "/link";
  ASSERT_EQ(::symlink(run_.c_str(), link.c_str()), 0);
  EXPECT_EQ(check_socket_directory(link + "/cuzk.sock", ::geteuid()).code(), StatusCode::kFailedPrecondition);
}

// The daemon refuses to start and the client to connect; neither touches the
// socket that is there.
TEST_F(SocketDirectoryTest, TheDaemonDoesNotStartAndTheClientDoesNotConnect) {
  ASSERT_EQ(::chmod(run_.c_str(), 0777), 0);
  auto server = Server::start(server_config());
  ASSERT_FALSE(server.ok());
  EXPECT_EQ(server.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(server.status().message().find(run_), std::string::npos) << server.status().message();
  EXPECT_FALSE(std::filesystem::exists(base_ + "/cache"));  // refused before the engine started

  // A daemon in a good directory; then the directory is opened to others.
  ASSERT_EQ(::chmod(run_.c_str(), 0700), 0);
  auto good = Server::start(server_config());
  ASSERT_TRUE(good.ok()) << good.status().to_string();
  EXPECT_TRUE(Client::connect("unix://" + sock_, 10s).ok());
  ASSERT_EQ(::chmod(run_.c_str(), 0777), 0);
  auto refused = Client::connect("unix://" + sock_, 10s);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(refused.status().message().find(run_), std::string::npos) << refused.status().message();
  ASSERT_EQ(::chmod(run_.c_str(), 0700), 0);
}

TEST(ListenSecurity, AbstractUnixSocketsNeedAllowRemote) {
  auto a = parse_listen_address("unix-abstract:cuzk-test", "server.listen");
  ASSERT_TRUE(a.ok()) << a.status().to_string();
  EXPECT_TRUE(a->is_abstract());
  EXPECT_FALSE(a->is_tcp());
  EXPECT_FALSE(a->is_loopback());
  EXPECT_EQ(a->grpc_uri(), "unix-abstract:cuzk-test");
  EXPECT_FALSE(parse_listen_address("unix-abstract:", "server.listen").ok());
  ServerConfig c = default_config(ConfigEnv{});
  c.listen = "unix-abstract:cuzk-test";
  Status s = validate_config(c);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("every local user"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("allow_remote"), std::string::npos) << s.message();
  c.allow_remote = true;
  EXPECT_TRUE(validate_config(c).ok());
  auto w = config_warnings(c, 2);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("every local user"), std::string::npos) << w[0];
  c.status_listen = "unix-abstract:x";
  EXPECT_EQ(validate_config(c).code(), StatusCode::kInvalidArgument);
}

class TlsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::system("command -v openssl > /dev/null") != 0) GTEST_SKIP() << "openssl not installed (scripts/setup.sh --test)";
    std::string tmpl = (std::filesystem::temp_directory_path() / "cuzk-tls-XXXXXX").string();
    dir_ = ::mkdtemp(tmpl.data());
    // A CA, a server certificate for 127.0.0.1 and a client certificate.
    const std::string script = dir_ + "/make-certs.sh";
    std::ofstream(script) << "set -e\ncd '" << dir_ << "'\n"
                          << "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout ca.key "
                             "-out ca.pem -days 2 -subj /CN=cuzk-test-ca 2>/dev/null\n"
                             "for who in server client; do\n"
                             "  openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout $who.key "
                             "-out $who.csr -subj /CN=$who 2>/dev/null\n"
                             "  printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\\n' > $who.ext\n"
                             "  openssl x509 -req -in $who.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out $who.pem "
                             "-days 2 -extfile $who.ext 2>/dev/null\n"
                             "done\n";
    ASSERT_EQ(std::system(("bash '" + script + "'").c_str()), 0);
  }
  void TearDown() override {
    server_.reset();
    std::error_code ec;
    if (!dir_.empty()) std::filesystem::remove_all(dir_, ec);
  }

  ServerConfig config() {
    ServerConfig c = testing::demo_config(dir_, "127.0.0.1:0");
    c.status_listen = "";
    c.tls_cert = dir_ + "/server.pem";
    c.tls_key = dir_ + "/server.key";
    return c;
  }

  void start(const ServerConfig& c) {
    ASSERT_NO_FATAL_FAILURE(testing::start_demo_daemon(c, &server_, &wtns_, &vk_));
  }

  // Connections expected to fail get a short timeout.
  StatusOr<std::unique_ptr<Client>> connect(const std::optional<ClientTls>& tls,
                                            std::chrono::milliseconds timeout = 10s) {
    return Client::connect(server_->grpc_address(), timeout, uint64_t(128) << 20, tls);
  }

  void expect_proves(Client& client) {
    SubmitArgs a;
    a.circuit_id = "demo";
    a.witnesses = {wtns_};
    auto r = client.prove(a);
    ASSERT_TRUE(r.ok()) << r.status().to_string();
    ASSERT_EQ(r->outcome, engine::JobOutcome::kCompleted) << r->error_message;
    testing::expect_verifies(vk_, r->proof, r->public_inputs);
  }

  std::string dir_;
  std::unique_ptr<Server> server_;
  std::string wtns_;
  groth16::VerifyingKey vk_;
};

TEST_F(TlsTest, ClientsMustSpeakTlsAndTrustTheCertificate) {
  start(config());
  ClientTls tls;
  tls.ca_file = dir_ + "/ca.pem";
  auto client = connect(tls);
  ASSERT_TRUE(client.ok()) << client.status().to_string();
  expect_proves(**client);
  EXPECT_EQ(connect(std::nullopt, 1s).status().code(), StatusCode::kUnavailable);  // plaintext
  ClientTls untrusted;
  untrusted.ca_file = dir_ + "/client.pem";  // not the CA that signed the server
  EXPECT_EQ(connect(untrusted, 1s).status().code(), StatusCode::kUnavailable);
}

TEST_F(TlsTest, WithAClientCaOnlyClientsWithACertificateGetIn) {
  ServerConfig c = config();
  c.tls_client_ca = dir_ + "/ca.pem";
  start(c);
  ClientTls anonymous;
  anonymous.ca_file = dir_ + "/ca.pem";
  auto no_cert = connect(anonymous, 1s);
  if (no_cert.ok()) {  // the handshake may complete before the server refuses
    SubmitArgs a;
    a.circuit_id = "demo";
    a.witnesses = {wtns_};
    EXPECT_FALSE((*no_cert)->submit(a).ok());
  }
  ClientTls with_cert = anonymous;
  with_cert.cert_file = dir_ + "/client.pem";
  with_cert.key_file = dir_ + "/client.key";
  auto client = connect(with_cert);
  ASSERT_TRUE(client.ok()) << client.status().to_string();
  expect_proves(**client);
}

TEST_F(TlsTest, UnreadableTlsFilesStopTheStartNamingTheKey) {
  ServerConfig c = config();
  c.tls_key = dir_ + "/missing.key";
  auto s = Server::start(c);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.status().message().find("server.tls_key"), std::string::npos) << s.status().message();
}

}  // namespace
}  // namespace cuzk::server
