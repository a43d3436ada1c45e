// cuzk-gpu-bench: device MSM / NTT / PCIe benchmarks with result checks and
// JSON output.
//   cuzk-gpu-bench msm --curve g1|g2 --lg-min 20 --lg-max 27 [--reps 5] [--streamed] [--batch-lg 24]
//                  [--affine-rounds R] [--window-bits C] [--window-lanes L] [--reduce-group G[,G...]] [--json f]
//   cuzk-gpu-bench ones --curve g1|g2 --lg-min 20 --lg-max 27 [--density 45] [--reps 5] [--json f]   (each size: the bitmap sum, then the same by pair rounds, ones_pairs_*)
//   cuzk-gpu-bench ntt --lg-min 20 --lg-max 27 [--reps 5] [--json f]
//   cuzk-gpu-bench h2d [--json f]
//   cuzk-gpu-bench pipes [--reps 5] [--json f]   (the Fp product beside FP64 work: bench_pipes.cu)
// Prints one line per figure and a JSON document (device, build, records).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>

#include "bench_common.h"
#include "cuzk/gpu_bench/gpu_bench.h"
#include "cuzk/gpu/device.h"

namespace cuzk::gpu_bench {
namespace {

bool parse(int argc, char** argv, Options* o) {
  if (argc < 2) return false;
  o->command = argv[1];
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--curve") o->curve = value();
    else if (a == "--lg-min") o->lg_min = std::atoi(value().c_str());
    else if (a == "--lg-max") o->lg_max = std::atoi(value().c_str());
    else if (a == "--lg") o->lg_min = o->lg_max = std::atoi(value().c_str());
    else if (a == "--reps") o->reps = std::atoi(value().c_str());
    else if (a == "--streamed") o->streamed = true;
    else if (a == "--batch-lg") o->batch_lg = std::atoi(value().c_str());
    else if (a == "--affine-rounds") o->affine_rounds = std::atoi(value().c_str());
    else if (a == "--window-bits") o->window_bits = std::atoi(value().c_str());
    else if (a == "--window-lanes") o->window_lanes = std::atoi(value().c_str());
    else if (a == "--reduce-group") {
      o->reduce_groups.clear();
      std::stringstream list(value());
      for (std::string g; std::getline(list, g, ',');) o->reduce_groups.push_back(std::atoi(g.c_str()));
      if (o->reduce_groups.empty()) return false;
    }
    else if (a == "--density") o->density = std::atof(value().c_str());
    else if (a == "--json") o->json_path = value();
    else return false;
  }
  return o->reps >= 1 && o->lg_min >= 1 && o->lg_max >= o->lg_min;
}

std::string json_escape(const std::string& s) {
  std::string r;
  for (char c : s) {
    if (c == '"' || c == '\\') r += '\\';
    r += c;
  }
  return r;
}

std::string to_json(const Options& o, const gpu::DeviceInfo& dev, const std::vector<Record>& recs) {
  std::ostringstream j;
  char date[32];
  std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  j << "{\n  \"date\": \"" << date << "\",\n  \"command\": \"" << json_escape(o.command) << "\",\n";
  j << "  \"device\": {\"name\": \"" << json_escape(dev.name) << "\", \"sm_count\": " << dev.sm_count
    << ", \"cc\": \"" << dev.cc_major << "." << dev.cc_minor << "\", \"memory_bytes\": " << dev.total_memory_bytes
    << ", \"clock_khz\": " << dev.clock_khz << ", \"driver\": " << dev.driver_version
    << ", \"runtime\": " << dev.runtime_version << "},\n";
#ifdef NDEBUG
  j << "  \"build\": \"release\",\n";
#else
  j << "  \"build\": \"debug (figures not representative)\",\n";
#endif
  j << "  \"records\": [\n";
  for (size_t i = 0; i < recs.size(); ++i) {
    const Record& r = recs[i];
    j << "    {\"op\": \"" << r.op << "\", \"lg_n\": " << r.lg_n << ", \"median_ms\": " << r.median_ms
      << ", \"min_ms\": " << r.min_ms << ", \"max_ms\": " << r.max_ms << ", \"reps\": " << r.reps
      << ", \"checked\": " << (r.checked ? "true" : "false") << ", \"ok\": " << (r.ok ? "true" : "false")
      << ", \"note\": \"" << json_escape(r.note) << "\"}" << (i + 1 < recs.size() ? "," : "") << "\n";
  }
  j << "  ]\n}\n";
  return j.str();
}

}  // namespace

int run(int argc, char** argv) {
  Options o;
  if (!parse(argc, argv, &o)) {
    std::fprintf(stderr,
                 "usage: cuzk-gpu-bench msm|ones|ntt|h2d|pipes [--curve g1|g2] [--lg-min N] [--lg-max N] [--lg N] [--reps N]\n"
                 "                      [--streamed] [--batch-lg N] [--affine-rounds N (-1: auto)]\n"
                 "                      [--window-bits N (0: auto)] [--reduce-group N[,N...] (0: chosen)] [--density PERCENT (ones)]\n"
                 "                      [--json FILE]\n");
    return 2;
  }
  if (!gpu::device_available()) {
    std::fprintf(stderr, "cuzk-gpu-bench: %s\n", gpu::device_unavailable_reason().c_str());
    return 1;
  }
  auto dev = gpu::device_info(0);
  if (!dev.ok()) return std::fprintf(stderr, "%s\n", dev.status().to_string().c_str()), 1;
  std::printf("device: %s, driver %d\n", dev->summary().c_str(), dev->driver_version);
#ifndef NDEBUG
  std::printf("WARNING: debug build, figures are not representative\n");
#endif
  std::vector<Record> recs;
  Status s;
  if (o.command == "msm") s = run_msm_bench(o, &recs);
  else if (o.command == "ones") s = run_ones_bench(o, &recs);
  else if (o.command == "ntt") s = run_ntt_bench(o, &recs);
  else if (o.command == "h2d") s = run_h2d_bench(o, &recs);
  else if (o.command == "pipes") s = run_pipes_bench(o, &recs);
  else s = invalid_argument("unknown command " + o.command);
  const std::string doc = to_json(o, *dev, recs);
  if (!o.json_path.empty()) std::ofstream(o.json_path) << doc;
  bool all_ok = s.ok();
  for (const Record& r : recs) all_ok = all_ok && (!r.checked || r.ok);
  if (!s.ok()) std::fprintf(stderr, "error: %s\n", s.to_string().c_str());
  return all_ok ? 0 : 1;
}

}  // namespace cuzk::gpu_bench
