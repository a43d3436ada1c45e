// `cuzk bench prove`: whole proofs on a backend (cpu or cuda) with per-stage
// times, on synthetic circuits, PoRep-shaped circuits (--shape porep) or
// given key files; optionally against `snarkjs groth16 prove` on the same key
// and witness in the same run. Every proof made is verified.
//
// What "wall per partition" measures (as the seed system's figure does): from
// a, b, c and the witness in host memory to the verified proof — staging
// (uploads), the device stages, assembly and verification. The matvec that
// makes a, b, c is timed beside it; the key's setup and attachment (upload to
// the device) once per case. With --matvec device (the default) a key that
// keeps its circuit on the device makes a, b, c there: the wall then starts
// from the witness alone in host memory and includes that matvec (shown in
// the matvec column, from its device time).
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>

#include "backend_select.h"
#include "bench_util.h"
#include "cli_util.h"
#include "commands.h"
#include "cuzk/build_info.h"
#include "cuzk/groth16/prover.h"
#include "cuzk/groth16/setup.h"
#include "cuzk/groth16/verifier.h"
#include "cuzk/io/circom.h"
#include "cuzk/io/zkey.h"
#include "cuzk/r1cs/synthetic.h"
#ifdef CUZK_HAVE_CUDA_PROVER
#include "cuzk/groth16/cuda/cuda_setup.h"
#endif

