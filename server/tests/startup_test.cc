// The daemon's start: its listeners come up before any circuit is made
// ready, so that /status shows the loading and a port conflict fails at
// once; each circuit is served as soon as it is ready, one still loading is
// answered UNAVAILABLE naming its step, one that failed FAILED_PRECONDITION
// naming the cause. A slow circuit is made by a source factory that waits
// for the test before it builds the demo circuit's source.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <future>
#include <nlohmann/json.hpp>
#include <thread>

#include "cuzk/server/client.h"
#include "test_support.h"

namespace cuzk::server {
namespace {

using namespace std::chrono_literals;

// Circuits "demo" (ready at once), "broken" (its key file does not exist)
// and "slow" (a demo circuit whose source waits until release() or 60 s).
class StartupTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (std::filesystem::temp_directory_path() / "cuzk-startup-XXXXXX").string();
    dir_ = ::mkdtemp(tmpl.data());
    release_future_ = release_.get_future().share();
  }
  void TearDown() override {
    release();
    server_.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  ServerConfig config() {
    ServerConfig c = testing::demo_config(dir_, "unix://" + dir_ + "/run/cuzk.sock");
    engine::CircuitSpec broken;
    broken.id = "broken";
    broken.zkey = dir_ + "/missing.zkey";
    engine::CircuitSpec slow = c.engine.circuits[0];
    slow.id = "slow";
    c.engine.circuits.push_back(broken);
    c.engine.circuits.push_back(slow);
    std::shared_future<void> released = release_future_;
    std::atomic<int>* calls = &source_calls_;
    c.engine.source_factory = [released, calls](const engine::CircuitSpec& spec, const engine::SourceOptions& so)
        -> StatusOr<std::unique_ptr<engine::CircuitSource>> {
      calls->fetch_add(1);
      if (spec.id == "slow") {
        if (so.on_step) RETURN_IF_ERROR(so.on_step("waiting for the test"));
        released.wait_for(60s);
      }
      return engine::make_circuit_source(spec, so);
    };
    return c;
  }

  void release() {
    if (!released_.exchange(true)) release_.set_value();
  }

  engine::CircuitLoadStatus circuit(const std::string& id) {
    for (const auto& c : server_->engine().status().circuits)
      if (c.id == id) return c;
    ADD_FAILURE() << "no circuit " << id;
    return {};
  }

  // Waits until "slow" is blocked in its source and the others have ended.
  void wait_until_only_slow_loads() {
    for (int i = 0; i < 600; ++i) {
      if (circuit("slow").step == "waiting for the test" && circuit("broken").state != engine::CircuitState::kLoading)
        return;
      std::this_thread::sleep_for(100ms);
    }
    FAIL() << "the circuits did not reach their states";
  }

  SubmitArgs args(const std::string& circuit_id) {
    SubmitArgs a;
    a.circuit_id = circuit_id;
    engine::DemoFiles f = engine::demo_files(testing::demo_config(dir_, "").engine.circuits[0].demo_spec,
                                             dir_ + "/cache");
    a.witnesses = {testing::read_file(f.wtns)};
    return a;
  }

  std::string dir_;
  std::promise<void> release_;
  std::shared_future<void> release_future_;
  std::atomic<bool> released_{false};
  std::atomic<int> source_calls_{0};  // circuits whose source was asked for
  std::unique_ptr<Server> server_;
};

TEST_F(StartupTest, ServesReadyCircuitsWhileAnotherLoads) {
  auto s = Server::start(config());
  ASSERT_TRUE(s.ok()) << s.status().to_string();
  server_ = std::move(*s);
  ASSERT_NO_FATAL_FAILURE(wait_until_only_slow_loads());
  EXPECT_EQ(circuit("demo").state, engine::CircuitState::kReady);

  // /status answers, naming each circuit's state.
  const std::string addr = server_->status_address();
  httplib::Client http(addr.substr(0, addr.rfind(':')), std::stoi(addr.substr(addr.rfind(':') + 1)));
  auto status = http.Get("/status");
  ASSERT_TRUE(status);
  auto j = nlohmann::json::parse(status->body);
  ASSERT_EQ(j["circuits"].size(), 3u) << status->body;
  EXPECT_EQ(j["circuits"][0]["state"], "ready");
  EXPECT_EQ(j["circuits"][1]["state"], "failed");
  EXPECT_NE(j["circuits"][1]["error"].get<std::string>().find("missing.zkey"), std::string::npos) << status->body;
  EXPECT_EQ(j["circuits"][2]["state"], "loading");
  EXPECT_EQ(j["circuits"][2]["step"], "waiting for the test");

  auto client = Client::connect(server_->grpc_address(), 10s);
  ASSERT_TRUE(client.ok()) << client.status().to_string();
  // The ready circuit proves; the others are refused, saying why.
  auto proved = (*client)->prove(args("demo"));
  ASSERT_TRUE(proved.ok()) << proved.status().to_string();
  EXPECT_EQ(proved->outcome, engine::JobOutcome::kCompleted) << proved->error_message;
  auto loading = (*client)->submit(args("slow"));
  ASSERT_FALSE(loading.ok());
  EXPECT_EQ(loading.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(loading.status().message().find("circuit \"slow\" is still loading: waiting for the test"),
            std::string::npos)
      << loading.status().message();
  auto broken = (*client)->submit(args("broken"));
  ASSERT_FALSE(broken.ok());
  EXPECT_EQ(broken.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(broken.status().message().find("circuit \"broken\" failed to load"), std::string::npos)
      << broken.status().message();
  EXPECT_NE(broken.status().message().find("missing.zkey"), std::string::npos) << broken.status().message();
  EXPECT_EQ((*client)->preload("slow").status().code(), StatusCode::kUnavailable);

  // Once released, the slow circuit is served too.
  release();
  ASSERT_TRUE(server_->engine().wait_for_circuits(60s));
  EXPECT_EQ(circuit("slow").state, engine::CircuitState::kReady);
  auto later = (*client)->prove(args("slow"));
  ASSERT_TRUE(later.ok()) << later.status().to_string();
  EXPECT_EQ(later->outcome, engine::JobOutcome::kCompleted) << later->error_message;
}

// A status port that is taken fails the start at once, before any circuit
// is loaded, with a message naming the address.
TEST_F(StartupTest, APortConflictFailsAtOnce) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  ASSERT_EQ(::listen(fd, 1), 0);
  socklen_t len = sizeof a;
  ASSERT_EQ(::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len), 0);
  ServerConfig c = config();
  std::swap(c.engine.circuits[0], c.engine.circuits[2]);  // the slow circuit first
  c.status_listen = "127.0.0.1:" + std::to_string(ntohs(a.sin_port));
  const auto t0 = std::chrono::steady_clock::now();
  auto s = Server::start(c);
  const auto took = std::chrono::steady_clock::now() - t0;
  ::close(fd);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(s.status().message().find("cannot listen for HTTP on " + c.status_listen), std::string::npos)
      << s.status().message();
  EXPECT_LT(took, 5s);
  EXPECT_EQ(source_calls_.load(), 0);
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/run/cuzk.sock"));
}

// Stopping while a circuit loads: the step in progress ends, no further
// circuit starts loading, and the daemon stops.
TEST_F(StartupTest, ShutdownWhileLoadingStopsAfterTheCurrentStep) {
  ServerConfig c = config();
  engine::CircuitSpec after = c.engine.circuits[2];
  after.id = "after";
  c.engine.circuits.push_back(after);
  auto s = Server::start(c);
  ASSERT_TRUE(s.ok()) << s.status().to_string();
  server_ = std::move(*s);
  ASSERT_NO_FATAL_FAILURE(wait_until_only_slow_loads());
  std::thread releaser([this] {
    std::this_thread::sleep_for(500ms);
    release();
  });
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_TRUE(server_->shutdown(0ms));
  server_.reset();
  releaser.join();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 20s);
  EXPECT_EQ(source_calls_.load(), 3);  // demo, broken, slow: "after" was never started
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/run/cuzk.sock"));
}

}  // namespace
}  // namespace cuzk::server
