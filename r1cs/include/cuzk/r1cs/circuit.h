// A rank-1 constraint system in compressed sparse row form.
//
// Constraint i holds when <A_i, w> · <B_i, w> = <C_i, w> over Fr, with the
// witness w = (1, public inputs..., aux...). Variables 0 .. num_inputs-1 are
// the inputs (ONE at index 0 included); num_inputs .. num_vars-1 are aux.
//
// Storage (8 bytes per non-zero, 12 bytes per row, plus a small table):
//  - the three matrices are interleaved row by row: for row i and matrix
//    m ∈ {A=0, B=1, C=2}, its terms are terms[offsets[3i+m] .. offsets[3i+m+1]).
//    One sequential pass therefore yields a_i, b_i and c_i together.
//  - a term is {u32 var, u32 coeff}; coeff indexes a per-circuit table of
//    distinct coefficients (Fr, Montgomery). Real circuits use few distinct
//    values (±1, powers of two, a few hundred constants), so the table stays
//    in cache; a circuit whose coefficients are all distinct still works, at
//    40 instead of 8 bytes per non-zero.
//  - offsets and vars are u32: at most 2^32 - 1 non-zeros in all (the
//    32 GiB PoRep partition has ~722M), 2^32 - 1 rows and 2^32 variables.
//    For that partition: 722M·8 + 130M·12 bytes ≈ 7.3 GB.
// Canonical form, checked by validate(): within a row the vars are strictly
// increasing (no duplicates), every coefficient is non-zero and < r.
//
// A Circuit is an immutable view over storage it shares (owned vectors or a
// memory-mapped precompiled file), so copies are cheap and thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "cuzk/base/status.h"
#include "cuzk/ff/fr.h"

namespace cuzk::r1cs {

using ff::Fr;

enum class Matrix : int { kA = 0, kB = 1, kC = 2 };

struct Term {
  uint32_t var;
  uint32_t coeff;  // index into Circuit::coeffs()
  friend bool operator==(const Term&, const Term&) = default;
};
static_assert(sizeof(Term) == 8);

// The variable layout and matrix sizes of a circuit.
struct CircuitShape {
  uint64_t num_inputs = 0;       // ONE + public inputs (>= 1)
  uint64_t num_aux = 0;
  uint64_t num_constraints = 0;  // rows, without bellperson's per-input rows
  uint64_t num_vars() const { return num_inputs + num_aux; }
  friend bool operator==(const CircuitShape&, const CircuitShape&) = default;
};

// OK when a key for key_vars variables, key_inputs of them inputs (ONE
// included), can be a key of the circuit `shape`; else INVALID_ARGUMENT
// "<key_name> is not a key of <circuit_name>: ..." with both counts.
Status check_key_shape(const CircuitShape& shape, const std::string& circuit_name, uint64_t key_vars,
                       uint64_t key_inputs, const std::string& key_name);

class Circuit {
 public:
  Circuit() = default;

  // Builds a circuit that owns its arrays, after validate().
  // REQUIRES: offsets.size() == 3·num_constraints + 1.
  static StatusOr<Circuit> from_parts(CircuitShape shape, std::vector<uint32_t> offsets, std::vector<Term> terms,
                                      std::vector<Fr> coeffs);
  // A circuit viewing arrays kept alive by `owner` (e.g. a mapped file).
  // Does not validate: the caller runs validate() unless it trusts the data.
  static Circuit from_view(CircuitShape shape, std::span<const uint32_t> offsets, std::span<const Term> terms,
                           std::span<const Fr> coeffs, std::shared_ptr<const void> owner);

  const CircuitShape& shape() const { return shape_; }
  uint64_t num_inputs() const { return shape_.num_inputs; }
  uint64_t num_aux() const { return shape_.num_aux; }
  uint64_t num_vars() const { return shape_.num_vars(); }
  uint64_t num_constraints() const { return shape_.num_constraints; }

  // The terms of row i of matrix m. REQUIRES: i < num_constraints().
  std::span<const Term> row(uint64_t i, Matrix m) const {
    size_t k = size_t(3 * i + uint64_t(m));
    return terms_.subspan(offsets_[k], offsets_[k + 1] - offsets_[k]);
  }
  const Fr& coeff(const Term& t) const { return coeffs_[t.coeff]; }

  std::span<const uint32_t> offsets() const { return offsets_; }
  std::span<const Term> terms() const { return terms_; }
  std::span<const Fr> coeffs() const { return coeffs_; }

  // Non-zeros of one matrix (a pass over the offsets: O(num_constraints)).
  uint64_t num_nonzeros(Matrix m) const;
  uint64_t num_nonzeros() const { return terms_.size(); }
  // Bytes of the arrays viewed (offsets + terms + coefficient table).
  uint64_t storage_bytes() const;

 private:
  CircuitShape shape_;
  std::span<const uint32_t> offsets_;
  std::span<const Term> terms_;
  std::span<const Fr> coeffs_;
  std::shared_ptr<const void> owner_;
};

// One term of a linear combination with an explicit coefficient.
struct LinTerm {
  uint64_t var;
  Fr coeff;
};
using LinComb = std::span<const LinTerm>;

// A consumer of constraints, one row at a time, in row order. Each linear
// combination may list its terms in any order and repeat a variable: repeats
// are summed, and terms whose (summed) coefficient is zero are dropped.
class RowSink {
 public:
  virtual ~RowSink() = default;
  // Errors: INVALID_ARGUMENT when a var >= num_vars (naming row and var).
  virtual Status add_row(LinComb a, LinComb b, LinComb c) = 0;
};

// Assigns indices to distinct coefficients, first come first served.
class CoeffInterner {
 public:
  CoeffInterner();
  ~CoeffInterner();
  CoeffInterner(CoeffInterner&&) noexcept;
  CoeffInterner& operator=(CoeffInterner&&) noexcept;
  uint32_t intern(const Fr& c);
  const std::vector<Fr>& table() const { return table_; }
  std::vector<Fr> take_table() &&;

 private:
  struct Index;
  std::vector<Fr> table_;
  std::unique_ptr<Index> index_;
};

// Brings one linear combination into canonical form: sorted by var, repeats
// summed, zeros dropped, coefficients interned. `scratch` is reused storage.
// Errors: INVALID_ARGUMENT when a var >= num_vars.
Status normalize_lincomb(LinComb lc, uint64_t num_vars, CoeffInterner& interner, std::vector<LinTerm>& scratch,
                         std::vector<Term>& out);

// Collects rows in memory and produces a Circuit.
class CircuitBuilder : public RowSink {
 public:
  // REQUIRES: num_inputs >= 1 (ONE).
  CircuitBuilder(uint64_t num_inputs, uint64_t num_aux);

  Status add_row(LinComb a, LinComb b, LinComb c) override;
  uint64_t num_rows() const { return (offsets_.size() - 1) / 3; }

  // Errors: INVALID_ARGUMENT when the layout exceeds the u32 limits.
  StatusOr<Circuit> build() &&;

 private:
  Status add_lincomb(LinComb lc);

  CircuitShape shape_;
  CoeffInterner interner_;
  std::vector<uint32_t> offsets_{0};
  std::vector<Term> terms_;
  std::vector<LinTerm> scratch_;
  std::vector<Term> row_terms_;
};

}  // namespace cuzk::r1cs
