#include "convert.h"

#include <google/protobuf/util/field_mask_util.h>

#include <thread>

#include "cuzk/base/utf8.h"

namespace cuzk::server {

namespace {

// The fields the engine reads itself; every other field (and any field this
// build does not know) enters the idempotency digest as the remaining message.
bool is_engine_field(int number) {
  using R = v1::SubmitProofRequest;
  for (int f : {R::kRequestIdFieldNumber, R::kProofKindFieldNumber, R::kPriorityFieldNumber, R::kCircuitIdFieldNumber,
                R::kWitnessFieldNumber, R::kWitnessesFieldNumber, R::kSelfVerifyFieldNumber})
    if (f == number) return true;
  return false;
}

// Every field of SubmitProofRequest but the engine's.
const google::protobuf::FieldMask& remaining_fields() {
  static const google::protobuf::FieldMask mask = [] {
    google::protobuf::FieldMask m;
    const google::protobuf::Descriptor* d = v1::SubmitProofRequest::descriptor();
    for (int i = 0; i < d->field_count(); ++i)
      if (!is_engine_field(d->field(i)->number())) m.add_paths(d->field(i)->name());
    return m;
  }();
  return mask;
}

// The Filecoin kinds' fields; the vanilla proofs are moved out of `rest`
// (a copy already, made for the digest).
std::shared_ptr<const engine::FilecoinRequest> filecoin_request_from_rest(v1::SubmitProofRequest& rest) {
  auto f = std::make_shared<engine::FilecoinRequest>();
  f->sector_size = rest.sector_size();
  f->registered_proof = rest.registered_proof();
  f->vanilla_proof = std::move(*rest.mutable_vanilla_proof());
  for (std::string& v : *rest.mutable_vanilla_proofs()) f->vanilla_proofs.push_back(std::move(v));
  f->sector_number = rest.sector_number();
  f->miner_id = rest.miner_id();
  f->randomness = rest.randomness();
  f->partition_index = rest.partition_index();
  f->comm_r_old = rest.comm_r_old();
  f->comm_r_new = rest.comm_r_new();
  f->comm_d_new = rest.comm_d_new();
  return f;
}

}  // namespace

uint64_t witness_bytes(const v1::SubmitProofRequest& req) {
  uint64_t n = req.witness().size();
  for (const std::string& w : req.witnesses()) n += w.size();
  return n;
}

uint64_t decoding_bytes(const v1::SubmitProofRequest& req) {
  const uint64_t witnesses = witness_bytes(req);
  uint64_t parsed = req.witness().empty() ? 0 : req.witness().capacity();
  for (const std::string& w : req.witnesses()) parsed += w.capacity();
  const uint64_t message = req.ByteSizeLong();
  const uint64_t others = message > witnesses ? message - witnesses : 0;
  return parsed + witnesses + 3 * others;
}

engine::JobRequest job_request_from_proto(const v1::SubmitProofRequest& req) {
  engine::JobRequest r;
  r.request_id = req.request_id();
  r.kind = engine::ProofKind(int(req.proof_kind()));
  r.priority = engine::Priority(int(req.priority()));
  r.circuit_id = req.circuit_id();
  r.witnesses.reserve(req.witnesses_size() + (req.witness().empty() ? 0 : 1));
  if (!req.witness().empty()) r.witnesses.push_back(req.witness());
  r.witnesses.insert(r.witnesses.end(), req.witnesses().begin(), req.witnesses().end());
  if (req.has_self_verify()) r.self_verify = req.self_verify();
  // The remaining message, serialized as a copy of the whole with the
  // engine's fields cleared would be (field order, then unknown fields),
  // without ever copying a witness.
  v1::SubmitProofRequest rest;
  google::protobuf::util::FieldMaskUtil::MergeMessageTo(req, remaining_fields(),
                                                        google::protobuf::util::FieldMaskUtil::MergeOptions(), &rest);
  rest.GetReflection()->MutableUnknownFields(&rest)->MergeFrom(req.GetReflection()->GetUnknownFields(req));
  rest.SerializeToString(&r.other_payload);
  if (engine::is_filecoin_kind(r.kind)) r.filecoin = filecoin_request_from_rest(rest);
  return r;
}

void result_to_proto(const engine::JobResult& r, v1::AwaitProofResponse* out) {
  // proto3 strings must be UTF-8 (clients refuse the message otherwise).
  out->set_job_id(valid_utf8(r.job_id));
  out->set_status(v1::AwaitProofResponse::Status(int(r.outcome)));
  out->set_proof(r.proof);
  out->set_error_message(valid_utf8(r.error_message));
  out->set_queue_wait_ms(r.timings.queue_wait_ms);
  out->set_srs_load_ms(r.timings.srs_load_ms);
  out->set_synthesis_ms(r.timings.synthesis_ms);
  out->set_gpu_compute_ms(r.timings.compute_ms);
  out->set_total_ms(r.timings.total_ms);
  out->set_verify_ms(r.timings.verify_ms);
  for (const auto& x : r.public_inputs) out->add_public_inputs(std::string(x.begin(), x.end()));
}

namespace {

const engine::DeviceStatus* find_device(const engine::EngineStatus& s, const std::string& name) {
  for (const auto& d : s.device_status)
    if (d.name == name) return &d;
  return nullptr;
}

// A GPU (device memory reported) by its description (model, budget); the
// CPU backend, whose VRAM fields are all 0, by its thread count.
void device_to_proto(const engine::EngineStatus& s, size_t i, v1::GPUStatus* g) {
  const std::string& name = s.devices[i];
  const engine::DeviceStatus* d = find_device(s, name);
  g->set_ordinal(uint32_t(i));
  if (d != nullptr && d->vram_total_bytes > 0) {
    // The CUDA backend's description starts with the device's name ("cuda:0 <model>, ...").
    if (d->description.starts_with(name)) g->set_name(d->description);
    else g->set_name(d->description.empty() ? name : name + " (" + d->description + ")");
    g->set_vram_total_bytes(d->vram_total_bytes);
    g->set_vram_free_bytes(d->vram_budget_bytes > d->vram_used_bytes ? d->vram_budget_bytes - d->vram_used_bytes : 0);
  } else {
    g->set_name(name + " (CPU backend, " + std::to_string(s.prover_threads) + " threads)");
  }
  for (const auto& w : s.workers) {
    if (w.device == name && w.busy) {
      g->set_current_job_id(w.job_id);
      g->set_current_proof_kind(std::string(engine::proof_kind_name(w.kind)));
      break;
    }
  }
}

// Each key keeps its host entry (HOT or WARM), and each device holding it
// adds an entry of tier DEVICE naming the device (field 100). Not instead:
// Curio's client knows only HOT, WARM and COLD (HOT: "pinned, ready for
// proving"); an entry changed to DEVICE would reach it as an unknown value
// and hide that the key is loaded. The host copy is also a fact of its own:
// the engine evicts the two tiers independently.
void keys_to_proto(const engine::EngineStatus& s, v1::GetStatusResponse* out) {
  for (const auto& k : s.keys) {
    if (k.tier == engine::KeyTier::kCold) continue;
    v1::SRSStatus* r = out->add_loaded_srs();
    r->set_circuit_id(k.id);
    r->set_tier(v1::SRSStatus::Tier(int(k.tier)));
    r->set_size_bytes(k.size_bytes);
    r->set_ref_count(k.ref_count);
  }
  for (const auto& d : s.device_status) {
    for (const auto& k : d.keys) {
      v1::SRSStatus* r = out->add_loaded_srs();
      r->set_circuit_id(k.circuit_id);
      r->set_tier(v1::SRSStatus::DEVICE);
      r->set_size_bytes(k.device_bytes);
      r->set_ref_count(k.in_use ? 1 : 0);  // the device copy has no count of its own: a lane holds it or not
      r->set_device(d.name);
    }
  }
}

}  // namespace

void status_to_proto(const engine::EngineStatus& s, uint64_t pinned_bytes, uint64_t pinned_limit,
                     v1::GetStatusResponse* out) {
  for (size_t i = 0; i < s.devices.size(); ++i) device_to_proto(s, i, out->add_gpus());
  keys_to_proto(s, out);
  for (const auto& q : s.queues) {
    v1::QueueStatus* r = out->add_queues();
    r->set_proof_kind(std::string(engine::proof_kind_name(q.kind)));
    r->set_pending(q.pending);
    r->set_in_progress(q.in_progress);
  }
  out->set_total_proofs_completed(s.proofs_completed);
  out->set_total_proofs_failed(s.proofs_failed);
  out->set_uptime_seconds(uint64_t(s.uptime_s));
  out->set_pinned_memory_bytes(pinned_bytes);
  out->set_pinned_memory_limit_bytes(pinned_limit);
}

grpc::Status to_grpc(const Status& s) {
  if (s.ok()) return grpc::Status::OK;
  std::string message = s.message();
  if (message.size() > kMaxStatusMessageBytes) {
    message.resize(kMaxStatusMessageBytes);
    message += "...(message cut)";
  }
  make_valid_utf8(&message);  // a cut may split a character; grpc-message is read as UTF-8
  return grpc::Status(grpc::StatusCode(int(s.code())), std::move(message));
}

}  // namespace cuzk::server
