// `cuzk bench field`: timings of the arithmetic every other layer is built
// from, in the same shape as the figures docs/perf.md compares with blst.
#include <cstdio>
#include <fstream>

#include "bench_util.h"
#include "cuzk/base/random.h"
#include "cuzk/build_info.h"
#include "cuzk/commands.h"
#include "cuzk/ec/scalar_mul.h"
#include "cuzk/ec/zcash_codec.h"
#include "cuzk/ff/fp.h"
#include "cuzk/ff/fr.h"
#include "cuzk/pairing/pairing.h"

namespace cuzk::app {
namespace {

using ff::Fp;
using ff::Fr;

// Each loop carries a data dependency from one iteration to the next, so the
// figures are latencies, as in blst's equivalent loops.
std::vector<BenchResult> run_field_bench(int runs) {
  std::vector<BenchResult> out;
  TestRng rng(42);
  Fp a = Fp::random(rng), b = Fp::random(rng);
  out.push_back(time_op("fp_mul", 2000000, runs, [&](long n) {
    for (long i = 0; i < n; ++i) a = a * b;
  }));
  Fr x = Fr::random(rng), y = Fr::random(rng);
  out.push_back(time_op("fr_mul", 4000000, runs, [&](long n) {
    for (long i = 0; i < n; ++i) x = x * y;
  }));
  ec::G1Jacobian acc = ec::G1Jacobian::from_affine(ec::g1_generator());
  ec::G1Affine q = ec::mul(ec::g1_generator(), Fr::random(rng)).to_affine();
  out.push_back(time_op("g1_mixed_add", 500000, runs, [&](long n) {
    for (long i = 0; i < n; ++i) acc += q;
  }));
  ec::G2Jacobian acc2 = ec::mul(ec::g2_generator(), Fr::random(rng));
  ec::G2Jacobian d2 = ec::mul(ec::g2_generator(), Fr::random(rng));
  out.push_back(time_op("g2_add", 200000, runs, [&](long n) {
    for (long i = 0; i < n; ++i) acc2 = acc2 + d2;
  }));
  auto comp = ec::g1_to_zcash_compressed(acc.to_affine());
  bool ok = true;
  out.push_back(time_op("g1_decompress_checked", 5000, runs, [&](long n) {
    for (long i = 0; i < n; ++i) ok &= ec::g1_from_zcash(comp).ok();
  }));
  ec::G1Affine p1 = acc.to_affine();
  ec::G2Affine p2 = acc2.to_affine();
  pairing::Gt gt;
  out.push_back(time_op("pairing", 300, runs, [&](long n) {
    for (long i = 0; i < n; ++i) gt = pairing::pairing(p1, p2);
  }));
  if (!ok || gt.is_zero() || a.is_zero() || x.is_zero()) std::fprintf(stderr, "bench field: unexpected result\n");
  return out;
}

int bench_field(int runs, const std::string& json_path) {
  std::printf("cuzk bench field (%s build, %s, git %s); medians of %d runs, ns per operation\n", CUZK_BUILD_TYPE,
              CUZK_COMPILER, CUZK_GIT_REVISION, runs);
#ifndef NDEBUG
  std::printf("WARNING: debug build: these figures are not representative\n");
#endif
  std::vector<BenchResult> results = run_field_bench(runs);
  std::ofstream json;
  if (!json_path.empty()) json.open(json_path);
  for (const BenchResult& r : results) {
    std::printf("  %-24s %12.1f ns   (min %.1f, max %.1f)\n", r.op.c_str(), r.ns_per_op, r.min_ns, r.max_ns);
    if (json)
      json << "{\"op\":\"" << r.op << "\",\"impl\":\"cuzk\",\"ns_per_op\":" << r.ns_per_op << "}\n";
  }
  return 0;
}

}  // namespace

void add_bench_field_command(CLI::App& bench, Runner* runner) {
  auto* cmd = bench.add_subcommand("field", "Time Fp/Fr multiplication, G1/G2 additions, G1 decompression, a pairing");
  auto runs = std::make_shared<int>(7);
  auto json = std::make_shared<std::string>();
  cmd->add_option("--runs", *runs, "Timed runs per operation (median reported)")->check(CLI::Range(1, 100));
  cmd->add_option("--json", *json, "Also write JSON lines to this file");
  cmd->callback([runner, runs, json] { *runner = [runs, json] { return bench_field(*runs, *json); }; });
}

}  // namespace cuzk::app
