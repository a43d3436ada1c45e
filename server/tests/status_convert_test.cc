// The engine's status as /status JSON and as GetStatus, from a hand-made
// EngineStatus: a GPU-like device (device memory, two resident keys, a
// fallback) beside the CPU backend. Byte counts are fresh random values each
// run, some above 2^53 so that a trip through a double would show.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>

#include "../src/convert.h"
#include "cuzk/base/utf8.h"
#include "cuzk/server/server.h"
#include "cuzk/server/status_json.h"

namespace cuzk::server {
namespace {

using nlohmann::json;

struct Fixture {
  engine::EngineStatus status;
  engine::DeviceStatus gpu, cpu;
};

Fixture make_status() {
  std::random_device rd;
  std::mt19937_64 rng((uint64_t(rd()) << 32) | rd());
  auto big = [&] { return (uint64_t(1) << 54) + rng() % (uint64_t(1) << 40); };
  Fixture f;
  engine::DeviceStatus& g = f.gpu;
  g.name = "cuda:0";
  g.description = "cuda:0 Test GPU, device budget 140.0 GiB (12.0 GiB in use)";
  g.vram_total_bytes = big() + (uint64_t(1) << 50);
  g.vram_budget_bytes = big();
  g.vram_used_bytes = g.vram_budget_bytes - 1 - rng() % (uint64_t(1) << 30);
  g.vram_peak_bytes = g.vram_used_bytes + rng() % 4096;
  g.key_budget_bytes = rng() % (uint64_t(1) << 45);
  g.busy_fraction = double(rng() % 1000) / 1000;
  g.workers = {"cuda:0/w0", "cuda:0/w1"};
  g.keys.push_back({"porep-32g", big(), "device-resident: a, b_g1, b_g2, h, l", true, 0});
  g.keys.push_back({"demo", rng() % (uint64_t(1) << 30), "streamed from pinned host memory: h, l", false, 3.5});
  g.fallbacks = {{"pageable_upload", 1 + rng() % 100}};
  g.bytes_uploaded = big();
  f.cpu.name = "cpu";
  f.cpu.description = "cpu (8 threads)";
  f.cpu.busy_fraction = 0.5;
  f.cpu.workers = {"cpu/w0"};

  engine::EngineStatus& s = f.status;
  s.devices = {"cuda:0", "cpu"};
  s.device_status = {f.gpu, f.cpu};
  s.prover_threads = 8;
  engine::WorkerStatus w;
  w.name = "cuda:0/w1";
  w.device = "cuda:0";
  w.busy = true;
  w.job_id = "job-x-7";
  w.kind = engine::ProofKind::kPorepSealCommit;
  s.workers.push_back(w);
  engine::KeyStatus hot;
  hot.id = "porep-32g";
  hot.tier = engine::KeyTier::kHot;
  hot.size_bytes = big();
  hot.ref_count = 2;
  engine::KeyStatus cold;
  cold.id = "demo";
  cold.tier = engine::KeyTier::kCold;
  s.keys = {hot, cold};
  return f;
}

TEST(StatusJson, CarriesEveryDeviceField) {
  Fixture f = make_status();
  json doc = json::parse(status_json(f.status));
  EXPECT_EQ(doc["devices"], json({"cuda:0", "cpu"}));  // the list of names stays
  ASSERT_EQ(doc["device_status"].size(), 2u);
  const json& g = doc["device_status"][0];
  EXPECT_EQ(g["name"], "cuda:0");
  EXPECT_EQ(g["description"], f.gpu.description);
  for (const char* key : {"vram_total_bytes", "vram_budget_bytes", "vram_used_bytes", "vram_peak_bytes",
                          "key_budget_bytes", "bytes_uploaded"})
    EXPECT_TRUE(g[key].is_number_unsigned()) << key;
  EXPECT_EQ(g["vram_total_bytes"].get<uint64_t>(), f.gpu.vram_total_bytes);
  EXPECT_EQ(g["vram_budget_bytes"].get<uint64_t>(), f.gpu.vram_budget_bytes);
  EXPECT_EQ(g["vram_used_bytes"].get<uint64_t>(), f.gpu.vram_used_bytes);
  EXPECT_EQ(g["vram_peak_bytes"].get<uint64_t>(), f.gpu.vram_peak_bytes);
  EXPECT_EQ(g["key_budget_bytes"].get<uint64_t>(), f.gpu.key_budget_bytes);
  EXPECT_EQ(g["bytes_uploaded"].get<uint64_t>(), f.gpu.bytes_uploaded);
  EXPECT_DOUBLE_EQ(g["busy_fraction"].get<double>(), f.gpu.busy_fraction);
  EXPECT_EQ(g["workers"], json({"cuda:0/w0", "cuda:0/w1"}));
  EXPECT_EQ(g["fallbacks"], json({{"pageable_upload", f.gpu.fallbacks[0].second}}));
  ASSERT_EQ(g["keys"].size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    const json& k = g["keys"][i];
    EXPECT_EQ(k["circuit_id"], f.gpu.keys[i].circuit_id);
    EXPECT_EQ(k["device_bytes"].get<uint64_t>(), f.gpu.keys[i].device_bytes);
    EXPECT_EQ(k["placement"], f.gpu.keys[i].placement);
    EXPECT_EQ(k["in_use"], f.gpu.keys[i].in_use);
    EXPECT_DOUBLE_EQ(k["idle_s"].get<double>(), f.gpu.keys[i].idle_s);
  }
  const json& c = doc["device_status"][1];
  EXPECT_EQ(c["name"], "cpu");
  EXPECT_EQ(c["vram_total_bytes"].get<uint64_t>(), 0u);
  EXPECT_TRUE(c["keys"].is_array() && c["keys"].empty());
  EXPECT_TRUE(c["fallbacks"].is_object() && c["fallbacks"].empty());
}

// One job whose error or ids hold bytes that are not UTF-8 (a C1 reader's
// echo of a vanilla proof) made dump() throw: GetStatus answered UNKNOWN and
// /status 500 for every client until the job was forgotten.
TEST(StatusJson, BytesThatAreNotUtf8InOneJobDoNotBlindTheStatus) {
  std::random_device rd;
  std::mt19937_64 rng((uint64_t(rd()) << 32) | rd());
  auto junk = [&] {
    std::string s = "x";
    for (int i = 0; i < 12; ++i) s += char(0x80 + rng() % 0x80);
    return s;
  };
  Fixture f = make_status();
  engine::JobStatus job;
  job.job_id = "job-1";
  job.request_id = "req" + junk();
  job.circuit_id = "porep-2k";
  job.state = engine::JobState::kDone;
  job.outcome = engine::JobOutcome::kFailed;
  job.error_message = "C1 output: offset 9: vanilla_proofs: expected ',', found '" + junk() + "'";
  f.status.jobs.push_back(job);
  f.status.keys[0].last_error = junk();
  f.status.device_status[0].description = junk();  // not escaped field by field: replaced by dump()
  std::string text;
  ASSERT_NO_THROW(text = status_json(f.status));
  EXPECT_TRUE(is_valid_utf8(text));
  json doc = json::parse(text);
  ASSERT_EQ(doc["jobs"].size(), 1u);
  EXPECT_EQ(doc["jobs"][0]["error_message"], valid_utf8(job.error_message));
  EXPECT_EQ(doc["jobs"][0]["request_id"], valid_utf8(job.request_id));
  EXPECT_EQ(doc["keys"][0]["last_error"], valid_utf8(f.status.keys[0].last_error));

  // AwaitProof's error_message is a proto3 string: a receiver refuses invalid UTF-8.
  engine::JobResult r;
  r.job_id = "job-1";
  r.outcome = engine::JobOutcome::kFailed;
  r.error_message = job.error_message;
  v1::AwaitProofResponse out;
  result_to_proto(r, &out);
  EXPECT_EQ(out.error_message(), valid_utf8(job.error_message));
  std::string wire;
  ASSERT_TRUE(out.SerializeToString(&wire));
  v1::AwaitProofResponse back;
  ASSERT_TRUE(back.ParseFromString(wire));
  EXPECT_EQ(back.error_message(), out.error_message());
  // And a gRPC status message cut in the middle of a character stays UTF-8.
  std::string long_message(kMaxStatusMessageBytes - 1, 'a');
  long_message += "\xe2\x82\xac";
  EXPECT_TRUE(is_valid_utf8(to_grpc(invalid_argument(long_message)).error_message()));
}

TEST(StatusProto, DevicesWithTheirMemory) {
  Fixture f = make_status();
  v1::GetStatusResponse out;
  status_to_proto(f.status, 1, 2, &out);
  ASSERT_EQ(out.gpus_size(), 2);
  const v1::GPUStatus& g = out.gpus(0);
  EXPECT_EQ(g.ordinal(), 0u);
  EXPECT_EQ(g.name(), f.gpu.description);  // it names the device itself
  EXPECT_EQ(g.name().find("CPU backend"), std::string::npos);
  EXPECT_EQ(g.vram_total_bytes(), f.gpu.vram_total_bytes);
  EXPECT_EQ(g.vram_free_bytes(), f.gpu.vram_budget_bytes - f.gpu.vram_used_bytes);
  EXPECT_EQ(g.current_job_id(), "job-x-7");
  EXPECT_EQ(g.current_proof_kind(), "POREP_SEAL_COMMIT");
  const v1::GPUStatus& c = out.gpus(1);
  EXPECT_EQ(c.ordinal(), 1u);
  EXPECT_EQ(c.name(), "cpu (CPU backend, 8 threads)");
  EXPECT_EQ(c.vram_total_bytes(), 0u);
  EXPECT_EQ(c.vram_free_bytes(), 0u);
  EXPECT_TRUE(c.current_job_id().empty());

  // Over budget (the engine may overshoot while a lane frees): free is 0, not a wrapped count.
  f.status.device_status[0].vram_used_bytes = f.gpu.vram_budget_bytes + 1;
  v1::GetStatusResponse over;
  status_to_proto(f.status, 1, 2, &over);
  EXPECT_EQ(over.gpus(0).vram_free_bytes(), 0u);

  // A description that does not start with the name is added after it.
  f.status.device_status[0].description = "Test GPU";
  v1::GetStatusResponse named;
  status_to_proto(f.status, 1, 2, &named);
  EXPECT_EQ(named.gpus(0).name(), "cuda:0 (Test GPU)");
}

TEST(StatusProto, ResidentKeysAsDeviceTier) {
  Fixture f = make_status();
  v1::GetStatusResponse out;
  status_to_proto(f.status, 1, 2, &out);
  // The host entry (COLD keys are left out), then one DEVICE entry per resident key.
  ASSERT_EQ(out.loaded_srs_size(), 3);
  const v1::SRSStatus& host = out.loaded_srs(0);
  EXPECT_EQ(host.circuit_id(), "porep-32g");
  EXPECT_EQ(host.tier(), v1::SRSStatus::HOT);
  EXPECT_EQ(host.size_bytes(), f.status.keys[0].size_bytes);
  EXPECT_EQ(host.ref_count(), 2u);
  EXPECT_TRUE(host.device().empty());
  for (int i = 0; i < 2; ++i) {
    const v1::SRSStatus& d = out.loaded_srs(1 + i);
    EXPECT_EQ(d.circuit_id(), f.gpu.keys[size_t(i)].circuit_id);
    EXPECT_EQ(int(d.tier()), 3);  // DEVICE on the wire
    EXPECT_EQ(d.size_bytes(), f.gpu.keys[size_t(i)].device_bytes);
    EXPECT_EQ(d.ref_count(), f.gpu.keys[size_t(i)].in_use ? 1u : 0u);
    EXPECT_EQ(d.device(), "cuda:0");
  }
  EXPECT_EQ(out.pinned_memory_bytes(), 1u);
  EXPECT_EQ(out.pinned_memory_limit_bytes(), 2u);
}

TEST(StatusProto, WithoutDeviceDetailTheNamesStillArrive) {
  engine::EngineStatus s;
  s.devices = {"cpu"};
  s.prover_threads = 3;
  v1::GetStatusResponse out;
  status_to_proto(s, 0, 0, &out);
  ASSERT_EQ(out.gpus_size(), 1);
  EXPECT_EQ(out.gpus(0).name(), "cpu (CPU backend, 3 threads)");
  json doc = json::parse(status_json(s));
  EXPECT_TRUE(doc["device_status"].is_array() && doc["device_status"].empty());
}

}  // namespace
}  // namespace cuzk::server
