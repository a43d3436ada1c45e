#include "cuzk/base/trace.h"

#include <cmath>
#include <cstdio>
#include <set>

namespace cuzk {
namespace {

const std::vector<double>& default_bounds() {
  static const std::vector<double> b = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
                                        0.5,    1,     2.5,    5,     10,   25,    50,   100, 250};
  return b;
}

// Whole values (counters, byte counts) are written exactly; others with 9
// significant digits.
std::string format_double(double v) {
  char buf[64];
  if (v == std::floor(v) && std::fabs(v) < 9.007199254740992e15)
    std::snprintf(buf, sizeof buf, "%.0f", v);
  else
    std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

std::string series(const std::string& name, const std::string& labels, const std::string& extra = {}) {
  std::string s = name;
  if (!labels.empty() || !extra.empty()) {
    s += '{';
    s += labels;
    if (!labels.empty() && !extra.empty()) s += ',';
    s += extra;
    s += '}';
  }
  return s;
}

}  // namespace

void MetricsRegistry::add_counter(std::string_view name, double delta, std::string_view labels) {
  std::lock_guard<std::mutex> lock(mu_);
  counters_[{std::string(name), std::string(labels)}] += delta;
}

void MetricsRegistry::set_gauge(std::string_view name, double value, std::string_view labels) {
  std::lock_guard<std::mutex> lock(mu_);
  gauges_[{std::string(name), std::string(labels)}] = value;
}

void MetricsRegistry::observe_seconds(std::string_view name, double seconds, std::string_view labels) {
  std::lock_guard<std::mutex> lock(mu_);
  HistogramData& h = histograms_[{std::string(name), std::string(labels)}];
  if (h.bounds_s.empty()) {
    h.bounds_s = default_bounds();
    h.counts.assign(h.bounds_s.size() + 1, 0);
  }
  for (size_t i = 0; i < h.bounds_s.size(); ++i)
    if (seconds <= h.bounds_s[i]) h.counts[i]++;
  h.counts.back()++;
  h.count++;
  h.sum_s += seconds;
  h.last_s = seconds;
}

double MetricsRegistry::counter(std::string_view name, std::string_view labels) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = counters_.find({std::string(name), std::string(labels)});
  return it == counters_.end() ? 0 : it->second;
}

double MetricsRegistry::gauge(std::string_view name, std::string_view labels) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = gauges_.find({std::string(name), std::string(labels)});
  return it == gauges_.end() ? 0 : it->second;
}

HistogramData MetricsRegistry::histogram(std::string_view name, std::string_view labels) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = histograms_.find({std::string(name), std::string(labels)});
  return it == histograms_.end() ? HistogramData{} : it->second;
}

void MetricsRegistry::describe(std::string_view name, MetricType type, std::string_view help) {
  std::lock_guard<std::mutex> lock(mu_);
  families_[std::string(name)] = Family{type, std::string(help)};
}

namespace {

const char* type_name(MetricType t) {
  switch (t) {
    case MetricType::kCounter:
      return "counter";
    case MetricType::kGauge:
      return "gauge";
    case MetricType::kHistogram:
      return "histogram";
  }
  return "untyped";
}

// HELP text escapes backslash and newline (the exposition format's rule).
std::string escape_help(const std::string& help) {
  std::string out;
  for (char c : help) {
    if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

// The series of `name` in a map keyed by (name, labels): a contiguous range.
template <class Map>
auto series_of(const Map& m, const std::string& name) {
  return std::make_pair(m.lower_bound({name, std::string()}), m.lower_bound({name + '\x01', std::string()}));
}

}  // namespace

void MetricsRegistry::render_family(const std::string& name, std::string& out) const {
  auto [c_begin, c_end] = series_of(counters_, name);
  auto [g_begin, g_end] = series_of(gauges_, name);
  auto [h_begin, h_end] = series_of(histograms_, name);
  auto described = families_.find(name);
  MetricType type = MetricType::kCounter;
  if (described != families_.end()) {
    type = described->second.type;
    if (!described->second.help.empty()) out += "# HELP " + name + " " + escape_help(described->second.help) + "\n";
  } else if (g_begin != g_end) {
    type = MetricType::kGauge;
  } else if (h_begin != h_end) {
    type = MetricType::kHistogram;
  }
  out += "# TYPE " + name + " " + type_name(type) + "\n";
  const bool empty = c_begin == c_end && g_begin == g_end && h_begin == h_end;
  if (empty && type != MetricType::kHistogram) out += name + " 0\n";  // declared, not yet moved
  for (auto it = c_begin; it != c_end; ++it) out += series(name, it->first.second) + " " + format_double(it->second) + "\n";
  for (auto it = g_begin; it != g_end; ++it) out += series(name, it->first.second) + " " + format_double(it->second) + "\n";
  for (auto it = h_begin; it != h_end; ++it) {
    const std::string& labels = it->first.second;
    const HistogramData& h = it->second;
    for (size_t i = 0; i < h.bounds_s.size(); ++i)
      out += series(name + "_bucket", labels, "le=\"" + format_double(h.bounds_s[i]) + "\"") + " " +
             std::to_string(h.counts[i]) + "\n";
    out += series(name + "_bucket", labels, "le=\"+Inf\"") + " " + std::to_string(h.count) + "\n";
    out += series(name + "_sum", labels) + " " + format_double(h.sum_s) + "\n";
    out += series(name + "_count", labels) + " " + std::to_string(h.count) + "\n";
  }
}

std::string MetricsRegistry::render_prometheus() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::set<std::string> names;
  for (const auto& [name, f] : families_) names.insert(name);
  for (const auto& [key, v] : counters_) names.insert(key.first);
  for (const auto& [key, v] : gauges_) names.insert(key.first);
  for (const auto& [key, h] : histograms_) names.insert(key.first);
  std::string out;
  for (const std::string& name : names) render_family(name, out);
  return out;
}

TraceSpan::TraceSpan(MetricsRegistry* registry, std::string_view name)
    : registry_(registry), name_(name), start_(std::chrono::steady_clock::now()) {}

TraceSpan::~TraceSpan() { stop(); }

double TraceSpan::elapsed_s() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

double TraceSpan::stop() {
  if (duration_s_ >= 0) return duration_s_;
  duration_s_ = elapsed_s();
  if (registry_) registry_->observe_seconds("cuzk_span_seconds", duration_s_, "span=\"" + name_ + "\"");
  return duration_s_;
}

}  // namespace cuzk
