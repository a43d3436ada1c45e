// The engine's device pipeline over fake devices (fake_device.h; no GPU):
// several devices and workers, the fallbacks forced one by one and counted,
// the device budget never exceeded (also with 2 workers and room for one
// set of inputs), the device region held by one lane at a time, device
// affinity, the DEVICE tier (keys.device_budget, preload, evict), and
// cancellation while staging and inside the device region. Every proof is
// real (the CPU backend does the arithmetic) and is checked against the
// key file's verifying key.
#include <algorithm>
#include <future>
#include <map>
#include <set>

#include "cuzk/groth16/setup.h"
#include "cuzk/groth16/verifier.h"
#include "cuzk/io/bellperson.h"
#include "cuzk/io/circom.h"
#include "cuzk/io/snarkjs_json.h"
#include "cuzk/r1cs/eval.h"
#include "cuzk/r1cs/synthetic.h"
#include "fake_device.h"
#include "test_support.h"

namespace cuzk::engine {
namespace {

using namespace std::chrono_literals;
using testing::FakeDevices;
using testing::FakeScript;
using testing::TempDir;

using testing::metric;

uint64_t fallbacks_of(const EngineStatus& st, const std::string& device, const std::string& cause) {
  for (const auto& d : st.device_status)
    if (d.name == device)
      for (const auto& [c, n] : d.fallbacks)
        if (c == cause) return n;
  return 0;
}

uint64_t hot_key_bytes(const EngineStatus& st) {
  uint64_t sum = 0;
  for (const auto& k : st.keys)
    if (k.tier == KeyTier::kHot) sum += k.size_bytes;
  return sum;
}

// What the host budget holds with nothing in flight: the HOT keys and the
// pinned buffers kept for reuse.
uint64_t held_at_rest(const EngineStatus& st) { return hot_key_bytes(st) + st.pinned_idle_bytes; }

const DeviceStatus* device_of(const EngineStatus& st, const std::string& name) {
  for (const auto& d : st.device_status)
    if (d.name == name) return &d;
  return nullptr;
}

class PipelineTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { dir_ = new TempDir(); }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }

  void SetUp() override {
    ASSERT_FALSE(dir_->path().empty());
    for (int k = 0; k < 2; ++k) {
      specs_[k] = testing::small_demo(uint32_t(7 + k), uint64_t(11 + k));
      ASSERT_TRUE(ensure_demo_files(specs_[k], dir_->path(), nullptr).ok());
      DemoFiles f = demo_files(specs_[k], dir_->path());
      wtns_[k] = testing::read_file(f.wtns);
      auto vk = io::read_vk_json(f.vk_json);
      ASSERT_TRUE(vk.ok()) << vk.status().to_string();
      vk_[k] = *vk;
    }
  }

  EngineConfig config(std::vector<std::string> devices, uint32_t workers = 2) {
    EngineConfig c = testing::base_config(dir_->path());
    c.circuits = {testing::demo_spec("c0", specs_[0]), testing::demo_spec("c1", specs_[1])};
    c.devices = std::move(devices);
    c.workers_per_device = workers;
    c.backend_factory = fakes_.factory();
    return c;
  }

  std::unique_ptr<Engine> make(const EngineConfig& c) {
    auto e = Engine::create(c);
    EXPECT_TRUE(e.ok()) << e.status().to_string();
    return e.ok() ? std::move(*e) : nullptr;
  }

  std::string submit(Engine& e, int circuit, int partitions = 1) {
    JobRequest r;
    r.kind = ProofKind::kGroth16Circuit;
    r.circuit_id = "c" + std::to_string(circuit);
    for (int i = 0; i < partitions; ++i) r.witnesses.push_back(wtns_[circuit]);
    auto s = e.submit(r);
    EXPECT_TRUE(s.ok()) << s.status().to_string();
    return s.ok() ? s->job_id : "";
  }

  // Awaits the job and checks each proof against the key file's VK.
  void expect_valid(Engine& e, const std::string& id, int circuit, size_t partitions) {
    auto r = e.await(id, std::nullopt);
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r->outcome, JobOutcome::kCompleted) << r->error_message;
    ASSERT_EQ(r->proof.size(), 192 * partitions);
    auto proofs = io::parse_proofs(ByteSpan(reinterpret_cast<const uint8_t*>(r->proof.data()), r->proof.size()));
    ASSERT_TRUE(proofs.ok());
    const size_t per = vk_[circuit].num_public_inputs();
    std::vector<ff::Fr> pub;
    for (const auto& b : r->public_inputs) pub.push_back(*ff::Fr::from_bytes_be(b));
    for (size_t i = 0; i < partitions; ++i) {
      auto ok = groth16::verify(vk_[circuit], std::span<const ff::Fr>(pub).subspan(i * per, per), (*proofs)[i]);
      ASSERT_TRUE(ok.ok());
      EXPECT_TRUE(*ok) << "partition " << i;
    }
  }

  static inline TempDir* dir_ = nullptr;
  DemoCircuitSpec specs_[2];
  std::string wtns_[2];
  groth16::VerifyingKey vk_[2];
  FakeDevices fakes_;
};

