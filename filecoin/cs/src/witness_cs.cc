#include "cuzk/filecoin/cs/witness_cs.h"

#include <algorithm>

namespace cuzk::filecoin::snark {

WitnessCs::WitnessCs(const WitnessOptions& options)
    : values_known_(options.values_known), reserved_inputs_(options.expected_inputs) {
  if (options.expected_inputs > 0) {
    inputs_.reserve(options.expected_inputs);
    w_.reserve(options.expected_inputs + options.expected_aux);
    w_.resize(options.expected_inputs);
  }
  alloc_input(Name("ONE"), Fr::one());
}

std::vector<Fr> WitnessCs::take_witness() && {
  std::vector<Fr> w;
  if (reserved_inputs_ > 0 && inputs_.size() == reserved_inputs_) {
    std::copy(inputs_.begin(), inputs_.end(), w_.begin());
    w = std::move(w_);
  } else {
    w.reserve(inputs_.size() + num_aux());
    w.insert(w.end(), inputs_.begin(), inputs_.end());
    w.insert(w.end(), w_.begin() + ptrdiff_t(reserved_inputs_), w_.end());
  }
  inputs_.clear();
  w_.clear();
  reserved_inputs_ = 0;
  return w;
}

}  // namespace cuzk::filecoin::snark
