// `cuzk bench pipeline`: the daemon's engine in-process (the same pipeline the
// daemon runs: preparation workers, prover workers per device sharing its
// interlock, pinned inputs, keys on the device, self-verification), proving
// multi-partition jobs of the PoRep-shaped bench circuit back to back, for
// each combination of workers per device and device memory limit. The
// circuit, key and witness are built once; a request carries no witness (a
// bench circuit proves its own), so nothing the size of a 2^27 witness has to
// cross the gRPC front, whose cost per 10-partition job is one 1,920-byte
// reply.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>

#include "backend_select.h"
#include "cli_util.h"
#include "commands.h"
#include "cuzk/base/byte_size.h"
#include "cuzk/engine/circuit_source.h"
#include "cuzk/engine/engine.h"

namespace cuzk::app {
namespace {

using Clock = std::chrono::steady_clock;

std::string gib(uint64_t bytes) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1fGiB", double(bytes) / double(uint64_t(1) << 30));
  return b;
}

struct PipelineArgs {
  int lg = 22;
  uint32_t partitions = 10;
  uint32_t jobs = 3;
  std::vector<uint32_t> workers = {1, 2};
  std::vector<std::string> limits = {"0"};
  std::string budget = "0";
  uint32_t prep_workers = 2;
  std::string matvec = "device";
  std::string json_out;
};

double seconds(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); }

uint64_t rss_bytes() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::strtoull(line.c_str() + 6, nullptr, 10) * 1024;
  return 0;
}

uint64_t total_ram_bytes() {
  std::ifstream f("/proc/meminfo");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("MemTotal:", 0) == 0) return std::strtoull(line.c_str() + 9, nullptr, 10) * 1024;
  return 0;
}

// Mean ms per occurrence of each stage between two snapshots.
double mean_between(const engine::StageTotals& before, const engine::StageTotals& after, const std::string& stage) {
  auto a = after.find(stage);
  if (a == after.end()) return 0;
  auto b = before.find(stage);
  const double sum = a->second.sum_ms - (b == before.end() ? 0 : b->second.sum_ms);
  const uint64_t n = a->second.count - (b == before.end() ? 0 : b->second.count);
  return n ? sum / double(n) : 0;
}

struct RunResult {
  uint32_t workers = 0;
  uint64_t limit = 0;
  double attach_s = 0, per_job_s = 0, steady_per_job_s = 0, busy = 0, h_ms = 0, run_ms = 0, upload_gbps = 0;
  double device_matvec_ms = 0;
  uint64_t proofs = 0, failed = 0, rss_peak = 0, vram_peak = 0, pinned_allocated = 0;
  std::string placement, fallbacks, device, stages, device_stages;
};

// Device busy seconds so far, per device.
double busy_seconds(const engine::EngineStatus& st) {
  double s = 0;
  for (const auto& d : st.device_status) s += d.busy_fraction * st.uptime_s;
  return s;
}

