// Multi-scalar multiplication Σ k_i·P_i on the device (G1 and G2), batch
// addition of bases selected by a bitmap, and an MSM over bases streamed from
// host memory. Host API (include from .cc files).
//
// Algorithm (Pippenger with signed digits, sort-based buckets):
//   * scalars (Montgomery Fr) -> canonical, plus H = Σ_w 2^(c·w + c−1), so that
//     every c-bit window of k + H minus 2^(c−1) is the signed digit
//     d_w ∈ [−2^(c−1), 2^(c−1)) and k = Σ_w d_w·2^(c·w) (ceil(256/c) windows, one
//     more for c = 2);
//   * per window: (|d|−1, index|sign) pairs are radix-sorted by bucket (CUB),
//     run-length encoded; R batch-affine rounds halve every bucket's run
//     (pairs added in affine coordinates, all denominators of a round
//     inverted together: ≈ 6 products per addition); then each bucket is summed
//     by tasks of at most K points (XYZZ mixed additions, 8M + 2S); buckets
//     with more than K points are finished by further levels that add the
//     partial sums (12M + 2S) K at a time, so skewed scalars (all equal, many
//     zeros) stay parallel;
//   * bucket reduction Σ_k k·S_k by running sums over groups of 32 buckets,
//     each group lifted by its offset with a small double-and-add; group and
//     window sums are tree-reduced; windows are combined by Horner (c
//     doublings each). Everything runs on the device; zero digits, zero
//     scalars and points at infinity contribute nothing.
// Cost: ≈ ceil(256/c)·n mixed additions plus ceil(256/c)·2^(c−1)·(~3 additions);
// c is chosen to minimise that (c = 22 at n = 2^27).
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>

#include "cuzk/base/status.h"
#include "cuzk/ec/curves.h"
#include "cuzk/ff/fr.h"
#include "cuzk/gpu/buffer.h"
#include "cuzk/gpu/stream.h"
#include "cuzk/msm/cuda/tuning.h"

