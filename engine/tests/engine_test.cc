// The engine end to end on the CPU: proofs checked with the verifying key
// read back from the key file, concurrency, priorities, cancellation in each
// state, idempotency, await timeouts, the queue cap, a small memory budget,
// bad requests and retention.
#include <algorithm>
#include <map>
#include <set>

#include "cuzk/groth16/verifier.h"
#include "cuzk/io/bellperson.h"
#include "cuzk/io/snarkjs_json.h"
#include "test_support.h"

namespace cuzk::engine {
namespace {

using namespace std::chrono_literals;
using testing::TempDir;

class EngineTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { dir_ = new TempDir(); }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }

  void SetUp() override {
    ASSERT_FALSE(dir_->path().empty());
    spec_ = testing::small_demo(8);
    ASSERT_TRUE(ensure_demo_files(spec_, dir_->path(), nullptr).ok());
    files_ = demo_files(spec_, dir_->path());
    wtns_ = testing::read_file(files_.wtns);
    auto vk = io::read_vk_json(files_.vk_json);
    ASSERT_TRUE(vk.ok()) << vk.status().to_string();
    vk_ = *vk;
  }

  EngineConfig config() {
    EngineConfig c = testing::base_config(dir_->path());
    c.circuits = {testing::demo_spec("demo", spec_)};
    return c;
  }

  std::unique_ptr<Engine> make(const EngineConfig& c) {
    auto e = Engine::create(c);
    EXPECT_TRUE(e.ok()) << e.status().to_string();
    return e.ok() ? std::move(*e) : nullptr;
  }

  JobRequest request(Priority p = Priority::kNormal, int partitions = 1) {
    JobRequest r;
    r.kind = ProofKind::kGroth16Circuit;
    r.priority = p;
    r.circuit_id = "demo";
    for (int i = 0; i < partitions; ++i) r.witnesses.push_back(wtns_);
    return r;
  }

  // Decodes the proofs and checks each against the key file's VK.
  void expect_valid(const JobResult& r, size_t partitions) {
    ASSERT_EQ(r.outcome, JobOutcome::kCompleted) << r.error_message;
    ASSERT_EQ(r.proof.size(), 192 * partitions);
    auto proofs = io::parse_proofs(ByteSpan(reinterpret_cast<const uint8_t*>(r.proof.data()), r.proof.size()));
    ASSERT_TRUE(proofs.ok()) << proofs.status().to_string();
    size_t per = vk_.num_public_inputs();
    ASSERT_EQ(r.public_inputs.size(), per * partitions);
    std::vector<ff::Fr> pub;
    for (const auto& b : r.public_inputs) pub.push_back(*ff::Fr::from_bytes_be(b));
    for (size_t i = 0; i < partitions; ++i) {
      auto ok = groth16::verify(vk_, std::span<const ff::Fr>(pub).subspan(i * per, per), (*proofs)[i]);
      ASSERT_TRUE(ok.ok());
      EXPECT_TRUE(*ok) << "partition " << i;
    }
  }

  static inline TempDir* dir_ = nullptr;
  DemoCircuitSpec spec_;
  DemoFiles files_;
  std::string wtns_;
  groth16::VerifyingKey vk_;
};

TEST_F(EngineTest, ProvesVerifiableProofsWithThePublicInputs) {
  auto e = make(config());
  ASSERT_TRUE(e);
  auto s = e->submit(request());
  ASSERT_TRUE(s.ok()) << s.status().to_string();
  auto r = e->await(s->job_id, std::nullopt);
  ASSERT_TRUE(r.ok());
  expect_valid(*r, 1);
  // The public inputs are the witness's values 1..nPublic, big-endian.
  for (size_t i = 0; i < r->public_inputs.size(); ++i) {
    const uint8_t* v = reinterpret_cast<const uint8_t*>(wtns_.data()) + 12 + 52 + 12 + 32 * (i + 1);
    for (int k = 0; k < 32; ++k) EXPECT_EQ(r->public_inputs[i][size_t(k)], v[31 - k]);
  }
  EXPECT_GT(r->timings.total_ms + 1, r->timings.compute_ms);
  auto st = e->status();
  EXPECT_EQ(st.proofs_completed, 1u);
  ASSERT_EQ(st.keys.size(), 1u);
  EXPECT_EQ(st.keys[0].tier, KeyTier::kHot);
  std::string m = e->metrics_text();
  EXPECT_NE(m.find("cuzk_proofs_completed_total{kind=\"GROTH16_CIRCUIT\"} 1"), std::string::npos) << m;
  EXPECT_NE(m.find("cuzk_stage_seconds_bucket{stage=\"msm\""), std::string::npos);
}