namespace cuzk::app {
namespace {

struct BenchProveArgs {
  BackendChoice backend{.name = "cpu"};
  std::string shape = "synthetic";
  std::vector<int> lg_sizes{12, 14, 16};
  std::string zkey, wtns;   // prove these instead of synthetic circuits
  std::string snarkjs;      // command to run snarkjs (e.g. "npx snarkjs"); empty: no comparison
  std::string work_dir = "/tmp/cuzk-bench-prove";
  std::string json;
  int runs = 3;
  int threads = 0;
  double zero_one = 0.8;
  std::string matvec = "device";  // device: attach keys with their circuits; host: make a, b, c on the host
};

struct Case {
  std::string name;
  groth16::ProvingKey pk;
  r1cs::Circuit circuit;  // what the prover multiplies
  groth16::CRule c_rule = groth16::CRule::kMatrix;
  uint64_t num_constraints = 0;
  std::vector<ff::Fr> witness;
  double gen_s = 0, setup_s = 0;
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The dev setup, with the fixed-base work on the device when proving there.
StatusOr<groth16::ProvingKey> setup_key(const r1cs::Circuit& circuit, groth16::KeyLayout layout, uint64_t seed,
                                        const groth16::Backend& backend, ThreadPool* pool) {
  groth16::DevSetupOptions o{.layout = layout, .seed = seed, .pool = pool};
#ifdef CUZK_HAVE_CUDA_PROVER
  if (backend.name() == "cuda") RETURN_IF_ERROR(groth16::cuda::use_device_fixed_base(&o, 0, pool));
#endif
  return groth16::dev_setup(circuit, o);
}

StatusOr<Case> synthetic_case(int lg, const BenchProveArgs& a, const groth16::Backend& backend, ThreadPool* pool) {
  Case c;
  auto t0 = std::chrono::steady_clock::now();
  r1cs::SyntheticCircuit sc;
  groth16::KeyLayout layout = groth16::KeyLayout::kSnarkjs;
  if (a.shape == "porep") {
    ASSIGN_OR_RETURN(sc, r1cs::generate_porep_shaped(lg, uint64_t(lg) * 1000 + 7, pool));
    layout = groth16::KeyLayout::kBellperson;
    c.name = "porep 2^" + std::to_string(lg);
  } else {
    uint64_t publics = 4;
    uint64_t constraints = (uint64_t(1) << lg) - publics - 1;
    r1cs::SyntheticParams p{.num_constraints = constraints, .num_public_inputs = publics, .num_aux = constraints,
                            .zero_one_fraction = a.zero_one, .terms_per_lc = 2, .num_distinct_coeffs = 64,
                            .seed = uint64_t(lg)};
    ASSIGN_OR_RETURN(sc, r1cs::generate_synthetic(p));
    c.name = "synthetic 2^" + std::to_string(lg);
  }
  c.gen_s = seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  ASSIGN_OR_RETURN(c.pk, setup_key(sc.circuit, layout, uint64_t(lg), backend, pool));
  c.setup_s = seconds_since(t0);
  c.num_constraints = sc.circuit.num_constraints();
  if (layout == groth16::KeyLayout::kSnarkjs) {
    ASSIGN_OR_RETURN(c.circuit, groth16::append_input_rows(sc.circuit, false));
    c.c_rule = groth16::CRule::kProductOfAB;
  } else {
    c.circuit = std::move(sc.circuit);
  }
  c.witness = std::move(sc.witness);
  return c;
}

StatusOr<Case> file_case(const BenchProveArgs& a, ThreadPool* pool) {
  Case c;
  c.name = a.zkey;
  ASSIGN_OR_RETURN(io::ZkeyContents z, io::read_zkey(a.zkey, {.check_points = false, .pool = pool}));
  c.pk = std::move(z.pk);
  c.circuit = std::move(z.ab_circuit);
  c.c_rule = z.c_rule;
  c.num_constraints = z.num_constraints;
  ASSIGN_OR_RETURN(c.witness, io::read_wtns(a.wtns, pool));
  return c;
}

// Times `snarkjs groth16 prove` on the same key and witness (median of runs).
StatusOr<double> time_snarkjs(const BenchProveArgs& a, const Case& c, ThreadPool* pool) {
  ::mkdir(a.work_dir.c_str(), 0755);
  std::string zkey = a.zkey.empty() ? a.work_dir + "/bench.zkey" : a.zkey;
  std::string wtns = a.zkey.empty() ? a.work_dir + "/bench.wtns" : a.wtns;
  if (a.zkey.empty()) {
    io::ZkeyContents z;
    z.pk = c.pk;
    z.ab_circuit = c.circuit;
    z.c_rule = c.c_rule;
    z.num_constraints = c.num_constraints;
    RETURN_IF_ERROR(io::write_zkey(zkey, z, pool));
    RETURN_IF_ERROR(io::write_wtns(c.witness, wtns));
  }
  std::string cmd = a.snarkjs + " groth16 prove " + zkey + " " + wtns + " " + a.work_dir + "/p.json " + a.work_dir +
                    "/pub.json > " + a.work_dir + "/snarkjs.log 2>&1";
  std::vector<double> times;
  for (int r = 0; r < std::max(1, a.runs); ++r) {
    auto t0 = std::chrono::steady_clock::now();
    if (std::system(cmd.c_str()) != 0) return internal_error("snarkjs failed: " + cmd);
    times.push_back(seconds_since(t0));
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

// Peak and current resident set of this process, bytes (/proc/self/status).
std::pair<uint64_t, uint64_t> host_rss() {
  std::ifstream f("/proc/self/status");
  std::string line;
  uint64_t hwm = 0, rss = 0;
  while (std::getline(f, line)) {
    if (line.rfind("VmHWM:", 0) == 0) hwm = std::strtoull(line.c_str() + 6, nullptr, 10) * 1024;
    if (line.rfind("VmRSS:", 0) == 0) rss = std::strtoull(line.c_str() + 6, nullptr, 10) * 1024;
  }
  return {hwm, rss};
}

struct CaseResult {
  double attach_s = 0;
  std::string placement, plan;
  std::vector<double> wall_s, matvec_s;       // per timed run
  std::map<std::string, std::vector<double>> stage_ms;  // per timed run, by stage
  groth16::DeviceMemory vram;
  bool pageable = false;
};

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// One run: matvec into the backend's input buffers, then (timed as the wall)
// stage, device stages, assembly and verification.
Status one_run(const Case& c, std::shared_ptr<const groth16::AttachedKey> key, groth16::Lane& lane,
               groth16::HostBuffer bufs[3], std::span<const ff::Fr> w, const groth16::PreparedVerifyingKey& pvk,
               ThreadPool* pool, CaseResult* res, bool record) {
  groth16::ProveOptions po{.pool = pool, .c_rule = c.c_rule, .check_satisfied = false};
  auto t0 = std::chrono::steady_clock::now();
  groth16::ProofInputs in{{}, {}, {}, w};
  if (!key->computes_rows()) {
    RETURN_IF_ERROR(
        groth16::compute_rows_into(c.pk, c.circuit, w, bufs[0].span(), bufs[1].span(), bufs[2].span(), po));
    in = {bufs[0].span(), bufs[1].span(), bufs[2].span(), w};
  }
  groth16::StageTimes t;
  t.matvec_s = seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  ASSIGN_OR_RETURN(groth16::Proof proof,
                   groth16::prove_on_lane(key, in, groth16::Blinding::random(), lane, po, &t));
  auto tv = std::chrono::steady_clock::now();
  std::span<const ff::Fr> publics(w.data() + 1, c.pk.num_inputs - 1);
  ASSIGN_OR_RETURN(bool ok, pvk.verify(publics, proof));
  const double verify_ms = seconds_since(tv) * 1000;
  if (!ok) return internal_error("benchmark proof does not verify (" + c.name + ")");
  if (!record) return ok_status();
  res->wall_s.push_back(seconds_since(t0));
  res->matvec_s.push_back(t.matvec_s);
  res->stage_ms["stage(host)"].push_back(t.stage_s * 1000);
  for (const auto& [name, ms] : t.lane.stages_ms) res->stage_ms[name].push_back(ms);
  // Each query's whole (its batch addition of the ones and its tail MSM).
  // Where the queries ran beside other work ("beside.<query>.ones/.tail":
  // the resident plan's queries side by side, the overlapped streamed plan's
  // beside the H MSM), the column shows the query's own device time, which
  // overlaps the others'; "msm_lab" is then the main timeline's share.
  for (const char* q : {"msm_l", "msm_a", "msm_b1", "msm_b2"}) {
    const std::string ones = std::string(q) + ".ones", tail = std::string(q) + ".tail";
    const std::string beside = std::string(groth16::LaneTimes::kBeside) + q;
    if (t.lane.get(q) > 0 && (res->stage_ms.count(ones) || res->stage_ms.count(tail)))
      res->stage_ms[q].push_back(t.lane.get(q));
    else if (t.lane.get(beside) > 0)
      res->stage_ms[q].push_back(t.lane.get(beside));
  }
  res->stage_ms["assembly"].push_back(t.assembly_s * 1000);
  res->stage_ms["verify"].push_back(verify_ms);
  res->plan = t.lane.plan;
  res->pageable = res->pageable || t.lane.pageable_upload;
  return ok_status();
}

StatusOr<CaseResult> time_case(const BenchProveArgs& a, const Case& c, groth16::Backend& backend, ThreadPool* pool) {
  CaseResult res;
  auto t0 = std::chrono::steady_clock::now();
  groth16::AttachOptions ao;
  if (a.matvec == "device") ao.circuit = &c.circuit, ao.c_rule = c.c_rule;
  ASSIGN_OR_RETURN(auto key, backend.attach(c.pk, ao));
  ASSIGN_OR_RETURN(auto lane, backend.make_lane());
  res.attach_s = seconds_since(t0);
  res.placement = key->placement();
  const uint64_t n = c.pk.domain_size();
  groth16::HostBuffer bufs[3];
  for (auto& b : bufs) {
    if (key->computes_rows()) break;  // the host holds no a, b, c
    ASSIGN_OR_RETURN(b, backend.allocate_inputs(n));
  }
  // The witness as a preparation worker would leave it: in the backend's memory.
  ASSIGN_OR_RETURN(groth16::HostBuffer w, backend.allocate_inputs(c.witness.size()));
  std::copy(c.witness.begin(), c.witness.end(), w.data());
  groth16::PreparedVerifyingKey pvk(c.pk.vk);
  for (int r = 0; r < std::max(1, a.runs) + 1; ++r)  // the first run warms up
    RETURN_IF_ERROR(one_run(c, key, *lane, bufs, w.span(), pvk, pool, &res, r > 0));
  res.vram = backend.device_memory();
  return res;
}

void print_header(const std::string& backend) {
  std::printf("%-16s %7s %7s %7s %8s %8s %8s %8s %8s %8s %8s %8s %8s %7s %7s\n", "circuit", "gen_s", "setup_s",
              "attach", "matvec", "upload", "h", "classify", "msm_h", "msm_l", "msm_a", "msm_b1", "msm_b2", "verify",
              "wall_s");
  (void)backend;
}

void report(const BenchProveArgs& a, const Case& c, const CaseResult& r, double snark, std::ofstream& json) {
  auto st = [&](const char* k) {
    auto it = r.stage_ms.find(k);
    return it == r.stage_ms.end() ? 0.0 : median(it->second);
  };
  const double wall = median(r.wall_s);
  std::printf("%-16s %7.1f %7.1f %7.2f %8.3f %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f %7.1f %7.3f\n",
              c.name.c_str(), c.gen_s, c.setup_s, r.attach_s, median(r.matvec_s), st("upload"), st("h"), st("classify"),
              st("msm_h"), st("msm_l"), st("msm_a"), st("msm_b1"), st("msm_b2"), st("verify"), wall);
  const auto [hwm, rss] = host_rss();
  std::printf("  %s; plan %s%s; wall min %.3f max %.3f s over %zu runs; device budget %.2f GiB, peak %.2f GiB; "
              "host RSS peak %.2f GiB%s\n",
              r.placement.c_str(), r.plan.c_str(), r.pageable ? " (pageable uploads)" : "",
              *std::min_element(r.wall_s.begin(), r.wall_s.end()), *std::max_element(r.wall_s.begin(), r.wall_s.end()),
              r.wall_s.size(), double(r.vram.budget_bytes) / double(1 << 30), double(r.vram.peak_bytes) / double(1 << 30),
              double(hwm) / double(1 << 30), snark > 0 ? (", snarkjs " + std::to_string(snark) + " s").c_str() : "");
  if (st("msm_lab") > 0)
    std::printf("  L, A, B1, B2 side by side: %.1f ms on the main timeline (msm_l .. msm_b2: each query's own, "
                "overlapping)\n",
                st("msm_lab"));
  std::fflush(stdout);
  if (!json) return;
  json << "{\"circuit\":\"" << c.name << "\",\"backend\":\"" << a.backend.name << "\",\"constraints\":"
       << c.num_constraints << ",\"domain\":" << c.pk.domain_size() << ",\"gen_s\":" << c.gen_s
       << ",\"setup_s\":" << c.setup_s << ",\"attach_s\":" << r.attach_s << ",\"matvec_s\":" << median(r.matvec_s)
       << ",\"wall_s\":" << wall << ",\"wall_runs\":[";
  for (size_t i = 0; i < r.wall_s.size(); ++i) json << (i ? "," : "") << r.wall_s[i];
  json << "],\"stages_ms\":{";
  bool first = true;
  for (const auto& [k, v] : r.stage_ms) {
    json << (first ? "" : ",") << "\"" << k << "\":" << median(v);
    first = false;
  }
  json << "},\"plan\":\"" << r.plan << "\",\"vram_budget\":" << r.vram.budget_bytes
       << ",\"vram_peak\":" << r.vram.peak_bytes << ",\"host_rss_peak\":" << hwm << ",\"snarkjs_prove_s\":" << snark
       << "}\n";
  json.flush();
}

int run_bench_prove(const BenchProveArgs& a) {
  CommandPool command_pool(a.threads);
  ThreadPool* pool = command_pool.get();
  std::string said;
  auto backend = make_backend(a.backend, pool, &said);
  if (!backend.ok()) return fail("bench prove", backend.status());
  std::printf("cuzk bench prove: %s (%s build, %s, git %s, %u threads); medians of %d runs after a warm-up; "
              "times in ms unless _s\n",
              said.c_str(), CUZK_BUILD_TYPE, CUZK_COMPILER, CUZK_GIT_REVISION, pool->size(), a.runs);
  if (std::strcmp(CUZK_BUILD_TYPE, "Release") != 0) std::printf("WARNING: not a release build; figures are not comparable\n");
  print_header(a.backend.name);
  std::ofstream json;
  if (!a.json.empty()) json.open(a.json);
  std::vector<int> sizes = a.zkey.empty() ? a.lg_sizes : std::vector<int>{0};
  for (int lg : sizes) {
    auto c = a.zkey.empty() ? synthetic_case(lg, a, **backend, pool) : file_case(a, pool);
    if (!c.ok()) return fail("bench prove", c.status());
    auto r = time_case(a, *c, **backend, pool);
    if (!r.ok()) return fail("bench prove", r.status().with_context(c->name), kExitInvalid);
    double snark = -1;
    if (!a.snarkjs.empty()) {
      auto s = time_snarkjs(a, *c, pool);
      if (!s.ok()) return fail("bench prove", s.status());
      snark = *s;
    }
    report(a, *c, *r, snark, json);
  }
  return kExitOk;
}

}  // namespace

void add_bench_prove_command(CLI::App& bench, Runner* runner) {
  auto a = std::make_shared<BenchProveArgs>();
  auto* cmd = bench.add_subcommand("prove", "Time whole proofs (synthetic, PoRep-shaped, or --zkey/--wtns), per stage");
  add_backend_options(cmd, &a->backend);
  cmd->add_option("--shape", a->shape, "synthetic (snarkjs layout) or porep (Filecoin PoRep proportions, bellperson layout)")
      ->check(CLI::IsMember({"synthetic", "porep"}))
      ->capture_default_str();
  cmd->add_option("--lg", a->lg_sizes, "Domain sizes as log2, e.g. --lg 12 16 20")->capture_default_str();
  cmd->add_option("--zkey", a->zkey, "Prove this snarkjs key instead of synthetic circuits (needs --wtns)");
  cmd->add_option("--wtns", a->wtns, "Witness for --zkey");
  cmd->add_option("--snarkjs", a->snarkjs, "Also time this snarkjs command on the same key, e.g. 'npx snarkjs'");
  cmd->add_option("--work-dir", a->work_dir, "Where keys for snarkjs are written")->capture_default_str();
  cmd->add_option("--zero-one", a->zero_one, "Share of aux values that are 0 or 1 (synthetic)")->capture_default_str();
  cmd->add_option("--runs", a->runs, "Timed runs per case (after one warm-up)")->capture_default_str();
  cmd->add_option("--threads", a->threads, "Worker threads (default: all cores)");
  cmd->add_option("--matvec", a->matvec,
                  "Where a, b, c are made: device (the key keeps its circuit on the GPU when it fits; the CPU "
                  "backend makes them inside the proof) or host")
      ->check(CLI::IsMember({"device", "host"}))
      ->capture_default_str();
  cmd->add_option("--json", a->json, "Write JSON lines here");
  cmd->callback([runner, a] { *runner = [a] { return run_bench_prove(*a); }; });
}

}  // namespace cuzk::app
