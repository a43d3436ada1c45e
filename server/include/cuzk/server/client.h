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
  std::string text;  // human-readable summary of GetStatus
  uint64_t completed = 0, failed = 0, uptime_s = 0;
};

class Client {
 public:
  // address: unix:///path or host:port. Waits up to connect_timeout for the
  // channel to become ready. Errors: UNAVAILABLE.
  static StatusOr<std::unique_ptr<Client>> connect(const std::string& address,
                                                   std::chrono::milliseconds connect_timeout,
                                                   uint64_t max_message_bytes = uint64_t(128) << 20);
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