TEST_F(EngineTest, MultiPartitionJobKeepsPartitionOrder) {
  // Two different circuits would not share a key; instead the same witness
  // in 4 partitions: each proof is checked against its own public inputs.
  auto e = make(config());
  auto s = e->submit(request(Priority::kNormal, 4));
  ASSERT_TRUE(s.ok());
  auto r = e->await(s->job_id, std::nullopt);
  ASSERT_TRUE(r.ok());
  expect_valid(*r, 4);
  std::set<std::string> distinct;
  for (int i = 0; i < 4; ++i) distinct.insert(r->proof.substr(size_t(192 * i), 192));
  EXPECT_EQ(distinct.size(), 4u);  // fresh blinding each time
}

TEST_F(EngineTest, ConcurrentJobsAllComplete) {
  EngineConfig c = config();
  c.preparation_workers = 2;
  c.workers_per_device = 2;
  auto e = make(c);
  std::vector<std::string> ids(8);
  {
    std::vector<std::jthread> ts;
    for (int i = 0; i < 8; ++i)
      ts.emplace_back([&, i] {
        auto s = e->submit(request(Priority(1 + i % 4)));
        ASSERT_TRUE(s.ok());
        ids[size_t(i)] = s->job_id;
      });
  }
  std::set<std::string> proofs;
  for (const auto& id : ids) {
    auto r = e->await(id, std::nullopt);
    ASSERT_TRUE(r.ok());
    expect_valid(*r, 1);
    proofs.insert(r->proof);
  }
  EXPECT_EQ(proofs.size(), 8u);
  EXPECT_EQ(e->status().budget_used_bytes, e->status().keys[0].size_bytes);  // only the key is left
}

TEST_F(EngineTest, PrioritiesOrderJobsAndPartitions) {
  EngineConfig c = config();
  c.preparation_workers = 1;
  c.workers_per_device = 1;
  auto e = make(c);
  // A long LOW job first (its partitions are queued), then NORMAL, then a
  // CRITICAL job: the CRITICAL partitions overtake the queued ones.
  auto low = e->submit(request(Priority::kLow, 6));
  auto normal = e->submit(request(Priority::kNormal, 2));
  auto critical = e->submit(request(Priority::kCritical, 2));
  ASSERT_TRUE(low.ok() && normal.ok() && critical.ok());
  auto rc = e->await(critical->job_id, std::nullopt);
  auto rn = e->await(normal->job_id, std::nullopt);
  auto rl = e->await(low->job_id, std::nullopt);
  ASSERT_TRUE(rc.ok() && rn.ok() && rl.ok());
  expect_valid(*rc, 2);
  EXPECT_LT(rc->finish_seq, rn->finish_seq);
  EXPECT_LT(rn->finish_seq, rl->finish_seq);
  // The LOW job had at most its first two partitions past the prover queue
  // when the others arrived; the rest waited.
  EXPECT_GT(rl->timings.total_ms, rc->timings.total_ms);
}

