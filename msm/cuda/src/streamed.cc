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
    c.affine_rounds = std::max(choose_affine_rounds<C>(std::max<size_t>(1, batch_size / 4), c),
                               choose_affine_rounds<C>(batch_size, c) - 1);
  return c;
}

constexpr size_t kAlign = 256;
size_t align_up(size_t x) { return (x + kAlign - 1) / kAlign * kAlign; }

// Stream-ordered copy (either direction) and clearing of slot memory.
Status copy(void* dst, const void* src, size_t bytes, cudaStream_t stream) {
  return CUZK_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, stream));
}
Status zero(void* dst, size_t bytes, cudaStream_t stream) {
  return CUZK_CUDA_CHECK(cudaMemsetAsync(dst, 0, bytes, stream));
}

// What a run stages through its slots, which fixes a slot's pieces.
enum class Use {
  kOwned,             // create(): either call, scalars staged
  kRun,               // lent run(), scalars staged
  kRunDeviceScalars,  // lent run(), scalars read in place
  kBatchAdd,          // lent run_batch_add()
};

// One slot's pieces in bytes for batches of `batch` points under the
// streamed configuration `c`; all zero when the configuration is invalid.
struct SlotSizes {
  size_t buckets = 0, bases = 0, scalars = 0, bitmap = 0, workspace = 0, result = 0;
  size_t total() const {
    return align_up(buckets) + align_up(bases) + align_up(scalars) + align_up(bitmap) + align_up(workspace) +
           align_up(result);
  }
};
template <class C>
SlotSizes slot_sizes(size_t batch, const MsmConfig& c, Use use) {
  SlotSizes z;
  if (batch == 0) return z;
  const bool sums = use != Use::kBatchAdd, adds = use == Use::kOwned || use == Use::kBatchAdd;
  size_t ws = adds ? batch_add_workspace_bytes<C>(batch) : 0;
  if (sums) {
    z.buckets = msm_buckets_bytes<C>(c);
    const size_t acc = msm_accumulate_workspace_bytes<C>(batch, c);
    if (z.buckets == 0 || acc == 0) return SlotSizes{};
    ws = std::max(ws, acc);
  }
  z.bases = batch * sizeof(ec::Affine<C>);
  z.scalars = use == Use::kOwned || use == Use::kRun ? batch * sizeof(ff::Fr) : 0;
  z.bitmap = adds ? (batch + 63) / 64 * sizeof(uint64_t) : 0;
  z.workspace = ws;
  z.result = sizeof(ec::Jacobian<C>);
  return z;
}

// Two slots and the padding that aligns an arbitrary start; 0 when invalid.
template <class C>
size_t region_bytes(size_t batch, const MsmConfig& c, Use use) {
  const size_t slot = slot_sizes<C>(batch, c, use).total();
  return slot == 0 ? 0 : 2 * slot + kAlign;
}

}  // namespace

template <class C>
size_t StreamedMsm<C>::device_bytes(size_t batch_size, const MsmConfig& config) {
  return region_bytes<C>(batch_size, streamed_config<C>(batch_size, config), Use::kOwned);
}

template <class C>
size_t StreamedMsm<C>::run_bytes(size_t batch_size, bool stage_scalars, const MsmConfig& config) {
  return region_bytes<C>(batch_size, streamed_config<C>(batch_size, config),
                         stage_scalars ? Use::kRun : Use::kRunDeviceScalars);
}

template <class C>
size_t StreamedMsm<C>::batch_add_bytes(size_t batch_size) {
  return region_bytes<C>(batch_size, MsmConfig{}, Use::kBatchAdd);
}

namespace {

// Carves the two slots of `use` for batches of `batch` points out of
// [base, base + bytes). INVALID_ARGUMENT when they do not fit.
template <class C, class SlotMemory>
Status carve_slots(void* base, size_t bytes, size_t batch, const MsmConfig& c, Use use,
                   std::array<SlotMemory, 2>* slots) {
  const SlotSizes z = slot_sizes<C>(batch, c, use);
  const size_t need = z.total() == 0 ? 0 : 2 * z.total() + kAlign;
  if (need == 0) return invalid_argument("StreamedMsm: invalid config for batches of " + std::to_string(batch));
  if (base == nullptr || bytes < need)
    return invalid_argument("StreamedMsm: lent memory of " + std::to_string(bytes) + " bytes for batches of " +
                            std::to_string(batch) + " points, need " + std::to_string(need));
  const uintptr_t start = uintptr_t(base);
  uint8_t* at = static_cast<uint8_t*>(base) + (align_up(start) - start);
  auto take = [&at](size_t n) -> uint8_t* {
    if (n == 0) return nullptr;
    uint8_t* p = at;
    at += align_up(n);
    return p;
  };
  for (SlotMemory& s : *slots) {
    s.buckets = take(z.buckets);
    s.buckets_bytes = z.buckets;
    s.bases = reinterpret_cast<ec::Affine<C>*>(take(z.bases));
    s.scalars = reinterpret_cast<ff::Fr*>(take(z.scalars));
    s.bitmap = reinterpret_cast<uint64_t*>(take(z.bitmap));
    s.workspace = take(z.workspace);
    s.workspace_bytes = z.workspace;
    s.result = reinterpret_cast<ec::Jacobian<C>*>(take(z.result));
  }
  return ok_status();
}

}  // namespace