namespace cuzk::msm::cuda {

// Device time of the phases of one msm() call (for benchmarks). Filling it
// makes msm() record events and wait for the stream before returning.
struct MsmProfile {
  float prep_ms = 0;        // scalars -> window words, bucket clearing
  float sort_ms = 0;        // digits, radix sort, run-length encoding, scans (all windows)
  float accumulate_ms = 0;  // bucket accumulation levels (all windows)
  float reduce_ms = 0;      // bucket reduction and window combination
  int window_bits = 0, windows = 0, levels = 0, affine_rounds = 0;
};

struct MsmConfig {
  int window_bits = 0;      // 0: chosen from n; otherwise 2 .. 24
  int points_per_task = 0;  // 0: chosen from n; otherwise ≥ 2 (level-0 task size K)
  // Batch-affine pair rounds before the XYZZ levels (each halves every
  // bucket's run with affine additions sharing one inversion): −1 chooses
  // from n, 0 turns them off, otherwise 1 .. 16. They cost workspace: two
  // affine buffers of n/2 and n/4 points (G1 2^27: 23.8 GB with 3 rounds,
  // 14.0 GB with none).
  int affine_rounds = -1;
  // Windows accumulated at once, each on its own stream with its own scratch
  // (the stream passed in and one more, forked and joined inside msm()): 0
  // chooses (tuning.window_lanes), 1 or 2. Two lanes overlap one window's serial steps with the
  // other's large kernels (H200: G1 2^27 776 → 761 ms, G2 2^24 271 → 251 ms)
  // for a second copy of the per-window scratch, most of the workspace (G1
  // 2^27: 38250 MiB with two lanes, 23807 MiB with one). A profiled run uses
  // one lane; StreamedMsm uses one unless asked.
  int window_lanes = 0;
  // Buckets per running-sum group of the bucket reduction (each group's
  // thread sums Σ (k+1)·S_k over its buckets, then adds its offset times the
  // group's sum, a double-and-add of up to c bits): 0 chooses (64 where the
  // windows hold 2^21 buckets or more, else 32); otherwise a power of two
  // from 2 to 2^16 (capped at the window's buckets). Larger groups spend
  // fewer of those double-and-adds per bucket, on fewer and longer threads.
  int reduce_group = 0;
  // What the device decides (tune_device(); default: the H200's values): the
  // rounds by size where affine_rounds is −1, the lanes where window_lanes is
  // 0. Workspace sizes depend on it: size and run with the same tuning.
  DeviceTuning tuning;
  MsmProfile* profile = nullptr;
  // Indirection (device arrays of n entries, each < 2^31), for MSMs over a
  // subset of a larger set of bases and scalars without gathering them (the
  // tail of the 0/1 split): with scalar_index, scalar i is
  // d_scalars[scalar_index[i]]; with point_index, it pairs with
  // d_bases[point_index[i]]. Null: the identity. Costs one 4-byte load per
  // scalar (and per window and point) and scattered reads of the referenced
  // scalars.
  const uint32_t* scalar_index = nullptr;
  const uint32_t* point_index = nullptr;
  // A bound on the scalars the caller promises: each one is below
  // 2^scalar_bits (1 .. 255; 0: any Fr value). The windows then cover only
  // those bits (with the signed digits' carry), and where window_bits is 0
  // the window is at most scalar_bits + 1 bits: a sum of points whose
  // scalars are all 1 (the ones of the 0/1 split) is one window of 2 bits,
  // every point in its first bucket. A scalar above the bound gives a wrong sum.
  int scalar_bits = 0;
};

// The window size msm() uses for n points.
int choose_window_bits(size_t n);
// The number of batch-affine rounds msm() uses for n points (affine_rounds −1)
// under config.tuning (the rest of config is ignored).
template <class C>
int choose_affine_rounds(size_t n, const MsmConfig& config = {});

// Bytes of device workspace msm() needs for n points.
template <class C>
size_t msm_workspace_bytes(size_t n, const MsmConfig& config = {});

// *d_result = Σ_{i<n} d_scalars[i]·d_bases[i] (one Jacobian point, device
// memory), computed on `stream`. Bases are affine (infinity = (0, 0)), on the
// curve; scalars are Fr in Montgomery form. With d_workspace == nullptr the
// workspace size is stored in *workspace_bytes and nothing else happens.
// Errors: INVALID_ARGUMENT (n ≥ 2^31, bad config, workspace too small),
// launch errors.
template <class C>
Status msm(const ec::Affine<C>* d_bases, const ff::Fr* d_scalars, size_t n, ec::Jacobian<C>* d_result,
           void* d_workspace, size_t* workspace_bytes, cudaStream_t stream, const MsmConfig& config = {});

// Batched MSM (what StreamedMsm runs): bucket sums that persist across calls.
// config.window_bits must be set, and be the same for every call on one set
// of buckets. msm_buckets_bytes() bytes of device memory hold every window's
// bucket sums; the caller zeroes them before the first batch. msm_accumulate()
// adds Σ d_scalars[i]·d_bases[i] over one batch into them on `stream` (calls
// that share buckets must not run concurrently: order them with events);
// msm_merge_buckets() adds one set of buckets into another (12M + 2S per
// bucket); msm_finish() reduces the buckets into *d_result. msm_accumulate()
// and msm_finish() take a workspace of msm_accumulate_workspace_bytes(n)
// bytes (n: the largest batch).
// Errors: INVALID_ARGUMENT (window_bits 0, null buffer, workspace too small).
template <class C>
size_t msm_buckets_bytes(const MsmConfig& config);
template <class C>
size_t msm_accumulate_workspace_bytes(size_t n, const MsmConfig& config);
template <class C>
Status msm_accumulate(const ec::Affine<C>* d_bases, const ff::Fr* d_scalars, size_t n, void* d_buckets,
                      void* d_workspace, size_t workspace_bytes, cudaStream_t stream, const MsmConfig& config);
template <class C>
Status msm_merge_buckets(void* d_into, const void* d_from, cudaStream_t stream, const MsmConfig& config);
template <class C>
Status msm_finish(const void* d_buckets, ec::Jacobian<C>* d_result, void* d_workspace, size_t workspace_bytes,
                  cudaStream_t stream, const MsmConfig& config);

// Bytes of device workspace batch_add() needs for n points.
template <class C>
size_t batch_add_workspace_bytes(size_t n);

// *d_result = Σ_{i<n, bit i of d_bitmap set} d_bases[i] (bit i is bit i%64 of
// word i/64). Same workspace contract as msm(). Cost: one mixed addition per
// set bit plus n/64 additions.
template <class C>
Status batch_add(const ec::Affine<C>* d_bases, const uint64_t* d_bitmap, size_t n, ec::Jacobian<C>* d_result,
                 void* d_workspace, size_t* workspace_bytes, cudaStream_t stream);

// Device memory a caller lends to one StreamedMsm run (the caller owns it):
// the two slots' staging buffers, bucket sums, workspaces and results are
// carved from [d_memory, d_memory + bytes) for batches of batch_size points.
// Any alignment of d_memory will do (the sizes below count the padding).
struct LentMemory {
  void* d_memory = nullptr;
  size_t bytes = 0;
  size_t batch_size = 0;
};

// MSM over bases (and scalars) that live in host memory — pinned for full PCIe
// speed — or on the device, in batches of batch_size points over two slots.
//
// Deferred synchronisation (gpu/batch_pipeline.h): batch i is uploaded and
// accumulated on stream i&1 and its result goes to pinned host buffer i&1;
// the host waits for batch i−1 in iteration i (after batch i is queued) and
// for the last batch after the loop only when there was at least one.
// In run() each slot adds its batches into its own bucket sums
// (msm_accumulate), so the slots never wait for each other; after the last
// batch its slot adds the other slot's buckets into its own and reduces them
// once, and copies the result into its pinned host buffer (a reduction per
// batch cost 42 ms each at c = 22 on an H200; the merge costs less than half
// of one: docs/perf.md §4). run_batch_add() copies each batch's partial sum
// into pinned host buffer i&1 and the host adds them.
//
// Memory: the object owns its streams, events and pinned results. The
// device memory of the slots is either its own (create(batch_size): one
// allocation of device_bytes(batch_size)) or lent by the caller for one call
// (the run()/run_batch_add() overloads taking a LentMemory; an object made by
// create_borrowing() has none of its own). A lent call may use a batch size
// other than the object's: the window size and the batch-affine rounds follow
// the lent batch size as they follow create()'s.
//
// Host-synchronous: every run() and run_batch_add() returns, with a result
// or an error, only once no work it queued still runs, so the caller may
// reuse lent memory on any stream as soon as it returns (the CUDA lane
// uploads the witness over the H MSM's lent memory on that guarantee).
// Thread-compatible: one call at a time per object.
template <class C>
class StreamedMsm {
 public:
  // Owns the slots' device memory for batches of batch_size points.
  // Errors: INVALID_ARGUMENT (batch_size 0, invalid config), allocation errors.
  static StatusOr<StreamedMsm> create(size_t batch_size, const MsmConfig& config = {});
  // Owns no device memory: every call lends it. `config` is what each lent
  // call's configuration starts from; the slots' streams get
  // `stream_priority` (gpu::Stream::create).
  static StatusOr<StreamedMsm> create_borrowing(const MsmConfig& config = {}, int stream_priority = 0);
  // The device memory create() allocates for these arguments (0 when they are
  // invalid), for budgets. It also suffices as lent memory for either call
  // with batches of batch_size points.
  static size_t device_bytes(size_t batch_size, const MsmConfig& config = {});
  // Lent memory run() needs for batches of batch_size points: with
  // stage_scalars false the scalars are in device memory and take no slot
  // room. `config` must be the one the object was made with. 0 when invalid.
  static size_t run_bytes(size_t batch_size, bool stage_scalars, const MsmConfig& config = {});
  // Lent memory run_batch_add() needs for batches of batch_size points.
  static size_t batch_add_bytes(size_t batch_size);
  StreamedMsm(StreamedMsm&&) noexcept = default;
  StreamedMsm& operator=(StreamedMsm&&) noexcept = default;

