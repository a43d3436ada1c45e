// StreamedMsm: batches over two slots with deferred synchronisation (msm.h).
#include <algorithm>
#include <functional>
#include <string>

#include "cuzk/gpu/batch_pipeline.h"
#include "cuzk/gpu/check.h"
#include "cuzk/gpu/nvtx.h"
#include "cuzk/msm/cuda/msm.h"

namespace cuzk::msm::cuda {

namespace {

// The configuration a StreamedMsm runs with for batches of batch_size points.
template <class C>
MsmConfig streamed_config(size_t batch_size, const MsmConfig& config) {
  MsmConfig c = config;
  // One window size for every batch, so that the workspace sized for a full
  // batch also fits the shorter last one.
  if (c.window_bits == 0) c.window_bits = choose_window_bits(batch_size);
  // Likewise one number of affine rounds (the workspace grows with n only at a
  // fixed count): one round fewer than the resident choice for a whole batch,
  // and at least the resident choice for a quarter of one. G1 2^27 on an H200
  // (docs/perf.md §4), in batches of 2^25: 837.0 ms with two rounds, 829.9
  // with three, 841.6 with four; in batches of 2^26: 873.7 with three, 882.1
  // with four.
  // One window at a time: the two slots already overlap two batches, and a
  // second lane per slot measured no faster (G1 2^27 in batches of 2^25 on an
  // H200: 921.5 ms with two lanes, 917.6 with one) for twice the scratch.
  if (c.window_lanes == 0) c.window_lanes = 1;
  if (c.affine_rounds < 0)
    c.affine_rounds = std::max(choose_affine_rounds<C>(std::max<size_t>(1, batch_size / 4)),
                               choose_affine_rounds<C>(batch_size) - 1);
  return c;
}

template <class C>
size_t streamed_workspace_bytes(size_t batch_size, const MsmConfig& c) {
  const size_t ws = msm_accumulate_workspace_bytes<C>(batch_size, c);
  return ws == 0 ? 0 : std::max(ws, batch_add_workspace_bytes<C>(batch_size));
}

}  // namespace

template <class C>
size_t StreamedMsm<C>::device_bytes(size_t batch_size, const MsmConfig& config) {
  if (batch_size == 0) return 0;
  const MsmConfig c = streamed_config<C>(batch_size, config);
  const size_t ws = streamed_workspace_bytes<C>(batch_size, c);
  if (ws == 0) return 0;
  const size_t slot = msm_buckets_bytes<C>(c) + batch_size * (sizeof(ec::Affine<C>) + sizeof(ff::Fr)) +
                      (batch_size + 63) / 64 * 8 + ws + sizeof(ec::Jacobian<C>) + 4 * 256;
  return 2 * slot;
}

template <class C>
StatusOr<StreamedMsm<C>> StreamedMsm<C>::create(size_t batch_size, const MsmConfig& config) {
  if (batch_size == 0) return invalid_argument("StreamedMsm: batch_size must be positive");
  StreamedMsm m;
  m.batch_size_ = batch_size;
  m.config_ = streamed_config<C>(batch_size, config);
  const size_t ws_bytes = streamed_workspace_bytes<C>(batch_size, m.config_);
  if (ws_bytes == 0)
    return invalid_argument("StreamedMsm: invalid config for batches of " + std::to_string(batch_size));
  for (Slot& s : m.slots_) {
    ASSIGN_OR_RETURN(s.stream, gpu::Stream::create());
    ASSIGN_OR_RETURN(s.done, gpu::Event::create(false));
    ASSIGN_OR_RETURN(s.accumulated, gpu::Event::create(false));
    ASSIGN_OR_RETURN(s.buckets, gpu::DeviceBuffer<uint8_t>::allocate(msm_buckets_bytes<C>(m.config_)));
    ASSIGN_OR_RETURN(s.bases, gpu::DeviceBuffer<ec::Affine<C>>::allocate(batch_size));
    ASSIGN_OR_RETURN(s.scalars, gpu::DeviceBuffer<ff::Fr>::allocate(batch_size));
    ASSIGN_OR_RETURN(s.bitmap, gpu::DeviceBuffer<uint64_t>::allocate((batch_size + 63) / 64));
    ASSIGN_OR_RETURN(s.workspace, gpu::DeviceBuffer<uint8_t>::allocate(ws_bytes));
    ASSIGN_OR_RETURN(s.result, gpu::DeviceBuffer<ec::Jacobian<C>>::allocate(1));
    ASSIGN_OR_RETURN(s.host_result, gpu::PinnedBuffer<ec::Jacobian<C>>::allocate(1));
  }
  return m;
}

template <class C>
typename StreamedMsm<C>::Plan StreamedMsm<C>::plan(bool bases_on_device) const {
  return Plan{bases_on_device ? batch_size_ : std::max<size_t>(1, batch_size_ / 4), batch_size_};
}

template <class C>
Status StreamedMsm<C>::launch_batch(size_t i, size_t count, size_t begin, size_t len, int slot,
                                    const ec::Affine<C>* bases, const ff::Fr* scalars, bool bases_on_device,
                                    bool scalars_on_device) {
  Slot& s = slots_[size_t(slot)];
  const ec::Affine<C>* d_bases = bases + begin;
  const ff::Fr* d_scalars = scalars + begin;
  if (!bases_on_device) {
    RETURN_IF_ERROR(s.bases.upload(bases + begin, len, s.stream.get()));
    d_bases = s.bases.data();
  }
  if (!scalars_on_device) {
    RETURN_IF_ERROR(s.scalars.upload(scalars + begin, len, s.stream.get()));
    d_scalars = s.scalars.data();
  }
  if (i < 2) RETURN_IF_ERROR(s.buckets.fill_bytes(0, s.stream.get()));  // this slot's first batch
  RETURN_IF_ERROR(msm_accumulate<C>(d_bases, d_scalars, len, s.buckets.data(), s.workspace.data(),
                                    s.workspace.bytes(), s.stream.get(), config_));
  RETURN_IF_ERROR(s.accumulated.record(s.stream));
  if (i + 1 == count) {
    if (count > 1) {
      const Slot& other = slots_[size_t(slot ^ 1)];
      RETURN_IF_ERROR(s.stream.wait(other.accumulated));
      RETURN_IF_ERROR(msm_merge_buckets<C>(s.buckets.data(), other.buckets.data(), s.stream.get(), config_));
    }
    RETURN_IF_ERROR(msm_finish<C>(s.buckets.data(), s.result.data(), s.workspace.data(), s.workspace.bytes(),
                                  s.stream.get(), config_));
    RETURN_IF_ERROR(s.result.download(s.host_result.data(), 1, s.stream.get()));
  }
  return s.done.record(s.stream);
}

template <class C>
Status StreamedMsm<C>::collect(int slot, bool add, ec::Jacobian<C>* acc) {
  Slot& sl = slots_[size_t(slot)];
  RETURN_IF_ERROR(sl.done.synchronize());
  if (add)
    *acc += sl.host_result[0];
  else
    *acc = sl.host_result[0];
  return ok_status();
}

template <class C>
StatusOr<ec::Jacobian<C>> StreamedMsm<C>::run_plan(const Plan& p, size_t n, bool sum_batches,
                                                   const std::function<Status(size_t, size_t, size_t, int)>& launch) {
  ec::Jacobian<C> acc = ec::Jacobian<C>::identity();
  const size_t count = p.count(n);
  Status s = gpu::run_deferred_batches(
      count, [&](size_t i, int slot) { return launch(i, p.begin(i), p.len(i, n), slot); },
      [&](size_t i, int slot) {
        if (sum_batches) return collect(slot, true, &acc);
        // run(): only the last batch carries a result.
        return i + 1 == count ? collect(slot, false, &acc) : slots_[size_t(slot)].done.synchronize();
      });
  if (!s.ok()) {
    // Leave no batch running on buffers we own before reporting.
    for (Slot& sl : slots_) sl.stream.synchronize().ignore();
    return s;
  }
  return acc;
}

template <class C>
StatusOr<ec::Jacobian<C>> StreamedMsm<C>::run(const ec::Affine<C>* bases, const ff::Fr* scalars, size_t n) {
  CUZK_NVTX_RANGE("msm.cuda.streamed");
  const bool bases_on_device = gpu::is_device_pointer(bases);
  const bool scalars_on_device = gpu::is_device_pointer(scalars);
  const Plan p = plan(bases_on_device);
  const size_t count = p.count(n);
  return run_plan(p, n, false, [&](size_t i, size_t begin, size_t len, int slot) {
    return launch_batch(i, count, begin, len, slot, bases, scalars, bases_on_device, scalars_on_device);
  });
}

template <class C>
Status StreamedMsm<C>::launch_batch_add(size_t begin, size_t len, int slot, const ec::Affine<C>* bases,
                                        const uint64_t* bitmap, bool bases_on_device, bool bitmap_on_device) {
  Slot& s = slots_[size_t(slot)];  // begin is a multiple of 64
  const size_t words = (len + 63) / 64;
  const ec::Affine<C>* d_bases = bases + begin;
  const uint64_t* d_bitmap = bitmap + begin / 64;
  if (!bases_on_device) {
    RETURN_IF_ERROR(s.bases.upload(bases + begin, len, s.stream.get()));
    d_bases = s.bases.data();
  }
  if (!bitmap_on_device) {
    RETURN_IF_ERROR(s.bitmap.upload(bitmap + begin / 64, words, s.stream.get()));
    d_bitmap = s.bitmap.data();
  }
  size_t ws_bytes = s.workspace.bytes();
  RETURN_IF_ERROR(batch_add<C>(d_bases, d_bitmap, len, s.result.data(), s.workspace.data(), &ws_bytes, s.stream.get()));
  RETURN_IF_ERROR(s.result.download(s.host_result.data(), 1, s.stream.get()));
  return s.done.record(s.stream);
}

template <class C>
StatusOr<ec::Jacobian<C>> StreamedMsm<C>::run_batch_add(const ec::Affine<C>* bases, const uint64_t* bitmap, size_t n) {
  CUZK_NVTX_RANGE("msm.cuda.streamed_batch_add");
  if (batch_size_ < 64)
    return invalid_argument("StreamedMsm::run_batch_add: batch size " + std::to_string(batch_size_) +
                            " is below 64, the bitmap word");
  const bool bases_on_device = gpu::is_device_pointer(bases);
  const bool bitmap_on_device = gpu::is_device_pointer(bitmap);
  Plan p = plan(bases_on_device);
  p.size = p.size / 64 * 64;
  p.first = std::max<size_t>(64, p.first / 64 * 64);
  return run_plan(p, n, true, [&](size_t, size_t begin, size_t len, int slot) {
    return launch_batch_add(begin, len, slot, bases, bitmap, bases_on_device, bitmap_on_device);
  });
}

template class StreamedMsm<ec::G1Curve>;
template class StreamedMsm<ec::G2Curve>;

}  // namespace cuzk::msm::cuda
