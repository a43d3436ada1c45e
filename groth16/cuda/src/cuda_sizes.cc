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
uint64_t max_msm_workspace(uint64_t m) {
  uint64_t best = msm::cuda::msm_workspace_bytes<C>(0);
  for (uint64_t s = m; s >= 1; s /= 2) best = std::max<uint64_t>(best, msm::cuda::msm_workspace_bytes<C>(s));
  return best;
}

uint64_t split_bytes(uint64_t m) { return align((m + 63) / 64 * 8) + 2 * align(m * 4); }

}  // namespace

KeyShape shape_of(const ProvingKey& pk, bool resident) {
  KeyShape s;
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

uint64_t resident_key_bytes(const ProvingKey& pk) {
  return align(pk.h.size() * sizeof(ec::G1Affine)) + align(pk.l.size() * sizeof(ec::G1Affine)) +
         align(pk.a.size() * sizeof(ec::G1Affine)) + align(pk.b_g1.size() * sizeof(ec::G1Affine)) +
         align(pk.b_g2.size() * sizeof(ec::G2Affine)) + align(pk.a.size() * 4) + align(pk.b_g1.size() * 4);
}

// Split outputs of the three queries (ones bitmaps, tail lists).
uint64_t all_split_bytes(const KeyShape& s) { return split_bytes(s.m_l) + split_bytes(s.m_a) + split_bytes(s.m_b); }

// One proof's inputs on the device (the lane's "input set"): a, then b and c
// (whose room the classification reuses), then w (resident plan; the
// streamed plan puts w, the splits and the tail chunks where b and c were).
InputSetBytes input_set_bytes(const KeyShape& s, const StreamedSizes& z) {
  InputSetBytes b;
  b.a = align(s.n * kFr);
  if (s.resident) {
    b.bc = std::max(align(2 * s.n * kFr), all_split_bytes(s)) + 4 * 256;
    b.w = align(s.num_vars * kFr);
  } else {
    b.bc = std::max(align(2 * s.n * kFr), align(s.num_vars * kFr) + all_split_bytes(s) +
                                              align(z.chunk * sizeof(ec::G2Affine)) + align(z.chunk * kFr)) +
           8 * 256;
  }
  return b;
}

// What run() alone uses (shared by a device's lanes): NTT, MSM and batch
// addition workspaces (resident), or the streamed MSMs and the tail MSM's.
WorkspaceBytes workspace_bytes(const KeyShape& s, const StreamedSizes& z) {
  WorkspaceBytes w;
  const uint64_t m_max = std::max({s.m_l, s.m_a, s.m_b, uint64_t(1)});
  w.ntt = align(ntt::cuda::ntt_workspace_bytes(s.lg_n));
  w.cls = align(msm::cuda::classify_workspace_bytes(m_max));
  if (s.resident) {
    const uint64_t m_g1 = std::max({s.n_h, s.m_l, s.m_a, s.m_b});
    w.msm = align(std::max(max_msm_workspace<ec::G1Curve>(m_g1), max_msm_workspace<ec::G2Curve>(s.m_b)));
    w.ba = align(std::max(msm::cuda::batch_add_workspace_bytes<ec::G1Curve>(m_g1),
                          msm::cuda::batch_add_workspace_bytes<ec::G2Curve>(s.m_b)));
  } else {
    w.msm = align(std::max(max_msm_workspace<ec::G1Curve>(z.chunk), max_msm_workspace<ec::G2Curve>(z.chunk)));
    w.sm = align(msm::cuda::StreamedMsm<ec::G1Curve>::device_bytes(z.batch)) +
           align(msm::cuda::StreamedMsm<ec::G2Curve>::device_bytes(std::max<size_t>(z.batch / 2, 64)));
  }
  return w;
}

uint64_t resident_lane_bytes(const KeyShape& s) {
  return input_set_bytes(s, {}).total() + workspace_bytes(s, {}).total() + (1 << 16);
}

StreamedSizes streamed_sizes(const KeyShape& s, size_t batch, size_t chunk) {
  StreamedSizes z{batch, chunk, 0};
  const uint64_t sm1 = msm::cuda::StreamedMsm<ec::G1Curve>::device_bytes(batch);
  const uint64_t sm2 = msm::cuda::StreamedMsm<ec::G2Curve>::device_bytes(std::max<size_t>(batch / 2, 64));
  if (sm1 == 0 || sm2 == 0) return z;
  z.bytes = input_set_bytes(s, z).total() + workspace_bytes(s, z).total() + (1 << 16);
  return z;
}

StreamedSizes fit_streamed(const KeyShape& s, uint64_t available) {
  // Batches no larger than the largest MSM needs.
  const uint64_t m = std::max({s.n_h, s.m_l, s.m_a, s.m_b});
  int top = 10;
  while (top < 22 && (uint64_t(1) << top) < m) ++top;
  for (int lg = top; lg >= 10; --lg) {
    StreamedSizes z = streamed_sizes(s, size_t(1) << lg, size_t(1) << lg);
    if (z.bytes != 0 && z.bytes <= available) return z;
  }
  return StreamedSizes{};
}

}  // namespace cuzk::groth16::cuda