  // The owned memory's batch size (0 for a borrowing object).
  size_t batch_size() const { return batch_size_; }
  // How n points are cut into batches. With the bases in host memory the
  // first batch is a quarter of a batch: its upload is the one nothing
  // overlaps, and a short first batch starts the device sooner (G1 2^27 in
  // batches of 2^26 on an H200: docs/perf.md §4; an eighth, three eighths and
  // a doubling ramp measured equal or slower). Then full batches.
  struct Plan {
    size_t first = 0, size = 0;
    size_t batch(size_t i) const { return i == 0 ? std::min(first, size) : size; }
    size_t count(size_t n) const { return n == 0 ? 0 : n <= batch(0) ? 1 : 1 + (n - batch(0) + size - 1) / size; }
    size_t begin(size_t i) const { return i == 0 ? 0 : batch(0) + (i - 1) * size; }
    size_t len(size_t i, size_t n) const { return std::min(batch(i), n - begin(i)); }
  };
  static Plan plan_for(size_t batch_size, bool bases_on_device);
  Plan plan(bool bases_on_device) const { return plan_for(batch_size_, bases_on_device); }
  size_t batches_for(size_t n, bool bases_on_device = false) const { return plan(bases_on_device).count(n); }
  // Σ scalars[i]·bases[i]; n == 0 gives the identity with no batch at all.
  // The owned memory; FAILED_PRECONDITION for a borrowing object.
  StatusOr<ec::Jacobian<C>> run(const ec::Affine<C>* bases, const ff::Fr* scalars, size_t n);
  // The same in lent memory: REQUIRES lent.bytes ≥ run_bytes(lent.batch_size,
  // scalars not in device memory, config), else INVALID_ARGUMENT.
  StatusOr<ec::Jacobian<C>> run(const ec::Affine<C>* bases, const ff::Fr* scalars, size_t n, const LentMemory& lent);
  // Σ bases[i] over i < n with bit i of `bitmap` set (the 0/1 split's batch
  // addition, batch_add above) with the bases streamed the same way. Batch
  // sizes (the plan's) are rounded down to multiples of 64 points, so that
  // each batch starts on a bitmap word; the bitmap ((n + 63) / 64 words) may be
  // in host or device memory. INVALID_ARGUMENT when the batch size is below
  // 64; FAILED_PRECONDITION for a borrowing object.
  StatusOr<ec::Jacobian<C>> run_batch_add(const ec::Affine<C>* bases, const uint64_t* bitmap, size_t n);
  // The same in lent memory: REQUIRES lent.bytes ≥
  // batch_add_bytes(lent.batch_size), else INVALID_ARGUMENT.
  StatusOr<ec::Jacobian<C>> run_batch_add(const ec::Affine<C>* bases, const uint64_t* bitmap, size_t n,
                                          const LentMemory& lent);

