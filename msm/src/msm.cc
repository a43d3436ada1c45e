#include "cuzk/msm/msm.h"

#include <cassert>

#include "pippenger.h"

namespace cuzk::msm {

ThreadPool& pool_of(const MsmOptions& options) {
  return options.pool != nullptr ? *options.pool : default_thread_pool();
}

MsmPlan plan_for(size_t n, const MsmOptions& options) {
  return make_plan(n, pool_of(options).size(), options.window_bits);
}

void to_canonical(std::span<const ff::Fr> in, std::span<ff::Limbs<4>> out, const MsmOptions& options) {
  assert(in.size() == out.size());
  const size_t n = std::min(in.size(), out.size());
  pool_of(options).parallel_for(n, 4096, [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) out[i] = in[i].canonical();
  });
}

template <class C>
ec::Jacobian<C> msm(std::span<const ec::Affine<C>> bases, std::span<const ff::Limbs<4>> scalars,
                    const MsmOptions& options) {
  return detail::pippenger<C>(bases, scalars, options);
}

template <class C>
ec::Jacobian<C> msm(std::span<const ec::Affine<C>> bases, std::span<const ff::Fr> scalars,
                    const MsmOptions& options) {
  assert(bases.size() == scalars.size());
  std::vector<ff::Limbs<4>> canonical(scalars.size());
  to_canonical(scalars, canonical, options);
  return detail::pippenger<C>(bases, canonical, options);
}

template ec::Jacobian<ec::G1Curve> msm(std::span<const ec::G1Affine>, std::span<const ff::Fr>, const MsmOptions&);
template ec::Jacobian<ec::G2Curve> msm(std::span<const ec::G2Affine>, std::span<const ff::Fr>, const MsmOptions&);
template ec::Jacobian<ec::G1Curve> msm(std::span<const ec::G1Affine>, std::span<const ff::Limbs<4>>,
                                       const MsmOptions&);
template ec::Jacobian<ec::G2Curve> msm(std::span<const ec::G2Affine>, std::span<const ff::Limbs<4>>,
                                       const MsmOptions&);

}  // namespace cuzk::msm
