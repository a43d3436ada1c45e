// Cancellation in each state and the memory budget, on a circuit large
// enough (2^12) that jobs can be caught in flight.
#include "test_support.h"

namespace cuzk::engine {
namespace {

using namespace std::chrono_literals;
using testing::TempDir;

class EngineFlightTest : public ::testing::Test {
 protected:
  // One generated circuit for the whole suite (setup of 2^12 takes seconds).
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    ASSERT_TRUE(ensure_demo_files(spec(), dir_->path(), nullptr).ok());
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  static DemoCircuitSpec spec() { return testing::small_demo(12, 11); }

  void SetUp() override {
    spec_ = spec();
    wtns_ = testing::read_file(demo_files(spec_, dir_->path()).wtns);
  }

  EngineConfig config() {
    EngineConfig c = testing::base_config(dir_->path());
    c.circuits = {testing::demo_spec("demo", spec_)};
    return c;
  }

  // The budget for the loaded key plus `partitions` partition working sets.
  uint64_t budget_for(double partitions) {
    auto probe = Engine::create(config());
    EXPECT_TRUE(probe.ok());
    EXPECT_TRUE((*probe)->preload("demo").ok());
    uint64_t key = (*probe)->status().budget_used_bytes;
    uint64_t part = *(*probe)->partition_reservation_bytes("demo", wtns_.size());
    part_bytes_ = part;
    return key + uint64_t(double(part) * partitions);
  }

  static std::unique_ptr<Engine> make(const EngineConfig& c) {
    auto e = Engine::create(c);
    EXPECT_TRUE(e.ok()) << e.status().to_string();
    return std::move(*e);
  }

  JobRequest request(int partitions = 1) {
    JobRequest r;
    r.kind = ProofKind::kGroth16Circuit;
    r.circuit_id = "demo";
    for (int i = 0; i < partitions; ++i) r.witnesses.push_back(wtns_);
    return r;
  }

