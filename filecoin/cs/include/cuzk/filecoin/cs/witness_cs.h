// WitnessCs: the witness-generation back end (values only).
//
// enforce() counts the row and never calls its linear-combination builders,
// so a synthesis costs the gadgets' value computations plus one store per
// variable. This is the proving hot path.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/filecoin/cs/cs.h"

namespace cuzk::filecoin::snark {

struct WitnessOptions {
  // False for a blank synthesis, run only to learn the shape (variable and
  // row counts); the values are then meaningless.
  bool values_known = true;
  // When the shape is known in advance (a cached shape of the same circuit),
  // the witness w = (inputs, aux) is built in one buffer of this many inputs
  // and aux, so take_witness() moves it out instead of copying 32 bytes per
  // variable. 0: unknown (the buffers grow).
  uint64_t expected_inputs = 0;
  uint64_t expected_aux = 0;
};

class WitnessCs {
 public:
  static constexpr bool kRecords = false;

  // ONE is allocated as input 0.
  explicit WitnessCs(const WitnessOptions& options = {});

  Var alloc(Name, const Fr& value) {
    w_.push_back(value);
    return Var::aux(w_.size() - 1 - reserved_inputs_);
  }
  Var alloc_input(Name, const Fr& value) {
    inputs_.push_back(value);
    return Var::input(inputs_.size() - 1);
  }
  template <class FA, class FB, class FC>
  void enforce(Name, FA&&, FB&&, FC&&) {
    ++rows_;
  }
  void push_namespace(Name) {}
  void pop_namespace() {}

  bool values_known() const { return values_known_; }
  void fail(Status s) {
    if (status_.ok()) status_ = std::move(s);
  }
  const Status& status() const { return status_; }

  uint64_t num_inputs() const { return inputs_.size(); }
  uint64_t num_aux() const { return w_.size() - reserved_inputs_; }
  // Rows enforced so far (without the per-input rows).
  uint64_t num_constraints() const { return rows_; }

  std::span<const Fr> inputs() const { return inputs_; }
  std::span<const Fr> aux() const { return std::span<const Fr>(w_).subspan(reserved_inputs_); }
  const Fr& value(Var v) const { return v.is_input() ? inputs_[v.index()] : w_[reserved_inputs_ + v.index()]; }

  // w = (inputs, aux); the back end is empty afterwards. Moves the buffer
  // when the input count matches WitnessOptions::expected_inputs.
  std::vector<Fr> take_witness() &&;

 private:
  bool values_known_;
  uint64_t reserved_inputs_;
  std::vector<Fr> inputs_;
  std::vector<Fr> w_;  // reserved_inputs_ slots, then aux
  uint64_t rows_ = 0;
  Status status_;
};

static_assert(ConstraintSystem<WitnessCs>);

}  // namespace cuzk::filecoin::snark
