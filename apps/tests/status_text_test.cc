// `cuzk status` text from a hand-made engine status (through status_json,
// as the daemon sends it): one block per device with its memory, busy
// fraction, resident keys and fallbacks; the CPU backend in host memory.
#include <gtest/gtest.h>

#include "cuzk/server/status_json.h"
#include "cuzk/status_text.h"

namespace cuzk::app {
namespace {

constexpr uint64_t kGiB = uint64_t(1) << 30;

engine::EngineStatus make_status() {
  engine::EngineStatus s;
  s.devices = {"cuda:0", "cpu"};
  s.prover_threads = 4;
  engine::DeviceStatus g;
  g.name = "cuda:0";
  g.description = "cuda:0 Test GPU, device budget 100.0 GiB";
  g.vram_total_bytes = 140 * kGiB;
  g.vram_budget_bytes = 100 * kGiB;
  g.vram_used_bytes = 12 * kGiB;
  g.vram_peak_bytes = 20 * kGiB;
  g.key_budget_bytes = 64 * kGiB;
  g.busy_fraction = 0.25;
  g.workers = {"cuda:0/w0"};
  g.keys.push_back({"porep-32g", 45 * kGiB, "device-resident: a, b_g1", true, 0});
  g.keys.push_back({"demo", 3 * (uint64_t(1) << 20), "streamed from pinned host memory: h", false, 2.5});
  g.fallbacks = {{"pageable_upload", 2}, {"key_streamed", 1}};
  g.bytes_uploaded = 3 * kGiB;
  engine::DeviceStatus c;
  c.name = "cpu";
  c.description = "cpu (4 threads)";
  c.busy_fraction = 0.5;
  c.workers = {"cpu/w0"};
  s.device_status = {g, c};
  engine::WorkerStatus w;
  w.name = "cuda:0/w0";
  w.device = "cuda:0";
  w.busy = true;
  w.job_id = "job-x-1";
  s.workers.push_back(w);
  w.name = "cpu/w0";
  w.device = "cpu";
  w.busy = false;
  w.job_id.clear();
  s.workers.push_back(w);
  return s;
}

std::string text_of(const engine::EngineStatus& s) {
  return status_text(nlohmann::json::parse(server::status_json(s)));
}

void expect_has(const std::string& text, const std::string& line) {
  EXPECT_NE(text.find(line), std::string::npos) << "missing: " << line << "\n" << text;
}

TEST(StatusText, OneBlockPerDevice) {
  const std::string t = text_of(make_status());
  expect_has(t, "device cuda:0 Test GPU, device budget 100.0 GiB: busy, 1 of 1 prover worker(s) busy (job-x-1)\n"
                "  VRAM 12.0 GiB used of 100.0 GiB budget (140.0 GiB total, peak 20.0 GiB); keys up to 64.0 GiB; "
                "3.0 GiB uploaded\n"
                "  busy 25.0% of the uptime\n");
  expect_has(t, "  key porep-32g                  45.0 GiB  in use  device-resident: a, b_g1\n");
  expect_has(t, "  key demo                        3.0 MiB  idle 2.5 s  streamed from pinned host memory: h\n");
  expect_has(t, "  fallbacks: key_streamed 1, pageable_upload 2\n");
  expect_has(t, "device cpu (CPU backend, 4 threads): idle, 0 of 1 prover worker(s) busy\n"
                "  host memory (the budget above)\n"
                "  busy 50.0% of the uptime\n");
  EXPECT_EQ(t.find("VRAM", t.find("device cpu")), std::string::npos) << t;
}

TEST(StatusText, WithoutDeviceDetailAsBefore) {
  engine::EngineStatus s = make_status();
  s.device_status.clear();
  const std::string t = text_of(s);
  expect_has(t, "device cuda:0: busy, 1 of 1 prover worker(s) busy (job-x-1)\n");
  expect_has(t, "device cpu (CPU backend, 4 threads): idle, 0 of 1 prover worker(s) busy\n");
  EXPECT_EQ(t.find("VRAM"), std::string::npos) << t;
}

// Circuits still loading show their step, failed ones their reason; a
// Filecoin job names its miner and sector.
TEST(StatusText, CircuitStatesAndSectors) {
  engine::EngineStatus s = make_status();
  engine::CircuitLoadStatus c;
  c.id = "porep-2k";
  c.state = engine::CircuitState::kLoading;
  c.step = "synthesizing the circuit's rows";
  c.step_s = 12.5;
  s.circuits.push_back(c);
  c.id = "snap-2k";
  c.state = engine::CircuitState::kFailed;
  c.step.clear();
  c.error = "no such file";
  s.circuits.push_back(c);
  c.id = "demo";
  c.state = engine::CircuitState::kReady;
  c.error.clear();
  s.circuits.push_back(c);
  engine::JobStatus j;
  j.job_id = "job-x-2";
  j.kind = engine::ProofKind::kPorepSealCommit;
  j.circuit_id = "porep-2k";
  j.has_sector = true;
  j.miner_id = 1000;
  j.sector_number = 7;
  s.jobs.push_back(j);
  const std::string t = text_of(s);
  expect_has(t, "circuits: 2\n"
                "  porep-2k                 LOADING synthesizing the circuit's rows (12.5 s)\n"
                "  snap-2k                  FAILED  no such file\n");
  EXPECT_EQ(t.find("  demo "), std::string::npos) << t;  // ready, and no key status given here
  expect_has(t, ", miner f01000 sector 7\n");
  const auto json = nlohmann::json::parse(server::status_json(s));
  EXPECT_EQ(json["jobs"][0]["sector"]["miner_id"], 1000);
  EXPECT_EQ(json["jobs"][0]["sector"]["sector_number"], 7);
  EXPECT_EQ(json["circuits"][0]["state"], "loading");
  EXPECT_EQ(json["circuits"][1]["error"], "no such file");
}

}  // namespace
}  // namespace cuzk::app
