// WitnessCs: the witness-generation back end (values only).
//
// enforce() counts the row and never calls its linear-combination builders,
// so a synthesis costs the gadgets' value computations plus one store per
// variable. This is the proving hot path.
//
// Sections (cs.h) run in parallel on a thread pool when one is given: the
// first section runs in place and fixes the section's variable and row
// counts; the others write their values straight into their slices of the
// witness, from pool threads. A shape-only WitnessCs (values_known = false)
// stores nothing and replicates sections after checking that the second
// matches the first.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/base/thread_pool.h"
#include "cuzk/filecoin/cs/cs.h"

namespace cuzk::filecoin::snark {

struct WitnessOptions {
  // False for a blank synthesis, run only to learn the shape (variable and
  // row counts): no value is stored.
  bool values_known = true;
  // When the shape is known in advance (a cached shape of the same circuit),
  // the witness w = (inputs, aux) is built in one buffer of this many inputs
  // and aux, so take_witness() moves it out instead of copying 32 bytes per
  // variable. 0: unknown (the buffers grow).
  uint64_t expected_inputs = 0;
  uint64_t expected_aux = 0;
  // Runs sections in parallel (nullptr: in order, on the calling thread).
  ThreadPool* pool = nullptr;
};

class WitnessCs {
 public:
  static constexpr bool kRecords = false;

  // ONE is allocated as input 0.
  explicit WitnessCs(const WitnessOptions& options = {});
  WitnessCs(WitnessCs&&) = default;

  Var alloc(Name, const Fr& value) {
    if (aux_next_ == aux_cap_) grow_aux();
    if (store_) aux_data_[aux_next_] = value;
    return Var::aux(aux_base_ + aux_next_++);
  }
  Var alloc_input(Name, const Fr& value) {
    if (in_next_ == in_cap_) grow_inputs();
    if (store_) in_data_[in_next_] = value;
    return Var::input(in_base_ + in_next_++);
  }
  template <class FA, class FB, class FC>
  void enforce(Name, FA&&, FB&&, FC&&) {
    ++rows_;
  }
  void push_namespace(Name) {}
  void pop_namespace() {}

  // n sections that allocate and constrain identically: fn(cs, i) for
  // i in [0, n), on this back end or on one writing its slice of the witness.
  template <class F>
  void sections(size_t n, F&& fn);

  bool values_known() const { return values_known_; }
  void fail(Status s) {
    if (status_.ok()) status_ = std::move(s);
  }
  const Status& status() const { return status_; }

  uint64_t num_inputs() const { return in_base_ + in_next_; }
  uint64_t num_aux() const { return aux_base_ + aux_next_; }
  // Rows enforced so far (without the per-input rows).
  uint64_t num_constraints() const { return rows_; }

  // REQUIRES: values_known; a top-level back end (not a section's).
  std::span<const Fr> inputs() const { return {in_data_, in_next_}; }
  std::span<const Fr> aux() const { return {aux_data_, aux_next_}; }
  const Fr& value(Var v) const { return v.is_input() ? in_data_[v.index()] : aux_data_[v.index()]; }

  // w = (inputs, aux); the back end is empty afterwards. Moves the buffer
  // when the input count matches WitnessOptions::expected_inputs.
  std::vector<Fr> take_witness() &&;

 private:
  struct Counts {
    uint64_t inputs, aux, rows;
  };
  // A section's back end writing `aux` values at aux index aux_base and
  // `inputs` at input index in_base, into the parent's buffers.
  WitnessCs(Fr* aux, uint64_t aux_base, uint64_t aux_len, Fr* inputs, uint64_t in_base, uint64_t in_len, bool store);
  Counts counts() const { return {num_inputs(), num_aux(), rows_}; }
  void grow_aux();
  void grow_inputs();
  // Makes room for `extra` more values in each buffer (top level only).
  void reserve_more(uint64_t extra_inputs, uint64_t extra_aux);
  Status check_section(const Counts& got, const Counts& want, size_t i) const;
  template <class F>
  void run_parallel_sections(size_t n, F& fn, const Counts& per);

  bool values_known_ = true;
  bool store_ = true;
  bool top_ = true;  // owns its buffers (else writes a parent's slice)
  ThreadPool* pool_ = nullptr;
  uint64_t reserved_inputs_ = 0;  // slots kept in front of aux in w_ (top level)
  std::vector<Fr> w_;             // reserved inputs slots, then aux (top level)
  std::vector<Fr> inputs_;        // top level
  Fr* aux_data_ = nullptr;
  uint64_t aux_base_ = 0, aux_next_ = 0, aux_cap_ = 0;
  Fr* in_data_ = nullptr;
  uint64_t in_base_ = 0, in_next_ = 0, in_cap_ = 0;
  uint64_t rows_ = 0;
  Status status_;
};

static_assert(ConstraintSystem<WitnessCs>);

template <class F>
void WitnessCs::sections(size_t n, F&& fn) {
  if (n == 0) return;
  const Counts before = counts();
  fn(*this, size_t(0));
  const Counts after0 = counts();
  const Counts per{after0.inputs - before.inputs, after0.aux - before.aux, after0.rows - before.rows};
  if (n == 1) return;
  if (!store_) {
    // Shape only: the second section must match the first; the rest are copies.
    fn(*this, size_t(1));
    const Counts after1 = counts();
    Status s = check_section({after1.inputs - after0.inputs, after1.aux - after0.aux, after1.rows - after0.rows},
                             per, 1);
    if (!s.ok()) return fail(s);
    const uint64_t rest = n - 2;
    in_next_ += rest * per.inputs;
    aux_next_ += rest * per.aux;
    rows_ += rest * per.rows;
    return;
  }
  if (pool_ == nullptr || !top_) {
    for (size_t i = 1; i < n; ++i) fn(*this, i);
    return;
  }
  run_parallel_sections(n, fn, per);
}

template <class F>
void WitnessCs::run_parallel_sections(size_t n, F& fn, const Counts& per) {
  reserve_more((n - 1) * per.inputs, (n - 1) * per.aux);
  const uint64_t aux0 = aux_next_, in0 = in_next_;
  std::vector<Status> statuses(n - 1);
  std::vector<Counts> got(n - 1);
  pool_->parallel_tasks(n - 1, [&](size_t k) {
    WitnessCs sub(aux_data_ + aux0 + k * per.aux, aux_base_ + aux0 + k * per.aux, per.aux, in_data_ + in0 + k * per.inputs,
                  in_base_ + in0 + k * per.inputs, per.inputs, true);
    fn(sub, k + 1);
    got[k] = {sub.in_next_, sub.aux_next_, sub.rows_};
    statuses[k] = sub.status_;
  });
  aux_next_ += (n - 1) * per.aux;
  in_next_ += (n - 1) * per.inputs;
  rows_ += (n - 1) * per.rows;
  for (size_t k = 0; k + 1 < n; ++k) {
    if (!statuses[k].ok()) return fail(statuses[k]);
    Status s = check_section(got[k], per, k + 1);
    if (!s.ok()) return fail(s);
  }
}

}  // namespace cuzk::filecoin::snark
