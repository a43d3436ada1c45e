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
// to the FP64 pipe would gain. Then the real thing: the FP64 product
// (ff/fp48.h) alone, and one chain of each per thread — checked first
// against the IMAD product on 4096 pairs (the same Montgomery form, R = 2^384).
#include <cstdio>
#include <string>
#include <vector>

#include "bench_common.h"
#include "cuzk/base/random.h"
#include "cuzk/ff/fp.h"
#include "cuzk/ff/cuda/fields.cuh"
#include "cuzk/ff/cuda/fp48_bridge.cuh"
#include "cuzk/ff/fp48.h"
#include "cuzk/gpu/buffer.h"
#include "cuzk/gpu/check.h"
#include "cuzk/gpu/device.h"
#include "cuzk/gpu/stream.h"

namespace cuzk::gpu_bench {
namespace {

using DFp = ff::cuda::Fp;
constexpr int kChains = 8;
constexpr unsigned kThreads = 256;

template <int kD, bool kImad>
__global__ void __launch_bounds__(kThreads) pipes_kernel(const DFp* in, DFp* out, double* dout, int iters) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  DFp x = in[t % 1024];
  const DFp y = in[(t + 7) % 1024];
  double a[kChains];
#pragma unroll
  for (int k = 0; k < kChains; ++k) a[k] = 1.0 + 1e-9 * double(t + k);
  const double b = 0.9999999, c = 1e-7 * double(t & 15);
  for (int i = 0; i < iters; ++i) {
    if constexpr (kImad) x = x * y;
#pragma unroll
    for (int k = 0; k < kD; ++k) a[k % kChains] = fma(a[k % kChains], b, c);
  }
  double s = 0;
#pragma unroll
  for (int k = 0; k < kChains; ++k) s += a[k];
  out[t] = x;
  dout[t] = s;
}

using ff::fp48::DeviceOps;
using ff::fp48::Elem;

// x = x·y over the 48-bit limbs, and with kImad an Fp chain beside it.
template <bool kImad>
__global__ void __launch_bounds__(kThreads) fp48_kernel(const DFp* in, DFp* out, double* dout, int iters) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  DFp x = in[t % 1024];
  const DFp y = in[(t + 7) % 1024];
  Elem ex = ff::cuda::to_fp48(in[(t + 3) % 1024]);
  const Elem ey = ff::cuda::to_fp48(in[(t + 5) % 1024]);
  for (int i = 0; i < iters; ++i) {
    if constexpr (kImad) x = x * y;
    ff::fp48::mont_mul<DeviceOps, ff::fp48::FpShape>(ex, ex, ey);
  }
  out[t] = x;
  double s = 0;
#pragma unroll
  for (int k = 0; k < ff::fp48::kLimbs; ++k) s += ex.v[k];
  dout[t] = s;
}

// a[i]·b[i] both ways: the IMAD product and the FP64 one through the device
// conversions (ff/cuda/fp48_bridge.cuh; the host test ff/tests/fp48_test.cc
// checks the product and the slicing on their own).
__global__ void fp48_check_kernel(const DFp* a, const DFp* b, DFp* want, DFp* got, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  want[i] = a[i] * b[i];
  got[i] = ff::cuda::fp48_mul(a[i], b[i]);
}