 private:
  // What a run reads and writes on the device for one slot (owned or lent).
  struct SlotMemory {
    void* buckets = nullptr;  // run(): this slot's bucket sums
    size_t buckets_bytes = 0;
    ec::Affine<C>* bases = nullptr;
    ff::Fr* scalars = nullptr;  // null when the scalars are not staged
    uint64_t* bitmap = nullptr;
    void* workspace = nullptr;
    size_t workspace_bytes = 0;
    ec::Jacobian<C>* result = nullptr;
  };
  // One run's configuration and device memory.
  struct Memory {
    size_t batch_size = 0;
    MsmConfig config;
    std::array<SlotMemory, 2> slots;
  };
  struct Slot {
    gpu::Stream stream;
    gpu::Event done;
    gpu::Event accumulated;  // this slot's last msm_accumulate has finished
    gpu::PinnedBuffer<ec::Jacobian<C>> host_result;
  };
  StreamedMsm() = default;
  Status init_slots(int stream_priority = 0);
  StatusOr<ec::Jacobian<C>> run_in(const Memory& m, const ec::Affine<C>* bases, const ff::Fr* scalars, size_t n);
  StatusOr<ec::Jacobian<C>> run_batch_add_in(const Memory& m, const ec::Affine<C>* bases, const uint64_t* bitmap,
                                             size_t n);
  Status launch_batch(const Memory& m, size_t i, size_t count, size_t begin, size_t len, int slot,
                      const ec::Affine<C>* bases, const ff::Fr* scalars, bool bases_on_device, bool scalars_on_device);
  Status launch_batch_add(const Memory& m, size_t begin, size_t len, int slot, const ec::Affine<C>* bases,
                          const uint64_t* bitmap, bool bases_on_device, bool bitmap_on_device);
  // Waits for `slot`'s batch; with `add`, adds its result into *acc, else
  // (the last batch of run()) stores it there.
  Status collect(int slot, bool add, ec::Jacobian<C>* acc);
  // The batches of p over n points through run_deferred_batches, launch(i,
  // begin, len, slot) queueing batch i; the sum of their results (sum_batches) or the
  // last batch's result (identity for n == 0).
  StatusOr<ec::Jacobian<C>> run_plan(const Plan& p, size_t n, bool sum_batches,
                                     const std::function<Status(size_t, size_t, size_t, int)>& launch);

  size_t batch_size_ = 0;
  MsmConfig base_config_;  // what create() was given
  gpu::DeviceBuffer<uint8_t> memory_;  // owned slots' memory (empty when borrowing)
  Memory own_;                         // views into memory_
  std::array<Slot, 2> slots_;
};

extern template class StreamedMsm<ec::G1Curve>;
extern template class StreamedMsm<ec::G2Curve>;

}  // namespace cuzk::msm::cuda
