#include "cuzk/groth16/cuda/cuda_setup.h"

#include <algorithm>
#include <memory>
#include <vector>

#include "cuzk/ec/batch.h"
#include "cuzk/gpu/buffer.h"
#include "cuzk/gpu/device.h"
#include "cuzk/gpu/stream.h"
#include "fixed_base.h"

namespace cuzk::groth16::cuda {
namespace {

constexpr size_t kChunk = size_t(1) << 22;

// T[w][d−1] = d·2^(8w)·G, normalised.
template <class C>
std::vector<ec::Affine<C>> make_table(const ec::Affine<C>& g) {
  std::vector<ec::Jacobian<C>> jac(size_t(kFixedBaseWindows) * kFixedBaseDigits);
  ec::Jacobian<C> window_base = ec::Jacobian<C>::from_affine(g);
  for (int w = 0; w < kFixedBaseWindows; ++w) {
    ec::Jacobian<C> acc = window_base;
    for (int d = 1; d <= kFixedBaseDigits; ++d) {
      jac[size_t(w) * kFixedBaseDigits + size_t(d - 1)] = acc;
      acc += window_base;
    }
    window_base = acc;
  }
  return ec::batch_normalize<C>(std::span<const ec::Jacobian<C>>(jac));
}

// Two slots: chunk i is computed on slot i&1 while the host normalises chunk
// i − 1.
template <class C>
StatusOr<std::vector<ec::Affine<C>>> device_fixed_base(int device, ThreadPool* pool, std::span<const ff::Fr> k) {
  ASSIGN_OR_RETURN(gpu::ScopedDevice scope, gpu::ScopedDevice::create(device));
  std::vector<ec::Affine<C>> out(k.size());
  if (k.empty()) return out;
  const std::vector<ec::Affine<C>> table = make_table<C>(ec::Affine<C>::generator());
  ASSIGN_OR_RETURN(auto d_table, gpu::DeviceBuffer<ec::Affine<C>>::allocate(table.size()));
  struct Slot {
    gpu::Stream stream;
    gpu::DeviceBuffer<ff::Fr> scalars;
    gpu::DeviceBuffer<ec::Jacobian<C>> points;
    gpu::PinnedBuffer<ec::Jacobian<C>> host;
  };
  Slot slots[2];
  for (Slot& s : slots) {
    ASSIGN_OR_RETURN(s.stream, gpu::Stream::create());
    ASSIGN_OR_RETURN(s.scalars, gpu::DeviceBuffer<ff::Fr>::allocate(kChunk));
    ASSIGN_OR_RETURN(s.points, gpu::DeviceBuffer<ec::Jacobian<C>>::allocate(kChunk));
    ASSIGN_OR_RETURN(s.host, gpu::PinnedBuffer<ec::Jacobian<C>>::allocate(kChunk));
  }
  RETURN_IF_ERROR(d_table.upload(table.data(), table.size(), slots[0].stream.get()));
  RETURN_IF_ERROR(slots[0].stream.synchronize());
  const size_t chunks = (k.size() + kChunk - 1) / kChunk;
  auto launch = [&](size_t i) -> Status {
    Slot& s = slots[i & 1];
    const size_t b = i * kChunk, len = std::min(kChunk, k.size() - b);
    RETURN_IF_ERROR(s.scalars.upload(k.data() + b, len, s.stream.get()));
    RETURN_IF_ERROR(fixed_base_mul<C>(d_table.data(), s.scalars.data(), len, s.points.data(), s.stream.get()));
    return s.points.download(s.host.data(), len, s.stream.get());
  };
  auto finish = [&](size_t i) -> Status {
    Slot& s = slots[i & 1];
    RETURN_IF_ERROR(s.stream.synchronize());
    const size_t b = i * kChunk, len = std::min(kChunk, k.size() - b);
    ThreadPool& p = pool ? *pool : default_thread_pool();
    p.parallel_for(len, 1 << 14, [&](size_t lo, size_t hi) {
      ec::batch_normalize<C>(std::span<const ec::Jacobian<C>>(s.host.data() + lo, hi - lo),
                             std::span<ec::Affine<C>>(out.data() + b + lo, hi - lo));
    });
    return ok_status();
  };
  for (size_t i = 0; i < chunks; ++i) {
    RETURN_IF_ERROR(launch(i));
    if (i > 0) RETURN_IF_ERROR(finish(i - 1));
  }
  RETURN_IF_ERROR(finish(chunks - 1));
  return out;
}

}  // namespace

Status use_device_fixed_base(DevSetupOptions* options, int device, ThreadPool* pool) {
  if (!gpu::device_available()) return unavailable("device fixed-base setup: " + gpu::device_unavailable_reason());
  options->fixed_base_g1 = [device, pool](std::span<const ff::Fr> k) {
    return device_fixed_base<ec::G1Curve>(device, pool, k);
  };
  options->fixed_base_g2 = [device, pool](std::span<const ff::Fr> k) {
    return device_fixed_base<ec::G2Curve>(device, pool, k);
  };
  return ok_status();
}

}  // namespace cuzk::groth16::cuda
