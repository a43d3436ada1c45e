// The engine on a real GPU (label gpu): prover workers with their lanes on
// cuda:0 take turns in the device region, a, b, c and the witness go up from
// the pinned pool, keys stay attached, every proof verifies, and the device
// metrics move.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cuzk/gpu/device.h"
#include "cuzk/groth16/cuda/cuda_backend.h"
#include "cuzk/groth16/verifier.h"
#include "cuzk/io/bellperson.h"
#include "cuzk/io/circom.h"
#include "cuzk/io/snarkjs_json.h"
#include "test_support.h"

namespace cuzk::engine {
namespace {

using testing::metric;

TEST(EngineOnGpu, TwoWorkersProveThroughThePipeline) {
  if (!gpu::device_available()) GTEST_SKIP() << gpu::device_unavailable_reason();
  testing::TempDir dir;
  DemoCircuitSpec spec = testing::small_demo(14);
  ASSERT_TRUE(ensure_demo_files(spec, dir.path(), nullptr).ok());
  DemoFiles files = demo_files(spec, dir.path());
  const std::string wtns = testing::read_file(files.wtns);
  auto vk = io::read_vk_json(files.vk_json);
  ASSERT_TRUE(vk.ok()) << vk.status().to_string();
  EngineConfig c = testing::base_config(dir.path());
  c.devices = {"cuda:0"};
  c.workers_per_device = 2;
  c.prover_threads = 0;
  c.circuits = {testing::demo_spec("demo", spec)};
  auto e = Engine::create(c);
  ASSERT_TRUE(e.ok()) << e.status().to_string();
  std::vector<std::string> ids;
  for (int j = 0; j < 6; ++j) {
    JobRequest r;
    r.kind = ProofKind::kGroth16Circuit;
    r.circuit_id = "demo";
    r.witnesses = {wtns, wtns, wtns};
    auto s = (*e)->submit(r);
    ASSERT_TRUE(s.ok()) << s.status().to_string();
    ids.push_back(s->job_id);
  }
  for (const std::string& id : ids) {
    auto r = (*e)->await(id, std::nullopt);
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r->outcome, JobOutcome::kCompleted) << r->error_message;
    auto proofs = io::parse_proofs(ByteSpan(reinterpret_cast<const uint8_t*>(r->proof.data()), r->proof.size()));
    ASSERT_TRUE(proofs.ok());
    ASSERT_EQ(proofs->size(), 3u);
    const size_t per = vk->num_public_inputs();
    std::vector<ff::Fr> pub;
    for (const auto& b : r->public_inputs) pub.push_back(*ff::Fr::from_bytes_be(b));
    for (size_t i = 0; i < 3; ++i)
      EXPECT_TRUE(*groth16::verify(*vk, std::span<const ff::Fr>(pub).subspan(i * per, per), (*proofs)[i]));
  }
  const std::string m = (*e)->metrics_text();
  EXPECT_GT(metric(m, "cuzk_bytes_uploaded_total{device=\"cuda:0\"}"), 0) << m;
  EXPECT_EQ(metric(m, "cuzk_fallbacks_total{cause=\"pageable_upload\"}"), 0) << m;
  EXPECT_EQ(metric(m, "cuzk_fallbacks_total{cause=\"pinned_alloc\"}"), 0) << m;
  EXPECT_NE(m.find("cuzk_device_stage_seconds_bucket{device=\"cuda:0\",stage=\"msm_h\""), std::string::npos) << m;
  EXPECT_GT(metric(m, "cuzk_vram_peak_bytes{device=\"cuda:0\"}"), 0) << m;
  EXPECT_LE(metric(m, "cuzk_vram_peak_bytes{device=\"cuda:0\"}"), metric(m, "cuzk_vram_budget_bytes{device=\"cuda:0\"}"));
}

// Each fallback forced on the real device at 2^20, through the pipeline with
// two workers: pinned memory refused, one input set for both workers, the
// key streamed (asked for, and by a device memory limit), and a CUDA error
// in one partition. Every returned proof verifies against the key file's VK.
class GpuFallbacks : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { dir_ = new testing::TempDir(); }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  void SetUp() override {
    if (!gpu::device_available()) GTEST_SKIP() << gpu::device_unavailable_reason();
    spec_ = testing::small_demo(20);
    ASSERT_TRUE(ensure_demo_files(spec_, dir_->path(), nullptr).ok());  // once for the suite
    DemoFiles files = demo_files(spec_, dir_->path());
    wtns_ = testing::read_file(files.wtns);
    auto vk = io::read_vk_json(files.vk_json);
    ASSERT_TRUE(vk.ok()) << vk.status().to_string();
    vk_ = *vk;
  }

