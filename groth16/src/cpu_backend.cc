// The CPU backend: H via the ntt/ layer, MSMs via msm/ with the 0/1 split.
#include <map>
#include <mutex>
#include <utility>

#include "cuzk/groth16/backend.h"
#include "cuzk/msm/msm.h"
#include "cuzk/msm/split.h"
#include "cuzk/ntt/domain.h"
#include "cuzk/ntt/ntt.h"

namespace cuzk::groth16 {
namespace {

class CpuBackend final : public Backend {
 public:
  explicit CpuBackend(ThreadPool* pool) : pool_(pool ? pool : &default_thread_pool()) {}

  std::string_view name() const override { return "cpu"; }

  Status compute_h(KeyLayout layout, int lg_n, std::span<Fr> a, std::span<Fr> b, std::span<Fr> c) override {
    ASSIGN_OR_RETURN(const ntt::Domain* d, domain(lg_n, root_convention(layout)));
    if (a.size() != d->size() || b.size() != d->size() || c.size() != d->size())
      return invalid_argument("compute_h: a, b, c must have the domain size " + std::to_string(d->size()));
    return layout == KeyLayout::kBellperson ? h_bellperson(*d, a, b, c) : h_snarkjs(*d, lg_n, a, b, c);
  }

  ec::G1Jacobian msm_g1(std::span<const G1Affine> bases, std::span<const Fr> scalars) override {
    return msm::split_msm<ec::G1Curve>(bases, scalars, {.pool = pool_});
  }
  ec::G2Jacobian msm_g2(std::span<const G2Affine> bases, std::span<const Fr> scalars) override {
    return msm::split_msm<ec::G2Curve>(bases, scalars, {.pool = pool_});
  }

 private:
  // h = (A·B − C)/Z on the coset 7·ω^j, where Z(7·ω^j) = 7^n − 1 for all j:
  // 3 iNTT + 3 coset NTT + 1 coset iNTT, and one pass for the element-wise step.
  Status h_bellperson(const ntt::Domain& d, std::span<Fr> a, std::span<Fr> b, std::span<Fr> c) {
    const Fr g = ff::fr_generator(ff::RootConvention::kBellperson);
    for (std::span<Fr> x : {a, b, c}) {
      RETURN_IF_ERROR(ntt::inverse(d, x, ntt::Order::kNaturalToNatural, pool_));
      RETURN_IF_ERROR(ntt::coset_forward(d, x, g, ntt::Order::kNaturalToBitReversed, pool_));
    }
    const Fr z_inv = (g.pow(uint64_t(d.size())) - Fr::one()).inverse();
    pool_->parallel_for(a.size(), 4096, [&](size_t lo, size_t hi) {
      for (size_t i = lo; i < hi; ++i) a[i] = (a[i] * b[i] - c[i]) * z_inv;
    });
    RETURN_IF_ERROR(ntt::coset_inverse(d, a, g, ntt::Order::kBitReversedToNatural, pool_));
    if (!a[d.size() - 1].is_zero())
      return failed_precondition(
          "A·B − C is not divisible by Z: the witness does not satisfy the circuit (h has degree n − 1)");
    return ok_status();
  }

  // P_j = a_j·b_j − c_j on the odd coset ω(2n)·ω(n)^j: 3 iNTT + 3 coset NTT.
  Status h_snarkjs(const ntt::Domain& d, int lg_n, std::span<Fr> a, std::span<Fr> b, std::span<Fr> c) {
    const Fr shift = ff::root_of_unity(lg_n + 1, ff::RootConvention::kSnarkjs);
    for (std::span<Fr> x : {a, b, c}) {
      RETURN_IF_ERROR(ntt::inverse(d, x, ntt::Order::kNaturalToNatural, pool_));
      RETURN_IF_ERROR(ntt::coset_forward(d, x, shift, ntt::Order::kNaturalToNatural, pool_));
    }
    pool_->parallel_for(a.size(), 4096, [&](size_t lo, size_t hi) {
      for (size_t i = lo; i < hi; ++i) a[i] = a[i] * b[i] - c[i];
    });
    return ok_status();
  }

  StatusOr<const ntt::Domain*> domain(int lg_n, ff::RootConvention conv) {
    std::lock_guard<std::mutex> lock(mu_);
    auto key = std::make_pair(lg_n, int(conv));
    auto it = domains_.find(key);
    if (it == domains_.end()) {
      ASSIGN_OR_RETURN(ntt::Domain d, ntt::Domain::create(lg_n, conv));
      it = domains_.emplace(key, std::make_unique<ntt::Domain>(std::move(d))).first;
    }
    return it->second.get();
  }

  ThreadPool* pool_;
  std::mutex mu_;
  std::map<std::pair<int, int>, std::unique_ptr<ntt::Domain>> domains_;  // GUARDED_BY(mu_)
};

}  // namespace

std::unique_ptr<Backend> make_cpu_backend(ThreadPool* pool) { return std::make_unique<CpuBackend>(pool); }

}  // namespace cuzk::groth16