TEST_F(PipelineTest, UnknownDeviceNamesAreStillRefused) {
  EngineConfig c = config({"fake:0", "tpu0"});
  auto e = Engine::create(c);
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.status().message().find("unknown device \"tpu0\""), std::string::npos) << e.status().to_string();
}

TEST_F(PipelineTest, TwoDevicesShareOneJobAndAssembleItInOrder) {
  fakes_.scripts["fake:0"].run_ms = 25;
  fakes_.scripts["fake:1"].run_ms = 25;
  auto e = make(config({"fake:0", "fake:1"}));
  ASSERT_TRUE(e);
  const std::string id = submit(*e, 0, 12);
  expect_valid(*e, id, 0, 12);
  // Both devices proved some of the partitions, one lane at a time each.
  for (const char* d : {"fake:0", "fake:1"}) {
    testing::FakeLog& log = fakes_.log(d);
    std::lock_guard<std::mutex> lock(log.mu);
    EXPECT_GT(log.runs, 0u) << d;
    EXPECT_EQ(log.max_in_region, 1) << d << ": two lanes were inside the device region at once";
  }
  EXPECT_EQ(fakes_.log("fake:0").runs + fakes_.log("fake:1").runs, 12u);
  EngineStatus st = e->status();
  ASSERT_EQ(st.device_status.size(), 2u);
  for (const auto& d : st.device_status) {
    EXPECT_EQ(d.workers.size(), 2u);
    EXPECT_GT(d.bytes_uploaded, 0u);
    EXPECT_GT(d.vram_budget_bytes, 0u);
    EXPECT_LE(d.vram_peak_bytes, d.vram_budget_bytes);
    ASSERT_EQ(d.keys.size(), 1u);  // c0 stays attached (the DEVICE tier)
    EXPECT_EQ(d.keys[0].circuit_id, "c0");
  }
  const std::string m = e->metrics_text();
  EXPECT_GT(metric(m, "cuzk_bytes_uploaded_total{device=\"fake:1\"}"), 0) << m;
}

TEST_F(PipelineTest, AFreeDeviceLeavesAPartitionToTheDeviceHoldingItsKey) {
  // One worker per device; each job waits for the previous, so both devices
  // are idle when a partition arrives: it goes to the device holding its key.
  auto e = make(config({"fake:0", "fake:1"}, 1));
  ASSERT_TRUE(e);
  // Both prover workers back in their queue before the next job arrives.
  auto both_idle = [&] {
    ASSERT_TRUE(testing::wait_until([&] {
      for (const auto& w : e->status().workers)
        if (!w.device.empty() && w.busy) return false;
      return true;
    }, 5s));
    std::this_thread::sleep_for(5ms);
  };
  for (int j = 0; j < 10; ++j) {
    both_idle();
    expect_valid(*e, submit(*e, 0), 0, 1);
  }
  for (int j = 0; j < 10; ++j) {
    both_idle();
    expect_valid(*e, submit(*e, 1), 1, 1);
  }
  const uint64_t r0 = fakes_.log("fake:0").runs, r1 = fakes_.log("fake:1").runs;
  EXPECT_EQ(r0 + r1, 20u);
  // Each circuit ran on one device only, and each key was attached once.
  std::map<std::string, std::set<std::string>> devices_of;
  for (const char* d : {"fake:0", "fake:1"}) {
    testing::FakeLog& log = fakes_.log(d);
    std::lock_guard<std::mutex> lock(log.mu);
    for (const auto& circuit : log.circuits) devices_of[circuit].insert(d);
  }
  ASSERT_EQ(devices_of.size(), 2u);
  for (const auto& [circuit, devs] : devices_of) EXPECT_EQ(devs.size(), 1u) << "circuit " << circuit;
  EXPECT_EQ(fakes_.log("fake:0").attaches + fakes_.log("fake:1").attaches, 2u)
      << "a free device attached a key another free device already held";
}

