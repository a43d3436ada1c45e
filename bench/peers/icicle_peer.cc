// ICICLE (ingonyama-zk/open-icicle, its CUDA backend built from the public
// sources) for BLS12-381: G1 and G2 MSM and the NTT, through its C API.
#include <chrono>
#include <cstring>

#include "icicle/api/bls12_381.h"
#include "icicle/runtime.h"
#include "peers.h"

namespace cuzk::peers {
namespace {

double now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string failed(const char* what, eIcicleError e) {
  return std::string(what) + ": " + icicle::get_error_string(e);
}

// Bases and scalars in cuzk's Montgomery form, on the device; the result to
// the host, synchronously.
icicle::MSMConfig msm_config() {
  icicle::MSMConfig c = icicle::default_msm_config();
  c.are_scalars_on_device = true;
  c.are_scalars_montgomery_form = true;
  c.are_points_on_device = true;
  c.are_points_montgomery_form = true;
  c.are_results_on_device = false;
  c.is_async = false;
  return c;
}

template <class Projective>
void copy_projective(const Projective& p, size_t limbs, PeerPoint* out) {
  static_assert(sizeof(Projective) % 3 == 0);
  const auto* w = reinterpret_cast<const uint64_t*>(&p);
  out->x.assign(w, w + limbs);
  out->y.assign(w + limbs, w + 2 * limbs);
  out->z.assign(w + 2 * limbs, w + 3 * limbs);
  out->jacobian = false;  // ICICLE's projective_t: x = X/Z, y = Y/Z
  out->montgomery = -1;
}

template <class Affine, class Projective, class Fn>
std::string run_msm(Fn msm, const void* d_bases, const void* d_scalars, size_t n, int reps, size_t limbs,
                    PeerPoint* out, Timings* t) {
  const icicle::MSMConfig c = msm_config();
  Projective result;
  for (int r = 0; r <= reps; ++r) {
    const double t0 = now_ms();
    eIcicleError e = msm(static_cast<const bls12_381::scalar_t*>(d_scalars), static_cast<const Affine*>(d_bases),
                         int(n), &c, &result);
    const double t1 = now_ms();
    if (e != eIcicleError::SUCCESS) return failed("icicle msm", e);
    if (r > 0) t->ms.push_back(t1 - t0);
  }
  copy_projective(result, limbs, out);
  return "";
}

}  // namespace

std::string icicle_init(const std::string& backend_dir) {
  eIcicleError e = icicle_load_backend(backend_dir.c_str(), true);
  if (e != eIcicleError::SUCCESS) return failed(("icicle_load_backend(" + backend_dir + ")").c_str(), e);
  icicle::Device device("CUDA", 0);
  e = icicle_set_device(device);
  if (e != eIcicleError::SUCCESS) return failed("icicle_set_device(CUDA, 0)", e);
  return "";
}

std::string icicle_msm_g1(const void* d_bases, const void* d_scalars, size_t n, int reps, PeerPoint* out, Timings* t) {
  static_assert(sizeof(bls12_381::affine_t) == 96 && sizeof(bls12_381::projective_t) == 144);
  return run_msm<bls12_381::affine_t, bls12_381::projective_t>(bls12_381_msm, d_bases, d_scalars, n, reps, 6, out, t);
}

std::string icicle_msm_g2(const void* d_bases, const void* d_scalars, size_t n, int reps, PeerPoint* out, Timings* t) {
  static_assert(sizeof(bls12_381::g2_affine_t) == 192 && sizeof(bls12_381::g2_projective_t) == 288);
  return run_msm<bls12_381::g2_affine_t, bls12_381::g2_projective_t>(bls12_381_g2_msm, d_bases, d_scalars, n, reps,
                                                                     12, out, t);
}

std::string icicle_ntt(void* d_data, int lg, int max_lg, const uint64_t root[4], const uint64_t* coset, int reps,
                       Timings* t) {
  static_assert(sizeof(bls12_381::scalar_t) == 32);
  static int domain_lg = -1;
  if (domain_lg != max_lg) {
    if (domain_lg >= 0) bls12_381_ntt_release_domain();
    bls12_381::scalar_t w;
    std::memcpy(&w, root, 32);  // ICICLE's host scalars are canonical
    const icicle::NTTInitDomainConfig ic = icicle::default_ntt_init_domain_config();
    eIcicleError e = bls12_381_ntt_init_domain(&w, &ic);
    if (e != eIcicleError::SUCCESS) return failed("icicle ntt_init_domain", e);
    domain_lg = max_lg;
  }
  icicle::NTTConfig<bls12_381::scalar_t> c = icicle::default_ntt_config<bls12_381::scalar_t>();
  c.are_inputs_on_device = true;
  c.are_outputs_on_device = true;
  c.is_async = false;
  if (coset != nullptr) std::memcpy(&c.coset_gen, coset, 32);
  auto* data = static_cast<bls12_381::scalar_t*>(d_data);
  for (int r = 0; r <= reps; ++r) {
    const double t0 = now_ms();
    eIcicleError e = bls12_381_ntt(data, 1 << lg, icicle::NTTDir::kForward, &c, data);
    const double t1 = now_ms();
    if (e != eIcicleError::SUCCESS) return failed("icicle ntt", e);
    if (r > 0) t->ms.push_back(t1 - t0);
  }
  return "";
}

}  // namespace cuzk::peers
