// Shared pieces of cuzk-gpu-bench: options, timing helpers, JSON records.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "cuzk/base/status.h"
#include "cuzk/gpu/stream.h"

namespace cuzk::gpu_bench {

struct Options {
  std::string command;       // msm | ones | ntt | h2d | pipes
  std::string curve = "g1";  // g1 | g2 (msm)
  int lg_min = 20, lg_max = 24;
  int reps = 5;
  bool streamed = false;     // msm: also run the streamed-bases MSM
  int batch_lg = 0;          // streamed batch size 2^batch_lg (0: n/4)
  int affine_rounds = -1;    // msm: MsmConfig::affine_rounds
  int window_bits = 0;       // msm: MsmConfig::window_bits (0: chosen from n)
  int window_lanes = 0;      // msm: MsmConfig::window_lanes (0: chosen)
  std::vector<int> reduce_groups{0};  // msm: MsmConfig::reduce_group, each in turn (0: chosen)
  double density = 45;       // ones: percent of the bitmap's bits set
  std::string json_path;     // append-free: one JSON document per run
};

// One measured figure.
struct Record {
  std::string op;       // "msm_g1", "ntt_coset_forward_nn", ...
  int lg_n = 0;
  double median_ms = 0, min_ms = 0, max_ms = 0;
  int reps = 0;
  bool checked = false;  // result verified against an independent value
  bool ok = false;       // ... and it matched
  std::string note;
};

// Median of `reps` timings of fn after one warm-up; fn returns the device
// time of one run in ms (events) or a Status.
inline StatusOr<Record> time_runs(const std::string& op, int lg_n, int reps,
                                  const std::function<StatusOr<float>()>& fn) {
  RETURN_IF_ERROR(fn().status());  // warm-up
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    ASSIGN_OR_RETURN(float ms, fn());
    t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  Record r;
  r.op = op;
  r.lg_n = lg_n;
  r.reps = reps;
  r.median_ms = t[t.size() / 2];
  r.min_ms = t.front();
  r.max_ms = t.back();
  return r;
}

// One figure's line on stdout: op, size, median, its check, its note.
inline void print_record(const Record& r, int op_width = 28, int decimals = 3) {
  std::printf("%-*s 2^%-2d %10.*f ms  [%s] %s\n", op_width, r.op.c_str(), r.lg_n, decimals, r.median_ms,
              r.checked ? (r.ok ? "ok" : "MISMATCH") : "unchecked", r.note.c_str());
  std::fflush(stdout);
}

// Device time of fn's work on `stream` measured with events.
inline StatusOr<float> event_time(gpu::Stream& stream, const std::function<Status()>& fn) {
  ASSIGN_OR_RETURN(gpu::Event a, gpu::Event::create());
  ASSIGN_OR_RETURN(gpu::Event b, gpu::Event::create());
  RETURN_IF_ERROR(a.record(stream));
  RETURN_IF_ERROR(fn());
  RETURN_IF_ERROR(b.record(stream));
  RETURN_IF_ERROR(b.synchronize());
  return gpu::Event::elapsed_ms(a, b);
}

Status run_msm_bench(const Options& o, std::vector<Record>* out);
Status run_ones_bench(const Options& o, std::vector<Record>* out);
Status run_ntt_bench(const Options& o, std::vector<Record>* out);
Status run_h2d_bench(const Options& o, std::vector<Record>* out);
Status run_pipes_bench(const Options& o, std::vector<Record>* out);

}  // namespace cuzk::gpu_bench
