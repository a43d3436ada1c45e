// The CUDA backend of the prover seam (groth16/backend.h) on one device.
//
// Keys: attach() uploads H, L, A, B1 and B2 once and keeps them in device
// memory ("resident") when the key and one lane's workspace fit the budget;
// otherwise the points stay in pinned host memory and the MSMs stream them
// ("streamed": StreamedMsm with its deferred double-buffered synchronisation;
// the tails of the 0/1 split gather only their own points over PCIe).
// Either way the key holds on the device the index lists of its A and B
// queries (which variable each point belongs to).
//
// Lanes: stage() queues the uploads of a, b, c (and, resident, the witness)
// on the lane's upload stream with one event per buffer (into the lane's own
// input set; when the budget cannot hold one per lane, the lanes share one and
// upload inside run(), the "plain path"); run() makes the
// compute stream wait on those events and runs, all on the device: the H step
// (both key layouts), the 0/1 classification of the L, A and B scalars
// (bitmaps of the ones, index lists of the tail), the H MSM, and for each of
// L, A, B1 and B2 a batch addition of the ones plus an MSM over the tail. The
// host waits once in the middle (for the tail sizes, while the H MSM runs)
// and once at the end. The streamed plan runs the H MSM first, its batches
// in the buffer b and c came in, then uploads w there and classifies; its
// batch additions and tail MSMs then work in the buffer a came in
// (cuda_lane.cc). Device buffers are allocated once per lane and key shape,
// never per proof.
//
// Budget: the device's free memory when the backend is made, lowered to
// vram_limit_bytes when that is set (so that an H200 reproduces a 16 GB card);
// keys and lanes reserve from it and fail with RESOURCE_EXHAUSTED rather than
// run the device out of memory.
#pragma once

#include <cstdint>
#include <memory>

#include "cuzk/base/status.h"
#include "cuzk/groth16/backend.h"

namespace cuzk::groth16::cuda {

enum class Placement {
  kAuto,      // resident when it fits, else streamed
  kResident,  // resident or RESOURCE_EXHAUSTED
  kStreamed,  // always streamed (tests, and measuring the small-card path)
};

// Faults to inject (tests): each makes the backend take the path it would
// take if the fault were real.
struct CudaFaults {
  bool fail_pinned_alloc = false;  // allocate_inputs cannot pin: pageable buffers
  uint32_t max_input_sets = 0;     // > 0: the budget holds at most this many input sets
  uint64_t fail_run = 0;           // > 0: the device's n-th run() meets a CUDA error after the H step
  bool no_side_room = false;       // the streamed plan's side buffer never fits (cuda_internal.h StreamedSizes)
  bool serial_queries = false;     // the resident plan runs L, A, B1, B2 in turn, never side by side
  bool no_ones_room = false;       // the ones' pair rounds never fit (OnesSum::kPairRounds): bitmap sums
};

// How the resident plan sums the points of L, A, B1 and B2 whose scalar is 1
// (about half of them in a PoRep partition):
//   kPairRounds  (the default) an MSM over the list of their positions with
//                every scalar 1 (MsmConfig::scalar_bits = 1: one window, one
//                bucket), so the batch-affine pair rounds add them (≈ 6
//                products an addition) for ≈ 130 bytes of workspace per one
//                (G1), taken from the H MSM's, which is free by then; where it
//                does not fit, kBitmap. On the H200 at 45% ones: G1 2^27 21.7
//                ms against 26.4, G2 2^25 23.5 against 28.5 (docs/perf.md §5).
//   kBitmap      one XYZZ mixed addition per one, over the classification's
//                bitmap (msm::cuda::batch_add; 10 field products an addition).
// The streamed plans always use the bitmap.
enum class OnesSum { kPairRounds, kBitmap };

struct CudaBackendOptions {
  int device = 0;
  // 0: the device's free memory at creation, less a 512 MiB margin.
  uint64_t vram_limit_bytes = 0;
  Placement placement = Placement::kAuto;
  ThreadPool* pool = nullptr;  // host work (index lists); default pool when null
  CudaFaults faults;
  OnesSum ones_sum = OnesSum::kPairRounds;
};

// Errors: UNAVAILABLE when there is no usable device (or the ordinal is out
// of range).
StatusOr<std::unique_ptr<Backend>> make_cuda_backend(const CudaBackendOptions& options = {});

}  // namespace cuzk::groth16::cuda
