// RecordingCs: the back end that sees every row.
//
// For each enforce() it builds the three linear combinations, merges them
// (merge_terms), counts the non-zeros, updates the density bitmaps as
// bellperson's prover records them, and optionally
//  - hands the row to an r1cs::RowSink (CircuitBuilder, PrecompiledWriter)
//    with variables as witness indices, and
//  - checks the row against the values given to alloc, remembering the first
//    violated row with its namespace path (bellperson's TestConstraintSystem
//    semantics, without storing the rows).
// With neither, it is a counting back end: shape, non-zeros and density of a
// circuit of any size in O(variables / 8) bytes.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "cuzk/filecoin/cs/cs.h"
#include "cuzk/r1cs/circuit.h"
#include "cuzk/r1cs/density.h"

namespace cuzk::filecoin::snark {

struct RecordingOptions {
  // Receives the circuit's rows (no per-input rows) in order.
  r1cs::RowSink* sink = nullptr;
  // REQUIRED with a sink: the circuit's input count, ONE included (from a
  // shape pass with WitnessCs), so that aux j can be written as
  // num_inputs + j as the rows arrive.
  uint64_t num_inputs = 0;
  // Keep the values and check each row as it is added.
  bool check = false;
  // Counting only (no sink, no check): of n >= 3 sections, synthesize the
  // first two, require them to be identical (counts, density pattern of their
  // own variables, outer variables touched), and account for the other n − 2
  // as copies of the second. Exact for sections that synthesize identically
  // whatever their values, which is the sections contract (cs.h).
  bool replicate_sections = false;
};

// The shape of a synthesized circuit. Non-zeros count the circuit's rows
// only; bellperson's input rows add num_inputs to A.
struct CircuitCounts {
  uint64_t num_inputs = 0;  // ONE included
  uint64_t num_aux = 0;
  uint64_t num_constraints = 0;
  std::array<uint64_t, 3> nonzeros{};  // A, B, C
  friend bool operator==(const CircuitCounts&, const CircuitCounts&) = default;
};

class RecordingCs {
 public:
  static constexpr bool kRecords = true;

  // ONE is allocated as input 0.
  explicit RecordingCs(const RecordingOptions& options = {});

  Var alloc(Name name, const Fr& value);
  Var alloc_input(Name name, const Fr& value);

  template <class FA, class FB, class FC>
  void enforce(Name name, FA&& fa, FB&& fb, FC&& fc) {
    for (Lc& lc : lcs_) lc.clear();
    fa(lcs_[0]);
    fb(lcs_[1]);
    fc(lcs_[2]);
    add_row(name);
  }

  // n sections that allocate and constrain identically: fn(cs, i) for
  // i in [0, n) in order, or replicated (RecordingOptions).
  template <class F>
  void sections(size_t n, F&& fn) {
    if (!replicate_ || n < 3 || in_section_) {
      for (size_t i = 0; i < n; ++i) fn(*this, i);
      return;
    }
    const Mark m0 = begin_section();
    fn(*this, size_t(0));
    const Mark m1 = begin_section();
    fn(*this, size_t(1));
    const Mark m2 = begin_section();
    in_section_ = false;
    replicate(m0, m1, m2, n);
  }

  void push_namespace(Name name) { names_.push_back(name); }
  void pop_namespace() { names_.pop_back(); }

  bool values_known() const { return check_; }
  void fail(Status s);
  const Status& status() const { return status_; }

  const CircuitCounts& counts() const { return counts_; }
  uint64_t num_inputs() const { return counts_.num_inputs; }
  uint64_t num_aux() const { return counts_.num_aux; }
  uint64_t num_constraints() const { return counts_.num_constraints; }

  // The density bitmaps over the rows so far plus bellperson's input rows:
  // a_input all set, a_aux / b_input / b_aux as its prover's trackers.
  r1cs::DensityBitmaps density() const;

  // OK when every row checked so far holds; else INVALID_ARGUMENT
  // "constraint <i> (<namespace path>) is not satisfied: a·b != c".
  // REQUIRES: options.check.
  Status satisfied() const;

  // The value given to alloc / alloc_input. REQUIRES: options.check.
  const Fr& value(Var v) const { return v.is_input() ? input_values_[v.index()] : aux_values_[v.index()]; }

 private:
  struct Mark {
    CircuitCounts counts;
    std::vector<uint64_t> outer;  // outer variables touched by the section that ends here
  };
  Mark begin_section();
  void replicate(const Mark& m0, const Mark& m1, const Mark& m2, size_t n);
  void add_row(Name name);
  void track_density(const std::vector<LcTerm>& terms, bool a_matrix);
  Fr evaluate(const std::vector<LcTerm>& terms) const;
  void check_row(Name name);
  void emit_row();

  r1cs::RowSink* sink_;
  uint64_t sink_inputs_;
  bool check_;
  bool replicate_;
  bool in_section_ = false;
  uint64_t section_aux_base_ = 0, section_in_base_ = 0;
  std::vector<uint64_t> section_outer_;  // (matrix << 62) | raw index of outer variables touched
  CircuitCounts counts_;
  std::array<Lc, 3> lcs_;
  std::vector<r1cs::LinTerm> sink_terms_[3];
  std::vector<uint64_t> a_aux_, b_input_, b_aux_;  // bitmap words
  std::vector<Fr> input_values_, aux_values_;
  std::vector<Name> names_;
  // The first violated row, if any.
  bool violated_ = false;
  std::string violation_;
  Status status_;
};

static_assert(ConstraintSystem<RecordingCs>);

}  // namespace cuzk::filecoin::snark