TEST_F(PipelineTest, EachFallbackIsTakenCountedAndShown) {
  // fake:0 cannot pin host memory; fake:1 holds a key but only one set of
  // inputs for its two workers; fake:2 cannot hold the key at all.
  FakeScript& unpinned = fakes_.scripts["fake:0"];
  unpinned.pinned = false;
  FakeScript& tight = fakes_.scripts["fake:1"];
  tight.key_bytes = tight.set_bytes / 10;
  tight.vram_bytes = tight.key_bytes * 2 + tight.set_bytes + tight.set_bytes / 2 + tight.workspace_bytes;
  FakeScript& small = fakes_.scripts["fake:2"];
  small.key_bytes = small.set_bytes * 4;
  small.vram_bytes = small.set_bytes + small.set_bytes / 2 + small.workspace_bytes;
  for (auto* s : {&unpinned, &tight, &small}) s->run_ms = 5;
  // Host buffers come from the first device's allocator: fake:0 (pageable).
  EngineConfig c = config({"fake:0", "fake:1", "fake:2"});
  auto e = make(c);
  ASSERT_TRUE(e);
  std::vector<std::string> ids;
  for (int j = 0; j < 8; ++j) ids.push_back(submit(*e, j % 2, 3));
  for (int j = 0; j < 8; ++j) expect_valid(*e, ids[size_t(j)], j % 2, 3);
  EngineStatus st = e->status();
  const std::string m = e->metrics_text();
  EXPECT_GT(metric(m, "cuzk_fallbacks_total{cause=\"pinned_alloc\"}"), 0) << m;
  EXPECT_GT(metric(m, "cuzk_fallbacks_total{cause=\"pageable_upload\"}"), 0);
  for (const char* d : {"fake:0", "fake:1", "fake:2"}) {
    if (fakes_.log(d).runs > 0) {
      EXPECT_GT(fallbacks_of(st, d, "pageable_upload"), 0u) << d;
    }
  }
  if (fakes_.log("fake:1").runs > 0) {
    EXPECT_GT(fallbacks_of(st, "fake:1", "plain_path"), 0u);
  }
  if (fakes_.log("fake:2").runs > 0) {
    EXPECT_GT(fallbacks_of(st, "fake:2", "key_streamed"), 0u);
  }
  EXPECT_EQ(fallbacks_of(st, "fake:0", "plain_path"), 0u);
  EXPECT_EQ(fallbacks_of(st, "fake:0", "key_streamed"), 0u);
  for (const auto& d : st.device_status) EXPECT_LE(d.vram_peak_bytes, d.vram_budget_bytes) << d.name;
}

// The witness alone crosses to a device that keeps the key's circuit: the
// device makes a, b, c (no host matvec, no a, b, c uploaded).
TEST_F(PipelineTest, DevicesMakeTheRowsFromTheWitnessAlone) {
  fakes_.scripts["fake:0"].run_ms = 3;
  auto e = make(config({"fake:0"}));
  ASSERT_TRUE(e);
  std::vector<std::string> ids;
  for (int j = 0; j < 3; ++j) ids.push_back(submit(*e, 0, 2));
  for (const auto& id : ids) expect_valid(*e, id, 0, 2);
  auto w = io::parse_wtns(ByteSpan(reinterpret_cast<const uint8_t*>(wtns_[0].data()), wtns_[0].size()));
  ASSERT_TRUE(w.ok());
  testing::FakeLog& log = fakes_.log("fake:0");
  {
    std::lock_guard<std::mutex> lock(log.mu);
    EXPECT_EQ(log.runs, 6u);
    EXPECT_EQ(log.rows_made, 6u);
    EXPECT_EQ(log.upload_bytes, 6 * w->size() * sizeof(ff::Fr));
  }
  EngineStatus st = e->status();
  EXPECT_EQ(fallbacks_of(st, "fake:0", "host_matvec"), 0u);
  EXPECT_EQ(device_of(st, "fake:0")->bytes_uploaded, 6 * w->size() * sizeof(ff::Fr));
  const std::string m = e->metrics_text();
  EXPECT_EQ(metric(m, "cuzk_fallbacks_total{cause=\"host_matvec\"}"), 0) << m;
  // Once the rows are on the device the partitions' a, b, c leave the host
  // budget: with nothing in flight only the key and the idle pinned witness
  // buffers are held.
  EXPECT_TRUE(testing::wait_until([&] { return e->status().budget_used_bytes == held_at_rest(e->status()); }, 5s));
}

