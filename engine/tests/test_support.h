// Shared fixtures for the engine tests: a temporary cache directory with the
// demo circuit, its witness bytes, and helpers to edit witnesses.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "cuzk/base/random.h"
#include "cuzk/engine/circuit_source.h"
#include "cuzk/engine/engine.h"

namespace cuzk::engine::testing {

// A directory removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "cuzk-engine-XXXXXX").string();
    char* made = ::mkdtemp(tmpl.data());
    path_ = made ? made : "";
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// A folder of the build tree's shared test cache (cuzk_test(... TEST_CACHE)
// in cmake/CuzkWarnings.cmake): <build>/test-cache/<name>, beside the tests/
// folder that holds this binary. CTest empties it once per run; every test
// process of the run finds the deterministic files (development keys of fixed
// seeds) the first one made. Tests only read what they find there: one that
// damages a file works on a copy.
inline std::string shared_test_cache(const std::string& name) {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  const std::filesystem::path dir = exe.parent_path().parent_path() / "test-cache" / name;
  std::filesystem::create_directories(dir, ec);
  return dir.string();
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline DemoCircuitSpec small_demo(uint32_t lg = 8, uint64_t seed = 7) {
  DemoCircuitSpec d;
  d.lg_domain = lg;
  d.num_public_inputs = 3;
  d.seed = seed;
  return d;
}

inline CircuitSpec demo_spec(const std::string& id, const DemoCircuitSpec& d) {
  CircuitSpec s;
  s.id = id;
  s.demo = true;
  s.demo_spec = d;
  return s;
}

inline EngineConfig base_config(const std::string& cache_dir) {
  EngineConfig c;
  c.cache_dir = cache_dir;
  c.total_budget_bytes = uint64_t(2) << 30;
  c.prover_threads = 2;
  c.eviction_min_idle_ms = 0;
  return c;
}

// The demo witness bytes with the value of variable `var` increased by one
// (the file stays well-formed; the witness no longer satisfies the circuit).
inline std::string tamper_wtns(std::string wtns, uint64_t var) {
  // Section 2 payload is the last 32·n bytes (two sections, header first).
  size_t n = (wtns.size() - 12 - 12 - 40 - 12) / 32;
  size_t off = wtns.size() - 32 * n + 32 * var;
  wtns[off] = char(uint8_t(wtns[off]) ^ 1);  // flips the lowest bit: still < r
  return wtns;
}

// Waits for something the engine will do. The timeout only guards against a
// hang: it is never shorter than kHangGuard, so that a loaded machine (two
// cores shared with builds) slows a test down instead of failing it. Not for
// checking that something does NOT happen.
inline constexpr std::chrono::milliseconds kHangGuard{120'000};

template <class Pred>
bool wait_until(Pred pred, std::chrono::milliseconds timeout) {
  auto end = std::chrono::steady_clock::now() + std::max(timeout, kHangGuard);
  while (std::chrono::steady_clock::now() < end) {
    if (pred()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return pred();
}

// The real files and a clock the test moves forward: for retention and idle
// times, which then pass when the test says, not when the machine gets to it.
class MovableClock : public Env {
 public:
  Clock::time_point now() override { return Env::now() + std::chrono::milliseconds(ahead_ms_.load()); }
  void advance(std::chrono::milliseconds by) { ahead_ms_ += by.count(); }

 private:
  std::atomic<int64_t> ahead_ms_{0};
};

inline PartitionState partition_state(Engine& e, const std::string& job_id, uint32_t index = 0) {
  for (const auto& j : e.status().jobs)
    if (j.job_id == job_id && index < j.partitions.size()) return j.partitions[index].state;
  return PartitionState::kQueued;
}

// The value of one series in Prometheus text (`series` with its labels, as
// printed), or -1 when absent. Matches whole lines only, so that a family's
// "# HELP" line is not taken for its unlabeled series.
inline double metric(const std::string& text, const std::string& series) {
  const std::string line = series + " ";
  size_t at = text.rfind('\n' + line);
  at = at != std::string::npos ? at + 1 : (text.compare(0, line.size(), line) == 0 ? 0 : std::string::npos);
  return at == std::string::npos ? -1 : std::stod(text.substr(at + line.size()));
}

}  // namespace cuzk::engine::testing
