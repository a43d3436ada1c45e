// The CPU backend: H via the ntt/ layer, MSMs via msm/ with the 0/1 split.
#include <chrono>
#include <map>
#include <mutex>
#include <utility>

#include "cuzk/groth16/backend.h"
#include "cuzk/groth16/lane_util.h"
#include "cuzk/groth16/prover.h"
#include "cuzk/msm/msm.h"
#include "cuzk/msm/split.h"
#include "cuzk/ntt/domain.h"
#include "cuzk/ntt/ntt.h"

namespace cuzk::groth16 {
namespace {

// The H step and the domains it needs (shared by the CPU backend's lanes).
class CpuH {
 public:
  explicit CpuH(ThreadPool* pool) : pool_(pool) {}

  // a ← the H scalars (backend.h, ProofInputs); b and c are clobbered.
  Status compute_h(KeyLayout layout, int lg_n, std::span<Fr> a, std::span<Fr> b, std::span<Fr> c) {
    ASSIGN_OR_RETURN(const ntt::Domain* d, domain(lg_n, root_convention(layout)));
    if (a.size() != d->size() || b.size() != d->size() || c.size() != d->size())
      return invalid_argument("compute_h: a, b, c must have the domain size " + std::to_string(d->size()));
    return layout == KeyLayout::kBellperson ? h_bellperson(*d, a, b, c) : h_snarkjs(*d, lg_n, a, b, c);
  }
 private:
  // h = (A·B − C)/Z on the coset 7·ω^j, where Z(7·ω^j) = 7^n − 1 for all j,
  // read back as coefficients. The coset inverse is linear and undoes the
  // coset forward, so C is not taken to the coset and back: its coefficients
  // (its inverse transform) are subtracted after the last transform,
  //   coset-iNTT(A_g·B_g − C_g) = coset-iNTT(A_g·B_g) − iNTT(c),
  // 6 transforms instead of 7 with the same bits (the field is exact; the
  // device's h_step does the same, ntt/cuda/ntt.h).
  // The transforms chain their orders (natural → bit-reversed → natural) so
  // that one permutation pass remains, at the end.
  Status h_bellperson(const ntt::Domain& d, std::span<Fr> a, std::span<Fr> b, std::span<Fr> c) {
    const Fr g = ff::fr_generator(ff::RootConvention::kBellperson);
    for (std::span<Fr> x : {a, b}) {
      RETURN_IF_ERROR(ntt::inverse(d, x, ntt::Order::kNaturalToBitReversed, pool_));
      RETURN_IF_ERROR(ntt::coset_forward(d, x, g, ntt::Order::kBitReversedToNatural, pool_));
    }
    RETURN_IF_ERROR(ntt::inverse(d, c, ntt::Order::kNaturalToBitReversed, pool_));
    pool_->parallel_for(a.size(), 4096, [&](size_t lo, size_t hi) {
      for (size_t i = lo; i < hi; ++i) a[i] *= b[i];
    });
    RETURN_IF_ERROR(ntt::coset_inverse(d, a, g, ntt::Order::kNaturalToBitReversed, pool_));
    const Fr z_inv = (g.pow(uint64_t(d.size())) - Fr::one()).inverse();
    pool_->parallel_for(a.size(), 4096, [&](size_t lo, size_t hi) {  // both bit-reversed
      for (size_t i = lo; i < hi; ++i) a[i] = (a[i] - c[i]) * z_inv;
    });
    RETURN_IF_ERROR(ntt::bit_reverse_permute(a, pool_));
    if (!a[d.size() - 1].is_zero())
      return failed_precondition(
          "A·B − C is not divisible by Z: the witness does not satisfy the circuit (h has degree n − 1)");
    return ok_status();
  }

