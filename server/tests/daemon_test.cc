// The daemon in-process on a temporary unix socket, driven through the
// client library and raw cuzk.v1 stubs: proofs (checked against the key's
// verifying key), gRPC status codes for bad requests, HTTP /status and
// /metrics, socket handling and graceful shutdown.
#include <grp.h>
#include <gtest/gtest.h>
#include <grpcpp/grpcpp.h>
#include <httplib.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "cuzk/base/random.h"
#include "cuzk/engine/circuit_source.h"
#include "cuzk/groth16/verifier.h"
#include "cuzk/io/bellperson.h"
#include "cuzk/io/snarkjs_json.h"
#include "cuzk/server/client.h"
#include "cuzk/server/server.h"
#include "cuzk/v1/cuzk.grpc.pb.h"
#include "test_support.h"

namespace cuzk::server {
namespace {

using namespace std::chrono_literals;

using testing::read_file;

class DaemonTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "cuzk-daemon-XXXXXX").string();
    dir_ = new std::string(::mkdtemp(tmpl.data()));
  }
  static void TearDownTestSuite() {
    std::error_code ec;
    std::filesystem::remove_all(*dir_, ec);
    delete dir_;
  }

  ServerConfig config(const std::string& name) {
    return testing::demo_config(*dir_, "unix://" + *dir_ + "/" + name + "/run/cuzk.sock");
  }

  void start(const ServerConfig& c) {
    ASSERT_NO_FATAL_FAILURE(testing::start_demo_daemon(c, &server_, &wtns_, &vk_));
    auto cl = Client::connect(server_->grpc_address(), 10s);
    ASSERT_TRUE(cl.ok()) << cl.status().to_string();
    client_ = std::move(*cl);
    auto channel = grpc::CreateChannel(server_->grpc_address(), grpc::InsecureChannelCredentials());
    stub_ = v1::ProvingEngine::NewStub(channel);
  }

  SubmitArgs demo_args() {
    SubmitArgs a;
    a.circuit_id = "demo";
    a.witnesses = {wtns_};
    return a;
  }

  void expect_valid(const engine::JobResult& r) {
    ASSERT_EQ(r.outcome, engine::JobOutcome::kCompleted) << r.error_message;
    testing::expect_verifies(vk_, r.proof, r.public_inputs);
  }

  static inline std::string* dir_ = nullptr;
  std::unique_ptr<Server> server_;
  std::unique_ptr<Client> client_;
  std::unique_ptr<v1::ProvingEngine::Stub> stub_;
  std::string wtns_;
  groth16::VerifyingKey vk_;
};

