// The engine on a real GPU (label gpu): prover workers with their lanes on
// cuda:0 take turns in the device region, a, b, c and the witness go up from
// the pinned pool, keys stay attached, every proof verifies, and the device
// metrics move.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cuzk/gpu/device.h"
#include "cuzk/groth16/verifier.h"
#include "cuzk/io/bellperson.h"
#include "cuzk/io/snarkjs_json.h"
#include "test_support.h"

namespace cuzk::engine {
namespace {

double metric(const std::string& text, const std::string& series) {
  size_t at = text.find(series + " ");
  return at == std::string::npos ? -1 : std::stod(text.substr(at + series.size() + 1));
}

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
