// Groth16 verification: e(A, B) = e(α, β) · e(IC(x), γ) · e(C, δ), checked as
// one multi-pairing e(A,B)·e(IC(x),−γ)·e(C,−δ)·e(−α,β) = 1 with a single final
// exponentiation and precomputed G2 lines.
#pragma once

#include <memory>
#include <span>

#include "cuzk/base/status.h"
#include "cuzk/groth16/keys.h"
#include "cuzk/pairing/pairing.h"

namespace cuzk::groth16 {

// A verifying key with its G2 points prepared for the Miller loop.
// Immutable after construction; thread-safe to share.
class PreparedVerifyingKey {
 public:
  explicit PreparedVerifyingKey(VerifyingKey vk);
  const VerifyingKey& vk() const { return vk_; }

  // Errors: INVALID_ARGUMENT when public_inputs.size() + 1 != IC length, or
  // when IC(x) = IC_0 + Σ xᵢ·ICᵢ is outside the prime-order subgroup (IC
  // points with components outside it; a key whose IC points each passed the
  // test never gives one). Returns false for a proof that does not verify.
  // Public inputs exclude ONE. Many inputs are summed by a multi-scalar
  // multiplication on the default thread pool.
  StatusOr<bool> verify(std::span<const Fr> public_inputs, const Proof& proof) const;

 private:
  // IC_0 + Σ xᵢ·IC_{i+1}. REQUIRES: public_inputs.size() + 1 == IC length.
  G1Affine input_point(std::span<const Fr> public_inputs) const;

  VerifyingKey vk_;
  G1Affine neg_alpha_;
  pairing::G2Prepared beta_;
  pairing::G2Prepared neg_gamma_;
  pairing::G2Prepared neg_delta_;
};

// One-shot form of PreparedVerifyingKey::verify.
StatusOr<bool> verify(const VerifyingKey& vk, std::span<const Fr> public_inputs, const Proof& proof);

}  // namespace cuzk::groth16
