// What submit() accepts: values outside the wire enums, witness files that
// a later stage would refuse, and the bounds on request strings. Anything
// that would fail later is refused at submit, with INVALID_ARGUMENT naming
// the field or the byte offset.
#include <sys/wait.h>
#include <unistd.h>

#include <climits>
#include <filesystem>

#include "cuzk/base/bytes.h"
#include "cuzk/engine/work_queue.h"
#include "test_support.h"

namespace cuzk::engine {
namespace {

using namespace std::chrono_literals;
using testing::TempDir;

class IntakeTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    ASSERT_TRUE(ensure_demo_files(testing::small_demo(8), dir_->path(), nullptr).ok());
    engine_ = nullptr;
  }
  static void TearDownTestSuite() {
    delete engine_;
    engine_ = nullptr;
    delete dir_;
    dir_ = nullptr;
  }

  void SetUp() override {
    wtns_ = testing::read_file(demo_files(testing::small_demo(8), dir_->path()).wtns);
    if (!engine_) {
      EngineConfig c = testing::base_config(dir_->path());
      c.circuits = {testing::demo_spec("demo", testing::small_demo(8))};
      auto e = Engine::create(c);
      ASSERT_TRUE(e.ok()) << e.status().to_string();
      engine_ = e->release();
    }
  }

  JobRequest request() {
    JobRequest r;
    r.kind = ProofKind::kGroth16Circuit;
    r.circuit_id = "demo";
    r.witnesses.push_back(wtns_);
    return r;
  }

  Status submit(JobRequest r) { return engine_->submit(std::move(r)).status(); }

  static inline TempDir* dir_ = nullptr;
  static inline Engine* engine_ = nullptr;
  std::string wtns_;
};

TEST_F(IntakeTest, PrioritiesOutsideTheEnumAreRefused) {
  for (int p : {5, 99, -1, INT_MIN, INT_MAX}) {
    JobRequest r = request();
    r.priority = Priority(p);
    Status s = submit(r);
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << p;
    EXPECT_NE(s.message().find("priority " + std::to_string(p)), std::string::npos) << s.message();
  }
  for (int p = 0; p <= 4; ++p) {
    JobRequest r = request();
    r.priority = Priority(p);
    EXPECT_TRUE(submit(r).ok()) << p;
  }
}

TEST_F(IntakeTest, AnyPriorityValueOrdersWithoutOverflow) {
  // The scheduler's order is plain comparison (it negated the value, which
  // is undefined for INT_MIN).
  SchedKey lowest{Priority(INT_MIN), 1, 0}, highest{Priority(INT_MAX), 2, 0}, normal{Priority::kNormal, 0, 0};
  EXPECT_TRUE(highest.before(normal));
  EXPECT_TRUE(normal.before(lowest));
  EXPECT_TRUE(highest.before(lowest));
  EXPECT_FALSE(lowest.before(highest));
}

TEST_F(IntakeTest, WitnessFilesALaterStageWouldRefuseAreRefusedAtSubmit) {
  for (uint32_t version : {1u, 3u, 99u}) {
    JobRequest r = request();
    store_u32le(reinterpret_cast<uint8_t*>(r.witnesses[0].data()) + 4, version);
    Status s = submit(r);
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << version;
    EXPECT_NE(s.message().find("version " + std::to_string(version)), std::string::npos) << s.message();
  }
  for (size_t extra : {1, 32, 4096}) {
    JobRequest r = request();
    r.witnesses[0] += std::string(extra, '\0');
    Status s = submit(r);
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << extra;
    EXPECT_NE(s.message().find(std::to_string(extra) + " bytes after the last section"), std::string::npos)
        << s.message();
  }
  {
    // A header section longer than the 40 bytes of n8 = 32: the witness
    // reader (io::parse_wtns) refuses it, so submit must too, in its words.
    JobRequest r = request();
    std::string& w = r.witnesses[0];
    w.insert(64, std::string(4, '\0'));  // after section 1's payload (bytes 24..63)
    store_u64le(reinterpret_cast<uint8_t*>(w.data()) + 16, 44);
    Status s = submit(r);
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
    EXPECT_NE(s.message().find("has 44 bytes, expected 40"), std::string::npos) << s.message();
  }
  JobRequest r = request();
  r.witnesses.push_back(wtns_ + "x");  // the second partition: named
  Status s = submit(r);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message().rfind("partition 1: ", 0), 0u) << s.message();
  EXPECT_TRUE(submit(request()).ok());
}

TEST_F(IntakeTest, AnUnsatisfiedConstraintIsNamedWithoutWitnessValues) {
  // The job's error is also its log line: it names the row, never <A,w>·<B,w>
  // or <C,w> (for simple rows those are witness values).
  JobRequest r = request();
  r.witnesses[0] = testing::tamper_wtns(wtns_, 4);  // the first aux value (ONE and 3 inputs come first)
  auto s = engine_->submit(r);
  ASSERT_TRUE(s.ok());
  auto result = engine_->await(s->job_id, 60s);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->outcome, JobOutcome::kFailed);
  const std::string& m = result->error_message;
  EXPECT_EQ(m.rfind("INVALID_ARGUMENT: constraint ", 0), 0u) << m;
  EXPECT_NE(m.find(" is not satisfied"), std::string::npos) << m;
  EXPECT_EQ(m.find("0x"), std::string::npos) << m;
  EXPECT_EQ(m.find("<A,w>"), std::string::npos) << m;
}

TEST(EngineCache, PartialFilesOfKilledWritersAreRemovedAtStart) {
  TempDir dir;
  pid_t child = ::fork();  // a writer that is gone
  if (child == 0) ::_exit(0);
  int status = 0;
  ::waitpid(child, &status, 0);
  const std::string stale = dir.path() + "/demo-k8.zkey.partial." + std::to_string(child) + ".0";
  const std::string other = dir.path() + "/notes.partial";
  std::ofstream(stale) << "half a key";
  std::ofstream(other) << "not ours";
  EngineConfig c = testing::base_config(dir.path());
  c.circuits = {testing::demo_spec("demo", testing::small_demo(8))};
  auto e = Engine::create(c);
  ASSERT_TRUE(e.ok()) << e.status().to_string();
  EXPECT_FALSE(std::filesystem::exists(stale));
  EXPECT_TRUE(std::filesystem::exists(other));
}

}  // namespace
}  // namespace cuzk::engine