// A device that cannot keep the circuit (no room beside the key, or a
// streamed key) gets a, b, c from the host, made in the prover worker and
// counted; with matvec_on_device = false the host makes them up front and
// nothing is counted.
TEST_F(PipelineTest, RowsFromTheHostWhenTheCircuitIsNotOnTheDevice) {
  fakes_.scripts["fake:0"].rows_on_device = false;
  FakeScript& small = fakes_.scripts["fake:1"];
  small.key_bytes = small.set_bytes * 4;
  small.vram_bytes = small.set_bytes + small.set_bytes / 2 + small.workspace_bytes;  // the key streams
  for (const char* d : {"fake:0", "fake:1"}) {
    auto e = make(config({d}));
    ASSERT_TRUE(e);
    std::vector<std::string> ids;
    for (int j = 0; j < 3; ++j) ids.push_back(submit(*e, j % 2, 2));
    for (int j = 0; j < 3; ++j) expect_valid(*e, ids[size_t(j)], j % 2, 2);
    EXPECT_EQ(fakes_.log(d).rows_made, 0u) << d;
    EXPECT_EQ(fallbacks_of(e->status(), d, "host_matvec"), 6u) << d;
    const std::string m = e->metrics_text();
    EXPECT_EQ(metric(m, "cuzk_fallbacks_total{cause=\"host_matvec\"}"), 6) << m;
  }
  EngineConfig c = config({"fake:2"});
  c.matvec_on_device = false;
  auto e = make(c);
  ASSERT_TRUE(e);
  expect_valid(*e, submit(*e, 1, 3), 1, 3);
  EXPECT_EQ(fakes_.log("fake:2").rows_made, 0u);
  EXPECT_EQ(fallbacks_of(e->status(), "fake:2", "host_matvec"), 0u);
}

// A bellperson key with its circuit (.params and .r1cs): the preparation
// leaves the row check to the device that makes the rows. A witness that
// breaks a row fails its job naming the constraint the host check names,
// and is not counted as a device error; the next job proves.
TEST_F(PipelineTest, TheDeviceChecksTheRowsAndNamesTheBrokenConstraint) {
  const uint64_t seed = fresh_test_seed();
  r1cs::SyntheticParams sp;
  sp.num_constraints = 300;
  sp.num_public_inputs = 2;
  sp.num_aux = 280;
  sp.seed = seed;
  auto sc = r1cs::generate_synthetic(sp);
  ASSERT_TRUE(sc.ok()) << sc.status().to_string();
  auto pk = groth16::dev_setup(sc->circuit, {.layout = groth16::KeyLayout::kBellperson, .seed = seed});
  ASSERT_TRUE(pk.ok()) << pk.status().to_string();
  const std::string params = dir_->path() + "/checked.params", r1cs_path = dir_->path() + "/checked.r1cs";
  ASSERT_TRUE(io::write_params(params, *pk).ok());
  ASSERT_TRUE(io::write_circom_r1cs(sc->circuit, r1cs_path).ok());
  std::vector<ff::Fr> bad = sc->witness;
  TestRng rng(seed);
  Status host = ok_status();
  while (host.ok()) {  // a change some row notices
    bad = sc->witness;
    bad[sp.num_public_inputs + 1 + rng() % sp.num_aux] += ff::Fr::one();
    host = r1cs::is_satisfied(sc->circuit, bad);
  }
  const std::string named = host.message().substr(0, host.message().find(" is not satisfied"));
  EngineConfig c = config({"fake:0"}, 1);
  CircuitSpec spec;
  spec.id = "checked";
  spec.params = params;
  spec.r1cs = r1cs_path;
  c.circuits = {spec};
  auto e = make(c);
  ASSERT_TRUE(e);
  auto submit_w = [&](const std::vector<ff::Fr>& w) {
    JobRequest r;
    r.kind = ProofKind::kGroth16Circuit;
    r.circuit_id = "checked";
    const std::vector<uint8_t> bytes = io::serialize_wtns(w);
    r.witnesses = {std::string(bytes.begin(), bytes.end())};
    auto s = e->submit(r);
    EXPECT_TRUE(s.ok()) << s.status().to_string();
    return s.ok() ? e->await(s->job_id, std::nullopt) : StatusOr<JobResult>(s.status());
  };
  auto failed = submit_w(bad);
  ASSERT_TRUE(failed.ok());
  EXPECT_EQ(failed->outcome, JobOutcome::kFailed);
  EXPECT_NE(failed->error_message.find(named + " is not satisfied"), std::string::npos)
      << failed->error_message << " / host: " << host.message();
  auto good = submit_w(sc->witness);
  ASSERT_TRUE(good.ok());
  ASSERT_EQ(good->outcome, JobOutcome::kCompleted) << good->error_message;
  auto proof = io::parse_proof(ByteSpan(reinterpret_cast<const uint8_t*>(good->proof.data()), good->proof.size()));
  ASSERT_TRUE(proof.ok());
  const std::vector<ff::Fr> pub(sc->witness.begin() + 1, sc->witness.begin() + 1 + long(sp.num_public_inputs));
  EXPECT_TRUE(groth16::verify(pk->vk, pub, *proof).value());
  EXPECT_EQ(fakes_.log("fake:0").rows_made, 2u);
  EXPECT_EQ(fallbacks_of(e->status(), "fake:0", "device_error"), 0u);
}

