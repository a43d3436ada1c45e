#include "cuzk/filecoin/cs/boolean.h"
#include "cuzk/filecoin/cs/num.h"
#include "cuzk/filecoin/cs/sha256.h"

namespace cuzk::filecoin::snark {

std::vector<Boolean> reverse_bit_numbering(std::vector<Boolean> bits) {
  while (bits.size() % 8 != 0) bits.push_back(Boolean::constant(false));
  for (size_t i = 0; i < bits.size(); i += 8) std::reverse(bits.begin() + ptrdiff_t(i), bits.begin() + ptrdiff_t(i + 8));
  return bits;
}

std::vector<Fr> compute_multipacking(const std::vector<bool>& bits) {
  std::vector<Fr> out;
  for (size_t start = 0; start < bits.size(); start += kFrCapacity) {
    Fr cur = Fr::zero();
    for (size_t k = start; k < std::min<size_t>(bits.size(), start + kFrCapacity); ++k) {
      if (bits[k]) cur += pow2(unsigned(k - start));
    }
    out.push_back(cur);
  }
  return out;
}

}  // namespace cuzk::filecoin::snark