  // An engine on one CUDA device made with `faults` (and `placement`).
  std::unique_ptr<Engine> make(groth16::cuda::CudaFaults faults, groth16::cuda::Placement placement,
                               uint64_t vram_limit = 0, bool matvec_on_device = true) {
    EngineConfig c = testing::base_config(dir_->path());
    c.matvec_on_device = matvec_on_device;
    c.devices = {"cuda-test:0"};
    c.workers_per_device = 2;
    c.prover_threads = 0;
    c.total_budget_bytes = uint64_t(16) << 30;
    c.circuits = {testing::demo_spec("demo", spec_)};
    c.backend_factory = [faults, placement, vram_limit](const std::string& name)
        -> StatusOr<std::unique_ptr<groth16::Backend>> {
      if (name != "cuda-test:0") return not_found("");
      groth16::cuda::CudaBackendOptions o;
      o.faults = faults;
      o.placement = placement;
      o.vram_limit_bytes = vram_limit;
      return groth16::cuda::make_cuda_backend(o);
    };
    auto e = Engine::create(c);
    EXPECT_TRUE(e.ok()) << e.status().to_string();
    return e.ok() ? std::move(*e) : nullptr;
  }

  // Proves `jobs` jobs of 3 partitions; returns how many failed (their
  // messages in *errors); every completed proof is checked.
  int prove(Engine& e, int jobs, std::vector<std::string>* errors = nullptr) {
    std::vector<std::string> ids;
    for (int j = 0; j < jobs; ++j) {
      JobRequest r;
      r.kind = ProofKind::kGroth16Circuit;
      r.circuit_id = "demo";
      r.witnesses = {wtns_, wtns_, wtns_};
      auto s = e.submit(r);
      EXPECT_TRUE(s.ok()) << s.status().to_string();
      if (s.ok()) ids.push_back(s->job_id);
    }
    int failed = 0;
    for (const auto& id : ids) {
      auto r = e.await(id, std::nullopt);
      EXPECT_TRUE(r.ok());
      if (!r.ok()) continue;
      if (r->outcome != JobOutcome::kCompleted) {
        ++failed;
        if (errors) errors->push_back(r->error_message);
        continue;
      }
      auto proofs = io::parse_proofs(ByteSpan(reinterpret_cast<const uint8_t*>(r->proof.data()), r->proof.size()));
      EXPECT_TRUE(proofs.ok());
      if (!proofs.ok()) continue;
      const size_t per = vk_.num_public_inputs();
      std::vector<ff::Fr> pub;
      for (const auto& b : r->public_inputs) pub.push_back(*ff::Fr::from_bytes_be(b));
      for (size_t i = 0; i < proofs->size(); ++i)
        EXPECT_TRUE(*groth16::verify(vk_, std::span<const ff::Fr>(pub).subspan(i * per, per), (*proofs)[i]));
    }
    return failed;
  }

  static uint64_t fallbacks(Engine& e, const std::string& cause) {
    for (const auto& d : e.status().device_status)
      for (const auto& [c, n] : d.fallbacks)
        if (c == cause) return n;
    return 0;
  }

  static inline testing::TempDir* dir_ = nullptr;
  DemoCircuitSpec spec_;
  std::string wtns_;
  groth16::VerifyingKey vk_;
};

TEST_F(GpuFallbacks, NoneOnAPlainRunAndTheBudgetHolds) {
  auto e = make({}, groth16::cuda::Placement::kAuto);
  ASSERT_TRUE(e);
  EXPECT_EQ(prove(*e, 3), 0);
  for (const char* cause : {"pinned_alloc", "pageable_upload", "plain_path", "key_streamed", "device_error", "host_matvec"})
    EXPECT_EQ(fallbacks(*e, cause), 0u) << cause;
  const EngineStatus st = e->status();
  ASSERT_EQ(st.device_status.size(), 1u);
  const DeviceStatus& d = st.device_status[0];
  EXPECT_GT(d.vram_total_bytes, d.vram_budget_bytes / 2);
  EXPECT_LE(d.vram_peak_bytes, d.vram_budget_bytes);
  EXPECT_GT(d.busy_fraction, 0);
  ASSERT_EQ(d.keys.size(), 1u);
  EXPECT_NE(d.keys[0].placement.find("device-resident"), std::string::npos) << d.keys[0].placement;
  // The circuit sits beside the key: only witnesses crossed PCIe (9 proofs).
  EXPECT_NE(d.keys[0].placement.find("rows made on the device"), std::string::npos) << d.keys[0].placement;
  auto w = io::parse_wtns(ByteSpan(reinterpret_cast<const uint8_t*>(wtns_.data()), wtns_.size()));
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(d.bytes_uploaded, 9 * w->size() * sizeof(ff::Fr));
}