TEST_F(PipelineTest, TwoWorkersOnABudgetForOneSetShareItAndNeverExceedTheBudget) {
  FakeScript& s = fakes_.scripts["fake:0"];
  s.vram_bytes = s.key_bytes + s.set_bytes + s.set_bytes / 2 + s.workspace_bytes;
  s.stage_ms = 3;
  s.run_ms = 10;
  auto e = make(config({"fake:0"}));
  ASSERT_TRUE(e);
  std::vector<std::string> ids;
  for (int j = 0; j < 4; ++j) ids.push_back(submit(*e, 0, 4));
  for (const auto& id : ids) expect_valid(*e, id, 0, 4);
  EngineStatus st = e->status();
  const DeviceStatus* d = device_of(st, "fake:0");
  ASSERT_NE(d, nullptr);
  EXPECT_LE(d->vram_peak_bytes, d->vram_budget_bytes);
  EXPECT_EQ(fallbacks_of(st, "fake:0", "plain_path"), 16u);  // every proof uploaded inside the region
  EXPECT_EQ(fallbacks_of(st, "fake:0", "key_streamed"), 0u);
  std::lock_guard<std::mutex> lock(fakes_.log("fake:0").mu);
  EXPECT_EQ(fakes_.log("fake:0").max_in_region, 1);
}

// Pinned buffers kept for reuse stay charged to the host budget, and give
// way when an admission needs the room: with a budget that holds both keys
// and one partition of c1 but not c0's idle witness buffer beside them, c1's
// job still proves (the idle buffer is freed), and c0 proves after it.
TEST_F(PipelineTest, IdlePinnedBuffersAreChargedAndGiveWayToAnAdmission) {
  auto w0 = io::parse_wtns(ByteSpan(reinterpret_cast<const uint8_t*>(wtns_[0].data()), wtns_[0].size()));
  ASSERT_TRUE(w0.ok());
  const uint64_t witness0_bytes = w0->size() * sizeof(ff::Fr);  // one pinned buffer of c0
  uint64_t keys = 0, est = 0;
  {
    auto probe = make(config({"fake:0"}, 1));
    ASSERT_TRUE(probe);
    ASSERT_TRUE(probe->preload("c0").ok());
    ASSERT_TRUE(probe->preload("c1").ok());
    keys = hot_key_bytes(probe->status());
    est = probe->partition_reservation_bytes("c1", wtns_[1].size()).value();
  }
  EngineConfig c = config({"fake:0"}, 1);
  c.total_budget_bytes = keys + est + witness0_bytes / 2;
  c.eviction_min_idle_ms = 3'600'000;  // the keys stay HOT: only the pinned buffers can give way
  auto e = make(c);
  ASSERT_TRUE(e);
  ASSERT_TRUE(e->preload("c0").ok());
  ASSERT_TRUE(e->preload("c1").ok());
  ASSERT_EQ(hot_key_bytes(e->status()), keys);
  expect_valid(*e, submit(*e, 0, 2), 0, 2);
  ASSERT_TRUE(testing::wait_until([&] { return e->status().budget_used_bytes == held_at_rest(e->status()); }, 5s))
      << e->status().budget_used_bytes << " bytes reserved";
  EngineStatus st = e->status();
  EXPECT_GE(st.pinned_idle_bytes, witness0_bytes);  // kept, and charged
  EXPECT_EQ(metric(e->metrics_text(), "cuzk_pinned_idle_bytes"), double(st.pinned_idle_bytes));
  const std::string id = submit(*e, 1);
  auto r = e->await(id, 20s);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->outcome, JobOutcome::kCompleted) << "the admission waited behind idle pinned buffers "
                                                << r->error_message;
  expect_valid(*e, id, 1, 1);
  EXPECT_LE(e->status().budget_peak_bytes, c.total_budget_bytes);
  EXPECT_EQ(hot_key_bytes(e->status()), keys);  // no key was demoted for the room
  expect_valid(*e, submit(*e, 0, 2), 0, 2);
  EXPECT_TRUE(testing::wait_until([&] { return e->status().budget_used_bytes == held_at_rest(e->status()); }, 5s));
}