TEST_F(DaemonTest, ProvesThroughTheSocketAndReportsStatus) {
  start(config("a"));
  std::string path = server_->grpc_address().substr(7);
  struct stat st{};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_TRUE(S_ISSOCK(st.st_mode));
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  auto r = client_->prove(demo_args());
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  expect_valid(*r);
  EXPECT_EQ(r->public_inputs.size(), 2u);

  auto sub = client_->submit(demo_args());
  ASSERT_TRUE(sub.ok());
  auto aw = client_->await(sub->job_id, 60'000);
  ASSERT_TRUE(aw.ok());
  expect_valid(*aw);

  auto status = client_->status();
  ASSERT_TRUE(status.ok());
  EXPECT_EQ(status->completed, 2u);
  EXPECT_NE(status->text.find("key demo: HOT"), std::string::npos) << status->text;

  std::string host = server_->status_address().substr(0, server_->status_address().rfind(':'));
  int port = std::stoi(server_->status_address().substr(server_->status_address().rfind(':') + 1));
  httplib::Client http(host, port);
  auto js = http.Get("/status");
  ASSERT_TRUE(js);
  EXPECT_EQ(js->status, 200);
  auto doc = nlohmann::json::parse(js->body);
  EXPECT_GE(doc["uptime_s"].get<double>(), 0);
  EXPECT_GT(doc["memory"]["budget_total_bytes"].get<uint64_t>(), 0u);
  EXPECT_EQ(doc["keys"][0]["tier"], "HOT");
  ASSERT_GE(doc["jobs"].size(), 2u);
  EXPECT_EQ(doc["jobs"][0]["partitions"][0]["state"], "done");
  EXPECT_TRUE(doc["jobs"][0]["partitions"][0]["stage_ms"].contains("msm"));
  EXPECT_FALSE(doc["workers"].empty());
  // Each device in detail: the CPU backend has no device memory and holds no
  // key of the DEVICE tier; two finished proofs made it busy for a while.
  ASSERT_EQ(doc["device_status"].size(), doc["devices"].size());
  const auto& dev = doc["device_status"][0];
  EXPECT_EQ(dev["name"], doc["devices"][0]);
  EXPECT_EQ(dev["vram_total_bytes"].get<uint64_t>(), 0u);
  EXPECT_EQ(dev["vram_budget_bytes"].get<uint64_t>(), 0u);
  EXPECT_GT(dev["busy_fraction"].get<double>(), 0);
  EXPECT_LE(dev["busy_fraction"].get<double>(), 1);
  EXPECT_FALSE(dev["workers"].empty());
  EXPECT_TRUE(dev["keys"].empty());
  EXPECT_TRUE(dev["fallbacks"].is_object());
  EXPECT_NE(status->text.find("device 0: " + dev["name"].get<std::string>() + " (CPU backend, 2 threads)"),
            std::string::npos)
      << status->text;
  auto metrics = http.Get("/metrics");
  ASSERT_TRUE(metrics);
  EXPECT_NE(metrics->body.find("cuzk_proofs_completed_total{kind=\"GROTH16_CIRCUIT\"} 2"), std::string::npos);
  EXPECT_NE(metrics->body.find("cuzk_rpc_total{method=\"Prove\",code=\"OK\"}"), std::string::npos);
  EXPECT_NE(metrics->body.find("cuzk_worker_busy_fraction"), std::string::npos);
  EXPECT_NE(metrics->body.find("cuzk_budget_used_bytes"), std::string::npos);
  auto m = client_->metrics();
  ASSERT_TRUE(m.ok());
  EXPECT_NE(m->find("cuzk_stage_seconds"), std::string::npos);
}

// A bench circuit from the config: a request with empty witnesses is a job of
// that many partitions, each proving the circuit's own witness.
TEST_F(DaemonTest, ABenchCircuitProvesRequestsWithoutWitnesses) {
  ServerConfig c = config("bench");
  engine::CircuitSpec b;
  b.id = "bench10";
  b.bench.shape = "porep";
  b.bench.lg = 10;
  c.engine.circuits.push_back(b);
  start(c);
  SubmitArgs a;
  a.circuit_id = "bench10";
  a.witnesses = {"", "", ""};
  auto r = client_->prove(a);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  ASSERT_EQ(r->outcome, engine::JobOutcome::kCompleted) << r->error_message;
  EXPECT_EQ(r->proof.size(), 3 * 192u);
  // An ordinary circuit still refuses an empty witness, naming the problem.
  a.circuit_id = "demo";
  a.witnesses = {""};
  auto bad = client_->prove(a);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument) << bad.status().to_string();
}

