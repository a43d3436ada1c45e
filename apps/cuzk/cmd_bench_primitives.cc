// `cuzk bench msm` and `cuzk bench ntt`: the prover's primitives on their own,
// on the CPU backend or (builds with CUDA) on the GPU. Every MSM figure is
// checked in the same run: with bases P_i = A + i·H, Σ k_i·P_i must equal
// (Σ k_i)·A + (Σ i·k_i)·H; every NTT by a round trip.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "bench_util.h"
#include "cli_util.h"
#include "commands.h"
#include "cuzk/base/random.h"
#include "cuzk/build_info.h"
#include "cuzk/ec/batch.h"
#include "cuzk/ec/scalar_mul.h"
#include "cuzk/msm/msm.h"
#include "cuzk/ntt/domain.h"
#include "cuzk/ntt/ntt.h"
#ifdef CUZK_HAVE_GPU_BENCH
#include "cuzk/gpu_bench/gpu_bench.h"
#endif

namespace cuzk::app {
namespace {

struct PrimitiveArgs {
  std::string backend = "cpu";
  std::string curve = "g1";
  int lg_min = 12, lg_max = 16, reps = 5;
  bool streamed = false;
  int batch_lg = 0;
  int affine_rounds = -1;
  int window_bits = 0;
  int window_lanes = 0;
  std::string json;
};

// Bases A + i·H, i < n, normalised with one inversion per chunk.
template <class C>
std::vector<ec::Affine<C>> progression(size_t n, const ec::Jacobian<C>& a, const ec::Affine<C>& h) {
  std::vector<ec::Jacobian<C>> jac(n);
  ec::Jacobian<C> p = a;
  for (size_t i = 0; i < n; ++i, p += h) jac[i] = p;
  return ec::batch_normalize<C>(std::span<const ec::Jacobian<C>>(jac));
}

template <class C>
int bench_msm_cpu(const PrimitiveArgs& a, ec::Affine<C> gen, std::ofstream& json) {
  OsRng rng;
  ec::Jacobian<C> base_a = ec::mul(gen, ff::Fr::random(rng));
  ec::Affine<C> base_h = ec::mul(gen, ff::Fr::random(rng)).to_affine();
  for (int lg = a.lg_min; lg <= a.lg_max; ++lg) {
    size_t n = size_t(1) << lg;
    std::vector<ec::Affine<C>> bases = progression<C>(n, base_a, base_h);
    std::vector<ff::Fr> k(n);
    ff::Fr sum_k = ff::Fr::zero(), sum_ik = ff::Fr::zero();
    for (size_t i = 0; i < n; ++i) {
      k[i] = ff::Fr::random(rng);
      sum_k += k[i];
      sum_ik += k[i] * ff::Fr::from_uint(i);
    }
    ec::Jacobian<C> result;
    BenchResult r = time_op("msm", 1, a.reps, [&](long) { result = msm::msm<C>(bases, k); });
    bool ok = result == (ec::mul(base_a, sum_k) + ec::mul(base_h, sum_ik));
    std::printf("  msm %s 2^%-2d %10.2f ms  (min %.2f, max %.2f)  check %s\n", a.curve.c_str(), lg, r.ns_per_op / 1e6,
                r.min_ns / 1e6, r.max_ns / 1e6, ok ? "ok" : "FAILED");
    if (json)
      json << "{\"op\":\"msm_" << a.curve << "\",\"backend\":\"cpu\",\"lg_n\":" << lg
           << ",\"median_ms\":" << r.ns_per_op / 1e6 << ",\"ok\":" << (ok ? "true" : "false") << "}\n";
    if (!ok) return kExitInvalid;
  }
  return kExitOk;
}

int bench_ntt_cpu(const PrimitiveArgs& a, std::ofstream& json) {
  OsRng rng;
  for (int lg = a.lg_min; lg <= a.lg_max; ++lg) {
    auto d = ntt::Domain::create(lg, ff::RootConvention::kBellperson);
    if (!d.ok()) return fail("bench ntt", d.status());
    std::vector<ff::Fr> x(size_t(1) << lg);
    for (auto& v : x) v = ff::Fr::random(rng);
    std::vector<ff::Fr> orig = x;
    const ff::Fr g = ff::fr_generator(ff::RootConvention::kBellperson);
    BenchResult fwd = time_op("ntt", 1, a.reps, [&](long) { ntt::forward(*d, x).ignore(); });
    BenchResult cos = time_op("coset", 1, a.reps, [&](long) { ntt::coset_forward(*d, x, g).ignore(); });
    // Undo everything: one forward per timed or warm-up run, then the cosets.
    x = orig;
    ntt::coset_forward(*d, x, g).ignore();
    ntt::coset_inverse(*d, x, g).ignore();
    bool ok = x == orig;
    std::printf("  ntt 2^%-2d forward %9.3f ms, coset forward %9.3f ms  round trip %s\n", lg, fwd.ns_per_op / 1e6,
                cos.ns_per_op / 1e6, ok ? "ok" : "FAILED");
    if (json)
      json << "{\"op\":\"ntt\",\"backend\":\"cpu\",\"lg_n\":" << lg << ",\"forward_ms\":" << fwd.ns_per_op / 1e6
           << ",\"coset_forward_ms\":" << cos.ns_per_op / 1e6 << ",\"ok\":" << (ok ? "true" : "false") << "}\n";
    if (!ok) return kExitInvalid;
  }
  return kExitOk;
}

int run_cuda(const std::string& what, const PrimitiveArgs& a) {
#ifdef CUZK_HAVE_GPU_BENCH
  std::vector<std::string> args = {"cuzk-gpu-bench", what, "--lg-min", std::to_string(a.lg_min), "--lg-max",
                                   std::to_string(a.lg_max), "--reps", std::to_string(a.reps)};
  if (what == "msm") args.insert(args.end(), {"--curve", a.curve});
  if (a.streamed) args.push_back("--streamed");
  if (a.batch_lg > 0) args.insert(args.end(), {"--batch-lg", std::to_string(a.batch_lg)});
  if (what == "msm") args.insert(args.end(), {"--affine-rounds", std::to_string(a.affine_rounds)});
  if (what == "msm" && a.window_bits > 0) args.insert(args.end(), {"--window-bits", std::to_string(a.window_bits)});
  if (what == "msm" && a.window_lanes > 0)
    args.insert(args.end(), {"--window-lanes", std::to_string(a.window_lanes)});
  if (!a.json.empty()) args.insert(args.end(), {"--json", a.json});
  std::vector<char*> argv;
  for (auto& s : args) argv.push_back(s.data());
  return gpu_bench::run(int(argv.size()), argv.data());
#else
  (void)what;
  (void)a;
  return fail("bench", unimplemented("this build has no CUDA backend (configure with CUZK_CUDA=ON)"));
#endif
}

int run_primitive(const std::string& what, const PrimitiveArgs& a) {
  if (a.lg_min < 1 || a.lg_max < a.lg_min || a.lg_max > 30)
    return fail("bench", invalid_argument("need 1 <= --lg-min <= --lg-max <= 30"));
  if (a.backend == "cuda") return run_cuda(what, a);
  if (a.backend != "cpu") return fail("bench", invalid_argument("--backend must be cpu or cuda"));
  std::printf("cuzk bench %s --backend cpu (%s build, git %s); medians of %d runs\n", what.c_str(), CUZK_BUILD_TYPE,
              CUZK_GIT_REVISION, a.reps);
  std::ofstream json;
  if (!a.json.empty()) json.open(a.json);
  if (what == "ntt") return bench_ntt_cpu(a, json);
  if (a.curve == "g1") return bench_msm_cpu<ec::G1Curve>(a, ec::g1_generator(), json);
  if (a.curve == "g2") return bench_msm_cpu<ec::G2Curve>(a, ec::g2_generator(), json);
  return fail("bench", invalid_argument("--curve must be g1 or g2"));
}

void add_one(CLI::App& bench, const std::string& what, const std::string& help, Runner* runner) {
  auto a = std::make_shared<PrimitiveArgs>();
  auto* cmd = bench.add_subcommand(what, help);
  cmd->add_option("--backend", a->backend, "cpu or cuda")->capture_default_str();
  if (what == "msm") {
    cmd->add_option("--curve", a->curve, "g1 or g2")->capture_default_str();
    cmd->add_flag("--streamed", a->streamed, "cuda: also bases streamed from pinned host memory");
    cmd->add_option("--batch-lg", a->batch_lg, "cuda, --streamed: log2 of the batch size");
    cmd->add_option("--affine-rounds", a->affine_rounds,
                    "cuda: batch-affine rounds before the XYZZ bucket sums (-1: chosen from n, 0: none)")
        ->capture_default_str();
    cmd->add_option("--window-bits", a->window_bits, "cuda: window size in bits, 2..24 (0: chosen from n)")
        ->capture_default_str();
    cmd->add_option("--window-lanes", a->window_lanes,
                    "cuda: windows accumulated at once, 1 or 2 (0: chosen; two need twice the scratch)")
        ->check(CLI::Range(0, 2))
        ->capture_default_str();
  }
  cmd->add_option("--lg-min", a->lg_min, "Smallest size (log2)")->capture_default_str();
  cmd->add_option("--lg-max", a->lg_max, "Largest size (log2)")->capture_default_str();
  cmd->add_option("--reps", a->reps, "Timed runs per size (median reported)")->capture_default_str();
  cmd->add_option("--json", a->json, "Write results as JSON here");
  cmd->callback([runner, a, what] { *runner = [a, what] { return run_primitive(what, *a); }; });
}

}  // namespace

void add_bench_primitive_commands(CLI::App& bench, Runner* runner) {
  add_one(bench, "msm", "Time multi-scalar multiplications (random scalars), checked", runner);
  add_one(bench, "ntt", "Time NTTs over Fr (forward, coset forward), checked by round trip", runner);
}

}  // namespace cuzk::app