TEST_F(EngineTest, SameCircuitPartitionsAreBatched) {
  EngineConfig c = config();
  c.workers_per_device = 1;
  c.max_batch_size = 3;
  // A batch goes when it is full or when this wait ends: long enough that
  // the partitions' preparation on a loaded machine does not outlast it.
  c.max_batch_wait_ms = 10'000;
  auto e = make(c);
  auto s = e->submit(request(Priority::kNormal, 6));
  ASSERT_TRUE(s.ok());
  auto r = e->await(s->job_id, std::nullopt);
  ASSERT_TRUE(r.ok());
  expect_valid(*r, 6);
  double batches = e->metrics().counter("cuzk_prover_batches_total");
  EXPECT_EQ(e->metrics().counter("cuzk_prover_batched_partitions_total"), 6);
  EXPECT_LT(batches, 6);  // at least one batch held more than one partition
  EXPECT_GE(batches, 2);  // and none more than three
}

TEST_F(EngineTest, IdempotentRequestIds) {
  auto e = make(config());
  JobRequest a = request();
  a.request_id = "req-1";
  auto s1 = e->submit(a);
  auto s2 = e->submit(a);
  ASSERT_TRUE(s1.ok() && s2.ok());
  EXPECT_EQ(s1->job_id, s2->job_id);
  EXPECT_TRUE(s2->deduplicated);
  JobRequest b = request(Priority::kHigh);
  b.request_id = "req-1";
  auto s3 = e->submit(b);
  ASSERT_FALSE(s3.ok());
  EXPECT_EQ(s3.status().code(), StatusCode::kAlreadyExists);
  // Every refusal is counted, this one too.
  const std::string m = e->metrics_text();
  EXPECT_NE(m.find("cuzk_submit_rejected_total{code=\"ALREADY_EXISTS\"} 1"), std::string::npos) << m;
  ASSERT_TRUE(e->await(s1->job_id, std::nullopt).ok());
  auto s4 = e->submit(a);  // still retained: same job
  ASSERT_TRUE(s4.ok());
  EXPECT_EQ(s4->job_id, s1->job_id);
}

TEST_F(EngineTest, AwaitTimeoutLeavesTheJobRunning) {
  auto e = make(config());
  auto s = e->submit(request(Priority::kNormal, 3));
  ASSERT_TRUE(s.ok());
  auto t = e->await(s->job_id, 0ms);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->outcome, JobOutcome::kTimeout);
  auto r = e->await(s->job_id, 60s);
  ASSERT_TRUE(r.ok());
  expect_valid(*r, 3);
  EXPECT_EQ(e->await("job-999", 0ms).status().code(), StatusCode::kNotFound);
}

TEST_F(EngineTest, QueueCapAnswersResourceExhausted) {
  EngineConfig c = config();
  c.max_queued_jobs = 2;
  c.workers_per_device = 1;
  auto e = make(c);
  auto a = e->submit(request(Priority::kNormal, 4));
  auto b = e->submit(request(Priority::kNormal, 4));
  auto d = e->submit(request());
  ASSERT_TRUE(a.ok() && b.ok());
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().code(), StatusCode::kResourceExhausted);
  ASSERT_TRUE(e->await(a->job_id, std::nullopt).ok());
  ASSERT_TRUE(e->await(b->job_id, std::nullopt).ok());
  EXPECT_TRUE(e->submit(request()).ok());  // room again
}

// A key that cannot fit keys.host_budget is refused at submit, naming the
// key, rather than accepted and failed.
TEST_F(EngineTest, AKeyLargerThanTheHostKeyBudgetIsRefusedAtSubmit) {
  EngineConfig c = config();
  c.key_host_budget_bytes = 1024;
  auto e = make(c);
  auto s = e->submit(request());
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), StatusCode::kResourceExhausted);
  EXPECT_NE(s.status().message().find("keys.host_budget"), std::string::npos) << s.status().message();
}

