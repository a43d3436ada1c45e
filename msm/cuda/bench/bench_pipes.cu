// cuzk-gpu-bench pipes: does the FP64 pipe add to the multiply pipe?
//
// The field product (ff::cuda::Fp, 12 × 32-bit words) runs on the integer
// multiply-add pipe (IMAD.WIDE, half rate; docs/perf.md §4, "The multiply pipe,
// measured"), and the pair rounds of the MSM are bound by it. The FP64 pipe
// (DFMA) sits idle. A product over 48-bit limbs held in doubles costs ≈ 740
// FP64 operations (docs/perf.md §5, "Prepared without a device"): more than
// the IMAD product on its own, so it only pays if both pipes run at once.
// This probe measures that: each thread runs one dependent chain of Fp
// products and, in the same loop, D fused multiply-adds in eight independent
// chains; D = 0 is the product alone, "dfma only" the fused multiply-adds
// alone. If the time per iteration with D = 740 stays near the larger of the
// two alone, the pipes overlap and a kernel that gives some of its products
// to the FP64 pipe would gain. On the H200 they barely do (docs/perf.md §5,
// "The prepared work measured": 18.34 SM-cycles with D = 740, against 9.60
// and 11.62 alone), and such a product, tried in the MSM and the NTT, was
// removed. The row pipes_fp_sqr times the dedicated squaring the same way
// (one dependent chain of squares): 7.56 SM-cycles against the product's
// 9.60 on the H200. A Karatsuba product (252 wide multiply-adds against 288,
// more carry work) took 10.02 and was removed (docs/perf.md §5).
#include <cstdio>
#include <string>
#include <vector>

#include "bench_common.h"
#include "cuzk/ff/cuda/fields.cuh"
#include "cuzk/gpu/buffer.h"
#include "cuzk/gpu/check.h"
#include "cuzk/gpu/device.h"
#include "cuzk/gpu/stream.h"

namespace cuzk::gpu_bench {
namespace {

using DFp = ff::cuda::Fp;
constexpr int kChains = 8;
constexpr unsigned kThreads = 256;

template <int kD, bool kImad, bool kSqr = false>
__global__ void __launch_bounds__(kThreads) pipes_kernel(const DFp* in, DFp* out, double* dout, int iters) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  DFp x = in[t % 1024];
  const DFp y = in[(t + 7) % 1024];
  double a[kChains];
#pragma unroll
  for (int k = 0; k < kChains; ++k) a[k] = 1.0 + 1e-9 * double(t + k);
  const double b = 0.9999999, c = 1e-7 * double(t & 15);
  for (int i = 0; i < iters; ++i) {
    if constexpr (kSqr) {
      x = x.sqr();
    } else if constexpr (kImad) {
      x = x * y;
    }
#pragma unroll
    for (int k = 0; k < kD; ++k) a[k % kChains] = fma(a[k % kChains], b, c);
  }
  double s = 0;
#pragma unroll
  for (int k = 0; k < kChains; ++k) s += a[k];
  out[t] = x;
  dout[t] = s;
}

struct Probe {
  std::string name;
  int d;
  bool imad;
  void (*kernel)(const DFp*, DFp*, double*, int);
};

}  // namespace

Status run_pipes_bench(const Options& o, std::vector<Record>* out) {
  ASSIGN_OR_RETURN(gpu::DeviceInfo dev, gpu::device_info(0));
  ASSIGN_OR_RETURN(gpu::Stream stream, gpu::Stream::create());
  const unsigned blocks = unsigned(dev.sm_count) * 8;
  const size_t threads = size_t(blocks) * kThreads;
  ASSIGN_OR_RETURN(auto in, gpu::DeviceBuffer<DFp>::allocate(1024));
  ASSIGN_OR_RETURN(auto res, gpu::DeviceBuffer<DFp>::allocate(threads));
  ASSIGN_OR_RETURN(auto dres, gpu::DeviceBuffer<double>::allocate(threads));
  // Any 48-byte values do for a throughput probe: the product is the same
  // instructions for every input (it reduces once at the end, branch-free).
  std::vector<uint8_t> bytes(1024 * sizeof(DFp));
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = uint8_t((i * 131 + 7) & 0x7f);
  RETURN_IF_ERROR(CUZK_CUDA_CHECK(cudaMemcpy(in.data(), bytes.data(), bytes.size(), cudaMemcpyHostToDevice)));
  const std::vector<Probe> probes = {
      {"pipes_fp_mul", 0, true, pipes_kernel<0, true>},
      {"pipes_fp_sqr", 0, true, pipes_kernel<0, false, true>},
      {"pipes_dfma_740", 740, false, pipes_kernel<740, false>},
      {"pipes_fp_mul_dfma_92", 92, true, pipes_kernel<92, true>},
      {"pipes_fp_mul_dfma_184", 184, true, pipes_kernel<184, true>},
      {"pipes_fp_mul_dfma_370", 370, true, pipes_kernel<370, true>},
      {"pipes_fp_mul_dfma_740", 740, true, pipes_kernel<740, true>},
  };
  const int iters = 2048;
  const double cycles_per_ms = double(dev.clock_khz);  // kHz = cycles per ms
  for (const Probe& p : probes) {
    auto once = [&]() -> StatusOr<float> {
      return event_time(stream, [&] {
        p.kernel<<<blocks, kThreads, 0, stream.get()>>>(in.data(), res.data(), dres.data(), iters);
        return CUZK_CUDA_LAUNCH_CHECK();
      });
    };
    ASSIGN_OR_RETURN(Record r, time_runs(p.name, 0, o.reps, once));
    // SM-cycles per iteration of one thread, at the device's maximum SM clock.
    const double per_iter = r.median_ms * cycles_per_ms * dev.sm_count / (double(threads) * iters);
    std::string body = p.name == "pipes_fp_sqr" ? "one Fp square" : p.imad ? "one Fp product" : "";
    if (p.d > 0) body += (body.empty() ? "" : " + ") + std::to_string(p.d) + " DFMA";
    char note[160];
    std::snprintf(note, sizeof note, "%.2f SM-cycles per iteration (%s)", per_iter, body.c_str());
    r.note = note;
    std::printf("%-24s %9.3f ms  %s\n", p.name.c_str(), r.median_ms, note);
    out->push_back(r);
  }
  return ok_status();
}

}  // namespace cuzk::gpu_bench
