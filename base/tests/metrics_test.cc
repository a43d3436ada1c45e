// Prometheus text from MetricsRegistry, checked against the exposition
// format's rules (prometheus.io/docs/instrumenting/exposition_formats): one
// "# TYPE" per family before its samples, "# HELP" before it when described,
// help text escaped, declared counters present at 0, families in name order.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>

#include "cuzk/base/trace.h"

namespace cuzk {
namespace {

struct Parsed {
  std::map<std::string, std::string> help, type;
  std::map<std::string, double> samples;  // "name{labels}" -> value
  std::vector<std::string> order;         // family names in the order their TYPE lines come
};

// A small reader of the format: comments and samples, one per line; every
// sample's family (its name without _bucket/_sum/_count for histograms)
// must have had its TYPE line already.
Parsed parse(const std::string& text) {
  Parsed p;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("# HELP ", 0) == 0) {
      std::string rest = line.substr(7);
      const std::string name = rest.substr(0, rest.find(' '));
      EXPECT_EQ(p.type.count(name), 0u) << "HELP after TYPE for " << name;
      p.help[name] = rest.substr(name.size() + 1);
      continue;
    }
    if (line.rfind("# TYPE ", 0) == 0) {
      std::string rest = line.substr(7);
      const std::string name = rest.substr(0, rest.find(' '));
      EXPECT_EQ(p.type.count(name), 0u) << "two TYPE lines for " << name;
      p.type[name] = rest.substr(name.size() + 1);
      p.order.push_back(name);
      continue;
    }
    const size_t space = line.rfind(' ');
    const std::string series = line.substr(0, space);
    std::string name = series.substr(0, series.find('{'));
    for (const char* suffix : {"_bucket", "_sum", "_count"}) {
      const std::string s(suffix);
      const std::string base = name.size() > s.size() ? name.substr(0, name.size() - s.size()) : "";
      if (name.ends_with(s) && p.type.count(base) && p.type[base] == "histogram") name = base;
    }
    EXPECT_TRUE(p.type.count(name)) << "sample before its TYPE: " << line;
    EXPECT_EQ(p.order.empty() ? "" : p.order.back(), name) << "sample outside its family: " << line;
    p.samples[series] = std::stod(line.substr(space + 1));
  }
  return p;
}

TEST(Metrics, DeclaredFamiliesHaveHelpTypeAndZero) {
  MetricsRegistry reg;
  reg.describe("cuzk_b_total", MetricType::kCounter, "Things done.");
  reg.describe("cuzk_a_bytes", MetricType::kGauge, "Bytes held.\nSecond line with a \\ backslash.");
  reg.describe("cuzk_c_seconds", MetricType::kHistogram, "Durations.");
  reg.describe("cuzk_d_total", MetricType::kCounter, "Labeled.");
  reg.add_counter("cuzk_d_total", 0, "kind=\"x\"");
  Parsed p = parse(reg.render_prometheus());
  EXPECT_EQ(p.order, (std::vector<std::string>{"cuzk_a_bytes", "cuzk_b_total", "cuzk_c_seconds", "cuzk_d_total"}));
  EXPECT_EQ(p.type["cuzk_a_bytes"], "gauge");
  EXPECT_EQ(p.type["cuzk_b_total"], "counter");
  EXPECT_EQ(p.type["cuzk_c_seconds"], "histogram");
  EXPECT_EQ(p.help["cuzk_b_total"], "Things done.");
  EXPECT_EQ(p.help["cuzk_a_bytes"], "Bytes held.\\nSecond line with a \\\\ backslash.");
  EXPECT_EQ(p.samples.at("cuzk_b_total"), 0);
  EXPECT_EQ(p.samples.at("cuzk_a_bytes"), 0);
  EXPECT_EQ(p.samples.at("cuzk_d_total{kind=\"x\"}"), 0);
  EXPECT_EQ(p.samples.count("cuzk_d_total"), 0u);  // a labeled family has no unlabeled zero
  EXPECT_EQ(p.samples.count("cuzk_c_seconds_count"), 0u);
}

TEST(Metrics, SeriesKeepTheirFamilyTogether) {
  MetricsRegistry reg;
  reg.describe("cuzk_x_total", MetricType::kCounter, "X.");
  reg.add_counter("cuzk_x_total", 3, "code=\"OK\"");
  reg.add_counter("cuzk_x_total_extra", 1);  // a name that extends another
  reg.add_counter("cuzk_x_total", 2, "code=\"NOT_FOUND\"");
  reg.observe_seconds("cuzk_x", 0.2, "stage=\"h\"");
  reg.set_gauge("cuzk_y", 7);
  Parsed p = parse(reg.render_prometheus());
  EXPECT_EQ(p.samples.at("cuzk_x_total{code=\"OK\"}"), 3);
  EXPECT_EQ(p.samples.at("cuzk_x_total{code=\"NOT_FOUND\"}"), 2);
  EXPECT_EQ(p.samples.at("cuzk_x_total_extra"), 1);
  EXPECT_EQ(p.samples.at("cuzk_x_count{stage=\"h\"}"), 1);
  EXPECT_EQ(p.samples.at("cuzk_x_bucket{stage=\"h\",le=\"0.25\"}"), 1);
  EXPECT_EQ(p.samples.at("cuzk_x_bucket{stage=\"h\",le=\"0.1\"}"), 0);
  EXPECT_EQ(p.type["cuzk_x_total_extra"], "counter");
  EXPECT_EQ(p.type["cuzk_y"], "gauge");
  EXPECT_EQ(p.samples.count("cuzk_x_total"), 0u);  // it has series: no zero line
}

}  // namespace
}  // namespace cuzk
