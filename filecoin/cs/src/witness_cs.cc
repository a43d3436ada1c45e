#include "cuzk/filecoin/cs/witness_cs.h"

#include <algorithm>
#include <limits>
#include <string>

namespace cuzk::filecoin::snark {
namespace {
constexpr uint64_t kUnbounded = std::numeric_limits<uint64_t>::max();
}

WitnessCs::WitnessCs(const WitnessOptions& options)
    : values_known_(options.values_known),
      store_(options.values_known),
      pool_(options.pool),
      reserved_inputs_(options.values_known ? options.expected_inputs : 0) {
  if (store_) {
    inputs_.resize(std::max<uint64_t>(options.expected_inputs, 1));
    w_.reserve(reserved_inputs_ + options.expected_aux);
    w_.resize(reserved_inputs_ + std::max<uint64_t>(options.expected_aux, 1));
    in_data_ = inputs_.data();
    in_cap_ = inputs_.size();
    aux_data_ = w_.data() + reserved_inputs_;
    aux_cap_ = w_.size() - reserved_inputs_;
  } else {
    in_cap_ = aux_cap_ = kUnbounded;
  }
  alloc_input(Name("ONE"), Fr::one());
}

WitnessCs::WitnessCs(Fr* aux, uint64_t aux_base, uint64_t aux_len, Fr* inputs, uint64_t in_base, uint64_t in_len,
                     bool store)
    : store_(store),
      top_(false),
      aux_data_(aux),
      aux_base_(aux_base),
      aux_cap_(aux_len),
      in_data_(inputs),
      in_base_(in_base),
      in_cap_(in_len) {}

// Top level: the buffer doubles. A section that outgrows its slice stops
// storing; its parent then reports the count mismatch.
void WitnessCs::grow_aux() {
  if (!store_ || !top_) {
    store_ = false;
    aux_cap_ = in_cap_ = kUnbounded;
    return;
  }
  w_.resize(reserved_inputs_ + std::max<uint64_t>(2 * aux_cap_, 1024));
  aux_data_ = w_.data() + reserved_inputs_;
  aux_cap_ = w_.size() - reserved_inputs_;
}

void WitnessCs::grow_inputs() {
  if (!store_ || !top_) {
    store_ = false;
    aux_cap_ = in_cap_ = kUnbounded;
    return;
  }
  inputs_.resize(std::max<uint64_t>(2 * in_cap_, 64));
  in_data_ = inputs_.data();
  in_cap_ = inputs_.size();
}

void WitnessCs::reserve_more(uint64_t extra_inputs, uint64_t extra_aux) {
  if (in_next_ + extra_inputs > in_cap_) {
    inputs_.resize(in_next_ + extra_inputs);
    in_data_ = inputs_.data();
    in_cap_ = inputs_.size();
  }
  if (aux_next_ + extra_aux > aux_cap_) {
    w_.resize(reserved_inputs_ + aux_next_ + extra_aux);
    aux_data_ = w_.data() + reserved_inputs_;
    aux_cap_ = w_.size() - reserved_inputs_;
  }
}

Status WitnessCs::check_section(const Counts& got, const Counts& want, size_t i) const {
  if (got.inputs == want.inputs && got.aux == want.aux && got.rows == want.rows) return ok_status();
  return internal_error("section " + std::to_string(i) + " has " + std::to_string(got.inputs) + " inputs, " +
                        std::to_string(got.aux) + " aux, " + std::to_string(got.rows) + " rows; section 0 had " +
                        std::to_string(want.inputs) + ", " + std::to_string(want.aux) + ", " +
                        std::to_string(want.rows));
}

std::vector<Fr> WitnessCs::take_witness() && {
  std::vector<Fr> w;
  if (!store_ || !top_) return w;
  const uint64_t n_in = in_next_, n_aux = aux_next_;
  if (reserved_inputs_ > 0 && n_in == reserved_inputs_) {
    std::copy(inputs_.begin(), inputs_.begin() + ptrdiff_t(n_in), w_.begin());
    w_.resize(reserved_inputs_ + n_aux);
    w = std::move(w_);
  } else {
    w.reserve(n_in + n_aux);
    w.insert(w.end(), inputs_.begin(), inputs_.begin() + ptrdiff_t(n_in));
    w.insert(w.end(), aux_data_, aux_data_ + n_aux);
  }
  inputs_.clear();
  w_.clear();
  aux_data_ = in_data_ = nullptr;
  aux_next_ = in_next_ = aux_cap_ = in_cap_ = 0;
  reserved_inputs_ = 0;
  return w;
}

}  // namespace cuzk::filecoin::snark
