#include "service.h"

#include <algorithm>
#include <chrono>

#include "convert.h"
#include "cuzk/base/log.h"
#include "cuzk/server/status_json.h"

namespace cuzk::server {
namespace {

constexpr uint64_t kAwaitSliceMs = 250;
// A timeout_ms of this or more (about 35 years) means "until the job ends":
// larger values overflow a steady_clock duration (UINT64_MAX ms became a
// TIMEOUT after the first slice).
constexpr uint64_t kForeverMs = uint64_t(1) << 40;

std::string grpc_code_name(grpc::StatusCode c) { return std::string(status_code_name(StatusCode(int(c)))); }

}  // namespace

ProvingService::ProvingService(engine::Engine* engine) : engine_(engine) {
  MetricsRegistry& m = engine_->metrics();
  m.describe("cuzk_rpc_total", MetricType::kCounter, "gRPC calls answered, by method and status code.");
  for (const char* method : {"SubmitProof", "AwaitProof", "Prove", "CancelProof", "GetStatus", "GetMetrics",
                             "PreloadSRS", "EvictSRS"})
    m.add_counter("cuzk_rpc_total", 0, std::string("method=\"") + method + "\",code=\"OK\"");
}

grpc::Status ProvingService::count(const char* method, grpc::Status s) {
  engine_->metrics().add_counter("cuzk_rpc_total", 1,
                                 std::string("method=\"") + method + "\",code=\"" + grpc_code_name(s.error_code()) + "\"");
  if (s.error_code() == grpc::StatusCode::INTERNAL) {
    CUZK_LOG(Error) << method << ": " << s.error_message();
  }
  return s;
}

// The request's memory stays reserved until the engine has taken what it
// keeps; from then on the job's witnesses are its own, counted when its
// partitions are admitted.
StatusOr<engine::SubmitResult> ProvingService::submit(const v1::SubmitProofRequest& req) {
  const uint64_t held = decoding_bytes(req);
  StatusOr<engine::Reservation> decoding = engine_->reserve_request_memory(held);
  if (!decoding.ok())
    return decoding.status().with_context("decoding this request (a " + std::to_string(req.ByteSizeLong()) +
                                          "-byte message, " + std::to_string(witness_bytes(req)) +
                                          " bytes of witnesses)");
  return engine_->submit(job_request_from_proto(req));
}

grpc::Status ProvingService::SubmitProof(grpc::ServerContext*, const v1::SubmitProofRequest* req,
                                         v1::SubmitProofResponse* resp) {
  if (closing_.load()) return count("SubmitProof", shutting_down());
  auto r = submit(*req);
  if (!r.ok()) return count("SubmitProof", to_grpc(r.status()));
  resp->set_job_id(r->job_id);
  resp->set_queue_position(r->queue_position);
  resp->set_assigned_gpu("");
  return count("SubmitProof", grpc::Status::OK);
}

grpc::Status ProvingService::wait_for(grpc::ServerContext* ctx, const std::string& job_id, uint64_t timeout_ms,
                                      v1::AwaitProofResponse* resp) {
  if (timeout_ms >= kForeverMs) timeout_ms = 0;
  auto start = std::chrono::steady_clock::now();
  while (true) {
    uint64_t slice = kAwaitSliceMs;
    if (timeout_ms) {
      auto spent = uint64_t(
          std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count());
      slice = spent >= timeout_ms ? 0 : std::min(kAwaitSliceMs, timeout_ms - spent);
    }
    auto r = engine_->await(job_id, std::chrono::milliseconds(slice));
    if (!r.ok()) return to_grpc(r.status());
    bool out_of_time = timeout_ms && std::chrono::steady_clock::now() - start >= std::chrono::milliseconds(timeout_ms);
    if (r->outcome != engine::JobOutcome::kTimeout || out_of_time) {
      if (r->outcome == engine::JobOutcome::kTimeout)
        r->error_message = "the job is still running after " + std::to_string(timeout_ms) + " ms";
      result_to_proto(*r, resp);
      return grpc::Status::OK;
    }
    if (ctx->IsCancelled()) return grpc::Status(grpc::StatusCode::CANCELLED, "the caller went away");
  }
}

grpc::Status ProvingService::shutting_down() {
  return grpc::Status(grpc::StatusCode::UNAVAILABLE, "the daemon is shutting down");
}

grpc::Status ProvingService::too_many_waiting() {
  return grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                      std::to_string(kMaxWaitingCalls) +
                          " calls are already waiting for results (the rest of the server's threads are kept "
                          "for other calls); retry later, or submit and await fewer jobs at once");
}

