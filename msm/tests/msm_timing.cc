// Prints G1/G2 MSM wall times for the record: random scalars with msm(), and
// a witness-like mix (45% zeros, 45% ones, 10% random) with split_msm().
//   msm_timing [max_lg_g1 (default 20)] [max_lg_g2 (default 18)]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <thread>
#include <vector>

#include "cuzk/base/random.h"
#include "cuzk/base/thread_pool.h"
#include "cuzk/ec/curves.h"
#include "cuzk/msm/msm.h"
#include "cuzk/msm/split.h"

namespace cuzk::msm {
namespace {

constexpr size_t kBlock = 4096;

// n distinct subgroup points: per block, a random start plus multiples of a
// random step (one addition per point), normalised with one inversion.
template <class C>
std::vector<ec::Affine<C>> make_bases(size_t n, uint64_t seed) {
  std::vector<ec::Affine<C>> out(n);
  default_thread_pool().parallel_for((n + kBlock - 1) / kBlock, 1, [&](size_t b, size_t e) {
    for (size_t blk = b; blk < e; ++blk) {
      TestRng rng(seed + blk);
      const size_t lo = blk * kBlock, hi = std::min(n, lo + kBlock);
      ec::Jacobian<C> p = ec::mul(ec::Affine<C>::generator(), ff::Fr::random(rng));
      const ec::Affine<C> step = ec::mul(ec::Affine<C>::generator(), ff::Fr::random(rng)).to_affine();
      std::vector<ec::Jacobian<C>> jac(hi - lo);
      for (auto& j : jac) {
        j = p;
        p += step;
      }
      ec::batch_normalize<C>(std::span<const ec::Jacobian<C>>(jac), std::span<ec::Affine<C>>(out.data() + lo, hi - lo));
    }
  });
  return out;
}

std::vector<ff::Fr> make_scalars(size_t n, TestRng& rng, bool witness_like) {
  std::vector<ff::Fr> s(n);
  for (auto& k : s) {
    const uint64_t u = witness_like ? rng() % 20 : 19;
    k = u < 9 ? ff::Fr::zero() : u < 18 ? ff::Fr::one() : ff::Fr::random(rng);
  }
  return s;
}

// Wall and process CPU seconds of the fastest of `runs` runs. On a shared
// machine the CPU time (summed over threads) is the steadier number.
struct Timing {
  double wall_s = 1e30, cpu_s = 0;
};

double cpu_seconds() { return double(std::clock()) / CLOCKS_PER_SEC; }

template <class F>
Timing best_of(int runs, F&& body) {
  Timing best;
  for (int r = 0; r < runs; ++r) {
    const double c0 = cpu_seconds();
    const auto t0 = std::chrono::steady_clock::now();
    body();
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (wall < best.wall_s) best = Timing{wall, cpu_seconds() - c0};
  }
  return best;
}

template <class C>
void time_curve(const char* name, int max_lg, TestRng& rng) {
  for (int lg : {12, 16, 18, 20}) {
    if (lg > max_lg) continue;
    const size_t n = size_t(1) << lg;
    const auto bases = make_bases<C>(n, rng());
    const int runs = lg <= 16 ? 3 : 1;
    const auto random = make_scalars(n, rng, false);
    const Timing t_random = best_of(runs, [&] { (void)msm<C>(bases, random); });
    const auto mixed = make_scalars(n, rng, true);
    const Timing t_split = best_of(runs, [&] { (void)split_msm<C>(bases, mixed); });
    std::printf("%s n=2^%-2d msm(random) %7.3f s wall %7.3f s cpu   split_msm(90%% 0/1) %7.3f s wall %7.3f s cpu",
                name, lg, t_random.wall_s, t_random.cpu_s, t_split.wall_s, t_split.cpu_s);
    std::printf("   [%s]\n", plan_for(n).to_string().c_str());
    std::fflush(stdout);
  }
}

}  // namespace
}  // namespace cuzk::msm

int main(int argc, char** argv) {
  const int max_g1 = argc > 1 ? std::atoi(argv[1]) : 20;
  const int max_g2 = argc > 2 ? std::atoi(argv[2]) : 18;
#ifdef NDEBUG
  const char* build = "release";
#else
  const char* build = "DEBUG (timings not representative)";
#endif
  std::printf("msm_timing: build %s, pool %u workers, %u hardware threads\n", build,
              cuzk::default_thread_pool().size(), std::thread::hardware_concurrency());
  cuzk::TestRng rng{cuzk::OsRng()()};
  cuzk::msm::time_curve<cuzk::ec::G1Curve>("G1", max_g1, rng);
  cuzk::msm::time_curve<cuzk::ec::G2Curve>("G2", max_g2, rng);
  return 0;
}
