// Two registered key files under one budget: keys demoted to make room for
// partitions, admission that always makes progress, and key files that change
// under the running engine (an error for the jobs that use them, never a
// crash). Every proof is checked with the verifying key read from the files.
#include <filesystem>

#include "cuzk/groth16/verifier.h"
#include "cuzk/io/bellperson.h"
#include "cuzk/io/snarkjs_json.h"
#include "test_support.h"

namespace cuzk::engine {
namespace {

using namespace std::chrono_literals;
using testing::TempDir;
namespace fs = std::filesystem;

class ResidencyTest : public ::testing::Test {
 protected:
  // Two demo circuits (different seeds), generated once for the suite.
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    for (uint64_t seed : {21, 22}) ASSERT_TRUE(ensure_demo_files(spec(seed), dir_->path(), nullptr).ok());
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  static DemoCircuitSpec spec(uint64_t seed) { return testing::small_demo(8, seed); }
  static std::string id(int k) { return k == 0 ? "k1" : "k2"; }

  // Each test gets its own copies of the key files (it may damage them).
  void SetUp() override {
    for (int k = 0; k < 2; ++k) {
      DemoFiles f = demo_files(spec(21 + uint64_t(k)), dir_->path());
      zkey_[k] = work_.path() + "/" + id(k) + ".zkey";
      circuit_[k] = work_.path() + "/" + id(k) + ".cuzkr1cs";
      fs::copy_file(f.zkey, zkey_[k]);
      fs::copy_file(f.circuit, circuit_[k]);
      wtns_[k] = testing::read_file(f.wtns);
      auto vk = io::read_vk_json(f.vk_json);
      ASSERT_TRUE(vk.ok()) << vk.status().to_string();
      vk_[k] = *vk;
    }
  }

  EngineConfig config() {
    EngineConfig c = testing::base_config(work_.path());
    for (int k = 0; k < 2; ++k) {
      CircuitSpec s;
      s.id = id(k);
      s.zkey = zkey_[k];
      s.check_r1cs = circuit_[k];
      c.circuits.push_back(s);
    }
    c.check_key_points = false;  // our own files; the checks would only cost time
    return c;
  }

  static std::unique_ptr<Engine> make(const EngineConfig& c) {
    auto e = Engine::create(c);
    EXPECT_TRUE(e.ok()) << e.status().to_string();
    return e.ok() ? std::move(*e) : nullptr;
  }

  JobRequest request(int k) {
    JobRequest r;
    r.kind = ProofKind::kGroth16Circuit;
    r.circuit_id = id(k);
    r.witnesses.push_back(wtns_[k]);
    return r;
  }

  // Submits a job of circuit k and waits (bounded) for its result.
  JobResult prove(Engine& e, int k, std::chrono::milliseconds limit = 60s) {
    auto s = e.submit(request(k));
    EXPECT_TRUE(s.ok()) << s.status().to_string();
    if (!s.ok()) return {};
    auto r = e.await(s->job_id, limit);
    EXPECT_TRUE(r.ok());
    return r.ok() ? *r : JobResult{};
  }

  void expect_valid(const JobResult& r, int k) {
    ASSERT_EQ(r.outcome, JobOutcome::kCompleted) << r.error_message;
    auto proof = io::parse_proof(ByteSpan(reinterpret_cast<const uint8_t*>(r.proof.data()), r.proof.size()));
    ASSERT_TRUE(proof.ok()) << proof.status().to_string();
    std::vector<ff::Fr> pub;
    for (const auto& b : r.public_inputs) pub.push_back(*ff::Fr::from_bytes_be(b));
    auto ok = groth16::verify(vk_[k], pub, *proof);
    ASSERT_TRUE(ok.ok());
    EXPECT_TRUE(*ok);
  }

  KeyStatus key(Engine& e, const std::string& id) {
    for (const auto& k : e.status().keys)
      if (k.id == id) return k;
    return {};
  }

  // Bytes of each key once loaded, what loading it reserves (an upper
  // estimate), and the bytes of one partition.
  struct Sizes {
    uint64_t key[2] = {0, 0};
    uint64_t estimate[2] = {0, 0};
    uint64_t partition = 0;
  };
  Sizes sizes() {
    Sizes s;
    auto e = make(config());
    for (int k = 0; k < 2; ++k) {
      EXPECT_TRUE(e->preload(id(k)).ok());
      s.key[k] = key(*e, id(k)).size_bytes;
      s.estimate[k] = e->circuit_info(id(k))->est_key_bytes;
    }
    s.partition = *e->partition_reservation_bytes("k1", wtns_[0].size());
    return s;
  }

