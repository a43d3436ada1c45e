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

// Split outputs of the three queries (ones bitmaps, tail lists) and the
// classification workspace.
uint64_t all_split_bytes(const KeyShape& s) {
  const uint64_t m_max = std::max({s.m_l, s.m_a, s.m_b, uint64_t(1)});
  return split_bytes(s.m_l) + split_bytes(s.m_a) + split_bytes(s.m_b) + align(msm::cuda::classify_workspace_bytes(m_max));
}

uint64_t resident_lane_bytes(const KeyShape& s) {
  const uint64_t abc = align(s.n * kFr) + std::max(align(2 * s.n * kFr), all_split_bytes(s));
  const uint64_t w = align(s.num_vars * kFr);
  const uint64_t ntt_ws = align(ntt::cuda::ntt_workspace_bytes(s.lg_n));
  const uint64_t m_g1 = std::max({s.n_h, s.m_l, s.m_a, s.m_b});
  const uint64_t msm_ws = std::max(max_msm_workspace<ec::G1Curve>(m_g1), max_msm_workspace<ec::G2Curve>(s.m_b));
  const uint64_t ba_ws = std::max(msm::cuda::batch_add_workspace_bytes<ec::G1Curve>(m_g1),
                                  msm::cuda::batch_add_workspace_bytes<ec::G2Curve>(s.m_b));
  return abc + w + ntt_ws + align(msm_ws) + align(ba_ws) + (1 << 16);
}

StreamedSizes streamed_sizes(const KeyShape& s, size_t batch, size_t chunk) {
  StreamedSizes z{batch, chunk, 0};
  const uint64_t region2 = std::max(align(2 * s.n * kFr), align(s.num_vars * kFr) + all_split_bytes(s) +
                                                               align(chunk * sizeof(ec::G2Affine)) + align(chunk * kFr));
  const uint64_t sm1 = msm::cuda::StreamedMsm<ec::G1Curve>::device_bytes(batch);
  const uint64_t sm2 = msm::cuda::StreamedMsm<ec::G2Curve>::device_bytes(std::max<size_t>(batch / 2, 64));
  if (sm1 == 0 || sm2 == 0) return z;
  const uint64_t tail_ws = std::max(max_msm_workspace<ec::G1Curve>(chunk), max_msm_workspace<ec::G2Curve>(chunk));
  z.bytes = align(s.n * kFr) + region2 + align(ntt::cuda::ntt_workspace_bytes(s.lg_n)) + align(sm1) + align(sm2) +
            align(tail_ws) + (1 << 16);
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