template <class C>
Status StreamedMsm<C>::init_slots(int stream_priority) {
  for (Slot& s : slots_) {
    ASSIGN_OR_RETURN(s.stream, gpu::Stream::create(stream_priority));
    ASSIGN_OR_RETURN(s.done, gpu::Event::create(false));
    ASSIGN_OR_RETURN(s.accumulated, gpu::Event::create(false));
    ASSIGN_OR_RETURN(s.host_result, gpu::PinnedBuffer<ec::Jacobian<C>>::allocate(1));
  }
  return ok_status();
}

template <class C>
StatusOr<StreamedMsm<C>> StreamedMsm<C>::create(size_t batch_size, const MsmConfig& config) {
  if (batch_size == 0) return invalid_argument("StreamedMsm: batch_size must be positive");
  StreamedMsm m;
  m.batch_size_ = batch_size;
  m.base_config_ = config;
  m.own_.batch_size = batch_size;
  m.own_.config = streamed_config<C>(batch_size, config);
  const size_t bytes = region_bytes<C>(batch_size, m.own_.config, Use::kOwned);
  if (bytes == 0) return invalid_argument("StreamedMsm: invalid config for batches of " + std::to_string(batch_size));
  ASSIGN_OR_RETURN(m.memory_, gpu::DeviceBuffer<uint8_t>::allocate(bytes));
  RETURN_IF_ERROR(carve_slots<C>(m.memory_.data(), bytes, batch_size, m.own_.config, Use::kOwned, &m.own_.slots));
  RETURN_IF_ERROR(m.init_slots());
  return m;
}

template <class C>
StatusOr<StreamedMsm<C>> StreamedMsm<C>::create_borrowing(const MsmConfig& config, int stream_priority) {
  StreamedMsm m;
  m.base_config_ = config;
  RETURN_IF_ERROR(m.init_slots(stream_priority));
  return m;
}

template <class C>
typename StreamedMsm<C>::Plan StreamedMsm<C>::plan_for(size_t batch_size, bool bases_on_device) {
  const size_t size = std::max<size_t>(1, batch_size);
  return Plan{bases_on_device ? size : std::max<size_t>(1, size / 4), size};
}

template <class C>
Status StreamedMsm<C>::launch_batch(const Memory& m, size_t i, size_t count, size_t begin, size_t len, int slot,
                                    const ec::Affine<C>* bases, const ff::Fr* scalars, bool bases_on_device,
                                    bool scalars_on_device) {
  Slot& s = slots_[size_t(slot)];
  const SlotMemory& sm = m.slots[size_t(slot)];
  cudaStream_t st = s.stream.get();
  const ec::Affine<C>* d_bases = bases + begin;
  const ff::Fr* d_scalars = scalars + begin;
  if (!bases_on_device) {
    RETURN_IF_ERROR(copy(sm.bases, bases + begin, len * sizeof(ec::Affine<C>), st));
    d_bases = sm.bases;
  }
  if (!scalars_on_device) {
    RETURN_IF_ERROR(copy(sm.scalars, scalars + begin, len * sizeof(ff::Fr), st));
    d_scalars = sm.scalars;
  }
  if (i < 2) RETURN_IF_ERROR(zero(sm.buckets, sm.buckets_bytes, st));  // this slot's first batch
  RETURN_IF_ERROR(
      msm_accumulate<C>(d_bases, d_scalars, len, sm.buckets, sm.workspace, sm.workspace_bytes, st, m.config));
  RETURN_IF_ERROR(s.accumulated.record(s.stream));
  if (i + 1 == count) {
    if (count > 1) {
      const Slot& other = slots_[size_t(slot ^ 1)];
      RETURN_IF_ERROR(s.stream.wait(other.accumulated));
      RETURN_IF_ERROR(msm_merge_buckets<C>(sm.buckets, m.slots[size_t(slot ^ 1)].buckets, st, m.config));
    }
    RETURN_IF_ERROR(msm_finish<C>(sm.buckets, sm.result, sm.workspace, sm.workspace_bytes, st, m.config));
    RETURN_IF_ERROR(copy(s.host_result.data(), sm.result, sizeof(ec::Jacobian<C>), st));
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
    // Leave no batch running on the slots' memory (owned or lent) before
    // reporting.
    for (Slot& sl : slots_) sl.stream.synchronize().ignore();
    return s;
  }
  return acc;
}

template <class C>
StatusOr<ec::Jacobian<C>> StreamedMsm<C>::run_in(const Memory& m, const ec::Affine<C>* bases,
                                                 const ff::Fr* scalars, size_t n) {
  CUZK_NVTX_RANGE("msm.cuda.streamed");
  const bool bases_on_device = gpu::is_device_pointer(bases);
  const bool scalars_on_device = gpu::is_device_pointer(scalars);
  const Plan p = plan_for(m.batch_size, bases_on_device);
  const size_t count = p.count(n);
  return run_plan(p, n, false, [&](size_t i, size_t begin, size_t len, int slot) {
    return launch_batch(m, i, count, begin, len, slot, bases, scalars, bases_on_device, scalars_on_device);
  });
}