// Pinned buffers are made once and reused: with a budget that holds the key
// and one partition's estimate but not an idle witness buffer beside it,
// each admission claims the idle buffer (with its charge) instead of freeing
// it and pinning a new one. Partitions proved one after another make one
// buffer in all and free none; then jobs of several partitions in flight
// make at most one per partition the input window holds.
TEST_F(PipelineTest, PinnedBuffersAreMadeOnceAndReused) {
  auto w0 = io::parse_wtns(ByteSpan(reinterpret_cast<const uint8_t*>(wtns_[0].data()), wtns_[0].size()));
  ASSERT_TRUE(w0.ok());
  const uint64_t witness0_bytes = w0->size() * sizeof(ff::Fr);
  uint64_t keys = 0, est = 0;
  {
    auto probe = make(config({"fake:0"}, 1));
    ASSERT_TRUE(probe);
    ASSERT_TRUE(probe->preload("c0").ok());
    keys = hot_key_bytes(probe->status());
    est = probe->partition_reservation_bytes("c0", wtns_[0].size()).value();
  }
  EngineConfig c = config({"fake:0"}, 1);
  c.total_budget_bytes = keys + est + witness0_bytes / 2;
  c.eviction_min_idle_ms = 3'600'000;
  auto e = make(c);
  ASSERT_TRUE(e);
  ASSERT_TRUE(e->preload("c0").ok());
  // The preload makes what fits of the window's buffers ahead of the first job.
  const uint64_t made_at_preload = e->status().pinned_allocated;
  EXPECT_GE(made_at_preload, 1u);
  for (int j = 0; j < 4; ++j) expect_valid(*e, submit(*e, 0, 1), 0, 1);
  EngineStatus st = e->status();
  EXPECT_EQ(st.pinned_allocated, made_at_preload) << "pinned buffers were made for partitions";
  EXPECT_EQ(st.pinned_freed, 0u) << "an idle pinned buffer was freed for an admission";
  EXPECT_LE(st.budget_peak_bytes, c.total_budget_bytes);
  EXPECT_TRUE(testing::wait_until(
      [&] { return metric(e->metrics_text(), "cuzk_pinned_buffers_allocated") == double(made_at_preload); }, 5s))
      << e->metrics_text();

  EngineConfig wide = config({"fake:0"}, 2);
  auto e2 = make(wide);
  ASSERT_TRUE(e2);
  ASSERT_TRUE(e2->preload("c0").ok());
  std::vector<std::string> ids;
  for (int j = 0; j < 4; ++j) ids.push_back(submit(*e2, 0, 3));
  for (const auto& id : ids) expect_valid(*e2, id, 0, 3);
  // preparation_workers + workers_per_device + 1 partitions hold inputs at once.
  const uint64_t window = wide.preparation_workers + wide.workers_per_device + 1;
  st = e2->status();
  EXPECT_GE(st.pinned_allocated, 1u);
  EXPECT_LE(st.pinned_allocated, window) << "more partitions held pinned inputs than the input window";
  EXPECT_EQ(st.pinned_freed, 0u);
}

TEST_F(PipelineTest, ADeviceErrorFailsOnlyItsJobAndTheDeviceGoesOn) {
  FakeScript& s = fakes_.scripts["fake:0"];
  s.fail_runs = {3};
  auto e = make(config({"fake:0"}, 1));
  ASSERT_TRUE(e);
  std::vector<std::string> ids;
  for (int j = 0; j < 5; ++j) ids.push_back(submit(*e, 0));
  int failed = 0;
  for (const auto& id : ids) {
    auto r = e->await(id, std::nullopt);
    ASSERT_TRUE(r.ok());
    if (r->outcome == JobOutcome::kFailed) {
      ++failed;
      EXPECT_NE(r->error_message.find("fake:0"), std::string::npos) << r->error_message;
      EXPECT_NE(r->error_message.find("fake device error"), std::string::npos) << r->error_message;
    } else {
      EXPECT_EQ(r->outcome, JobOutcome::kCompleted) << r->error_message;
    }
  }
  EXPECT_EQ(failed, 1);
  expect_valid(*e, submit(*e, 0), 0, 1);  // and it goes on
  EngineStatus st = e->status();
  EXPECT_EQ(fallbacks_of(st, "fake:0", "device_error"), 1u);
  EXPECT_TRUE(testing::wait_until([&] { return e->status().budget_used_bytes == held_at_rest(e->status()); }, 5s))
      << "the failed partition's memory was not given back";
  const std::string m = e->metrics_text();
  EXPECT_EQ(metric(m, "cuzk_fallbacks_total{cause=\"device_error\"}"), 1) << m;
}