  // P_j = a_j·b_j − c_j on the odd coset ω(2n)·ω(n)^j: 3 iNTT + 3 coset NTT,
  // their orders chained so that no permutation pass is needed.
  Status h_snarkjs(const ntt::Domain& d, int lg_n, std::span<Fr> a, std::span<Fr> b, std::span<Fr> c) {
    const Fr shift = ff::root_of_unity(lg_n + 1, ff::RootConvention::kSnarkjs);
    for (std::span<Fr> x : {a, b, c}) {
      RETURN_IF_ERROR(ntt::inverse(d, x, ntt::Order::kNaturalToBitReversed, pool_));
      RETURN_IF_ERROR(ntt::coset_forward(d, x, shift, ntt::Order::kBitReversedToNatural, pool_));
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


// A key on the CPU: the host key, and the circuit when it was attached with
// one (the lanes then compute a, b, c themselves).
class CpuKey final : public AttachedKey {
 public:
  CpuKey(const ProvingKey& pk, const r1cs::Circuit* circuit, CRule c_rule)
      : AttachedKey(pk), circuit_(circuit), c_rule_(c_rule) {}
  uint64_t device_bytes() const override { return 0; }
  std::string placement() const override { return "host"; }
  bool computes_rows() const override { return circuit_ != nullptr; }
  const r1cs::Circuit* circuit() const { return circuit_; }
  CRule c_rule() const { return c_rule_; }

 private:
  const r1cs::Circuit* circuit_;
  CRule c_rule_;
};

class CpuLane final : public Lane {
 public:
  CpuLane(ThreadPool* pool, std::shared_ptr<CpuH> h) : pool_(pool), h_(std::move(h)) {}

  Status stage(std::shared_ptr<const AttachedKey> key, const ProofInputs& in) override {
    auto ck = std::dynamic_pointer_cast<const CpuKey>(key);
    if (!ck) return invalid_argument("lane.stage: the key was attached to another backend");
    RETURN_IF_ERROR(check_inputs(key->pk(), in, ck->computes_rows()));
    key_ = std::move(ck);
    in_ = in;
    return ok_status();
  }

  StatusOr<MsmSums> run() override {
    if (!key_) return failed_precondition("lane: nothing staged");
    std::shared_ptr<const CpuKey> key = std::move(key_);
    const ProvingKey& pk = key->pk();
    times_ = LaneTimes{};
    times_.plan = "cpu";
    auto t0 = std::chrono::steady_clock::now();
    RowValues rows;
    if (!in_.rows_given()) {
      RETURN_IF_ERROR(compute_rows_here(*key, rows));
      mark("matvec", t0);
    }
    RETURN_IF_ERROR(stop_if_cancelled("before H"));
    RETURN_IF_ERROR(h_->compute_h(pk.layout, pk.lg_n, in_.a, in_.b, in_.c));
    mark("h", t0);
    RETURN_IF_ERROR(stop_if_cancelled("after H"));
    const msm::MsmOptions mo{.pool = pool_};
    std::span<const Fr> w = in_.witness;
    MsmSums out;
    out.h = msm::split_msm<ec::G1Curve>(std::span<const G1Affine>(pk.h), std::span<const Fr>(in_.a).first(pk.h.size()), mo);
    mark("msm_h", t0);
    RETURN_IF_ERROR(stop_if_cancelled("after msm_h"));
    out.l = msm::split_msm<ec::G1Curve>(std::span<const G1Affine>(pk.l), w.subspan(pk.num_inputs), mo);
    mark("msm_l", t0);
    RETURN_IF_ERROR(stop_if_cancelled("after msm_l"));
    std::vector<Fr> wa = msm::gather_by_density(w, pk.a_density.words, pk.a_density.bit_len);
    out.a = msm::split_msm<ec::G1Curve>(std::span<const G1Affine>(pk.a), std::span<const Fr>(wa), mo);
    mark("msm_a", t0);
    RETURN_IF_ERROR(stop_if_cancelled("after msm_a"));
    std::vector<Fr> wb = msm::gather_by_density(w, pk.b_density.words, pk.b_density.bit_len);
    msm::SplitScalars split = msm::classify(wb, mo);
    out.b1 = msm::split_msm<ec::G1Curve>(std::span<const G1Affine>(pk.b_g1), split, mo);
    mark("msm_b1", t0);
    RETURN_IF_ERROR(stop_if_cancelled("after msm_b1"));
    out.b2 = msm::split_msm<ec::G2Curve>(std::span<const G2Affine>(pk.b_g2), split, mo);
    mark("msm_b2", t0);
    return out;
  }

  const LaneTimes& times() const override { return times_; }

 private:
  // CANCELLED when the staged proof's job was cancelled (ProofInputs::cancelled).
  Status stop_if_cancelled(const char* where) const {
    if (in_.cancelled && in_.cancelled()) return cancelled(std::string("proof cancelled ") + where);
    return ok_status();
  }
  // a, b, c from the witness and the key's circuit (the matvec stage of
  // prover.h, with the row check when asked), into `rows` and in_.
  Status compute_rows_here(const CpuKey& key, RowValues& rows) {
    ProveOptions o;
    o.pool = pool_;
    o.c_rule = key.c_rule();
    o.check_satisfied = in_.check_rows;
    ASSIGN_OR_RETURN(rows, compute_rows(key.pk(), *key.circuit(), in_.witness, o));
    in_.a = rows.a, in_.b = rows.b, in_.c = rows.c;
    return ok_status();
  }

  void mark(const char* stage, std::chrono::steady_clock::time_point& t0) {
    auto t1 = std::chrono::steady_clock::now();
    times_.stages_ms.emplace_back(stage, std::chrono::duration<double, std::milli>(t1 - t0).count());
    t0 = t1;
  }

  ThreadPool* pool_;
  std::shared_ptr<CpuH> h_;
  std::shared_ptr<const CpuKey> key_;
  ProofInputs in_;
  LaneTimes times_;
};

class CpuBackend final : public Backend {
 public:
  explicit CpuBackend(ThreadPool* pool)
      : pool_(pool ? pool : &default_thread_pool()), h_(std::make_shared<CpuH>(pool_)) {}
  std::string_view name() const override { return "cpu"; }
  BackendCaps caps() const override {
    return {.keeps_keys = false, .uploads_inputs = false, .can_make_rows = false, .device_timed = false};
  }
  std::string describe() const override { return "cpu (" + std::to_string(pool_->size()) + " threads)"; }
  StatusOr<std::shared_ptr<const AttachedKey>> attach(const ProvingKey& pk, const AttachOptions& options) override {
    RETURN_IF_ERROR(pk.check_shape());
    if (options.circuit) RETURN_IF_ERROR(check_circuit_of(pk, *options.circuit));
    return std::shared_ptr<const AttachedKey>(std::make_shared<CpuKey>(pk, options.circuit, options.c_rule));
  }
  StatusOr<std::unique_ptr<Lane>> make_lane() override {
    return std::unique_ptr<Lane>(std::make_unique<CpuLane>(pool_, h_));
  }

 private:
  ThreadPool* pool_;
  std::shared_ptr<CpuH> h_;
};

}  // namespace

std::unique_ptr<Backend> make_cpu_backend(ThreadPool* pool) { return std::make_unique<CpuBackend>(pool); }

}  // namespace cuzk::groth16
