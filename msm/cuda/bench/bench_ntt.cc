// NTT, H-step and PCIe benchmarks. NTT results are checked by a round trip
// (forward then inverse gives the input back, bit for bit) at every size and
// by a sampled evaluation of the coset forward NTT (CPU Horner) up to 2^24.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

#include "bench_common.h"
#include "cuzk/base/random.h"
#include "cuzk/base/thread_pool.h"
#include "cuzk/gpu/buffer.h"
#include "cuzk/gpu/check.h"
#include "cuzk/ntt/cuda/ntt.h"

namespace cuzk::gpu_bench {
namespace {

using ff::Fr;
using ntt::cuda::Direction;
using ntt::cuda::NttSpec;
using ntt::cuda::Order;

void random_fill(Fr* out, size_t n, uint64_t seed) {
  const size_t chunk = size_t(1) << 16;
  default_thread_pool().parallel_for((n + chunk - 1) / chunk, 1, [&](size_t b, size_t e) {
    for (size_t c = b; c < e; ++c) {
      TestRng rng(seed + c);
      for (size_t i = c * chunk; i < std::min(n, (c + 1) * chunk); ++i) out[i] = Fr::random(rng);
    }
  });
}

Fr horner(const Fr* x, size_t n, const Fr& point) {
  Fr acc = Fr::zero();
  for (size_t j = n; j-- > 0;) acc = acc * point + x[j];
  return acc;
}


struct Bufs {
  gpu::Stream stream;
  gpu::PinnedBuffer<Fr> host;
  gpu::DeviceBuffer<Fr> orig, data, b, c;
  gpu::DeviceBuffer<uint8_t> ws;
  size_t ws_bytes = 0;
};

Status bench_variant(Bufs& f, int lg, int reps, const std::string& op, const NttSpec& spec, std::vector<Record>* out) {
  const size_t n = size_t(1) << lg;
  auto once = [&]() -> StatusOr<float> {
    RETURN_IF_ERROR(CUZK_CUDA_CHECK(
        cudaMemcpyAsync(f.data.data(), f.orig.data(), n * sizeof(Fr), cudaMemcpyDeviceToDevice, f.stream.get())));
    return event_time(f.stream, [&] { return ntt::cuda::ntt(f.data.data(), spec, f.ws.data(), &f.ws_bytes, f.stream.get()); });
  };
  ASSIGN_OR_RETURN(Record r, time_runs(op, lg, reps, once));
  out->push_back(r);
  print_record(r);
  return ok_status();
}

// Forward NN (coset g = 7) then inverse NN must give the input back; sampled evaluations up to 2^24.
Status check_round_trip(Bufs& f, int lg, std::vector<Record>* out) {
  const size_t n = size_t(1) << lg;
  const Fr g = ff::fr_generator(ff::RootConvention::kBellperson);
  NttSpec fwd{lg, ff::RootConvention::kBellperson, Direction::kForward, Order::kNaturalToNatural, g};
  NttSpec inv = fwd;
  inv.direction = Direction::kInverse;
  RETURN_IF_ERROR(CUZK_CUDA_CHECK(
      cudaMemcpyAsync(f.data.data(), f.orig.data(), n * sizeof(Fr), cudaMemcpyDeviceToDevice, f.stream.get())));
  RETURN_IF_ERROR(ntt::cuda::ntt(f.data.data(), fwd, f.ws.data(), &f.ws_bytes, f.stream.get()));
  std::vector<Fr> y(n);
  RETURN_IF_ERROR(f.data.download(y.data(), n, f.stream.get()));
  RETURN_IF_ERROR(ntt::cuda::ntt(f.data.data(), inv, f.ws.data(), &f.ws_bytes, f.stream.get()));
  std::vector<Fr> back(n);
  RETURN_IF_ERROR(f.data.download(back.data(), n, f.stream.get()));
  RETURN_IF_ERROR(f.stream.synchronize());
  Record r;
  r.op = "ntt_check_round_trip";
  r.lg_n = lg;
  r.checked = true;
  r.ok = std::memcmp(back.data(), f.host.data(), n * sizeof(Fr)) == 0;
  if (lg <= 24) {
    const size_t k = size_t(OsRng()()) & (n - 1);
    const Fr w = ff::root_of_unity(lg, ff::RootConvention::kBellperson);
    r.ok = r.ok && y[k] == horner(f.host.data(), n, g * w.pow(k));
    r.note = "round trip + sampled evaluation at k=" + std::to_string(k);
  } else {
    r.note = "round trip";
  }
  out->push_back(r);
  print_record(r);
  return ok_status();
}

// The Groth16 H step on device-resident a, b, c, as the prover runs it
// (ntt::cuda::h_step, bellperson's output: H's coefficients, 6 transforms).
Status bench_h_step(Bufs& f, int lg, int reps, std::vector<Record>* out) {
  const size_t n = size_t(1) << lg;
  const ntt::cuda::HStepSpec spec = ntt::cuda::bellperson_h_step(lg);
  Fr* abc[3] = {f.data.data(), f.b.data(), f.c.data()};
  auto step = [&]() -> Status {
    return ntt::cuda::h_step(abc[0], abc[1], abc[2], spec, nullptr, f.ws.data(), &f.ws_bytes, f.stream.get());
  };
  auto once = [&]() -> StatusOr<float> {
    for (Fr* p : abc)
      RETURN_IF_ERROR(CUZK_CUDA_CHECK(
          cudaMemcpyAsync(p, f.orig.data(), n * sizeof(Fr), cudaMemcpyDeviceToDevice, f.stream.get())));
    return event_time(f.stream, step);
  };
  ASSIGN_OR_RETURN(Record r, time_runs("h_step", lg, reps, once));
  r.note = "bellperson: 3 iNTT(N->R), 2 coset NTT(R->N), coset iNTT(N->R) with a*b on its first load and *zinv, -c on its last store, bitrev; device-resident";
  out->push_back(r);
  print_record(r);
  return ok_status();
}

}  // namespace

Status run_ntt_bench(const Options& o, std::vector<Record>* out) {
  Bufs f;
  const size_t nmax = size_t(1) << o.lg_max;
  ASSIGN_OR_RETURN(f.stream, gpu::Stream::create());
  ASSIGN_OR_RETURN(f.host, gpu::PinnedBuffer<Fr>::allocate(nmax));
  random_fill(f.host.data(), nmax, OsRng()());
  ASSIGN_OR_RETURN(f.orig, gpu::DeviceBuffer<Fr>::allocate(nmax));
  ASSIGN_OR_RETURN(f.data, gpu::DeviceBuffer<Fr>::allocate(nmax));
  ASSIGN_OR_RETURN(f.b, gpu::DeviceBuffer<Fr>::allocate(nmax));
  ASSIGN_OR_RETURN(f.c, gpu::DeviceBuffer<Fr>::allocate(nmax));
  f.ws_bytes = ntt::cuda::ntt_workspace_bytes(o.lg_max);
  ASSIGN_OR_RETURN(f.ws, gpu::DeviceBuffer<uint8_t>::allocate(f.ws_bytes));
  const auto conv = ff::RootConvention::kBellperson;
  const Fr g = ff::fr_generator(conv);
  for (int lg = o.lg_min; lg <= o.lg_max; ++lg) {
    const size_t n = size_t(1) << lg;
    RETURN_IF_ERROR(f.orig.upload(f.host.data(), n, f.stream.get()));
    RETURN_IF_ERROR(f.stream.synchronize());
    RETURN_IF_ERROR(check_round_trip(f, lg, out));
    RETURN_IF_ERROR(bench_variant(f, lg, o.reps, "ntt_forward_nn", {lg, conv, Direction::kForward, Order::kNaturalToNatural, {}}, out));
    RETURN_IF_ERROR(bench_variant(f, lg, o.reps, "ntt_forward_nr", {lg, conv, Direction::kForward, Order::kNaturalToBitReversed, {}}, out));
    RETURN_IF_ERROR(bench_variant(f, lg, o.reps, "ntt_coset_forward_nn", {lg, conv, Direction::kForward, Order::kNaturalToNatural, g}, out));
    RETURN_IF_ERROR(bench_variant(f, lg, o.reps, "ntt_coset_forward_rn", {lg, conv, Direction::kForward, Order::kBitReversedToNatural, g}, out));
    RETURN_IF_ERROR(bench_variant(f, lg, o.reps, "ntt_inverse_nn", {lg, conv, Direction::kInverse, Order::kNaturalToNatural, {}}, out));
    RETURN_IF_ERROR(bench_h_step(f, lg, o.reps, out));
  }
  return ok_status();
}

Status run_h2d_bench(const Options& o, std::vector<Record>* out) {
  const size_t bytes = size_t(4) << 30;
  ASSIGN_OR_RETURN(auto stream, gpu::Stream::create());
  ASSIGN_OR_RETURN(auto pinned, gpu::PinnedBuffer<uint8_t>::allocate(bytes));
  std::memset(pinned.data(), 0x37, bytes);
  std::vector<uint8_t> pageable(bytes, 0x37);
  ASSIGN_OR_RETURN(auto dev, gpu::DeviceBuffer<uint8_t>::allocate(bytes));
  struct Case {
    const char* op;
    std::function<Status()> fn;
  } cases[] = {
      {"h2d_pinned_4GiB", [&] { return dev.upload(pinned.data(), bytes, stream.get()); }},
      {"d2h_pinned_4GiB", [&] { return dev.download(pinned.data(), bytes, stream.get()); }},
      {"h2d_pageable_4GiB", [&] { return dev.upload(pageable.data(), bytes, stream.get()); }},
  };
  for (auto& c : cases) {
    ASSIGN_OR_RETURN(Record r, time_runs(c.op, 32, o.reps, [&] { return event_time(stream, c.fn); }));
    char note[64];
    std::snprintf(note, sizeof note, "%.1f GB/s", double(bytes) / (r.median_ms * 1e6));
    r.note = note;
    out->push_back(r);
    print_record(r);
  }
  return ok_status();
}

}  // namespace cuzk::gpu_bench
