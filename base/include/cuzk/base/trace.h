// Metrics registry and trace spans. A TraceSpan measures the wall time of a
// scope and records it into a MetricsRegistry histogram (no prints). The
// registry is owned by whoever runs the work (the engine, a CLI command) and
// passed down; a null registry makes spans free.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace cuzk {

// Cumulative histogram of durations in seconds with fixed bucket bounds.
struct HistogramData {
  std::vector<double> bounds_s;  // upper bounds, ascending
  std::vector<uint64_t> counts;  // counts[i] = observations <= bounds_s[i]; last = +Inf
  uint64_t count = 0;
  double sum_s = 0;
  double last_s = 0;
};

enum class MetricType { kCounter, kGauge, kHistogram };

class MetricsRegistry {
 public:
  MetricsRegistry() = default;
  MetricsRegistry(const MetricsRegistry&) = delete;
  MetricsRegistry& operator=(const MetricsRegistry&) = delete;

  // Declares a family: its "# HELP" and "# TYPE" lines are written from now
  // on, before it has any series. An unlabeled counter or gauge so declared
  // is also written at 0 until it moves; labeled series appear when first
  // touched (add_counter(name, 0, labels) makes one present at 0).
  void describe(std::string_view name, MetricType type, std::string_view help);

  // Names follow Prometheus rules ([a-zA-Z_:][a-zA-Z0-9_:]*); labels are
  // pre-rendered, e.g. `kind="porep"`. All methods are thread-safe.
  void add_counter(std::string_view name, double delta, std::string_view labels = {});
  void set_gauge(std::string_view name, double value, std::string_view labels = {});
  void observe_seconds(std::string_view name, double seconds, std::string_view labels = {});

  double counter(std::string_view name, std::string_view labels = {}) const;
  double gauge(std::string_view name, std::string_view labels = {}) const;
  HistogramData histogram(std::string_view name, std::string_view labels = {}) const;

  // Every metric in Prometheus text exposition format (version 0.0.4): one
  // family after another in name order, each with its "# HELP" (when
  // described) and "# TYPE" lines first.
  std::string render_prometheus() const;

 private:
  using Key = std::pair<std::string, std::string>;  // name, labels
  struct Family {
    MetricType type = MetricType::kCounter;
    std::string help;
  };
  void render_family(const std::string& name, std::string& out) const;  // REQUIRES: mu_ held

  mutable std::mutex mu_;
  std::map<std::string, Family> families_;   // GUARDED_BY(mu_)
  std::map<Key, double> counters_;           // GUARDED_BY(mu_)
  std::map<Key, double> gauges_;             // GUARDED_BY(mu_)
  std::map<Key, HistogramData> histograms_;  // GUARDED_BY(mu_)
};

// Records the scope's duration as `cuzk_span_seconds{span="<name>"}` (plus an
// optional extra label set) when it ends, or at stop(). Not thread-safe itself.
class TraceSpan {
 public:
  TraceSpan(MetricsRegistry* registry, std::string_view name);
  ~TraceSpan();
  TraceSpan(const TraceSpan&) = delete;
  TraceSpan& operator=(const TraceSpan&) = delete;
  // Ends the span now; returns its duration in seconds. Later calls return the same value.
  double stop();
  double elapsed_s() const;

 private:
  MetricsRegistry* registry_;
  std::string name_;
  std::chrono::steady_clock::time_point start_;
  double duration_s_ = -1;
};

}  // namespace cuzk

#define CUZK_TRACE_SPAN(registry, name) ::cuzk::TraceSpan CUZK_TRACE_CONCAT(_cuzk_span_, __LINE__)(registry, name)
#define CUZK_TRACE_CONCAT_INNER(a, b) a##b
#define CUZK_TRACE_CONCAT(a, b) CUZK_TRACE_CONCAT_INNER(a, b)