TEST_F(PipelineTest, TheDeviceKeyBudgetKeepsOneKeyAndEvictsTheIdleOne) {
  auto c = config({"fake:0"}, 1);
  c.key_device_budget_bytes = fakes_.scripts["fake:0"].key_bytes;  // room for one key
  auto e = make(c);
  ASSERT_TRUE(e);
  expect_valid(*e, submit(*e, 0), 0, 1);
  expect_valid(*e, submit(*e, 1), 1, 1);
  EngineStatus st = e->status();
  const DeviceStatus* d = device_of(st, "fake:0");
  ASSERT_NE(d, nullptr);
  ASSERT_EQ(d->keys.size(), 1u);
  EXPECT_EQ(d->keys[0].circuit_id, "c1");
  EXPECT_EQ(d->key_budget_bytes, c.key_device_budget_bytes);
  EXPECT_EQ(fallbacks_of(st, "fake:0", "key_streamed"), 0u);
  const std::string m = e->metrics_text();
  EXPECT_EQ(metric(m, "cuzk_key_evictions_total{reason=\"device\"}"), 1) << m;

  // A cap below one key's points: the key is streamed instead.
  auto c2 = config({"fake:1"}, 1);
  c2.key_device_budget_bytes = fakes_.scripts["fake:1"].key_bytes / 2;
  auto e2 = make(c2);
  ASSERT_TRUE(e2);
  expect_valid(*e2, submit(*e2, 0), 0, 1);
  EXPECT_EQ(fallbacks_of(e2->status(), "fake:1", "key_streamed"), 1u);
}

TEST_F(PipelineTest, PreloadPlacesTheKeyOnEveryDeviceAndEvictFreesIt) {
  auto e = make(config({"fake:0", "fake:1"}, 1));
  ASSERT_TRUE(e);
  auto p = e->preload("c1");
  ASSERT_TRUE(p.ok()) << p.status().to_string();
  EngineStatus st = e->status();
  for (const char* name : {"fake:0", "fake:1"}) {
    const DeviceStatus* d = device_of(st, name);
    ASSERT_NE(d, nullptr);
    ASSERT_EQ(d->keys.size(), 1u) << name;
    // The key's points and, beside them, its circuit (rows made on the device).
    const FakeScript s = fakes_.scripts.count(name) ? fakes_.scripts[name] : FakeScript{};
    EXPECT_EQ(d->keys[0].device_bytes, s.key_bytes + s.rows_bytes);
    EXPECT_GT(d->vram_used_bytes, 0u);
  }
  auto ev = e->evict("c1");
  ASSERT_TRUE(ev.ok()) << ev.status().to_string();
  st = e->status();
  for (const auto& d : st.device_status) {
    EXPECT_TRUE(d.keys.empty()) << d.name;
    EXPECT_EQ(d.vram_used_bytes, 0u) << d.name;
  }
}

TEST_F(PipelineTest, StatusDoesNotWaitForAKeyBeingAttached) {
  // The fake holds the key's attach (a large key's upload) until the test
  // lets it go; status must answer meanwhile, from what the device held
  // before. A status that waited for the attach would wait for the test: its
  // answer is awaited with the hang guard, then the attach let go.
  auto held = std::make_shared<std::atomic<bool>>(true);
  fakes_.scripts["fake:0"].attach_hold = held;
  auto e = make(config({"fake:0"}, 1));
  ASSERT_TRUE(e);
  struct Release {  // lets the attach go on every way out, before the engine stops
    std::shared_ptr<std::atomic<bool>> held;
    ~Release() { held->store(false); }
  } release{held};
  const std::string id = submit(*e, 0);
  ASSERT_TRUE(testing::wait_until([&] {
    std::lock_guard<std::mutex> lock(fakes_.log("fake:0").mu);
    return fakes_.log("fake:0").attaches > 0;
  }, 10s));
  auto answer = std::async(std::launch::async, [&] { return e->status(); });
  const bool answered = answer.wait_for(testing::kHangGuard) == std::future_status::ready;
  held->store(false);
  ASSERT_TRUE(answered) << "status waited for the attach";
  EngineStatus st = answer.get();
  ASSERT_EQ(st.device_status.size(), 1u);
  EXPECT_TRUE(st.device_status[0].keys.empty());  // not attached yet
  expect_valid(*e, id, 0, 1);
  st = e->status();
  ASSERT_EQ(st.device_status[0].keys.size(), 1u);
  EXPECT_FALSE(st.device_status[0].keys[0].in_use);
}

