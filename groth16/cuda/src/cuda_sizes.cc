// The device bytes of the CUDA backend's keys and lanes (cuda_internal.h).
#include <algorithm>

#include "cuda_internal.h"
#include "cuzk/msm/cuda/msm.h"
#include "cuzk/msm/cuda/split.h"
#include "cuzk/ntt/cuda/ntt.h"

namespace cuzk::groth16::cuda {
namespace {

constexpr uint64_t kFr = sizeof(ff::Fr);

uint64_t align(uint64_t x) { return (x + 255) & ~uint64_t(255); }

// The largest MSM workspace over the sizes m, m/2, m/4, ..., 1: a tail may
// have any size up to m, and the window size (hence the layout) follows it.
template <class C>
uint64_t max_msm_workspace(uint64_t m, const msm::cuda::MsmConfig& cfg) {
  uint64_t best = msm::cuda::msm_workspace_bytes<C>(0, cfg);
  for (uint64_t s = m; s >= 1; s /= 2) best = std::max<uint64_t>(best, msm::cuda::msm_workspace_bytes<C>(s, cfg));
  return best;
}

uint64_t split_bytes(uint64_t m) { return align((m + 63) / 64 * 8) + 2 * align(m * 4); }

// The largest H batch tried is the device's (DeviceTuning::streamed_batch_lg:
// 2^25 on an H200, where G1 2^27 measured fastest in batches of 2^25).
// The largest tail chunk and batch addition batch. A chunk is one device MSM
// with its own reduction; the batch additions are bound by PCIe, and a
// batch of 2^24 G1 points (and 2^23 G2) in two slots fits the a buffer of a
// 2^27 domain.
constexpr int kMaxChunkLg = 22;
constexpr int kMinChunkLg = 20;  // before a smaller H batch is tried
constexpr int kMaxAddBatchLg = 24;
// The side buffer's batch additions (G1; G2 takes half): 2^22 points are
// 384 MiB a copy, large enough for full PCIe speed, and keep the side buffer
// small (two slots: 0.75 GiB).
constexpr int kSideAddBatchLg = 22;
// The smallest H batch worth a side buffer: 2^25 → 2^24 cost the H MSM 69 ms
// at 2^27 (827 against 758 ms, docs/perf.md §5), and the side buffer hides
// the batch additions' transfers (≈ 32 GiB of L, A, B1, B2 a partition).
constexpr int kMinSideBatchLg = 23;

// The smallest lg with 2^lg ≥ m, within [lo, hi].
int ceil_lg(uint64_t m, int lo, int hi) {
  int lg = lo;
  while (lg < hi && (uint64_t(1) << lg) < m) ++lg;
  return lg;
}

// Lent memory of the H MSM (its scalars stay in the a buffer) and of the
// batch additions (G1, and G2 at half the batch).
uint64_t h_msm_bytes(const KeyShape& s, size_t batch) {
  return msm::cuda::StreamedMsm<ec::G1Curve>::run_bytes(batch, false, s.msm_config());
}
uint64_t batch_add_bytes(size_t batch) {
  return std::max(msm::cuda::StreamedMsm<ec::G1Curve>::batch_add_bytes(batch),
                  msm::cuda::StreamedMsm<ec::G2Curve>::batch_add_bytes(std::max<size_t>(batch / 2, 64)));
}

// The tail MSMs' workspace: any chunk size up to `chunk`, G1 or G2.
uint64_t tail_msm_bytes(const KeyShape& s, size_t chunk) {
  return align(std::max(max_msm_workspace<ec::G1Curve>(chunk, s.msm_config()),
                        max_msm_workspace<ec::G2Curve>(chunk, s.msm_config())));
}

// The batch additions' batch: the largest (up to 2^24, or the largest query
// when smaller, down to 2^10) whose slots fit the a buffer as it is (n Fr).
size_t add_batch_for(const KeyShape& s) {
  const uint64_t room = align(s.n * kFr);
  for (int lg = ceil_lg(std::max({s.m_l, s.m_a, s.m_b}), 10, kMaxAddBatchLg); lg > 10; --lg)
    if (batch_add_bytes(size_t(1) << lg) <= room) return size_t(1) << lg;
  return size_t(1) << 10;  // small domains: the a buffer grows to hold it
}

}  // namespace

KeyShape shape_of(const ProvingKey& pk, bool resident, const msm::cuda::DeviceTuning& tuning) {
  KeyShape s;
  s.tuning = tuning;
  s.layout = pk.layout;
  s.lg_n = pk.lg_n;
  s.n = pk.domain_size();
  s.n_h = pk.h.size();
  s.num_vars = pk.num_vars();
  s.num_inputs = pk.num_inputs;
  s.m_l = pk.l.size();
  s.m_a = pk.a.size();
  s.m_b = pk.b_g1.size();
  s.resident = resident;
  return s;
}

uint64_t resident_key_bytes(const KeyShape& s) {
  return align(s.n_h * sizeof(ec::G1Affine)) + align(s.m_l * sizeof(ec::G1Affine)) +
         align(s.m_a * sizeof(ec::G1Affine)) + align(s.m_b * sizeof(ec::G1Affine)) +
         align(s.m_b * sizeof(ec::G2Affine)) + align(s.m_a * 4) + align(s.m_b * 4);
}

uint64_t resident_key_bytes(const ProvingKey& pk, const msm::cuda::DeviceTuning& tuning) {
  return resident_key_bytes(shape_of(pk, true, tuning));
}

uint64_t streamed_key_bytes(const KeyShape& s) { return (s.m_a + s.m_b) * 4 + 512; }

// Split outputs of the three queries (ones bitmaps, tail lists).
uint64_t all_split_bytes(const KeyShape& s) { return split_bytes(s.m_l) + split_bytes(s.m_a) + split_bytes(s.m_b); }

// The side buffer's batch additions' batch.
size_t side_add_batch(const KeyShape& s) {
  return size_t(1) << ceil_lg(std::max({s.m_l, s.m_a, s.m_b}), 10, kSideAddBatchLg);
}

// One proof's inputs on the device (the lane's "input set"): a, then b and c
// (whose room the classification reuses), then w (resident plan). The
// streamed plan lends the b/c buffer to the H MSM's batches after the H step
// and then puts w, the splits and the tail chunks there; once the H MSM has
// read h from the a buffer, the batch additions and the tail MSMs (one at a
// time) take turns in it as their workspace. With a side buffer, w, the
// splits, the batch additions' batches and then the tails (chunks and MSM
// workspace) live there instead. Each buffer is the largest of its uses.
InputSetBytes input_set_bytes(const KeyShape& s, const StreamedSizes& z) {
  InputSetBytes b;
  b.a = align(s.n * kFr);
  if (s.resident) {
    b.bc = std::max(align(2 * s.n * kFr), all_split_bytes(s)) + 4 * 256;
    b.w = align(s.num_vars * kFr);
  } else if (z.side) {
    b.bc = std::max(align(2 * s.n * kFr), align(h_msm_bytes(s, z.batch))) + 8 * 256;
    const uint64_t tails = align(z.chunk * sizeof(ec::G2Affine)) + align(z.chunk * kFr) + tail_msm_bytes(s, z.chunk);
    b.side = align(s.num_vars * kFr) + all_split_bytes(s) + std::max(align(batch_add_bytes(z.add_batch)), tails) +
             8 * 256;
  } else {
    b.a = std::max({b.a, align(batch_add_bytes(z.add_batch)), tail_msm_bytes(s, z.chunk)});
    b.bc = std::max({align(2 * s.n * kFr),
                     align(s.num_vars * kFr) + all_split_bytes(s) + align(z.chunk * sizeof(ec::G2Affine)) +
                         align(z.chunk * kFr),
                     align(h_msm_bytes(s, z.batch))}) +
           8 * 256;
  }
  return b;
}

// What run() alone uses (shared by a device's lanes): NTT and classification
// workspaces, and the MSM and batch addition workspaces in the resident plan
// (the streamed plan runs its MSMs in the input set's buffers).
WorkspaceBytes workspace_bytes(const KeyShape& s) {
  WorkspaceBytes w;
  const uint64_t m_max = std::max({s.m_l, s.m_a, s.m_b, uint64_t(1)});
  w.ntt = align(ntt::cuda::ntt_workspace_bytes(s.lg_n));
  w.cls = align(msm::cuda::classify_workspace_bytes(m_max));
  if (s.resident) {
    const uint64_t m_g1 = std::max({s.n_h, s.m_l, s.m_a, s.m_b});
    w.msm = align(std::max(max_msm_workspace<ec::G1Curve>(m_g1, s.msm_config()),
                           max_msm_workspace<ec::G2Curve>(s.m_b, s.msm_config())));
    w.ba = align(std::max(msm::cuda::batch_add_workspace_bytes<ec::G1Curve>(m_g1),
                          msm::cuda::batch_add_workspace_bytes<ec::G2Curve>(s.m_b)));
  }
  return w;
}

uint64_t resident_lane_bytes(const KeyShape& s) {
  return input_set_bytes(s, {}).total() + workspace_bytes(s).total() + (1 << 16);
}

StreamedSizes streamed_sizes(const KeyShape& s, size_t batch, size_t chunk, bool side) {
  StreamedSizes z{batch, side ? side_add_batch(s) : add_batch_for(s), chunk, side, 0};
  if (h_msm_bytes(s, z.batch) == 0 || batch_add_bytes(z.add_batch) == 0) return z;
  z.bytes = input_set_bytes(s, z).total() + workspace_bytes(s).total() + (1 << 16);
  return z;
}

StreamedSizes fit_streamed(const KeyShape& s, uint64_t available, bool allow_side) {
  // Batches no larger than the MSMs need. The H batch goes first: the H MSM
  // streams n points, a tail a few percent of its query's (docs/perf.md §6),
  // and a smaller chunk costs a tail little (2^22 → 2^20: more chunks of a
  // quarter the size).
  const int top = ceil_lg(s.n_h, 10, std::max(10, s.tuning.streamed_batch_lg));
  const int top_chunk = ceil_lg(std::max({s.m_l, s.m_a, s.m_b}), 10, kMaxChunkLg);
  auto fit = [&](bool side, int lowest) {
    for (int lg = top; lg >= lowest; --lg) {
      for (int lc = std::min(lg, top_chunk); lc >= std::min({lg, top_chunk, kMinChunkLg}); --lc) {
        StreamedSizes z = streamed_sizes(s, size_t(1) << lg, size_t(1) << lc, side);
        if (z.bytes != 0 && z.bytes <= available) return z;
      }
    }
    return StreamedSizes{};
  };
  if (allow_side) {
    StreamedSizes z = fit(true, std::min(top, kMinSideBatchLg));
    if (z.bytes != 0) return z;
  }
  return fit(false, 10);
}

}  // namespace cuzk::groth16::cuda