TEST_F(DaemonTest, BadRequestsGetTheRightStatusAndServingGoesOn) {
  ServerConfig c = config("b");
  c.max_message_bytes = 64 << 10;
  start(c);
  SubmitArgs a = demo_args();
  a.circuit_id = "unknown";
  EXPECT_EQ(client_->prove(a).status().code(), StatusCode::kNotFound);
  a = demo_args();
  a.witnesses = {"garbage"};
  EXPECT_EQ(client_->submit(a).status().code(), StatusCode::kInvalidArgument);
  a = demo_args();
  a.witnesses[0].resize(a.witnesses[0].size() - 32);
  EXPECT_EQ(client_->submit(a).status().code(), StatusCode::kInvalidArgument);
  a = demo_args();
  a.witnesses[0] += std::string(100 << 10, 'x');  // larger than max_message_bytes
  const Status too_big = client_->submit(a).status();
  EXPECT_EQ(too_big.code(), StatusCode::kResourceExhausted);
  EXPECT_NE(too_big.message().find("server.max_message_bytes"), std::string::npos) << too_big.to_string();
  EXPECT_EQ(client_->await("job-404", 10).status().code(), StatusCode::kNotFound);
  EXPECT_EQ(client_->cancel("job-404").status().code(), StatusCode::kNotFound);
  EXPECT_EQ(client_->preload("unknown").status().code(), StatusCode::kNotFound);
  a = demo_args();
  a.request_id = "same";
  auto first = client_->submit(a);
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(client_->submit(a)->job_id, first->job_id);
  a.priority = engine::Priority::kCritical;
  EXPECT_EQ(client_->submit(a).status().code(), StatusCode::kAlreadyExists);
  // An unsatisfying witness: the RPC succeeds, the job fails. A Filecoin kind
  // with no circuit of its kind registered: NOT_FOUND.
  a = demo_args();
  a.witnesses[0][76 + 32 * 3] ^= 1;  // the first aux value (values start at byte 76)
  auto bad = client_->prove(a);
  ASSERT_TRUE(bad.ok());
  EXPECT_EQ(bad->outcome, engine::JobOutcome::kFailed);
  EXPECT_FALSE(bad->error_message.empty());
  v1::ProveRequest fil;
  fil.mutable_submit()->set_proof_kind(v1::WINNING_POST);
  fil.mutable_submit()->set_vanilla_proof("vanilla");
  v1::ProveResponse fil_resp;
  grpc::ClientContext ctx;
  grpc::Status fil_status = stub_->Prove(&ctx, fil, &fil_resp);
  EXPECT_EQ(fil_status.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_NE(fil_status.error_message().find("no winning-post circuit"), std::string::npos) << fil_status.error_message();
  // AwaitProof honours timeout_ms with TIMEOUT (wire value 4).
  a = demo_args();
  a.witnesses = {wtns_, wtns_, wtns_, wtns_};
  auto slow = client_->submit(a);
  ASSERT_TRUE(slow.ok());
  v1::AwaitProofRequest aw;
  aw.set_job_id(slow->job_id);
  aw.set_timeout_ms(1);
  v1::AwaitProofResponse aw_resp;
  grpc::ClientContext ctx2;
  ASSERT_TRUE(stub_->AwaitProof(&ctx2, aw, &aw_resp).ok());
  EXPECT_EQ(int(aw_resp.status()), 4);
  auto done = client_->await(slow->job_id, 0);
  ASSERT_TRUE(done.ok());
  EXPECT_EQ(done->proof.size(), 4 * 192u);
  expect_valid(*client_->prove(demo_args()));
}

TEST_F(DaemonTest, PreloadAndEvictReallyLoadAndFree) {
  start(config("c"));
  auto p = client_->preload("demo");
  ASSERT_TRUE(p.ok());
  EXPECT_FALSE(p->already_loaded);
  EXPECT_TRUE(client_->preload("demo")->already_loaded);
  uint64_t used = server_->engine().status().budget_used_bytes;
  EXPECT_GT(used, 0u);
  auto e = client_->evict("demo");
  ASSERT_TRUE(e.ok());
  EXPECT_TRUE(e->was_loaded);
  EXPECT_EQ(e->freed_bytes, used);
  EXPECT_EQ(server_->engine().status().budget_used_bytes, 0u);
  expect_valid(*client_->prove(demo_args()));  // loads again on demand
}

std::string random_bytes(TestRng& rng, size_t n) {
  std::string s(n, '\0');
  for (char& c : s) c = char(rng());
  return s;
}

// What a request holds while it is decoded and submitted (the parsed message
// and the witnesses' copy: at least twice the witness bytes) is counted in
// the memory budget and given back when the call is answered: past the
// total where the HOT key holds the rest (it is held already; a busy daemon
// must not refuse what an idle one takes); a request that needs more than
// the whole budget is refused naming the sizes, and serving goes on.
TEST_F(DaemonTest, ARequestIsCountedInTheBudgetWhileItIsDecoded) {
  ServerConfig c = config("decode");
  const uint64_t total = uint64_t(64) << 20;
  c.engine.total_budget_bytes = total;
  c.engine.eviction_min_idle_ms = uint64_t(1) << 40;  // the HOT key stays: what is free is known
  start(c);
  ASSERT_TRUE(client_->preload("demo").ok());
  const engine::EngineStatus before = server_->engine().status();
  const uint64_t used = before.budget_used_bytes;
  ASSERT_GT(used, 0u);
  TestRng rng(fresh_test_seed());

  // Bytes after the witness's last section: refused once decoded.
  v1::SubmitProofRequest a;
  a.set_proof_kind(v1::GROTH16_CIRCUIT);
  a.set_circuit_id("demo");
  a.set_witness(wtns_ + random_bytes(rng, (size_t(4) << 20) + rng() % 4096));
  const uint64_t twice = 2 * a.witness().size();
  ASSERT_LT(before.budget_peak_bytes, used + twice);  // else the peak below would prove nothing
  v1::SubmitProofResponse a_resp;
  grpc::ClientContext a_ctx;
  grpc::Status sa = stub_->SubmitProof(&a_ctx, a, &a_resp);
  EXPECT_EQ(sa.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << sa.error_message();
  const engine::EngineStatus after = server_->engine().status();
  EXPECT_GE(after.budget_peak_bytes, used + twice);
  EXPECT_EQ(after.budget_used_bytes, used);

  // Twice the witness is less than the whole budget but more than is free
  // beside the HOT key: counted past the total, then judged by its witness.
  v1::ProveRequest b;
  *b.mutable_submit() = a;
  b.mutable_submit()->set_witness(wtns_ + random_bytes(rng, (total - used / 2) / 2 - wtns_.size()));
  ASSERT_GT(used + 2 * b.submit().witness().size(), total);
  v1::ProveResponse b_resp;
  grpc::ClientContext b_ctx;
  grpc::Status sb = stub_->Prove(&b_ctx, b, &b_resp);
  EXPECT_EQ(sb.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << sb.error_message();
  const engine::EngineStatus charged = server_->engine().status();
  EXPECT_GE(charged.budget_peak_bytes, used + 2 * b.submit().witness().size());
  EXPECT_EQ(charged.budget_used_bytes, used);
  EXPECT_EQ(server_->engine().status().budget_peak_bytes, charged.budget_peak_bytes);

  // More than the whole budget: refused before it is converted, naming the sizes.
  v1::SubmitProofRequest big = a;
  big.set_witness(wtns_ + random_bytes(rng, total / 2 + 4096 + rng() % 4096));
  v1::SubmitProofResponse big_resp;
  grpc::ClientContext big_ctx;
  grpc::Status sbig = stub_->SubmitProof(&big_ctx, big, &big_resp);
  EXPECT_EQ(sbig.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << sbig.error_message();
  EXPECT_NE(sbig.error_message().find(std::to_string(total) + " bytes in all"), std::string::npos)
      << sbig.error_message();
  EXPECT_NE(sbig.error_message().find(std::to_string(big.ByteSizeLong()) + "-byte message"), std::string::npos)
      << sbig.error_message();
  EXPECT_EQ(server_->engine().status().budget_used_bytes, used);
  expect_valid(*client_->prove(demo_args()));
}

TEST_F(DaemonTest, StaleSocketIsReplacedAndALiveOneRefused) {
  ServerConfig c = config("d");
  std::string path = c.listen.substr(7);
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, path.c_str(), sizeof(addr.sun_path) - 1);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  ::close(fd);  // the file stays: a stale socket
  start(c);
  expect_valid(*client_->prove(demo_args()));
  auto second = Server::start(c);
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), StatusCode::kAlreadyExists);
}

// The running cuzk's version in /status and as cuzk_build_info, and the
// uptime in /metrics; the device's busy fraction counts the proof running now.
TEST_F(DaemonTest, StatusAndMetricsNameTheVersionAndUptime) {
  ServerConfig c = config("version");
  c.engine.version = "0." + std::to_string(std::rand() % 1000) + ".7";
  start(c);
  expect_valid(*client_->prove(demo_args()));
  const std::string addr = server_->status_address();
  httplib::Client http(addr.substr(0, addr.rfind(':')), std::stoi(addr.substr(addr.rfind(':') + 1)));
  auto status = http.Get("/status");
  ASSERT_TRUE(status);
  auto j = nlohmann::json::parse(status->body);
  EXPECT_EQ(j["version"], c.engine.version);
  EXPECT_GT(j["device_status"][0]["busy_fraction"].get<double>(), 0.0);
  auto metrics = http.Get("/metrics");
  ASSERT_TRUE(metrics);
  EXPECT_NE(metrics->body.find("cuzk_build_info{version=\"" + c.engine.version + "\"} 1"), std::string::npos)
      << metrics->body;
  EXPECT_NE(metrics->body.find("# TYPE cuzk_uptime_seconds gauge\ncuzk_uptime_seconds "), std::string::npos);
}

// server.socket_group (the packaged service): the socket belongs to the group
// with mode 0660, so that its members (Curio's user) may connect; a group
// that does not exist stops the start, naming it.
TEST_F(DaemonTest, ASocketGroupMayConnect) {
  ServerConfig c = config("group");
  struct group* g = ::getgrgid(::getgid());
  ASSERT_NE(g, nullptr);
  c.socket_group = g->gr_name;
  start(c);
  struct stat st{};
  ASSERT_EQ(::stat(c.listen.substr(7).c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0660u);
  EXPECT_EQ(st.st_gid, ::getgid());
  expect_valid(*client_->prove(demo_args()));
  server_.reset();

  ServerConfig none = config("nogroup");
  none.socket_group = "cuzk-no-such-group-" + std::to_string(::getpid());
  auto s = Server::start(none);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find(none.socket_group), std::string::npos) << s.status().message();
  // Only a unix socket has a group.
  none.listen = "127.0.0.1:0";
  EXPECT_EQ(validate_config(none).code(), StatusCode::kInvalidArgument);
}

TEST_F(DaemonTest, ServesOnLoopbackTcp) {
  ServerConfig c = config("tcp");
  c.listen = "127.0.0.1:0";
  start(c);
  EXPECT_EQ(server_->grpc_address().rfind("127.0.0.1:", 0), 0u);
  EXPECT_NE(server_->grpc_address(), "127.0.0.1:0");
  expect_valid(*client_->prove(demo_args()));
}

TEST_F(DaemonTest, ShutdownDrainsRunningJobsAndRefusesNewOnes) {
  start(config("e"));
  SubmitArgs a = demo_args();
  a.witnesses.assign(8, wtns_);
  auto job = client_->submit(a);
  ASSERT_TRUE(job.ok());
  std::jthread stopper([&] { EXPECT_TRUE(server_->shutdown(120s)); });
  // While draining: new jobs are refused, the running one can still be awaited.
  // However long the stopper takes to begin (the bound is a hang guard).
  bool refused = false;
  for (auto guard = std::chrono::steady_clock::now() + 120s; !refused && std::chrono::steady_clock::now() < guard;) {
    auto s = client_->submit(demo_args());
    refused = !s.ok() && s.status().code() == StatusCode::kUnavailable;
    if (!refused) std::this_thread::sleep_for(5ms);
  }
  EXPECT_TRUE(refused);
  stopper.join();
  auto r = server_->engine().await(job->job_id, 0ms);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->outcome, engine::JobOutcome::kCompleted) << r->error_message;
  EXPECT_FALSE(std::filesystem::exists(server_->grpc_address().substr(7)));
}

}  // namespace
}  // namespace cuzk::server
