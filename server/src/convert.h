// Between the cuzk.v1 wire messages and the engine's types.
#pragma once

#include <grpcpp/grpcpp.h>

#include "cuzk/engine/engine.h"
#include "cuzk/v1/cuzk.pb.h"

namespace cuzk::server {

// The engine's request: the witnesses are copied once, the other fields
// enter other_payload (the idempotency digest) without the witnesses.
engine::JobRequest job_request_from_proto(const v1::SubmitProofRequest& req);
// The bytes of every witness the request carries.
uint64_t witness_bytes(const v1::SubmitProofRequest& req);
// The host memory `req` holds in the server while it is converted and
// submitted: the parsed message (its witnesses' buffers as protobuf
// allocated them: above 50 MB a string grows as it is read, up to twice its
// size), the witnesses' copy for the job, and the other fields twice more
// (their copy, and its serialization for the idempotency digest).
uint64_t decoding_bytes(const v1::SubmitProofRequest& req);
void result_to_proto(const engine::JobResult& result, v1::AwaitProofResponse* out);
void status_to_proto(const engine::EngineStatus& status, uint64_t pinned_bytes, uint64_t pinned_limit,
                     v1::GetStatusResponse* out);
// The status message travels in a header (grpc-message), which clients
// limit (grpc-js: 8 KiB of metadata; a larger answer never arrives, and the
// channel's next calls time out). Messages are cut to this many bytes.
constexpr size_t kMaxStatusMessageBytes = 1024;
grpc::Status to_grpc(const Status& status);

}  // namespace cuzk::server
