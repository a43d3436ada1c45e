// The cuzk.v1 ProvingEngine service over an Engine (synchronous gRPC API:
// each call runs on a gRPC thread; AwaitProof and Prove block it).
#pragma once

#include <grpcpp/grpcpp.h>

#include <atomic>

#include "cuzk/engine/engine.h"
#include "cuzk/v1/cuzk.grpc.pb.h"

namespace cuzk::server {

class ProvingService final : public v1::ProvingEngine::Service {
 public:
  // Calls that wait for a result (AwaitProof, Prove) at once, at most: each
  // holds one of the server's kMaxRpcThreads threads, and the rest stay free
  // for submissions, status and cancellation. Beyond it a waiting call is
  // answered RESOURCE_EXHAUSTED at once (the job, if any, is not touched).
  static constexpr int kMaxRpcThreads = 512;
  static constexpr int kMaxWaitingCalls = 384;

  // Declares cuzk_rpc_total (HELP, TYPE, each method at 0).
  explicit ProvingService(engine::Engine* engine);

  // From now on every call is answered UNAVAILABLE at once (the daemon is
  // about to close its listener: clients learn it from an answer instead of
  // a call cut off). Thread-safe.
  void close() { closing_.store(true); }

  grpc::Status SubmitProof(grpc::ServerContext* ctx, const v1::SubmitProofRequest* req,
                           v1::SubmitProofResponse* resp) override;
  grpc::Status AwaitProof(grpc::ServerContext* ctx, const v1::AwaitProofRequest* req,
                          v1::AwaitProofResponse* resp) override;
  grpc::Status Prove(grpc::ServerContext* ctx, const v1::ProveRequest* req, v1::ProveResponse* resp) override;
  grpc::Status CancelProof(grpc::ServerContext* ctx, const v1::CancelProofRequest* req,
                           v1::CancelProofResponse* resp) override;
  grpc::Status GetStatus(grpc::ServerContext* ctx, const v1::GetStatusRequest* req,
                         v1::GetStatusResponse* resp) override;
  grpc::Status GetMetrics(grpc::ServerContext* ctx, const v1::GetMetricsRequest* req,
                          v1::GetMetricsResponse* resp) override;
  grpc::Status PreloadSRS(grpc::ServerContext* ctx, const v1::PreloadSrsRequest* req,
                          v1::PreloadSrsResponse* resp) override;
  grpc::Status EvictSRS(grpc::ServerContext* ctx, const v1::EvictSrsRequest* req,
                        v1::EvictSrsResponse* resp) override;

 private:
  // SubmitProof and Prove: the request to the engine, with the memory it
  // holds meanwhile reserved in the engine's budget (RESOURCE_EXHAUSTED
  // naming the sizes when it does not fit).
  StatusOr<engine::SubmitResult> submit(const v1::SubmitProofRequest& req);
  // Waits for a job in slices so that a caller who hangs up frees the
  // thread. timeout_ms 0 = until the job ends.
  grpc::Status wait_for(grpc::ServerContext* ctx, const std::string& job_id, uint64_t timeout_ms,
                        v1::AwaitProofResponse* resp);
  grpc::Status count(const char* method, grpc::Status s);
  // One of the kMaxWaitingCalls slots, held for its lifetime when held().
  class WaitSlot {
   public:
    explicit WaitSlot(std::atomic<int>& waiting) : waiting_(waiting), held_(waiting.fetch_add(1) < kMaxWaitingCalls) {
      if (!held_) waiting_.fetch_sub(1);
    }
    ~WaitSlot() {
      if (held_) waiting_.fetch_sub(1);
    }
    WaitSlot(const WaitSlot&) = delete;
    WaitSlot& operator=(const WaitSlot&) = delete;
    bool held() const { return held_; }

   private:
    std::atomic<int>& waiting_;
    const bool held_;
  };
  static grpc::Status too_many_waiting();
  static grpc::Status shutting_down();

  engine::Engine* engine_;
  std::atomic<int> waiting_{0};
  std::atomic<bool> closing_{false};
};

}  // namespace cuzk::server