// With matvec_on_device = false the host makes a, b, c and they cross PCIe.
TEST_F(GpuFallbacks, RowsFromTheHostWhenAskedFor) {
  auto e = make({}, groth16::cuda::Placement::kAuto, 0, false);
  ASSERT_TRUE(e);
  EXPECT_EQ(prove(*e, 1), 0);
  const DeviceStatus& d = e->status().device_status[0];
  EXPECT_EQ(d.keys[0].placement.find("rows made on the device"), std::string::npos) << d.keys[0].placement;
  EXPECT_GT(d.bytes_uploaded, 3 * 3 * (uint64_t(1) << 20) * sizeof(ff::Fr));
  EXPECT_EQ(fallbacks(*e, "host_matvec"), 0u);
}

TEST_F(GpuFallbacks, PinnedMemoryRefused) {
  groth16::cuda::CudaFaults f;
  f.fail_pinned_alloc = true;
  auto e = make(f, groth16::cuda::Placement::kAuto);
  ASSERT_TRUE(e);
  EXPECT_EQ(prove(*e, 2), 0);
  EXPECT_GT(fallbacks(*e, "pageable_upload"), 0u);
  const std::string m = e->metrics_text();
  EXPECT_GT(metric(m, "cuzk_fallbacks_total{cause=\"pinned_alloc\"}"), 0) << m;
}

TEST_F(GpuFallbacks, OneInputSetForTwoWorkers) {
  groth16::cuda::CudaFaults f;
  f.max_input_sets = 1;
  auto e = make(f, groth16::cuda::Placement::kAuto);
  ASSERT_TRUE(e);
  EXPECT_EQ(prove(*e, 3), 0);
  EXPECT_EQ(fallbacks(*e, "plain_path"), 9u);
  const EngineStatus st = e->status();
  EXPECT_LE(st.device_status[0].vram_peak_bytes, st.device_status[0].vram_budget_bytes);
}

TEST_F(GpuFallbacks, KeyStreamedAskedForAndByALimit) {
  auto e = make({}, groth16::cuda::Placement::kStreamed);
  ASSERT_TRUE(e);
  EXPECT_EQ(prove(*e, 2), 0);
  EXPECT_EQ(fallbacks(*e, "key_streamed"), 6u);
  EXPECT_EQ(fallbacks(*e, "host_matvec"), 6u);  // a streamed key keeps no circuit
  e.reset();
  // A limit that the resident key and a lane exceed: streamed by the budget.
  auto limited = make({}, groth16::cuda::Placement::kAuto, uint64_t(400) << 20);
  ASSERT_TRUE(limited);
  EXPECT_EQ(prove(*limited, 2), 0);
  EXPECT_EQ(fallbacks(*limited, "key_streamed"), 6u);
  const EngineStatus st = limited->status();
  EXPECT_LE(st.device_status[0].vram_peak_bytes, uint64_t(400) << 20);
}

TEST_F(GpuFallbacks, ACudaErrorFailsOneJobAndTheDeviceGoesOn) {
  groth16::cuda::CudaFaults f;
  f.fail_run = 2;
  auto e = make(f, groth16::cuda::Placement::kAuto);
  ASSERT_TRUE(e);
  std::vector<std::string> errors;
  EXPECT_EQ(prove(*e, 3, &errors), 1);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("cuda-test:0"), std::string::npos) << errors[0];
  EXPECT_NE(errors[0].find("injected fault"), std::string::npos) << errors[0];
  const uint64_t used = e->status().device_status[0].vram_used_bytes;
  EXPECT_EQ(prove(*e, 2), 0);  // it goes on
  EXPECT_EQ(fallbacks(*e, "device_error"), 1u);
  EXPECT_EQ(e->status().device_status[0].vram_used_bytes, used) << "device memory grew after the error";
}

TEST(EngineOnGpu, UnknownDevicesAreStartupErrors) {
  testing::TempDir dir;
  EngineConfig c = testing::base_config(dir.path());
  c.devices = {"tpu0"};
  auto e = Engine::create(c);
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.status().message().find("pipeline.devices: unknown device \"tpu0\""), std::string::npos)
      << e.status().to_string();
  c.devices = {"cuda:7"};
  e = Engine::create(c);
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.status().message().find("cuda:7"), std::string::npos) << e.status().to_string();
}

}  // namespace
}  // namespace cuzk::engine
