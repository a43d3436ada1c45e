#include "cuzk/groth16/verifier.h"

#include <array>
#include <string>
#include <utility>

#include "cuzk/ec/scalar_mul.h"

namespace cuzk::groth16 {

PreparedVerifyingKey::PreparedVerifyingKey(VerifyingKey vk)
    : vk_(std::move(vk)),
      neg_alpha_(-vk_.alpha_g1),
      beta_(vk_.beta_g2),
      neg_gamma_(-vk_.gamma_g2),
      neg_delta_(-vk_.delta_g2) {}

StatusOr<bool> PreparedVerifyingKey::verify(std::span<const Fr> public_inputs, const Proof& proof) const {
  if (vk_.ic.empty()) return invalid_argument("verifying key has no IC points");
  if (public_inputs.size() + 1 != vk_.ic.size())
    return invalid_argument("expected " + std::to_string(vk_.ic.size() - 1) + " public inputs, got " +
                            std::to_string(public_inputs.size()));
  // acc = IC_0 + Σ x_i · IC_{i+1}
  ec::G1Jacobian acc = ec::G1Jacobian::from_affine(vk_.ic[0]);
  for (size_t i = 0; i < public_inputs.size(); ++i) acc += ec::mul(vk_.ic[i + 1], public_inputs[i]);
  const std::array<std::pair<G1Affine, const pairing::G2Prepared*>, 4> pairs = {{
      {proof.a, nullptr},
      {acc.to_affine(), &neg_gamma_},
      {proof.c, &neg_delta_},
      {neg_alpha_, &beta_},
  }};
  // The proof's B is not fixed, so its lines are computed here.
  pairing::G2Prepared b_lines(proof.b);
  auto with_b = pairs;
  with_b[0].second = &b_lines;
  return pairing::pairing_product_is_one(std::span<const std::pair<G1Affine, const pairing::G2Prepared*>>(with_b));
}

StatusOr<bool> verify(const VerifyingKey& vk, std::span<const Fr> public_inputs, const Proof& proof) {
  return PreparedVerifyingKey(vk).verify(public_inputs, proof);
}

}  // namespace cuzk::groth16
