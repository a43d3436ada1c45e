// Times each step of verifying one proof against a verifying key with many
// public inputs, for the record (docs/perf.md §7); not a test. The key and
// inputs have the shape of a 32 GiB Window PoSt's: 25,840 IC points, one
// input in 11 a full Fr (comm_r), the rest leaf indices below 2^30.
//   verify_timing [runs (default 15)] [inputs (default 25839)] [sweep]
// Prints, per step, the median and fastest wall time and the median CPU time of
// `runs` runs; "sweep" adds the MSM at window sizes 8 to 14.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "cuzk/base/random.h"
#include "cuzk/base/thread_pool.h"
#include "cuzk/ec/curves.h"
#include "cuzk/ec/scalar_mul.h"
#include "cuzk/groth16/verifier.h"
#include "cuzk/msm/msm.h"
#include "cuzk/pairing/pairing.h"

namespace cuzk::groth16 {
namespace {

using Clock = std::chrono::steady_clock;

struct Fixture {
  VerifyingKey vk;
  Proof proof;
  std::vector<ff::Fr> x;
};

// IC_i = a·G + i·h·G and a proof made with the trapdoor, so that it verifies.
Fixture make_fixture(size_t inputs, TestRng& rng) {
  Fixture f;
  const ff::Fr alpha = ff::Fr::random(rng), beta = ff::Fr::random(rng), gamma = ff::Fr::random(rng),
               delta = ff::Fr::random(rng), a = ff::Fr::random(rng), h = ff::Fr::random(rng);
  const ec::G1Affine g1 = ec::g1_generator();
  const ec::G2Affine g2 = ec::g2_generator();
  f.vk.alpha_g1 = ec::mul(g1, alpha).to_affine();
  f.vk.beta_g1 = ec::mul(g1, beta).to_affine();
  f.vk.beta_g2 = ec::mul(g2, beta).to_affine();
  f.vk.gamma_g2 = ec::mul(g2, gamma).to_affine();
  f.vk.delta_g1 = ec::mul(g1, delta).to_affine();
  f.vk.delta_g2 = ec::mul(g2, delta).to_affine();
  std::vector<ec::G1Jacobian> ic(inputs + 1);
  ec::G1Jacobian p = ec::mul(g1, a);
  const ec::G1Affine step = ec::mul(g1, h).to_affine();
  for (auto& q : ic) q = p, p += step;
  f.vk.ic = ec::batch_normalize<ec::G1Curve>(std::span<const ec::G1Jacobian>(ic));
  f.x.resize(inputs);
  ff::Fr u = a;
  for (size_t i = 0; i < inputs; ++i) {
    f.x[i] = i % 11 == 0 ? ff::Fr::random(rng) : ff::Fr::from_uint(rng() & ((1u << 30) - 1));
    u += (a + h * ff::Fr::from_uint(i + 1)) * f.x[i];
  }
  const ff::Fr pa = ff::Fr::random(rng), pb = ff::Fr::random(rng);
  f.proof.a = ec::mul(g1, pa).to_affine();
  f.proof.b = ec::mul(g2, pb).to_affine();
  f.proof.c = ec::mul(g1, (pa * pb - alpha * beta - u * gamma) * delta.inverse()).to_affine();
  return f;
}

double cpu_ms() { return 1e3 * double(std::clock()) / CLOCKS_PER_SEC; }

// Median of the wall times and of the process CPU times (all threads), each
// sorted on its own; on a shared machine the CPU time is the steadier one.
void report(const char* step, int runs, const std::function<void()>& body) {
  std::vector<double> wall(static_cast<size_t>(runs)), cpu(static_cast<size_t>(runs));
  for (size_t r = 0; r < wall.size(); ++r) {
    const double c0 = cpu_ms();
    const auto t0 = Clock::now();
    body();
    wall[r] = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    cpu[r] = cpu_ms() - c0;
  }
  std::sort(wall.begin(), wall.end());
  std::sort(cpu.begin(), cpu.end());
  std::printf("  %-28s wall median %7.2f ms (fastest %7.2f)  cpu median %7.2f ms  (%d runs)\n", step,
              wall[wall.size() / 2], wall[0], cpu[cpu.size() / 2], runs);
  std::fflush(stdout);
}

void run(int runs, size_t inputs, bool sweep) {
  TestRng rng(20261204);
  const Fixture f = make_fixture(inputs, rng);
  const PreparedVerifyingKey pvk(f.vk);
  auto ok = pvk.verify(f.x, f.proof);
  if (!ok.ok() || !*ok) {
    std::printf("the proof does not verify: the fixture is broken\n");
    std::exit(1);
  }
  const std::span<const ec::G1Affine> bases(f.vk.ic.data() + 1, inputs);
  ec::G1Jacobian ic_x = msm::msm<ec::G1Curve>(bases, f.x);
  ic_x += f.vk.ic[0];
  const ec::G1Affine acc = ic_x.to_affine();
  const pairing::G2Prepared neg_gamma(-f.vk.gamma_g2), neg_delta(-f.vk.delta_g2), beta(f.vk.beta_g2);
  const ec::G1Affine neg_alpha = -f.vk.alpha_g1;
  std::printf("verify_timing: %zu inputs, pool %u workers, %u hardware threads\n", inputs,
              default_thread_pool().size(), std::thread::hardware_concurrency());
  report("verify (all of it)", runs, [&] { (void)pvk.verify(f.x, f.proof); });
  report("msm::msm over the inputs", runs, [&] { (void)msm::msm<ec::G1Curve>(bases, f.x); });
  std::vector<ff::Limbs<4>> canonical(inputs);
  report("  of which to_canonical", runs, [&] { msm::to_canonical(f.x, canonical); });
  report("in_subgroup(IC(x))", runs, [&] { (void)ec::in_subgroup(acc); });
  report("G2Prepared(proof.b)", runs, [&] { (void)pairing::G2Prepared(f.proof.b); });
  const pairing::G2Prepared b_lines(f.proof.b);
  const std::pair<ec::G1Affine, const pairing::G2Prepared*> pairs[] = {
      {f.proof.a, &b_lines}, {acc, &neg_gamma}, {f.proof.c, &neg_delta}, {neg_alpha, &beta}};
  pairing::Gt ml;
  report("multi-Miller loop (4 pairs)", runs, [&] { ml = pairing::multi_miller_loop(pairs); });
  report("final exponentiation", runs, [&] { (void)pairing::final_exponentiation(ml); });
  if (!sweep) return;
  std::printf("msm over the inputs by window size (%s)\n", msm::plan_for(inputs).to_string().c_str());
  for (int c = 8; c <= 14; ++c) {
    char step[32];
    std::snprintf(step, sizeof(step), "c = %d", c);
    msm::MsmOptions options;
    options.window_bits = c;
    report(step, runs, [&] { (void)msm::msm<ec::G1Curve>(bases, f.x, options); });
  }
}

}  // namespace
}  // namespace cuzk::groth16

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 15;
  const size_t inputs = argc > 2 ? size_t(std::strtoull(argv[2], nullptr, 10)) : 25'839;
#ifdef NDEBUG
  std::printf("build: release\n");
#else
  std::printf("build: DEBUG (timings not representative)\n");
#endif
  cuzk::groth16::run(runs, inputs, argc > 3 && std::string(argv[3]) == "sweep");
  return 0;
}
