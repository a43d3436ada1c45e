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

std::string MetricsRegistry::render_prometheus() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::string out;
  std::set<std::string> typed;
  auto type_line = [&](const std::string& name, const char* type) {
    if (typed.insert(name).second) out += "# TYPE " + name + " " + type + "\n";
  };
  for (const auto& [key, v] : counters_) {
    type_line(key.first, "counter");
    out += series(key.first, key.second) + " " + format_double(v) + "\n";
  }
  for (const auto& [key, v] : gauges_) {
    type_line(key.first, "gauge");
    out += series(key.first, key.second) + " " + format_double(v) + "\n";
  }
  for (const auto& [key, h] : histograms_) {
    type_line(key.first, "histogram");
    for (size_t i = 0; i < h.bounds_s.size(); ++i)
      out += series(key.first + "_bucket", key.second, "le=\"" + format_double(h.bounds_s[i]) + "\"") + " " +
             std::to_string(h.counts[i]) + "\n";
    out += series(key.first + "_bucket", key.second, "le=\"+Inf\"") + " " + std::to_string(h.count) + "\n";
    out += series(key.first + "_sum", key.second) + " " + format_double(h.sum_s) + "\n";
    out += series(key.first + "_count", key.second) + " " + std::to_string(h.count) + "\n";
  }
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
