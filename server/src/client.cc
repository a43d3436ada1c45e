#include "cuzk/server/client.h"

#include <grpcpp/grpcpp.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iterator>
#include <sstream>
#include <thread>

#include "cuzk/v1/cuzk.grpc.pb.h"
#include "listen_address.h"

namespace cuzk::server {
namespace {

// How long a client waits for a unix socket that is not there yet, or that
// nothing accepts on yet, before it says so.
constexpr std::chrono::milliseconds kSocketGrace{1000};

Status from_grpc(const grpc::Status& s) {
  if (s.ok()) return ok_status();
  std::string message = s.error_message();
  // gRPC's own words name no setting: say which one bounds a request.
  if (s.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED && message.find("larger than max") != std::string::npos)
    message += " (the daemon takes requests up to its server.max_message_bytes, 128 MiB unless its config sets it)";
  return Status(StatusCode(int(s.error_code())), message);
}

void fill_request(const SubmitArgs& a, v1::SubmitProofRequest* r) {
  r->set_request_id(a.request_id);
  r->set_proof_kind(v1::ProofKind(int(a.kind)));
  r->set_priority(v1::Priority(int(a.priority)));
  r->set_circuit_id(a.circuit_id);
  for (size_t i = 0; i < a.witnesses.size(); ++i) {
    // An empty first witness (a bench circuit proves its own) goes in the
    // repeated field: proto3 cannot tell an empty `witness` from none.
    if (i == 0 && !a.witnesses[0].empty()) r->set_witness(a.witnesses[0]);
    else r->add_witnesses(a.witnesses[i]);
  }
  if (a.self_verify) r->set_self_verify(*a.self_verify);
  if (a.filecoin) {
    const engine::FilecoinRequest& f = *a.filecoin;
    r->set_sector_size(f.sector_size);
    r->set_registered_proof(f.registered_proof);
    r->set_vanilla_proof(f.vanilla_proof);
    for (const std::string& v : f.vanilla_proofs) r->add_vanilla_proofs(v);
    r->set_sector_number(f.sector_number);
    r->set_miner_id(f.miner_id);
    r->set_randomness(f.randomness);
    r->set_partition_index(f.partition_index);
    r->set_comm_r_old(f.comm_r_old);
    r->set_comm_r_new(f.comm_r_new);
    r->set_comm_d_new(f.comm_d_new);
  }
}

engine::JobResult result_from_proto(const v1::AwaitProofResponse& p) {
  engine::JobResult r;
  r.job_id = p.job_id();
  r.outcome = engine::JobOutcome(int(p.status()));
  r.proof = p.proof();
  r.error_message = p.error_message();
  r.timings.queue_wait_ms = p.queue_wait_ms();
  r.timings.srs_load_ms = p.srs_load_ms();
  r.timings.synthesis_ms = p.synthesis_ms();
  r.timings.compute_ms = p.gpu_compute_ms();
  r.timings.total_ms = p.total_ms();
  r.timings.verify_ms = p.verify_ms();
  for (const std::string& x : p.public_inputs()) {
    std::array<uint8_t, 32> b{};
    std::copy_n(x.begin(), std::min<size_t>(32, x.size()), b.begin());
    r.public_inputs.push_back(b);
  }
  return r;
}

std::string format_status(const v1::GetStatusResponse& s) {
  std::ostringstream o;
  o << "uptime " << s.uptime_seconds() << " s; proofs completed " << s.total_proofs_completed() << ", failed "
    << s.total_proofs_failed() << "; host memory budget " << (s.pinned_memory_bytes() >> 20) << " / "
    << (s.pinned_memory_limit_bytes() >> 20) << " MiB\n";
  for (const auto& g : s.gpus()) {
    o << "device " << g.ordinal() << ": " << g.name()
      << (g.current_job_id().empty() ? " idle" : " running " + g.current_job_id());
    if (g.vram_total_bytes() > 0)
      o << "; VRAM " << (g.vram_free_bytes() >> 20) << " MiB free of " << (g.vram_total_bytes() >> 20) << " MiB";
    o << "\n";
  }
  for (const auto& k : s.loaded_srs())
    o << "key " << k.circuit_id() << ": " << v1::SRSStatus::Tier_Name(k.tier())
      << (k.device().empty() ? "" : " on " + k.device()) << ", " << k.size_bytes() << " bytes, " << k.ref_count()
      << " reference(s)\n";
  for (const auto& q : s.queues())
    o << "queue " << q.proof_kind() << ": " << q.pending() << " pending, " << q.in_progress() << " in progress\n";
  return o.str();
}

}  // namespace

struct Client::Stub {
  std::shared_ptr<grpc::Channel> channel;
  std::unique_ptr<v1::ProvingEngine::Stub> stub;
};

Client::Client(std::unique_ptr<Stub> stub) : stub_(std::move(stub)) {}
Client::~Client() = default;

namespace {

StatusOr<std::string> read_pem_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (text.find("-----BEGIN ") == std::string::npos) return failed_precondition(path + " is not a readable PEM file");
  return text;
}

StatusOr<std::shared_ptr<grpc::ChannelCredentials>> channel_credentials(const std::optional<ClientTls>& tls,
                                                                        grpc::ChannelArguments* args) {
  if (!tls) return grpc::InsecureChannelCredentials();
  grpc::SslCredentialsOptions o;
  if (!tls->ca_file.empty()) {
    ASSIGN_OR_RETURN(o.pem_root_certs, read_pem_file(tls->ca_file));
  }
  if (!tls->cert_file.empty()) {
    ASSIGN_OR_RETURN(o.pem_cert_chain, read_pem_file(tls->cert_file));
  }
  if (!tls->key_file.empty()) {
    ASSIGN_OR_RETURN(o.pem_private_key, read_pem_file(tls->key_file));
  }
  if (!tls->server_name.empty()) args->SetSslTargetNameOverride(tls->server_name);
  return grpc::SslCredentials(o);
}

}  // namespace

