// sppark (supranational/sppark, built from its public headers) for BLS12-381:
// Pippenger MSM over resident bases, G1 and G2 in one translation unit (its
// headers define non-template kernels, which two would define twice); the
// kernel templates are instantiated where msm_t uses them.
#include <cuda.h>

#include <ff/bls12-381-fp2.hpp>

#include <ec/jacobian_t.hpp>
#include <ec/xyzz_t.hpp>

#define SPPARK_DONT_INSTANTIATE_TEMPLATES
#include <msm/pippenger.cuh>

#include "sppark_common.cuh"

namespace cuzk::peers {
namespace {

template <class Field>
struct Curve {
  using point = jacobian_t<Field>;
  using bucket = xyzz_t<Field>;
  using affine = typename bucket::affine_t;
  using msm = msm_t<bucket, point, affine, fr_t>;
};
using G1 = Curve<fp_t>;
using G2 = Curve<fp2_t>;

template <class K>
std::string run(const char* what, const void* d_bases, const void* d_scalars, size_t n, int reps, size_t limbs,
                PeerPoint* out, Timings* t) {
#ifndef __CUDA_ARCH__  // the host's view of the types: what crosses the interface
  static_assert(sizeof(typename K::affine) == 2 * 8 * (sizeof(typename K::point) / 24), "affine: x, y");
#endif
  try {
    typename K::point result;
    std::string err = detail::run_msm<typename K::msm, typename K::affine, fr_t>(d_bases, d_scalars, n, reps, &result, t);
    if (!err.empty()) return err;
    const auto* w = reinterpret_cast<const uint64_t*>(&result);
    out->x.assign(w, w + limbs);
    out->y.assign(w + limbs, w + 2 * limbs);
    out->z.assign(w + 2 * limbs, w + 3 * limbs);
    out->jacobian = true;
    out->montgomery = 1;
    return "";
  } catch (const cuda_error& e) {
    return std::string(what) + ": " + e.what();
  }
}

}  // namespace

std::string sppark_msm_g1(const void* d_bases, const void* d_scalars, size_t n, int reps, PeerPoint* out, Timings* t) {
#ifndef __CUDA_ARCH__
  static_assert(sizeof(G1::point) == 3 * 48 && sizeof(G1::affine) == 96);
#endif
  return run<G1>("sppark msm g1", d_bases, d_scalars, n, reps, 6, out, t);
}

std::string sppark_msm_g2(const void* d_bases, const void* d_scalars, size_t n, int reps, PeerPoint* out, Timings* t) {
#ifndef __CUDA_ARCH__
  static_assert(sizeof(G2::point) == 3 * 96 && sizeof(G2::affine) == 192);
#endif
  return run<G2>("sppark msm g2", d_bases, d_scalars, n, reps, 12, out, t);
}

}  // namespace cuzk::peers
