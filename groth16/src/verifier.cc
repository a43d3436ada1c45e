#include "cuzk/groth16/verifier.h"

#include <array>
#include <string>
#include <utility>

#include "cuzk/ec/scalar_mul.h"
#include "cuzk/msm/msm.h"

namespace cuzk::groth16 {

PreparedVerifyingKey::PreparedVerifyingKey(VerifyingKey vk)
    : vk_(std::move(vk)),
      neg_alpha_(-vk_.alpha_g1),
      beta_(vk_.beta_g2),
      neg_gamma_(-vk_.gamma_g2),
      neg_delta_(-vk_.delta_g2) {}

ec::G1Affine PreparedVerifyingKey::input_point(std::span<const Fr> public_inputs) const {
  // Pippenger for many inputs (a 32 GiB Window PoSt has 25,839: 2.4 s as
  // 25,839 scalar multiplications of ~380 group operations, docs/perf.md);
  // below that the plain sum is as fast and starts no pool tasks.
  constexpr size_t kMsmFrom = 64;
  const std::span<const G1Affine> bases(vk_.ic.data() + 1, public_inputs.size());
  ec::G1Jacobian acc = ec::G1Jacobian::identity();
  if (public_inputs.size() >= kMsmFrom) {
    acc = msm::msm<ec::G1Curve>(bases, public_inputs);
  } else {
    for (size_t i = 0; i < public_inputs.size(); ++i) acc += ec::mul(bases[i], public_inputs[i]);
  }
  acc += vk_.ic[0];
  return acc.to_affine();
}

StatusOr<bool> PreparedVerifyingKey::verify(std::span<const Fr> public_inputs, const Proof& proof) const {
  if (vk_.ic.empty()) return invalid_argument("verifying key has no IC points");
  if (public_inputs.size() + 1 != vk_.ic.size())
    return invalid_argument("expected " + std::to_string(vk_.ic.size() - 1) + " public inputs, got " +
                            std::to_string(public_inputs.size()));
  const ec::G1Affine acc = input_point(public_inputs);
  // The one point of IC the pairing sees: in the subgroup, whether or not
  // each IC point was tested when the key was read (io::parse_vk_for_verifier).
  if (!ec::in_subgroup(acc))
    return invalid_argument("the verifying key's IC points combine to a point outside the prime-order subgroup "
                            "(a malformed key)");
  const std::array<std::pair<G1Affine, const pairing::G2Prepared*>, 4> pairs = {{
      {proof.a, nullptr},
      {acc, &neg_gamma_},
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