StatusOr<std::unique_ptr<Client>> Client::connect(const std::string& address, std::chrono::milliseconds timeout,
                                                  uint64_t max_message_bytes, const std::optional<ClientTls>& tls) {
  // A unix socket is used only in a directory the daemon's user could not
  // have been pre-empted in: the whole witness goes to whoever listens there.
  if (address.rfind("unix:", 0) == 0) {
    ASSIGN_OR_RETURN(ListenAddress a, parse_listen_address(address, "address"));
    if (!a.unix_path.empty()) {
      // A missing daemon or socket is said soon, and by what was found; a
      // daemon that is binding its socket right now (a script that started it
      // and waits for the file) gets a short grace first.
      const auto give_up = std::chrono::steady_clock::now() + std::min(timeout, kSocketGrace);
      Status probe = probe_unix_socket(a.unix_path);
      while (probe.code() == StatusCode::kUnavailable && std::chrono::steady_clock::now() < give_up) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        probe = probe_unix_socket(a.unix_path);
      }
      RETURN_IF_ERROR(probe);
      RETURN_IF_ERROR(check_socket_directory(a.unix_path, ::geteuid()));
    }
  }
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(int(max_message_bytes));
  args.SetMaxSendMessageSize(int(max_message_bytes));
  ASSIGN_OR_RETURN(std::shared_ptr<grpc::ChannelCredentials> credentials, channel_credentials(tls, &args));
  auto s = std::make_unique<Stub>();
  s->channel = grpc::CreateCustomChannel(address, credentials, args);
  if (!s->channel->WaitForConnected(std::chrono::system_clock::now() + timeout))
    return unavailable("cannot connect to cuzk at " + address +
                       (tls ? " over TLS (is `cuzk serve` running, with TLS, and does its certificate verify?)"
                            : " (is `cuzk serve` running?)"));
  s->stub = v1::ProvingEngine::NewStub(s->channel);
  return std::unique_ptr<Client>(new Client(std::move(s)));
}

StatusOr<engine::JobResult> Client::prove(const SubmitArgs& args) {
  v1::ProveRequest req;
  fill_request(args, req.mutable_submit());
  v1::ProveResponse resp;
  grpc::ClientContext ctx;
  RETURN_IF_ERROR(from_grpc(stub_->stub->Prove(&ctx, req, &resp)));
  return result_from_proto(resp.result());
}

StatusOr<engine::SubmitResult> Client::submit(const SubmitArgs& args) {
  v1::SubmitProofRequest req;
  fill_request(args, &req);
  v1::SubmitProofResponse resp;
  grpc::ClientContext ctx;
  RETURN_IF_ERROR(from_grpc(stub_->stub->SubmitProof(&ctx, req, &resp)));
  return engine::SubmitResult{resp.job_id(), resp.queue_position(), false};
}

StatusOr<engine::JobResult> Client::await(const std::string& job_id, uint64_t timeout_ms) {
  v1::AwaitProofRequest req;
  req.set_job_id(job_id);
  req.set_timeout_ms(timeout_ms);
  v1::AwaitProofResponse resp;
  grpc::ClientContext ctx;
  RETURN_IF_ERROR(from_grpc(stub_->stub->AwaitProof(&ctx, req, &resp)));
  return result_from_proto(resp);
}

StatusOr<bool> Client::cancel(const std::string& job_id) {
  v1::CancelProofRequest req;
  req.set_job_id(job_id);
  v1::CancelProofResponse resp;
  grpc::ClientContext ctx;
  RETURN_IF_ERROR(from_grpc(stub_->stub->CancelProof(&ctx, req, &resp)));
  return resp.was_running();
}

StatusOr<StatusReply> Client::status() {
  v1::GetStatusResponse resp;
  grpc::ClientContext ctx;
  RETURN_IF_ERROR(from_grpc(stub_->stub->GetStatus(&ctx, v1::GetStatusRequest(), &resp)));
  StatusReply r;
  r.text = format_status(resp);
  r.completed = resp.total_proofs_completed();
  r.failed = resp.total_proofs_failed();
  r.uptime_s = resp.uptime_seconds();
  r.json = resp.status_json();
  return r;
}

StatusOr<std::string> Client::metrics() {
  v1::GetMetricsResponse resp;
  grpc::ClientContext ctx;
  RETURN_IF_ERROR(from_grpc(stub_->stub->GetMetrics(&ctx, v1::GetMetricsRequest(), &resp)));
  return resp.prometheus_text();
}

StatusOr<engine::KeyManager::PreloadResult> Client::preload(const std::string& circuit_id) {
  v1::PreloadSrsRequest req;
  req.set_circuit_id(circuit_id);
  v1::PreloadSrsResponse resp;
  grpc::ClientContext ctx;
  RETURN_IF_ERROR(from_grpc(stub_->stub->PreloadSRS(&ctx, req, &resp)));
  return engine::KeyManager::PreloadResult{resp.already_loaded(), resp.load_time_ms()};
}

StatusOr<engine::KeyManager::EvictResult> Client::evict(const std::string& circuit_id) {
  v1::EvictSrsRequest req;
  req.set_circuit_id(circuit_id);
  v1::EvictSrsResponse resp;
  grpc::ClientContext ctx;
  RETURN_IF_ERROR(from_grpc(stub_->stub->EvictSRS(&ctx, req, &resp)));
  return engine::KeyManager::EvictResult{resp.was_loaded(), resp.freed_bytes()};
}

}  // namespace cuzk::server
