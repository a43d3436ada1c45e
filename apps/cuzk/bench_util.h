// Helpers for `cuzk bench ...`: repeated timing with medians, and a result
// sink that prints a table and optionally writes JSON lines.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace cuzk::app {

struct BenchResult {
  std::string op;
  double ns_per_op = 0;  // median
  double min_ns = 0, max_ns = 0;
  long iterations = 0;
};

// Runs `body(iters)` once to warm up, then `runs` times, timing each run.
inline BenchResult time_op(const std::string& op, long iters, int runs, const std::function<void(long)>& body) {
  body(std::max<long>(1, iters / 10));
  std::vector<double> ns;
  for (int r = 0; r < runs; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    body(iters);
    ns.push_back(std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() /
                 double(iters));
  }
  std::sort(ns.begin(), ns.end());
  return BenchResult{op, ns[ns.size() / 2], ns.front(), ns.back(), iters};
}


}  // namespace cuzk::app
