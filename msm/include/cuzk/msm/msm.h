// Multi-scalar multiplication Σ k_i·P_i on the CPU (Pippenger), for G1 and G2.
//
// Algorithm (plan.h has the digit rule and the work split):
//   * every window of c bits is one or more tasks on the thread pool;
//   * a task sorts its points by bucket (counting sort on the signed digit)
//     and sums each bucket in affine coordinates, pairing points level by
//     level; the additions of a level share one field inversion per batch
//     of up to 2048 (G1; 1024 for G2) by Montgomery's trick: 6M per addition
//     (1M + 1S + 1M for the affine formula, 3M for the batch inversion)
//     against 10M for a mixed XYZZ addition;
//   * buckets are reduced with running sums in XYZZ (10M + 14M per bucket);
//   * windows are combined with c doublings each (Horner).
// Points at infinity and zero scalars contribute nothing; the result does not
// depend on the window size or the number of threads. Every function here is
// thread-safe (no shared state besides the pool, which is).
#pragma once

#include <span>

#include "cuzk/base/thread_pool.h"
#include "cuzk/ec/curves.h"
#include "cuzk/ff/bigint.h"
#include "cuzk/ff/fr.h"
#include "cuzk/msm/plan.h"

namespace cuzk::msm {

struct MsmOptions {
  // Pool to run on; null means cuzk::default_thread_pool(). When called from
  // inside a task of the same pool the work runs on the calling thread.
  ThreadPool* pool = nullptr;
  // 0: default_window_bits(n); otherwise 1 .. kMaxWindowBits.
  int window_bits = 0;
};

// The pool an options value designates.
ThreadPool& pool_of(const MsmOptions& options);

// The plan msm() follows for n points with these options.
MsmPlan plan_for(size_t n, const MsmOptions& options = {});

// Σ scalars[i]·bases[i] for Montgomery-form Fr scalars (converted to
// canonical form internally, in parallel). Empty input gives the identity.
// REQUIRES: bases.size() == scalars.size() (asserted; release builds use the
// shorter length). Bases must be on the curve (infinity = (0, 0) allowed).
template <class C>
ec::Jacobian<C> msm(std::span<const ec::Affine<C>> bases, std::span<const ff::Fr> scalars,
                    const MsmOptions& options = {});

// The same for canonical little-endian scalars. REQUIRES: every scalar
// < 2^255 (any canonical Fr), equal lengths as above.
template <class C>
ec::Jacobian<C> msm(std::span<const ec::Affine<C>> bases, std::span<const ff::Limbs<4>> scalars,
                    const MsmOptions& options = {});

// Montgomery -> canonical limbs, in parallel on the options' pool.
void to_canonical(std::span<const ff::Fr> in, std::span<ff::Limbs<4>> out, const MsmOptions& options = {});

extern template ec::Jacobian<ec::G1Curve> msm(std::span<const ec::G1Affine>, std::span<const ff::Fr>,
                                              const MsmOptions&);
extern template ec::Jacobian<ec::G2Curve> msm(std::span<const ec::G2Affine>, std::span<const ff::Fr>,
                                              const MsmOptions&);
extern template ec::Jacobian<ec::G1Curve> msm(std::span<const ec::G1Affine>, std::span<const ff::Limbs<4>>,
                                              const MsmOptions&);
extern template ec::Jacobian<ec::G2Curve> msm(std::span<const ec::G2Affine>, std::span<const ff::Limbs<4>>,
                                              const MsmOptions&);

}  // namespace cuzk::msm