StatusOr<RunResult> run_one(const PipelineArgs& a, const engine::CircuitSpec& spec, uint32_t workers, uint64_t limit,
                            uint64_t budget) {
  // The daemon's defaults (EngineConfig's), with what the flags set in the
  // keys a user would write: memory.total_budget, pipeline.workers_per_device,
  // pipeline.preparation_workers, pipeline.vram_limit, pipeline.matvec_on_device.
  // Engine::create sets the process up as for `cuzk serve` (tune_allocator).
  engine::EngineConfig c;
  c.total_budget_bytes = budget;
  c.devices = {"auto"};
  c.workers_per_device = workers;
  c.preparation_workers = a.prep_workers;
  c.vram_limit_bytes = limit;
  c.matvec_on_device = a.matvec == "device";
  c.max_partitions_per_job = std::max<uint32_t>(a.partitions, c.max_partitions_per_job);
  c.circuits = {spec};
  ASSIGN_OR_RETURN(auto e, engine::Engine::create(c));
  RunResult r;
  r.workers = workers;
  r.limit = limit;
  auto t0 = Clock::now();
  RETURN_IF_ERROR(e->preload(spec.id).status());  // HOT, then on every device
  r.attach_s = seconds(t0, Clock::now());
  auto submit = [&](uint32_t parts) -> StatusOr<std::string> {
    engine::JobRequest req;
    req.kind = engine::ProofKind::kGroth16Circuit;
    req.circuit_id = spec.id;
    req.witnesses.assign(parts, std::string());
    ASSIGN_OR_RETURN(auto s, e->submit(std::move(req)));
    return s.job_id;
  };
  // Warm-up: every lane makes its buffers.
  ASSIGN_OR_RETURN(std::string warm, submit(workers));
  ASSIGN_OR_RETURN(engine::JobResult wr, e->await(warm, std::nullopt));
  if (wr.outcome != engine::JobOutcome::kCompleted) return internal_error("warm-up job: " + wr.error_message);

  const engine::EngineStatus st0 = e->status();
  const double busy0 = busy_seconds(st0);
  std::atomic<bool> done{false};
  std::atomic<uint64_t> peak{rss_bytes()};
  std::thread sampler([&] {
    while (!done.load()) {
      peak.store(std::max(peak.load(), rss_bytes()));
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  });
  const auto start = Clock::now();
  std::vector<std::string> ids;
  for (uint32_t j = 0; j < a.jobs; ++j) {
    auto id = submit(a.partitions);
    if (!id.ok()) {
      done = true;
      sampler.join();
      return id.status();
    }
    ids.push_back(*id);
  }
  std::vector<double> finished;
  for (const auto& id : ids) {
    auto res = e->await(id, std::nullopt);
    if (!res.ok() || res->outcome != engine::JobOutcome::kCompleted) {
      ++r.failed;
      std::fprintf(stderr, "job %s: %s\n", id.c_str(), res.ok() ? res->error_message.c_str() : res.status().to_string().c_str());
      continue;
    }
    r.proofs += res->proof.size() / 192;
    finished.push_back(seconds(start, Clock::now()));
  }
  const double window = seconds(start, Clock::now());
  done = true;
  sampler.join();
  const engine::EngineStatus st = e->status();
  r.per_job_s = window / a.jobs;
  if (finished.size() >= 2) r.steady_per_job_s = (finished.back() - finished.front()) / double(finished.size() - 1);
  r.busy = (busy_seconds(st) - busy0) / std::max<double>(1, double(st.device_status.size())) / window;
  r.rss_peak = peak.load();
  for (const auto& d : st.device_status) {
    r.device = d.name;
    r.vram_peak = std::max(r.vram_peak, d.vram_peak_bytes);
    for (const auto& k : d.keys) r.placement = k.placement;
    for (const auto& [cause, n] : d.fallbacks) r.fallbacks += cause + "=" + std::to_string(n) + " ";
  }
  const engine::StageTotals none;
  auto device_stages = [&](const engine::EngineStatus& s) -> const engine::StageTotals& {
    for (const auto& d : s.device_status)
      if (d.name == r.device) return d.stages;
    return none;
  };
  const engine::StageTotals& dev0 = device_stages(st0);
  const engine::StageTotals& dev1 = device_stages(st);
  r.h_ms = mean_between(dev0, dev1, "h");
  r.device_matvec_ms = mean_between(dev0, dev1, "matvec");
  // In pipeline order; each query's parts timed in turn, then beside the others.
  std::vector<std::string> stages = {"upload", "matvec", "h", "classify", "msm_h", "msm_lab"};
  for (const char* prefix : {"", "beside."})
    for (const char* query : {"msm_l", "msm_a", "msm_b1", "msm_b2"})
      for (const char* part : {".ones", ".tail"}) stages.push_back(std::string(prefix) + query + part);
  for (const std::string& stage : stages) {
    const double ms = mean_between(dev0, dev1, stage);
    if (ms > 0) r.device_stages += std::string(stage) + " " + std::to_string(int(ms + 0.5)) + " ";
  }
  uint64_t bytes0 = 0, bytes1 = 0;
  for (const auto& d : st0.device_status)
    if (d.name == r.device) bytes0 = d.bytes_uploaded;
  for (const auto& d : st.device_status)
    if (d.name == r.device) bytes1 = d.bytes_uploaded;
  auto sum_of = [](const engine::StageTotals& t, const char* stage) {
    auto it = t.find(stage);
    return it == t.end() ? 0.0 : it->second.sum_ms;
  };
  const double upload_ms = sum_of(dev1, "upload") - sum_of(dev0, "upload");
  r.upload_gbps = upload_ms > 0 ? double(bytes1 - bytes0) / (upload_ms * 1e6) : 0;
  r.run_ms = mean_between(st0.stages, st.stages, "prove");
  for (const char* stage : {"admit", "prepare", "matvec", "wait_worker", "stage", "interlock_wait", "prove", "finalize", "verify"}) {
    const double ms = mean_between(st0.stages, st.stages, stage);
    if (ms > 0) r.stages += std::string(stage) + " " + std::to_string(int(ms)) + " ";
  }
  r.pinned_allocated = st.pinned_allocated - st0.pinned_allocated;
  return r;
}

int run_pipeline_bench(const PipelineArgs& a) {
  std::vector<uint64_t> limits;
  for (const std::string& l : a.limits) {
    auto v = l == "0" ? StatusOr<uint64_t>(uint64_t(0)) : parse_byte_size(l);
    if (!v.ok()) return fail("bench pipeline --vram-limit", v.status());
    limits.push_back(*v);
  }
  uint64_t budget = 0;
  if (a.budget != "0") {
    auto v = parse_byte_size(a.budget);
    if (!v.ok()) return fail("bench pipeline --budget", v.status());
    budget = *v;
  } else {
    budget = total_ram_bytes() / 10 * 8;
  }
  engine::CircuitSpec spec;
  spec.id = "bench-porep-" + std::to_string(a.lg);
  spec.bench.shape = "porep";
  spec.bench.lg = a.lg;
  spec.bench.seed = uint64_t(a.lg) * 1000 + 7;
  auto t0 = Clock::now();
  {
    engine::SourceOptions so;
    auto source = engine::make_circuit_source(spec, so);
    if (!source.ok()) return fail("bench pipeline", source.status(), kExitInvalid);
    auto built = (*source)->load(nullptr, {});
    if (!built.ok()) return fail("bench pipeline", built.status(), kExitInvalid);
    spec.bench.prebuilt = *built;
  }
  std::fprintf(stderr, "bench circuit 2^%d (circuit, key, witness) built in %.1f s\n", a.lg, seconds(t0, Clock::now()));
  std::vector<RunResult> results;
  for (uint64_t limit : limits)
    for (uint32_t w : a.workers) {
      std::fprintf(stderr, "== %u worker(s) per device, vram limit %s\n", w, limit ? gib(limit).c_str() : "none");
      auto r = run_one(a, spec, w, limit, budget);
      if (!r.ok()) return fail("bench pipeline", r.status(), kExitInvalid);
      results.push_back(*r);
      std::printf("workers %u  limit %-8s  %.2f s/job (steady %.2f)  %u partitions/job  busy %.1f%%  "
                  "device matvec %.0f ms  H %.0f ms  "
                  "prove %.0f ms/partition  upload %.1f GB/s  RSS peak %.1f GiB  VRAM peak %.1f GiB  proofs %llu  "
                  "failed %llu  pinned buffers made %llu  fallbacks: %s\n  key: %s\n  mean ms per partition: %s\n  device ms per partition: %s\n",
                  w, limit ? gib(limit).c_str() : "none", r->per_job_s, r->steady_per_job_s, a.partitions,
                  100 * r->busy, r->device_matvec_ms, r->h_ms, r->run_ms, r->upload_gbps, double(r->rss_peak) / (1ull << 30),
                  double(r->vram_peak) / (1ull << 30), (unsigned long long)r->proofs, (unsigned long long)r->failed, (unsigned long long)r->pinned_allocated,
                  r->fallbacks.empty() ? "none" : r->fallbacks.c_str(), r->placement.c_str(), r->stages.c_str(),
                  r->device_stages.c_str());
      std::fflush(stdout);
    }
  if (!a.json_out.empty()) {
    std::ofstream j(a.json_out);
    for (const auto& r : results)
      j << "{\"lg\":" << a.lg << ",\"partitions\":" << a.partitions << ",\"jobs\":" << a.jobs << ",\"workers\":" << r.workers
        << ",\"vram_limit\":" << r.limit << ",\"s_per_job\":" << r.per_job_s << ",\"steady_s_per_job\":" << r.steady_per_job_s
        << ",\"gpu_busy\":" << r.busy << ",\"device_matvec_ms\":" << r.device_matvec_ms << ",\"h_ms\":" << r.h_ms << ",\"prove_ms\":" << r.run_ms
        << ",\"upload_gbps\":" << r.upload_gbps << ",\"rss_peak\":" << r.rss_peak << ",\"vram_peak\":" << r.vram_peak
        << ",\"pinned_allocated\":" << r.pinned_allocated << ",\"proofs\":" << r.proofs << ",\"failed\":" << r.failed << ",\"fallbacks\":\"" << r.fallbacks << "\",\"stages_ms\":\"" << r.stages << "\",\"device_stages_ms\":\"" << r.device_stages << "\"}\n";
  }
  for (const auto& r : results)
    if (r.failed) return 1;
  return 0;
}

}  // namespace

