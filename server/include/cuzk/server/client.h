// A client of the cuzk.v1 service (what `cuzk prove --addr`, `cuzk status`
// and `cuzk bench` use). Thread-safe: one Client may serve many threads.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cuzk/base/status.h"
#include "cuzk/engine/engine.h"

namespace cuzk::server {

struct SubmitArgs {
  std::string request_id;
  engine::ProofKind kind = engine::ProofKind::kGroth16Circuit;
  engine::Priority priority = engine::Priority::kUnspecified;
  std::string circuit_id;
  std::vector<std::string> witnesses;  // .wtns bytes, one per partition
  std::optional<bool> self_verify;
  // The Filecoin kinds' fields (vanilla proofs, randomness, commitments).
  std::shared_ptr<const engine::FilecoinRequest> filecoin;
};

struct StatusReply {
  std::string text;  // human-readable summary of GetStatus's standard fields
  std::string json;  // the daemon's whole status as GET /status serves it (empty from older daemons)
  uint64_t completed = 0, failed = 0, uptime_s = 0;
};

// TLS for a connection to a daemon with server.tls_cert set.
struct ClientTls {
  std::string ca_file;               // PEM roots the server's certificate must chain to ("" = the system's)
  std::string cert_file, key_file;   // a client certificate, for a daemon with server.tls_client_ca
  std::string server_name;           // name to check the certificate for ("" = the address's host)
};

class Client {
 public:
  // address: unix:///path or host:port. Waits up to connect_timeout for the
  // channel to become ready. With `tls`, the channel is TLS. Errors:
  // UNAVAILABLE (cannot connect, or the TLS handshake failed),
  // FAILED_PRECONDITION (a TLS file cannot be read).
  static StatusOr<std::unique_ptr<Client>> connect(const std::string& address,
                                                   std::chrono::milliseconds connect_timeout,
                                                   uint64_t max_message_bytes = uint64_t(128) << 20,
                                                   const std::optional<ClientTls>& tls = std::nullopt);
  ~Client();

  // Errors carry the server's gRPC status code and message.
  StatusOr<engine::JobResult> prove(const SubmitArgs& args);
  StatusOr<engine::SubmitResult> submit(const SubmitArgs& args);
  StatusOr<engine::JobResult> await(const std::string& job_id, uint64_t timeout_ms);
  StatusOr<bool> cancel(const std::string& job_id);
  StatusOr<StatusReply> status();
  StatusOr<std::string> metrics();
  StatusOr<engine::KeyManager::PreloadResult> preload(const std::string& circuit_id);
  StatusOr<engine::KeyManager::EvictResult> evict(const std::string& circuit_id);

 private:
  struct Stub;
  explicit Client(std::unique_ptr<Stub> stub);
  std::unique_ptr<Stub> stub_;
};

}  // namespace cuzk::server
