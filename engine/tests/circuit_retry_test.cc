// A circuit that failed to load (its key file missing when the engine
// started: Filecoin .params still downloading) is loaded again when a
// preload or a proof request asks for it, at most once per
// circuit_retry_interval_ms, while the other circuits are served; a stop
// while such a retry runs ends it at its next step.
#include <future>

#include "test_support.h"

namespace cuzk::engine {
namespace {

using namespace std::chrono_literals;
using testing::TempDir;

class CircuitRetryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(dir_.path().empty());
    spec_ = testing::small_demo(8, 11);
    ASSERT_TRUE(ensure_demo_files(spec_, dir_.path(), nullptr).ok());
    files_ = demo_files(spec_, dir_.path());
    wtns_ = testing::read_file(files_.wtns);
    late_zkey_ = dir_.path() + "/downloads/late.zkey";
    std::filesystem::create_directories(dir_.path() + "/downloads");
  }

  // "demo" (ready at once) and "late" (a copy of the demo key that is not
  // there yet), loaded in the background as the daemon does.
  EngineConfig config() {
    EngineConfig c = testing::base_config(dir_.path());
    CircuitSpec late;
    late.id = "late";
    late.zkey = late_zkey_;
    c.circuits = {testing::demo_spec("demo", spec_), late};
    c.load_in_background = true;
    c.env = &clock_;
    return c;
  }

  std::unique_ptr<Engine> start(const EngineConfig& c) {
    auto e = Engine::create(c);
    EXPECT_TRUE(e.ok()) << e.status().to_string();
    if (!e.ok()) return nullptr;
    (*e)->start_loading();
    EXPECT_TRUE((*e)->wait_for_circuits(testing::kHangGuard));
    return std::move(*e);
  }

  CircuitLoadStatus circuit(Engine& e, const std::string& id) {
    for (const auto& c : e.status().circuits)
      if (c.id == id) return c;
    ADD_FAILURE() << "no circuit " << id;
    return {};
  }

  JobRequest request(const std::string& circuit_id) {
    JobRequest r;
    r.kind = ProofKind::kGroth16Circuit;
    r.circuit_id = circuit_id;
    r.witnesses = {wtns_};
    return r;
  }

  // Proves one partition on `circuit_id` (self-verified by the engine).
  void expect_proves(Engine& e, const std::string& circuit_id) {
    auto sub = e.submit(request(circuit_id));
    ASSERT_TRUE(sub.ok()) << sub.status().to_string();
    auto r = e.await(sub->job_id, testing::kHangGuard);
    ASSERT_TRUE(r.ok()) << r.status().to_string();
    EXPECT_EQ(r->outcome, JobOutcome::kCompleted) << r->error_message;
  }

  static void write(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
  }

  TempDir dir_;
  testing::MovableClock clock_;
  DemoCircuitSpec spec_;
  DemoFiles files_;
  std::string wtns_, late_zkey_;
};

TEST_F(CircuitRetryTest, AFailedCircuitLoadsOnceItsFileIsThere) {
  auto e = start(config());
  ASSERT_TRUE(e);
  EXPECT_EQ(circuit(*e, "demo").state, CircuitState::kReady);
  ASSERT_EQ(circuit(*e, "late").state, CircuitState::kFailed);
  const std::string missing = circuit(*e, "late").error;
  EXPECT_NE(missing.find(late_zkey_), std::string::npos) << missing;

  // Still missing: the preload tries again and names the file.
  clock_.advance(2s);
  auto absent = e->preload("late");
  ASSERT_FALSE(absent.ok());
  EXPECT_EQ(absent.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(absent.status().message().find("circuit \"late\" failed to load"), std::string::npos)
      << absent.status().message();
  EXPECT_NE(absent.status().message().find(late_zkey_), std::string::npos) << absent.status().message();

  // Half downloaded (a few bytes that are no key): the error names the file
  // and says what is wrong with it now.
  clock_.advance(2s);
  write(late_zkey_, "zkey\x01\x00\x00");
  auto broken = e->preload("late");
  ASSERT_FALSE(broken.ok());
  EXPECT_EQ(broken.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(broken.status().message().find(late_zkey_), std::string::npos) << broken.status().message();
  EXPECT_NE(broken.status().message(), absent.status().message());
  EXPECT_EQ(circuit(*e, "late").state, CircuitState::kFailed);
  ASSERT_NO_FATAL_FAILURE(expect_proves(*e, "demo"));  // served throughout

  // The whole file arrives; within the retry interval the last error stands
  // (the files are not read again), after it a proof request loads it.
  std::filesystem::copy_file(files_.zkey, late_zkey_, std::filesystem::copy_options::overwrite_existing);
  auto too_soon = e->submit(request("late"));
  ASSERT_FALSE(too_soon.ok());
  EXPECT_EQ(too_soon.status().message(), broken.status().message());
  clock_.advance(2s);
  ASSERT_NO_FATAL_FAILURE(expect_proves(*e, "late"));
  EXPECT_EQ(circuit(*e, "late").state, CircuitState::kReady);
  EXPECT_TRUE(circuit(*e, "late").error.empty());
  auto preloaded = e->preload("late");
  ASSERT_TRUE(preloaded.ok()) << preloaded.status().to_string();
  ASSERT_NO_FATAL_FAILURE(expect_proves(*e, "demo"));
}

TEST_F(CircuitRetryTest, AStopEndsARetryInFlight) {
  // The retry of "late" (its second source) blocks until the engine stops.
  std::promise<void> entered;
  std::atomic<int> late_calls{0};
  EngineConfig c = config();
  c.circuit_retry_interval_ms = 0;
  c.source_factory = [&](const CircuitSpec& spec, const SourceOptions& so) -> StatusOr<std::unique_ptr<CircuitSource>> {
    if (spec.id == "late" && ++late_calls == 2) {
      RETURN_IF_ERROR(so.on_step("waiting for the test"));
      entered.set_value();
      const auto end = std::chrono::steady_clock::now() + testing::kHangGuard;
      while (std::chrono::steady_clock::now() < end) {
        RETURN_IF_ERROR(so.on_step("waiting for the test"));
        std::this_thread::sleep_for(5ms);
      }
    }
    return make_circuit_source(spec, so);
  };
  auto e = start(c);
  ASSERT_TRUE(e);
  ASSERT_EQ(circuit(*e, "late").state, CircuitState::kFailed);
  std::filesystem::copy_file(files_.zkey, late_zkey_);

  auto retry = std::async(std::launch::async, [&] { return e->preload("late").status(); });
  ASSERT_EQ(entered.get_future().wait_for(testing::kHangGuard), std::future_status::ready);
  // Meanwhile: the retry shows as loading, a second caller is told so, and
  // the other circuit proves.
  EXPECT_EQ(circuit(*e, "late").state, CircuitState::kLoading);
  EXPECT_EQ(circuit(*e, "late").step, "waiting for the test");
  auto second = e->preload("late");
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(second.status().message().find("is still loading: waiting for the test"), std::string::npos)
      << second.status().message();
  ASSERT_NO_FATAL_FAILURE(expect_proves(*e, "demo"));

  const auto t0 = std::chrono::steady_clock::now();
  e->stop_accepting();
  ASSERT_EQ(retry.wait_for(testing::kHangGuard), std::future_status::ready);
  Status ended = retry.get();
  EXPECT_EQ(ended.code(), StatusCode::kUnavailable) << ended.to_string();
  e.reset();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 20s);
  EXPECT_EQ(late_calls.load(), 2);
}

}  // namespace
}  // namespace cuzk::engine