  static inline TempDir* dir_ = nullptr;
  DemoCircuitSpec spec_;
  std::string wtns_;
  uint64_t part_bytes_ = 0;
};

TEST_F(EngineFlightTest, CancelWhileProvingStopsAtTheStageBoundaryAndFreesMemory) {
  auto e = make(config());
  ASSERT_TRUE(e->preload("demo").ok());
  uint64_t key_bytes = e->status().budget_used_bytes;
  auto s = e->submit(request());
  ASSERT_TRUE(s.ok());
  ASSERT_TRUE(testing::wait_until([&] { return testing::partition_state(*e, s->job_id) == PartitionState::kProving; },
                                  30s));
  auto c = e->cancel(s->job_id);
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(*c);  // was running
  auto r = e->await(s->job_id, 0ms);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->outcome, JobOutcome::kCancelled);
  EXPECT_TRUE(r->proof.empty());
  EXPECT_TRUE(testing::wait_until([&] { return e->status().budget_used_bytes == key_bytes; }, 30s));
  EXPECT_EQ(*e->cancel(s->job_id), false);  // already ended: no-op
  // The stage timers of the cancelled partition stop with the job: two
  // snapshots apart give the same figures, none beyond the job's age at its end.
  auto stages = [&] {
    std::vector<double> v;
    for (const auto& j : e->status().jobs)
      if (j.job_id == s->job_id)
        for (const auto& p : j.partitions)
          v = {p.queue_ms, p.admit_ms, p.prep_ms, p.wait_worker_ms, p.prove_ms, p.finalize_ms};
    return v;
  };
  const std::vector<double> first = stages();
  ASSERT_EQ(first.size(), 6u);
  std::this_thread::sleep_for(300ms);
  EXPECT_EQ(stages(), first);
  double sum = 0;
  for (double ms : first) sum += ms;
  EXPECT_GT(first[4], 0.0);  // it was proving when cancelled
  EXPECT_LE(sum, r->timings.total_ms + 1.0);
}

TEST_F(EngineFlightTest, CancelWhileWaitingForAWorkerFreesItsReservationAtOnce) {
  EngineConfig c = config();
  c.workers_per_device = 1;
  auto e = make(c);
  auto a = e->submit(request(2));
  auto b = e->submit(request());
  ASSERT_TRUE(a.ok() && b.ok());
  ASSERT_TRUE(testing::wait_until(
      [&] { return testing::partition_state(*e, b->job_id) == PartitionState::kWaitingWorker; }, 30s));
  uint64_t before = e->status().budget_used_bytes;
  auto was = e->cancel(b->job_id);
  ASSERT_TRUE(was.ok());
  EXPECT_FALSE(*was);
  EXPECT_LT(e->status().budget_used_bytes, before);
  EXPECT_EQ(e->await(b->job_id, 0ms)->outcome, JobOutcome::kCancelled);
  auto ra = e->await(a->job_id, std::nullopt);
  EXPECT_EQ(ra->outcome, JobOutcome::kCompleted) << ra->error_message;
}

TEST_F(EngineFlightTest, CancelWhileAdmittingAndWhileQueued) {
  EngineConfig c = config();
  c.total_budget_bytes = budget_for(1.3);  // one partition at a time
  c.preparation_workers = 1;
  auto e = make(c);
  ASSERT_TRUE(e->preload("demo").ok());
  auto a = e->submit(request(2));
  auto b = e->submit(request());
  auto q = e->submit(request());
  ASSERT_TRUE(a.ok() && b.ok() && q.ok());
  // a's second partition waits for memory in the only preparation worker, so
  // b and q wait in the queue.
  ASSERT_TRUE(testing::wait_until(
      [&] { return testing::partition_state(*e, a->job_id, 1) == PartitionState::kAdmitting; }, 30s));
  EXPECT_EQ(testing::partition_state(*e, q->job_id), PartitionState::kQueued);
  EXPECT_FALSE(*e->cancel(q->job_id));
  EXPECT_EQ(e->await(q->job_id, 0ms)->outcome, JobOutcome::kCancelled);
  ASSERT_TRUE(e->cancel(a->job_id).ok());  // partition 0 may still be proving
  auto ra = e->await(a->job_id, 0ms);
  EXPECT_EQ(ra->outcome, JobOutcome::kCancelled);
  // b goes through once a's memory is back.
  auto rb = e->await(b->job_id, std::nullopt);
  EXPECT_EQ(rb->outcome, JobOutcome::kCompleted) << rb->error_message;
}

TEST_F(EngineFlightTest, SmallBudgetLimitsConcurrencyAndStaysInside) {
  EngineConfig c = config();
  c.total_budget_bytes = budget_for(1.3);
  c.preparation_workers = 2;
  c.workers_per_device = 2;
  auto e = make(c);
  ASSERT_TRUE(e->preload("demo").ok());
  std::vector<std::string> ids;
  for (int i = 0; i < 4; ++i) ids.push_back(e->submit(request())->job_id);
  size_t most_in_flight = 0;
  bool all_done = testing::wait_until(
      [&] {
        EngineStatus st = e->status();
        size_t in_flight = 0, done = 0;
        for (const auto& j : st.jobs) {
          if (j.outcome == JobOutcome::kCompleted) done++;
          // A finalizing partition has given back all but 1 MiB: the next may start.
          for (const auto& p : j.partitions)
            in_flight += p.state == PartitionState::kPreparing || p.state == PartitionState::kWaitingWorker ||
                         p.state == PartitionState::kProving;
        }
        most_in_flight = std::max(most_in_flight, in_flight);
        EXPECT_LE(st.budget_used_bytes, st.budget_total_bytes);
        return done == ids.size();
      },
      120s);
  EXPECT_TRUE(all_done);
  EXPECT_EQ(most_in_flight, 1u);
  EXPECT_LE(e->status().budget_peak_bytes, c.total_budget_bytes);
}

TEST_F(EngineFlightTest, APartitionThatCanNeverFitIsRefused) {
  EngineConfig c = config();
  c.total_budget_bytes = budget_for(0.5);
  auto e = make(c);
  auto s = e->submit(request());
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), StatusCode::kResourceExhausted);
}

}  // namespace
}  // namespace cuzk::engine