TEST_F(PipelineTest, CancellingWhileStagingOrInsideTheDeviceRegionLetsOthersFinish) {
  // The victim is held in the fake's stage() or run() until the test lets it
  // go: its cancel must end it while it is still held there. A cancel that
  // waited for the device would wait for the test (the await's hang guard
  // ends that), whatever the machine's speed.
  for (const bool staging : {true, false}) {
    const char* phase = staging ? "staging" : "device region";
    auto held = std::make_shared<std::atomic<bool>>(true);
    FakeDevices fakes;
    (staging ? fakes.scripts["fake:0"].stage_hold : fakes.scripts["fake:0"].run_hold) = held;
    EngineConfig c = config({"fake:0"}, 1);
    c.backend_factory = fakes.factory();
    auto e = make(c);
    ASSERT_TRUE(e);
    struct Release {  // lets the lane go on every way out, before the engine stops
      std::shared_ptr<std::atomic<bool>> held;
      ~Release() { held->store(false); }
    } release{held};
    const std::string first = submit(*e, 0);
    const std::string second = submit(*e, 0);
    // The job the only prover worker took first (either may be ready first)
    // is held in the fake: the victim.
    ASSERT_TRUE(testing::wait_until([&] {
      std::lock_guard<std::mutex> lock(fakes.log("fake:0").mu);
      return fakes.log("fake:0").held == 1;
    }, 5s)) << phase;
    std::string victim;
    for (const auto& w : e->status().workers)
      if (w.device == "fake:0") victim = w.job_id;
    ASSERT_TRUE(victim == first || victim == second) << phase << ": " << victim;
    const std::string other = victim == first ? second : first;
    auto cancelled = e->cancel(victim);
    ASSERT_TRUE(cancelled.ok());
    auto r = e->await(victim, testing::kHangGuard);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->outcome, JobOutcome::kCancelled) << phase << ": the cancel waited for the device";
    if (staging) {  // a held run() ends on the cancel; a held stage() only when let go
      std::lock_guard<std::mutex> lock(fakes.log("fake:0").mu);
      EXPECT_EQ(fakes.log("fake:0").held, 1) << phase;
    }
    held->store(false);
    expect_valid(*e, other, 0, 1);
    // Everything the victim held comes back: only the key (and pinned buffers
    // kept for reuse) stays reserved.
    EXPECT_TRUE(testing::wait_until([&] { return e->status().budget_used_bytes == held_at_rest(e->status()); }, 5s))
        << phase << ": " << e->status().budget_used_bytes << " bytes still reserved";
  }
}

// A cancelled job's worker is free once its lane stops at the next stage
// boundary, not when the proof would have ended: the status shows it idle
// (it showed "busy" for the rest of a long CPU proof).
TEST_F(PipelineTest, ACancelledJobsWorkerIsFreeWhenItsLaneStops) {
  constexpr int kRunMs = 20000;
  FakeDevices fakes;
  fakes.scripts["fake:0"].run_ms = kRunMs;
  EngineConfig c = config({"fake:0"}, 1);
  c.backend_factory = fakes.factory();
  auto e = make(c);
  ASSERT_TRUE(e);
  const std::string victim = submit(*e, 0);
  auto worker_job = [&] {
    for (const auto& w : e->status().workers)
      if (w.device == "fake:0") return w.busy ? w.job_id : std::string();
    return std::string("no worker");
  };
  ASSERT_TRUE(testing::wait_until([&] { return testing::partition_state(*e, victim) == PartitionState::kProving; }, 10s));
  EXPECT_EQ(worker_job(), victim);
  const auto t0 = std::chrono::steady_clock::now();
  ASSERT_TRUE(e->cancel(victim).ok());
  EXPECT_TRUE(testing::wait_until([&] { return worker_job().empty(); }, 5s)) << "the worker still runs " << worker_job();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(kRunMs / 2));
  auto r = e->await(victim, 0ms);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->outcome, JobOutcome::kCancelled);
  // The lane stopped because the job was cancelled: no device error is
  // counted (nor warned about) for it.
  EXPECT_EQ(fallbacks_of(e->status(), "fake:0", "device_error"), 0u);
}

}  // namespace
}  // namespace cuzk::engine
