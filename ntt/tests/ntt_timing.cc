// ntt_timing [threads] [lg_n...]: prints the wall time of forward transforms
// (natural -> bit-reversed and natural -> natural) on random data, best of
// three runs. A measurement tool, not a test; the default sizes are 2^20 and 2^22.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "cuzk/base/random.h"
#include "cuzk/ntt/ntt.h"

namespace {

using cuzk::ff::Fr;

double best_ms(const cuzk::ntt::Domain& d, std::vector<Fr>& x, cuzk::ntt::Order order, cuzk::ThreadPool& pool) {
  double best = 1e30;
  for (int rep = 0; rep < 3; ++rep) {
    auto t0 = std::chrono::steady_clock::now();
    cuzk::Status s = cuzk::ntt::forward(d, x, order, &pool);
    auto t1 = std::chrono::steady_clock::now();
    if (!s.ok()) {
      std::fprintf(stderr, "%s\n", s.to_string().c_str());
      std::exit(1);
    }
    best = std::min(best, std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
#ifndef NDEBUG
  std::printf("WARNING: assertions enabled (not a release build); times are not representative\n");
#endif
  unsigned threads = argc > 1 ? unsigned(std::atoi(argv[1])) : 0;
  std::vector<int> sizes;
  for (int i = 2; i < argc; ++i) sizes.push_back(std::atoi(argv[i]));
  if (sizes.empty()) sizes = {20, 22};
  cuzk::ThreadPool pool(threads);
  cuzk::TestRng rng(1);
  for (int lg : sizes) {
    auto d = cuzk::ntt::Domain::create(lg, cuzk::ff::RootConvention::kBellperson);
    if (!d.ok()) {
      std::fprintf(stderr, "%s\n", d.status().to_string().c_str());
      return 1;
    }
    std::vector<Fr> x(d->size());
    for (auto& v : x) v = Fr::random(rng);
    double nr = best_ms(*d, x, cuzk::ntt::Order::kNaturalToBitReversed, pool);
    double nn = best_ms(*d, x, cuzk::ntt::Order::kNaturalToNatural, pool);
    std::printf("forward 2^%d, %u threads: natural->bitrev %.1f ms, natural->natural %.1f ms\n", lg, pool.size(), nr,
                nn);
  }
  return 0;
}
