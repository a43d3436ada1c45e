// `cuzk bench prove`: whole CPU proofs on synthetic circuits (or given key
// files) with per-stage times, optionally against `snarkjs groth16 prove` on
// the same key and witness in the same run.
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>

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

namespace cuzk::app {
namespace {

struct BenchProveArgs {
  std::string backend = "cpu";
  std::vector<int> lg_sizes{12, 14, 16};
  std::string zkey, wtns;   // prove these instead of synthetic circuits
  std::string snarkjs;      // command to run snarkjs (e.g. "npx snarkjs"); empty: no comparison
  std::string work_dir = "/tmp/cuzk-bench-prove";
  std::string json;
  int runs = 3;
  int threads = 0;
  double zero_one = 0.8;
};

struct Case {
  std::string name;
  io::ZkeyContents key;
  std::vector<ff::Fr> witness;
  double setup_s = 0;
};

StatusOr<Case> synthetic_case(int lg, const BenchProveArgs& a, ThreadPool* pool) {
  uint64_t publics = 4;
  uint64_t constraints = (uint64_t(1) << lg) - publics - 1;
  r1cs::SyntheticParams p{.num_constraints = constraints, .num_public_inputs = publics, .num_aux = constraints,
                          .zero_one_fraction = a.zero_one, .terms_per_lc = 2, .num_distinct_coeffs = 64,
                          .seed = uint64_t(lg)};
  ASSIGN_OR_RETURN(r1cs::SyntheticCircuit sc, r1cs::generate_synthetic(p));
  Case c;
  c.name = "synthetic 2^" + std::to_string(lg);
  auto t0 = std::chrono::steady_clock::now();
  ASSIGN_OR_RETURN(c.key.pk, groth16::dev_setup(sc.circuit, {.layout = groth16::KeyLayout::kSnarkjs,
                                                              .seed = uint64_t(lg), .pool = pool}));
  c.setup_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSIGN_OR_RETURN(c.key.ab_circuit, groth16::append_input_rows(sc.circuit, false));
  c.key.num_constraints = constraints;
  c.witness = std::move(sc.witness);
  return c;
}

StatusOr<Case> file_case(const BenchProveArgs& a, ThreadPool* pool) {
  Case c;
  c.name = a.zkey;
  ASSIGN_OR_RETURN(c.key, io::read_zkey(a.zkey, {.check_points = false, .pool = pool}));
  ASSIGN_OR_RETURN(c.witness, io::read_wtns(a.wtns, pool));
  return c;
}

// Times `snarkjs groth16 prove` on the same key and witness (median of runs).
StatusOr<double> time_snarkjs(const BenchProveArgs& a, const Case& c, ThreadPool* pool) {
  ::mkdir(a.work_dir.c_str(), 0755);
  std::string zkey = a.zkey.empty() ? a.work_dir + "/bench.zkey" : a.zkey;
  std::string wtns = a.zkey.empty() ? a.work_dir + "/bench.wtns" : a.wtns;
  if (a.zkey.empty()) {
    RETURN_IF_ERROR(io::write_zkey(zkey, c.key, pool));
    RETURN_IF_ERROR(io::write_wtns(c.witness, wtns));
  }
  std::string cmd = a.snarkjs + " groth16 prove " + zkey + " " + wtns + " " + a.work_dir + "/p.json " + a.work_dir +
                    "/pub.json > " + a.work_dir + "/snarkjs.log 2>&1";
  std::vector<double> times;
  for (int r = 0; r < std::max(1, a.runs); ++r) {
    auto t0 = std::chrono::steady_clock::now();
    if (std::system(cmd.c_str()) != 0) return internal_error("snarkjs failed: " + cmd);
    times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

struct CaseResult {
  groth16::StageTimes median;
  double verify_s = 0;
};

StatusOr<CaseResult> time_cuzk(const BenchProveArgs& a, const Case& c, ThreadPool* pool) {
  auto backend = groth16::make_cpu_backend(pool);
  std::vector<groth16::StageTimes> all;
  groth16::Proof proof;
  for (int r = 0; r < std::max(1, a.runs) + 1; ++r) {  // the first run warms up
    groth16::StageTimes t;
    ASSIGN_OR_RETURN(proof, groth16::prove(c.key.pk, c.key.ab_circuit, c.witness, groth16::Blinding::random(),
                                           *backend, {.pool = pool, .c_rule = c.key.c_rule}, &t));
    if (r > 0) all.push_back(t);
  }
  std::sort(all.begin(), all.end(), [](auto& x, auto& y) { return x.total_s < y.total_s; });
  CaseResult res{all[all.size() / 2], 0};
  auto t0 = std::chrono::steady_clock::now();
  std::span<const ff::Fr> publics(c.witness.data() + 1, c.key.pk.num_inputs - 1);
  ASSIGN_OR_RETURN(bool ok, groth16::verify(c.key.pk.vk, publics, proof));
  res.verify_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!ok) return internal_error("benchmark proof does not verify");
  return res;
}

int run_bench_prove(const BenchProveArgs& a) {
  if (a.backend != "cpu")
    return fail("bench prove", unimplemented("--backend " + a.backend + ": only the cpu backend proves end to end"));
  CommandPool command_pool(a.threads);
  ThreadPool* pool = command_pool.get();
  std::printf("cuzk bench prove --backend cpu (%s build, %s, git %s, %u threads); medians of %d runs\n",
              CUZK_BUILD_TYPE, CUZK_COMPILER, CUZK_GIT_REVISION, pool->size(), a.runs);
  std::printf("%-22s %8s %8s %8s %8s %8s %9s %8s %10s %8s\n", "circuit", "setup_s", "matvec", "h", "msm", "asm",
              "prove_s", "verify", "snarkjs_s", "ratio");
  std::ofstream json;
  if (!a.json.empty()) json.open(a.json);
  std::vector<int> sizes = a.zkey.empty() ? a.lg_sizes : std::vector<int>{0};
  for (int lg : sizes) {
    auto c = a.zkey.empty() ? synthetic_case(lg, a, pool) : file_case(a, pool);
    if (!c.ok()) return fail("bench prove", c.status());
    auto r = time_cuzk(a, *c, pool);
    if (!r.ok()) return fail("bench prove", r.status(), kExitInvalid);
    double snark = -1;
    if (!a.snarkjs.empty()) {
      auto s = time_snarkjs(a, *c, pool);
      if (!s.ok()) return fail("bench prove", s.status());
      snark = *s;
    }
    const groth16::StageTimes& t = r->median;
    std::printf("%-22s %8.2f %8.3f %8.3f %8.3f %8.3f %9.3f %8.3f %10.2f %8.1f\n", c->name.c_str(), c->setup_s,
                t.matvec_s, t.h_s, t.msm_s, t.assembly_s, t.total_s, r->verify_s, snark,
                snark > 0 ? snark / t.total_s : 0.0);
    std::fflush(stdout);
    if (json)
      json << "{\"circuit\":\"" << c->name << "\",\"constraints\":" << c->key.num_constraints
           << ",\"domain\":" << c->key.pk.domain_size() << ",\"setup_s\":" << c->setup_s
           << ",\"matvec_s\":" << t.matvec_s << ",\"h_s\":" << t.h_s << ",\"msm_s\":" << t.msm_s
           << ",\"assembly_s\":" << t.assembly_s << ",\"prove_s\":" << t.total_s << ",\"verify_s\":" << r->verify_s
           << ",\"snarkjs_prove_s\":" << snark << "}\n";
  }
  return kExitOk;
}

}  // namespace

void add_bench_prove_command(CLI::App& bench, Runner* runner) {
  auto a = std::make_shared<BenchProveArgs>();
  auto* cmd = bench.add_subcommand("prove", "Time whole proofs (synthetic circuits, or --zkey/--wtns), per stage");
  cmd->add_option("--backend", a->backend, "cpu (the CUDA backend proves through the engine)")->capture_default_str();
  cmd->add_option("--lg", a->lg_sizes, "Domain sizes as log2, e.g. --lg 12 16 20")->capture_default_str();
  cmd->add_option("--zkey", a->zkey, "Prove this snarkjs key instead of synthetic circuits (needs --wtns)");
  cmd->add_option("--wtns", a->wtns, "Witness for --zkey");
  cmd->add_option("--snarkjs", a->snarkjs, "Also time this snarkjs command on the same key, e.g. 'npx snarkjs'");
  cmd->add_option("--work-dir", a->work_dir, "Where keys for snarkjs are written")->capture_default_str();
  cmd->add_option("--zero-one", a->zero_one, "Share of aux values that are 0 or 1 (synthetic)")->capture_default_str();
  cmd->add_option("--runs", a->runs, "Timed runs per case (after one warm-up)")->capture_default_str();
  cmd->add_option("--threads", a->threads, "Worker threads (default: all cores)");
  cmd->add_option("--json", a->json, "Write JSON lines here");
  cmd->callback([runner, a] { *runner = [a] { return run_bench_prove(*a); }; });
}

}  // namespace cuzk::app