grpc::Status ProvingService::AwaitProof(grpc::ServerContext* ctx, const v1::AwaitProofRequest* req,
                                        v1::AwaitProofResponse* resp) {
  if (closing_.load()) return count("AwaitProof", shutting_down());
  if (req->job_id().empty())
    return count("AwaitProof", grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "job_id is empty"));
  WaitSlot slot(waiting_);
  if (!slot.held()) return count("AwaitProof", too_many_waiting());
  return count("AwaitProof", wait_for(ctx, req->job_id(), req->timeout_ms(), resp));
}

grpc::Status ProvingService::Prove(grpc::ServerContext* ctx, const v1::ProveRequest* req, v1::ProveResponse* resp) {
  if (closing_.load()) return count("Prove", shutting_down());
  WaitSlot slot(waiting_);
  if (!slot.held()) return count("Prove", too_many_waiting());  // before submitting: nothing is queued
  auto r = submit(req->submit());
  if (!r.ok()) return count("Prove", to_grpc(r.status()));
  return count("Prove", wait_for(ctx, r->job_id, 0, resp->mutable_result()));
}

grpc::Status ProvingService::CancelProof(grpc::ServerContext*, const v1::CancelProofRequest* req,
                                         v1::CancelProofResponse* resp) {
  if (closing_.load()) return count("CancelProof", shutting_down());
  auto r = engine_->cancel(req->job_id());
  if (!r.ok()) return count("CancelProof", to_grpc(r.status()));
  resp->set_was_running(*r);
  return count("CancelProof", grpc::Status::OK);
}

grpc::Status ProvingService::GetStatus(grpc::ServerContext*, const v1::GetStatusRequest*,
                                       v1::GetStatusResponse* resp) {
  if (closing_.load()) return count("GetStatus", shutting_down());
  engine::EngineStatus s = engine_->status();
  status_to_proto(s, s.budget_used_bytes, s.budget_total_bytes, resp);
  resp->set_status_json(status_json(s));
  return count("GetStatus", grpc::Status::OK);
}

grpc::Status ProvingService::GetMetrics(grpc::ServerContext*, const v1::GetMetricsRequest*,
                                        v1::GetMetricsResponse* resp) {
  if (closing_.load()) return count("GetMetrics", shutting_down());
  resp->set_prometheus_text(engine_->metrics_text());
  return count("GetMetrics", grpc::Status::OK);
}

grpc::Status ProvingService::PreloadSRS(grpc::ServerContext*, const v1::PreloadSrsRequest* req,
                                        v1::PreloadSrsResponse* resp) {
  if (closing_.load()) return count("PreloadSRS", shutting_down());
  auto r = engine_->preload(req->circuit_id());
  if (!r.ok()) return count("PreloadSRS", to_grpc(r.status()));
  resp->set_already_loaded(r->already_loaded);
  resp->set_load_time_ms(r->load_time_ms);
  return count("PreloadSRS", grpc::Status::OK);
}

grpc::Status ProvingService::EvictSRS(grpc::ServerContext*, const v1::EvictSrsRequest* req,
                                      v1::EvictSrsResponse* resp) {
  if (closing_.load()) return count("EvictSRS", shutting_down());
  auto r = engine_->evict(req->circuit_id());
  if (!r.ok()) return count("EvictSRS", to_grpc(r.status()));
  resp->set_was_loaded(r->was_loaded);
  resp->set_freed_bytes(r->freed_bytes);
  return count("EvictSRS", grpc::Status::OK);
}

}  // namespace cuzk::server
