// `cuzk bench batch` and `cuzk bench stress`: load on a running daemon,
// reporting throughput and latency percentiles.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

#include "cuzk/base/random.h"
#include "cuzk/commands.h"
#include "cuzk/engine/types.h"
#include "cuzk/server/client.h"
#include "daemon_client_util.h"

namespace cuzk::app {
namespace {

using Clock = std::chrono::steady_clock;

struct BenchArgs {
  std::string addr, circuit = "demo", wtns, priority, json_out;
  uint32_t partitions = 1;
  uint32_t count = 16, concurrency = 1;
  double duration_s = 0;  // stress: run this long
  std::string duration_text = "30s";
  bool mixed = false;
};

struct Sample {
  engine::Priority priority;
  double latency_ms;
  bool ok;
  Clock::time_point done;  // when the reply came
};

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t i = size_t(p / 100 * double(v.size() - 1) + 0.5);
  return v[std::min(i, v.size() - 1)];
}

std::string summary_line(const char* label, const std::vector<double>& lat) {
  char buf[256];
  double mean = 0;
  for (double x : lat) mean += x;
  mean = lat.empty() ? 0 : mean / double(lat.size());
  std::snprintf(buf, sizeof buf, "%-9s n=%-5zu p50 %8.1f  p90 %8.1f  p99 %8.1f  max %8.1f  mean %8.1f ms", label,
                lat.size(), percentile(lat, 50), percentile(lat, 90), percentile(lat, 99),
                lat.empty() ? 0 : *std::max_element(lat.begin(), lat.end()), mean);
  return buf;
}

// One client thread: proves until `next` passes count or time runs out.
void bench_worker(server::Client* client, const BenchArgs& a, const std::string& wtns, uint64_t seed,
                  std::atomic<uint32_t>* next, Clock::time_point deadline, std::mutex* mu,
                  std::vector<Sample>* samples) {
  TestRng rng(seed);
  engine::Priority fixed = engine::Priority::kUnspecified;
  if (!a.priority.empty()) engine::parse_priority(a.priority, &fixed);
  while (true) {
    if (a.duration_s > 0 ? Clock::now() >= deadline : next->fetch_add(1) >= a.count) return;
    server::SubmitArgs s;
    s.circuit_id = a.circuit;
    s.witnesses.assign(a.partitions, wtns);
    s.priority = a.mixed ? engine::Priority(1 + int(rng() % 4)) : fixed;
    auto t0 = Clock::now();
    auto r = client->prove(s);
    double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    bool ok = r.ok() && r->outcome == engine::JobOutcome::kCompleted;
    if (!ok) std::fprintf(stderr, "\nproof failed: %s\n", r.ok() ? r->error_message.c_str() : r.status().to_string().c_str());
    std::lock_guard<std::mutex> lock(*mu);
    samples->push_back({s.priority, ms, ok, Clock::now()});
  }
}

// Progress on stderr: one line rewritten in place on a terminal; elsewhere
// (a log file, a pipe) a line of its own when a proof completes, or every
// 10 s, so that logs stay readable.
void progress_loop(const BenchArgs& a, Clock::time_point start, std::mutex* mu, std::vector<Sample>* samples,
                   std::atomic<bool>* done) {
  const bool tty = ::isatty(STDERR_FILENO) != 0;
  size_t last_n = 0;
  double last_el = 0;
  while (!done->load()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    size_t n;
    {
      std::lock_guard<std::mutex> lock(*mu);
      n = samples->size();
    }
    double el = std::chrono::duration<double>(Clock::now() - start).count();
    if (!tty && n == last_n && el - last_el < 10) continue;
    last_n = n;
    last_el = el;
    const char* lead = tty ? "\r" : "";
    const char* end = tty ? "   " : "\n";
    if (a.duration_s > 0)
      std::fprintf(stderr, "%s%5.0f / %.0f s  %zu proofs  %.2f proofs/s%s", lead, el, a.duration_s, n, double(n) / el,
                   end);
    else
      std::fprintf(stderr, "%s%zu / %u proofs  %.1f s  %.2f proofs/s%s", lead, n, a.count, el, double(n) / el, end);
  }
  if (tty) std::fprintf(stderr, "\n");
}

int run_bench(const BenchArgs& a) {
  // No --wtns: empty witnesses, which a bench circuit ([[circuits]] bench =
  // "porep") answers with its own; any other circuit refuses them.
  std::string wtns;
  if (!a.wtns.empty()) {
    std::ifstream in(a.wtns, std::ios::binary);
    if (!in) return client_fail("--wtns", not_found("cannot read " + a.wtns));
    std::stringstream ss;
    ss << in.rdbuf();
    wtns = ss.str();
  }
  auto client = server::Client::connect(resolve_addr(a.addr), std::chrono::seconds(10));
  if (!client.ok()) return rpc_fail("connect", client.status());
  std::mutex mu;
  std::vector<Sample> samples;
  std::atomic<uint32_t> next{0};
  std::atomic<bool> done{false};
  uint64_t seed = OsRng()();
  auto start = Clock::now();
  auto deadline = start + std::chrono::milliseconds(int64_t(a.duration_s * 1000));
  std::jthread progress([&] { progress_loop(a, start, &mu, &samples, &done); });
  {
    std::vector<std::jthread> workers;
    for (uint32_t i = 0; i < a.concurrency; ++i)
      workers.emplace_back(
          [&, i] { bench_worker(client->get(), a, wtns, seed + i, &next, deadline, &mu, &samples); });
  }
  double wall_s = std::chrono::duration<double>(Clock::now() - start).count();
  done = true;
  progress.join();
  std::vector<double> all, done_s;
  std::map<engine::Priority, std::vector<double>> by_priority;
  size_t failed = 0;
  for (const Sample& s : samples) {
    if (!s.ok) {
      failed++;
      continue;
    }
    all.push_back(s.latency_ms);
    done_s.push_back(std::chrono::duration<double>(s.done - start).count());
    by_priority[s.priority].push_back(s.latency_ms);
  }
  std::printf("circuit %s, concurrency %u: %zu proofs in %.2f s = %.2f proofs/s (%zu failed)\n", a.circuit.c_str(),
              a.concurrency, all.size(), wall_s, double(all.size()) / wall_s, failed);
  // Steady: the interval between replies once the pipeline is full (from
  // the first reply to the last), which leaves out the first proof's fill.
  std::sort(done_s.begin(), done_s.end());
  const double steady_s =
      done_s.size() >= 2 ? (done_s.back() - done_s.front()) / double(done_s.size() - 1) : 0;
  if (steady_s > 0) std::printf("steady: %.2f s per proof (between the first and the last reply)\n", steady_s);
  std::printf("%s\n", summary_line("all", all).c_str());
  if (by_priority.size() > 1)
    for (const auto& [p, lat] : by_priority) std::printf("%s\n", summary_line(engine::priority_name(p).data(), lat).c_str());
  if (!a.json_out.empty()) {
    std::ofstream o(a.json_out);
    o << "{\"circuit\":\"" << a.circuit << "\",\"concurrency\":" << a.concurrency << ",\"proofs\":" << all.size()
      << ",\"failed\":" << failed << ",\"wall_s\":" << wall_s << ",\"proofs_per_s\":" << double(all.size()) / wall_s
      << ",\"p50_ms\":" << percentile(all, 50) << ",\"p90_ms\":" << percentile(all, 90)
      << ",\"p99_ms\":" << percentile(all, 99) << ",\"steady_s_per_proof\":" << steady_s << ",\"done_s\":[";
    for (size_t i = 0; i < done_s.size(); ++i) o << (i ? "," : "") << done_s[i];
    o << "]}\n";
  }
  return failed ? 1 : 0;
}

// "30", "30s", "5m", "1h" → seconds.
StatusOr<double> parse_duration_s(const std::string& text) {
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  std::string unit(end);
  double scale = unit.empty() || unit == "s" ? 1 : unit == "m" ? 60 : unit == "h" ? 3600 : -1;
  if (end == text.c_str() || scale < 0 || !(v > 0)) return invalid_argument("\"" + text + "\" is not a duration");
  return v * scale;
}

void common_options(CLI::App* cmd, BenchArgs* a) {
  cmd->add_option("--addr", a->addr, "Daemon address (default: the default socket)");
  cmd->add_option("--circuit", a->circuit, "Registered circuit id")->capture_default_str();
  cmd->add_option("--wtns", a->wtns, "Witness file (.wtns); omit it for a bench circuit, which proves its own");
  cmd->add_option("--partitions", a->partitions, "Partitions per proof (the witness repeated)")
      ->check(CLI::Range(1u, 256u))
      ->capture_default_str();
  cmd->add_option("-j,--concurrency", a->concurrency, "Requests in flight")->capture_default_str();
  cmd->add_option("--json", a->json_out, "Also write the summary as JSON here");
}

}  // namespace

void add_bench_daemon_commands(CLI::App& bench, Runner* runner) {
  auto b = std::make_shared<BenchArgs>();
  auto* batch = bench.add_subcommand("batch", "COUNT proofs through the daemon, CONCURRENCY at a time");
  common_options(batch, b.get());
  batch->add_option("-c,--count", b->count, "Proofs in all")->capture_default_str();
  batch->add_option("--priority", b->priority, "low, normal, high or critical");
  batch->callback([runner, b] { *runner = [b] { return run_bench(*b); }; });

  auto s = std::make_shared<BenchArgs>();
  s->concurrency = 8;
  s->mixed = true;
  auto* stress = bench.add_subcommand("stress", "Mixed-priority load for a while; latency per priority");
  common_options(stress, s.get());
  stress->add_option("--duration", s->duration_text, "How long: 30, 30s, 5m or 1h")->capture_default_str();
  stress->callback([runner, s] {
    *runner = [s] {
      auto d = parse_duration_s(s->duration_text);
      if (!d.ok()) return client_fail("--duration", d.status());
      s->duration_s = *d;
      return run_bench(*s);
    };
  });
}

}  // namespace cuzk::app