void add_bench_pipeline_command(CLI::App& bench, Runner* runner) {
  auto a = std::make_shared<PipelineArgs>();
  auto* cmd = bench.add_subcommand(
      "pipeline", "Multi-partition jobs of the PoRep-shaped bench circuit through the daemon's engine, in-process");
  cmd->add_option("--lg", a->lg, "Domain 2^lg of the bench circuit (27: a 32 GiB PoRep partition)")
      ->check(CLI::Range(8, 27))
      ->capture_default_str();
  cmd->add_option("--partitions", a->partitions, "Partitions per job")->capture_default_str();
  cmd->add_option("--jobs", a->jobs, "Jobs measured per setting (after a warm-up job)")->capture_default_str();
  cmd->add_option("--workers", a->workers, "Prover workers per device, one run each")->delimiter(',');
  cmd->add_option("--vram-limit", a->limits, "Device memory limits, one run each (0: none), e.g. 0,16GiB")
      ->delimiter(',');
  cmd->add_option("--budget", a->budget, "Host memory budget (default 80% of RAM)")->capture_default_str();
  cmd->add_option("--prep-workers", a->prep_workers, "Preparation workers")->capture_default_str();
  cmd->add_option("--matvec", a->matvec, "Where a, b, c are made: device (pipeline.matvec_on_device) or host")
      ->check(CLI::IsMember({"device", "host"}))
      ->capture_default_str();
  cmd->add_option("--json", a->json_out, "Also write one JSON line per run here");
  cmd->callback([runner, a] { *runner = [a] { return run_pipeline_bench(*a); }; });
}

}  // namespace cuzk::app