  static inline TempDir* dir_ = nullptr;
  TempDir work_;
  std::string zkey_[2], circuit_[2], wtns_[2];
  groth16::VerifyingKey vk_[2];
};

TEST_F(ResidencyTest, AWarmKeyFileTruncatedUnderTheEngineFailsItsJobOnly) {
  EngineConfig c = config();
  Sizes s = sizes();
  c.key_host_budget_bytes = std::max(s.estimate[0], s.estimate[1]) + 1;  // one HOT key at a time
  auto e = make(c);
  expect_valid(prove(*e, 0), 0);
  expect_valid(prove(*e, 1), 1);
  ASSERT_EQ(key(*e, "k1").tier, KeyTier::kWarm);
  std::string original = testing::read_file(zkey_[0]);
  fs::resize_file(zkey_[0], original.size() / 2);
  JobResult r = prove(*e, 0);
  EXPECT_EQ(r.outcome, JobOutcome::kFailed);
  EXPECT_NE(r.error_message.find(zkey_[0]), std::string::npos) << r.error_message;
  expect_valid(prove(*e, 1), 1);  // the other circuit is untouched
  // The file is put back: the next job reads it again.
  std::ofstream(zkey_[0], std::ios::binary | std::ios::trunc) << original;
  expect_valid(prove(*e, 0), 0);
}

TEST_F(ResidencyTest, ACircuitFileTruncatedWhileItsKeyIsHotFailsItsJobOnly) {
  auto e = make(config());
  expect_valid(prove(*e, 0), 0);
  ASSERT_EQ(key(*e, "k1").tier, KeyTier::kHot);
  std::string original = testing::read_file(circuit_[0]);
  fs::resize_file(circuit_[0], 4096);  // the HOT key's rows are a view of this file
  JobResult r = prove(*e, 0);
  EXPECT_EQ(r.outcome, JobOutcome::kFailed);
  EXPECT_EQ(r.error_message.rfind("DATA_LOSS", 0), 0u) << r.error_message;
  EXPECT_NE(r.error_message.find(circuit_[0]), std::string::npos) << r.error_message;
  expect_valid(prove(*e, 1), 1);
  std::ofstream(circuit_[0], std::ios::binary | std::ios::trunc) << original;
  expect_valid(prove(*e, 0), 0);  // the key was dropped and loads from the restored file
}

TEST_F(ResidencyTest, AnIdleKeyIsDemotedToMakeRoomForAPartition) {
  // Room for either key with a partition, not for both keys with one.
  Sizes s = sizes();
  EngineConfig c = config();
  c.total_budget_bytes = s.key[0] + s.key[1] + s.partition - 1;
  auto e = make(c);
  expect_valid(prove(*e, 0), 0);
  expect_valid(prove(*e, 1, 30s), 1);  // k1 is idle: it gives way
  EXPECT_EQ(key(*e, "k1").tier, KeyTier::kWarm);
  expect_valid(prove(*e, 0, 30s), 0);
  EXPECT_LE(e->status().budget_peak_bytes, c.total_budget_bytes);
}

TEST_F(ResidencyTest, TwoKeysAndTwoPreparationWorkersOnASmallBudgetAlwaysProgress) {
  // Room for one key and one partition (both keys fit together, but not with
  // a partition): partitions of both circuits wait at once, and each switch
  // of circuit needs the other key demoted.
  Sizes s = sizes();
  EngineConfig c = config();
  c.total_budget_bytes = std::max(s.estimate[0], s.estimate[1]) + s.partition + (16 << 10);
  ASSERT_GE(c.total_budget_bytes, s.estimate[0] + s.estimate[1]);
  ASSERT_LT(c.total_budget_bytes, s.key[0] + s.key[1] + s.partition);
  c.preparation_workers = 2;
  c.workers_per_device = 2;
  auto e = make(c);
  std::vector<std::pair<std::string, int>> jobs;
  for (int i = 0; i < 8; ++i) {
    auto sub = e->submit(request(i % 2));
    ASSERT_TRUE(sub.ok()) << sub.status().to_string();
    jobs.emplace_back(sub->job_id, i % 2);
  }
  for (const auto& [job, k] : jobs) {
    auto r = e->await(job, 60s);
    ASSERT_TRUE(r.ok());
    expect_valid(*r, k);
  }
  EXPECT_LE(e->status().budget_peak_bytes, c.total_budget_bytes);
}

TEST_F(ResidencyTest, AwaitWithATimeoutBeyondTheClocksRangeWaitsForTheJob) {
  // k2's partition waits in admission for k1, which is not idle long enough
  // to be demoted: the job stays unfinished until it is cancelled.
  Sizes s = sizes();
  EngineConfig c = config();
  c.total_budget_bytes = s.key[0] + s.estimate[1] + s.partition - 1;
  c.eviction_min_idle_ms = 600'000;
  auto e = make(c);
  ASSERT_TRUE(e->preload("k1").ok());
  auto job = e->submit(request(1));
  ASSERT_TRUE(job.ok()) << job.status().to_string();
  for (auto timeout : {std::chrono::milliseconds::max(), std::chrono::milliseconds(INT64_MAX / 1000)}) {
    const auto start = std::chrono::steady_clock::now();  // before the canceller starts counting
    std::jthread canceller([&] {
      std::this_thread::sleep_for(400ms);
      EXPECT_TRUE(e->cancel(job->job_id).ok());
    });
    auto r = e->await(job->job_id, timeout);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->outcome, JobOutcome::kCancelled) << r->error_message;
    EXPECT_GE(std::chrono::steady_clock::now() - start, 400ms);
    job = e->submit(request(1));
    ASSERT_TRUE(job.ok());
  }
  // A negative timeout is no wait at all.
  auto r = e->await(job->job_id, std::chrono::milliseconds(-5));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->outcome, JobOutcome::kTimeout);
}

}  // namespace
}  // namespace cuzk::engine
