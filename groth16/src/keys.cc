#include "cuzk/groth16/keys.h"

#include <string>

namespace cuzk::groth16 {

std::string_view key_layout_name(KeyLayout layout) {
  return layout == KeyLayout::kBellperson ? "bellperson" : "snarkjs";
}

ff::RootConvention root_convention(KeyLayout layout) {
  return layout == KeyLayout::kBellperson ? ff::RootConvention::kBellperson : ff::RootConvention::kSnarkjs;
}

uint64_t ProvingKey::point_bytes() const {
  return sizeof(G1Affine) * (h.size() + l.size() + a.size() + b_g1.size() + vk.ic.size()) +
         sizeof(G2Affine) * b_g2.size();
}

namespace {
Status mismatch(const char* what, uint64_t got, uint64_t want) {
  return invalid_argument(std::string("proving key: ") + what + " has " + std::to_string(got) + ", expected " +
                          std::to_string(want));
}
}  // namespace

Status ProvingKey::check_shape() const {
  if (lg_n < 1 || lg_n > 32) return invalid_argument("proving key: domain 2^" + std::to_string(lg_n) + " out of range");
  if (num_inputs < 1) return invalid_argument("proving key: no inputs (ONE is always an input)");
  if (vk.ic.size() != num_inputs) return mismatch("IC", vk.ic.size(), num_inputs);
  uint64_t n = domain_size();
  uint64_t h_want = layout == KeyLayout::kBellperson ? n - 1 : n;
  if (h.size() != h_want) return mismatch("H", h.size(), h_want);
  if (l.size() != num_aux) return mismatch("L", l.size(), num_aux);
  if (a_density.bit_len != num_vars()) return mismatch("A density bit length", a_density.bit_len, num_vars());
  if (b_density.bit_len != num_vars()) return mismatch("B density bit length", b_density.bit_len, num_vars());
  if (a.size() != a_density.popcount) return mismatch("A", a.size(), a_density.popcount);
  if (b_g1.size() != b_density.popcount) return mismatch("B_G1", b_g1.size(), b_density.popcount);
  if (b_g2.size() != b_density.popcount) return mismatch("B_G2", b_g2.size(), b_density.popcount);
  return ok_status();
}

}  // namespace cuzk::groth16