TEST_F(EngineTest, BadRequestsAreRejectedAndTheEngineKeepsServing) {
  auto e = make(config());
  JobRequest r = request();
  r.circuit_id = "nope";
  EXPECT_EQ(e->submit(r).status().code(), StatusCode::kNotFound);
  r = request();
  r.witnesses = {"not a wtns file"};
  EXPECT_EQ(e->submit(r).status().code(), StatusCode::kInvalidArgument);
  r = request();
  r.witnesses = {};
  EXPECT_EQ(e->submit(r).status().code(), StatusCode::kInvalidArgument);
  r = request();
  r.witnesses[0].resize(r.witnesses[0].size() - 32);  // one value short
  EXPECT_EQ(e->submit(r).status().code(), StatusCode::kInvalidArgument);
  r = request();
  r.kind = ProofKind(7);
  EXPECT_EQ(e->submit(r).status().code(), StatusCode::kInvalidArgument);
  const std::string m = e->metrics_text();
  EXPECT_NE(m.find("cuzk_submit_rejected_total{code=\"NOT_FOUND\"} 1"), std::string::npos) << m;
  EXPECT_NE(m.find("cuzk_submit_rejected_total{code=\"INVALID_ARGUMENT\"} 4"), std::string::npos) << m;
  // A well-formed witness that does not satisfy the circuit fails as a job,
  // naming the constraint.
  r = request();
  r.witnesses[0] = testing::tamper_wtns(wtns_, vk_.ic.size());  // the first aux value
  auto bad = e->submit(r);
  ASSERT_TRUE(bad.ok());
  auto rb = e->await(bad->job_id, std::nullopt);
  ASSERT_TRUE(rb.ok());
  EXPECT_EQ(rb->outcome, JobOutcome::kFailed);
  EXPECT_NE(rb->error_message.find("not satisfied"), std::string::npos) << rb->error_message;
  EXPECT_TRUE(rb->proof.empty());
  // A Filecoin kind with no circuit of its kind registered is refused, naming
  // what to register (filecoin_engine_test covers the registered case).
  JobRequest f;
  f.kind = ProofKind::kPorepSealCommit;
  f.filecoin = std::make_shared<FilecoinRequest>();
  auto fs = e->submit(f);
  ASSERT_FALSE(fs.ok());
  EXPECT_EQ(fs.status().code(), StatusCode::kNotFound);
  EXPECT_NE(fs.status().message().find("no porep circuit"), std::string::npos) << fs.status().message();
  // Still serving.
  auto good = e->submit(request());
  ASSERT_TRUE(good.ok());
  expect_valid(*e->await(good->job_id, std::nullopt), 1);
  EXPECT_EQ(e->status().proofs_failed, 1u);
}

TEST_F(EngineTest, FinishedJobsAreDroppedAfterRetention) {
  // Retention runs on a clock the test moves: with a short real retention
  // the job could be forgotten before the first await, on a slow machine.
  testing::MovableClock clock;
  EngineConfig c = config();
  c.result_retention_ms = 60'000;
  c.env = &clock;
  auto e = make(c);
  JobRequest r = request();
  r.request_id = "keep-me";
  auto s = e->submit(r);
  ASSERT_TRUE(s.ok());
  ASSERT_TRUE(e->await(s->job_id, std::nullopt).ok());
  ASSERT_TRUE(e->await(s->job_id, 0ms).ok());  // kept
  clock.advance(61s);
  EXPECT_TRUE(testing::wait_until([&] { return !e->await(s->job_id, 0ms).ok(); }, 5s));
  EXPECT_EQ(e->await(s->job_id, 0ms).status().code(), StatusCode::kNotFound);
  auto again = e->submit(r);  // the request id is free again: a new job
  ASSERT_TRUE(again.ok());
  EXPECT_NE(again->job_id, s->job_id);
}

TEST_F(EngineTest, ShutdownRefusesNewJobsAndDrains) {
  auto e = make(config());
  auto s = e->submit(request(Priority::kNormal, 2));
  ASSERT_TRUE(s.ok());
  e->stop_accepting();
  EXPECT_EQ(e->submit(request()).status().code(), StatusCode::kUnavailable);
  EXPECT_TRUE(e->drain(60s));
  expect_valid(*e->await(s->job_id, 0ms), 2);
}

}  // namespace
}  // namespace cuzk::engine