template <class C>
StatusOr<ec::Jacobian<C>> StreamedMsm<C>::run(const ec::Affine<C>* bases, const ff::Fr* scalars, size_t n) {
  if (memory_.empty()) return failed_precondition("StreamedMsm::run: no memory of its own: lend some");
  return run_in(own_, bases, scalars, n);
}

template <class C>
StatusOr<ec::Jacobian<C>> StreamedMsm<C>::run(const ec::Affine<C>* bases, const ff::Fr* scalars, size_t n,
                                              const LentMemory& lent) {
  Memory m;
  m.batch_size = lent.batch_size;
  if (m.batch_size == 0) return invalid_argument("StreamedMsm::run: lent batch_size must be positive");
  m.config = streamed_config<C>(m.batch_size, base_config_);
  const Use use = gpu::is_device_pointer(scalars) ? Use::kRunDeviceScalars : Use::kRun;
  RETURN_IF_ERROR(carve_slots<C>(lent.d_memory, lent.bytes, m.batch_size, m.config, use, &m.slots));
  return run_in(m, bases, scalars, n);
}

template <class C>
Status StreamedMsm<C>::launch_batch_add(const Memory& m, size_t begin, size_t len, int slot,
                                        const ec::Affine<C>* bases, const uint64_t* bitmap, bool bases_on_device,
                                        bool bitmap_on_device) {
  Slot& s = slots_[size_t(slot)];  // begin is a multiple of 64
  const SlotMemory& sm = m.slots[size_t(slot)];
  cudaStream_t st = s.stream.get();
  const size_t words = (len + 63) / 64;
  const ec::Affine<C>* d_bases = bases + begin;
  const uint64_t* d_bitmap = bitmap + begin / 64;
  if (!bases_on_device) {
    RETURN_IF_ERROR(copy(sm.bases, bases + begin, len * sizeof(ec::Affine<C>), st));
    d_bases = sm.bases;
  }
  if (!bitmap_on_device) {
    RETURN_IF_ERROR(copy(sm.bitmap, bitmap + begin / 64, words * sizeof(uint64_t), st));
    d_bitmap = sm.bitmap;
  }
  size_t ws_bytes = sm.workspace_bytes;
  RETURN_IF_ERROR(batch_add<C>(d_bases, d_bitmap, len, sm.result, sm.workspace, &ws_bytes, st));
  RETURN_IF_ERROR(copy(s.host_result.data(), sm.result, sizeof(ec::Jacobian<C>), st));
  return s.done.record(s.stream);
}

template <class C>
StatusOr<ec::Jacobian<C>> StreamedMsm<C>::run_batch_add_in(const Memory& m, const ec::Affine<C>* bases,
                                                           const uint64_t* bitmap, size_t n) {
  CUZK_NVTX_RANGE("msm.cuda.streamed_batch_add");
  if (m.batch_size < 64)
    return invalid_argument("StreamedMsm::run_batch_add: batch size " + std::to_string(m.batch_size) +
                            " is below 64, the bitmap word");
  const bool bases_on_device = gpu::is_device_pointer(bases);
  const bool bitmap_on_device = gpu::is_device_pointer(bitmap);
  Plan p = plan_for(m.batch_size, bases_on_device);
  p.size = p.size / 64 * 64;
  p.first = std::max<size_t>(64, p.first / 64 * 64);
  return run_plan(p, n, true, [&](size_t, size_t begin, size_t len, int slot) {
    return launch_batch_add(m, begin, len, slot, bases, bitmap, bases_on_device, bitmap_on_device);
  });
}

template <class C>
StatusOr<ec::Jacobian<C>> StreamedMsm<C>::run_batch_add(const ec::Affine<C>* bases, const uint64_t* bitmap,
                                                        size_t n) {
  if (memory_.empty()) return failed_precondition("StreamedMsm::run_batch_add: no memory of its own: lend some");
  return run_batch_add_in(own_, bases, bitmap, n);
}

template <class C>
StatusOr<ec::Jacobian<C>> StreamedMsm<C>::run_batch_add(const ec::Affine<C>* bases, const uint64_t* bitmap,
                                                        size_t n, const LentMemory& lent) {
  Memory m;
  m.batch_size = lent.batch_size;
  if (m.batch_size < 64)
    return invalid_argument("StreamedMsm::run_batch_add: batch size " + std::to_string(m.batch_size) +
                            " is below 64, the bitmap word");
  RETURN_IF_ERROR(carve_slots<C>(lent.d_memory, lent.bytes, m.batch_size, MsmConfig{}, Use::kBatchAdd, &m.slots));
  return run_batch_add_in(m, bases, bitmap, n);
}

template class StreamedMsm<ec::G1Curve>;
template class StreamedMsm<ec::G2Curve>;

}  // namespace cuzk::msm::cuda