// The FP64 product against the IMAD one, and that against the host's, on n
// random pairs: true when all agree.
StatusOr<bool> check_fp48(gpu::Stream& stream, std::string* detail) {
  constexpr unsigned n = 4096;
  TestRng rng{OsRng()()};
  std::vector<ff::Fp> a(n), b(n);
  for (unsigned i = 0; i < n; ++i) a[i] = ff::Fp::random(rng), b[i] = ff::Fp::random(rng);
  static_assert(sizeof(ff::Fp) == sizeof(DFp));
  ASSIGN_OR_RETURN(auto da, gpu::DeviceBuffer<DFp>::allocate(n));
  ASSIGN_OR_RETURN(auto db, gpu::DeviceBuffer<DFp>::allocate(n));
  ASSIGN_OR_RETURN(auto dw, gpu::DeviceBuffer<DFp>::allocate(n));
  ASSIGN_OR_RETURN(auto dg, gpu::DeviceBuffer<DFp>::allocate(n));
  RETURN_IF_ERROR(da.upload(reinterpret_cast<const DFp*>(a.data()), n, stream.get()));
  RETURN_IF_ERROR(db.upload(reinterpret_cast<const DFp*>(b.data()), n, stream.get()));
  fp48_check_kernel<<<n / 128, 128, 0, stream.get()>>>(da.data(), db.data(), dw.data(), dg.data(), n);
  RETURN_IF_ERROR(CUZK_CUDA_LAUNCH_CHECK());
  std::vector<ff::Fp> want(n), got(n);
  RETURN_IF_ERROR(dw.download(reinterpret_cast<DFp*>(want.data()), n, stream.get()));
  RETURN_IF_ERROR(dg.download(reinterpret_cast<DFp*>(got.data()), n, stream.get()));
  RETURN_IF_ERROR(stream.synchronize());
  unsigned bad = 0;
  for (unsigned i = 0; i < n; ++i) {
    if (want[i].mont() != (a[i] * b[i]).mont()) ++bad;  // the IMAD product itself
    if (got[i].mont() != want[i].mont()) ++bad;
  }
  *detail = std::to_string(bad) + " disagreements over " + std::to_string(n) +
            " pairs (the IMAD product against the host's, the FP64 one against the IMAD one)";
  return bad == 0;
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
      {"pipes_dfma_740", 740, false, pipes_kernel<740, false>},
      {"pipes_fp_mul_dfma_92", 92, true, pipes_kernel<92, true>},
      {"pipes_fp_mul_dfma_184", 184, true, pipes_kernel<184, true>},
      {"pipes_fp_mul_dfma_370", 370, true, pipes_kernel<370, true>},
      {"pipes_fp_mul_dfma_740", 740, true, pipes_kernel<740, true>},
  };
  Record check;
  check.op = "pipes_fp48_check";
  std::string detail;
  ASSIGN_OR_RETURN(check.ok, check_fp48(stream, &detail));
  check.checked = true;
  check.note = detail;
  std::printf("%-24s %s: %s\n", check.op.c_str(), check.ok ? "ok" : "MISMATCH", detail.c_str());
  out->push_back(check);
  const std::vector<Probe> fp48_probes = {
      {"pipes_fp48_mul", 0, false, fp48_kernel<false>},
      {"pipes_fp_mul_fp48_mul", 0, true, fp48_kernel<true>},
  };
  const int iters = 2048;
  const double cycles_per_ms = double(dev.clock_khz);  // kHz = cycles per ms
  std::vector<Probe> all = probes;
  if (check.ok) all.insert(all.end(), fp48_probes.begin(), fp48_probes.end());
  for (const Probe& p : all) {
    auto once = [&]() -> StatusOr<float> {
      return event_time(stream, [&] {
        p.kernel<<<blocks, kThreads, 0, stream.get()>>>(in.data(), res.data(), dres.data(), iters);
        return CUZK_CUDA_LAUNCH_CHECK();
      });
    };
    ASSIGN_OR_RETURN(Record r, time_runs(p.name, 0, o.reps, once));
    // SM-cycles per iteration of one thread, at the device's maximum SM clock.
    const double per_iter = r.median_ms * cycles_per_ms * dev.sm_count / (double(threads) * iters);
    char note[160];
    const bool fp48 = p.name.find("fp48") != std::string::npos;
    if (fp48)
      std::snprintf(note, sizeof note, "%.2f SM-cycles per iteration (%sone FP64 product)", per_iter,
                    p.imad ? "one Fp product + " : "");
    else
      std::snprintf(note, sizeof note, "%.2f SM-cycles per iteration (%s%s%d DFMA)", per_iter,
                    p.imad ? "one Fp product" : "", p.imad && p.d ? " + " : "", p.d);
    r.note = note;
    std::printf("%-24s %9.3f ms  %s\n", p.name.c_str(), r.median_ms, note);
    out->push_back(r);
  }
  return ok_status();
}

}  // namespace cuzk::gpu_bench
