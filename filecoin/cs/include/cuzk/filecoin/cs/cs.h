// The vocabulary of cuzk's constraint system for Filecoin circuits: variables,
// linear combinations, namespace names, and the ConstraintSystem contract the
// gadgets are written against.
//
// Semantics follow bellperson / bellpepper-core exactly, because the official
// Filecoin parameters assign one curve point to each variable and each row in
// order:
//  - ONE is input 0; inputs and aux are numbered separately, each in
//    allocation order. In the witness w = (inputs, aux), aux j sits at
//    num_inputs + j.
//  - A linear combination may name a variable several times; the terms are
//    summed, and a variable whose summed coefficient is 0 is absent (from
//    evaluation and from the density bitmaps alike).
//  - After synthesis, one row "input_i · 0 = 0" (A = input_i, B = C = 0) per
//    input, ONE included, follows the circuit's rows. cuzk's r1cs::Circuit
//    holds the circuit's rows only; groth16/ adds the input rows.
//
// A circuit is written once, as a function template over the constraint
// system type, and runs on two back ends:
//  - WitnessCs (witness_cs.h): values only. enforce() is a no-op that never
//    builds its linear combinations; this is the proving hot path.
//  - RecordingCs (recording_cs.h): rows, counts and density bitmaps, and
//    optionally each row checked against the values as it is added.
#pragma once

#include <concepts>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "cuzk/base/status.h"
#include "cuzk/ff/fr.h"

namespace cuzk::filecoin::snark {

using ff::Fr;

// A variable: input i or aux j (an index into its own numbering).
class Var {
 public:
  constexpr Var() = default;
  static constexpr Var input(uint64_t i) { return Var(i | kInputBit); }
  static constexpr Var aux(uint64_t j) { return Var(j); }
  static constexpr Var one() { return input(0); }

  constexpr bool is_input() const { return (raw_ & kInputBit) != 0; }
  constexpr uint64_t index() const { return raw_ & ~kInputBit; }
  // Orders inputs before aux, each by index: the order of w = (inputs, aux).
  constexpr uint64_t order_key() const { return raw_ ^ kInputBit; }
  // Position in w = (inputs, aux).
  constexpr uint64_t witness_index(uint64_t num_inputs) const {
    return is_input() ? index() : num_inputs + index();
  }
  friend constexpr bool operator==(Var a, Var b) { return a.raw_ == b.raw_; }

 private:
  static constexpr uint64_t kInputBit = uint64_t(1) << 63;
  constexpr explicit Var(uint64_t raw) : raw_(raw) {}
  uint64_t raw_ = 0;
};

struct LcTerm {
  Var var;
  Fr coeff;
};

// 2^k in Fr for 0 <= k < 256 (from a table built once).
const Fr& pow2(unsigned k);

// A linear combination Σ coeff·var. Terms are appended as given (repeats
// allowed); back ends merge them when a row is added.
class Lc {
 public:
  Lc& add(Var v) { terms_.push_back({v, Fr::one()}); return *this; }
  Lc& add(Var v, const Fr& c) { terms_.push_back({v, c}); return *this; }
  Lc& sub(Var v) { terms_.push_back({v, minus_one()}); return *this; }
  Lc& sub(Var v, const Fr& c) { terms_.push_back({v, -c}); return *this; }
  Lc& add(const Lc& other) {
    terms_.insert(terms_.end(), other.terms_.begin(), other.terms_.end());
    return *this;
  }
  Lc& sub(const Lc& other);
  // this += scale · other
  Lc& add_scaled(const Lc& other, const Fr& scale);
  // this *= c
  Lc& scale(const Fr& c);

  void clear() { terms_.clear(); }
  bool empty() const { return terms_.empty(); }
  size_t size() const { return terms_.size(); }
  std::span<const LcTerm> terms() const { return terms_; }
  std::vector<LcTerm>& mutable_terms() { return terms_; }

  static const Fr& minus_one();

 private:
  std::vector<LcTerm> terms_;
};

// A namespace or annotation: text, optionally followed by an index, more
// text, a second index and a tail ("drg_parent_", 3, "_num"). Holds pointers
// to string literals only, so building one costs nothing; it is formatted
// only when an error names it.
struct Name {
  const char* head = "";
  int64_t i = -1;
  const char* mid = nullptr;
  int64_t j = -1;
  const char* tail = nullptr;

  constexpr Name() = default;
  constexpr Name(const char* h) : head(h) {}  // NOLINT: names are written as literals
  constexpr Name(const char* h, int64_t index, const char* t = nullptr) : head(h), i(index), mid(t) {}
  constexpr Name(const char* h, int64_t index, const char* m, int64_t index2, const char* t = nullptr)
      : head(h), i(index), mid(m), j(index2), tail(t) {}
  std::string str() const;
};

// The contract every back end meets (checked by the concept below):
//   static constexpr bool kRecords     true when enforce() builds its linear
//                                      combinations (gadgets skip keeping
//                                      linear combinations of their own
//                                      when false)
//   Var alloc(Name, const Fr& value)        a new aux variable
//   Var alloc_input(Name, const Fr& value)  a new input variable
//   void enforce(Name, FA a, FB b, FC c)    the row <a,w>·<b,w> = <c,w>; each
//                                           F is called as f(Lc&) to append
//                                           terms to an empty combination
//   void push_namespace(Name), pop_namespace()
//   bool values_known() const   false for a blank synthesis (shapes only):
//                               value-based sanity checks are skipped then
//   void fail(Status)           records the first synthesis error (bad
//                               input found mid-synthesis); status() returns it
//   void sections(n, fn)        calls fn(cs_i, i) for i in [0, n), where the
//                               n sections allocate the same numbers of
//                               inputs and aux and enforce the same rows on
//                               the same relative variables, whatever the
//                               values, and touch no variable of another
//                               section (PoRep challenges, PoSt sectors).
//                               cs_i has the type of cs: cs itself, or a back
//                               end for the section's slice of variables,
//                               possibly on another thread, so fn may only
//                               read what it shares with other sections.
// Variables are never freed; a back end is used by one thread at a time.
template <class CS>
concept ConstraintSystem = requires(CS& cs, const CS& ccs, Name n, const Fr& v) {
  { CS::kRecords } -> std::convertible_to<bool>;
  { cs.alloc(n, v) } -> std::same_as<Var>;
  { cs.alloc_input(n, v) } -> std::same_as<Var>;
  cs.push_namespace(n);
  cs.pop_namespace();
  { ccs.values_known() } -> std::same_as<bool>;
  cs.fail(Status());
  { ccs.status() } -> std::convertible_to<const Status&>;
};

// A Name that opens no namespace: a gadget given it works in its caller's
// namespace (bellperson code that passes `cs` on without cs.namespace(..)).
inline constexpr Name kSameNamespace{nullptr};

// Pushes a namespace for the lifetime of the object (none for
// kSameNamespace).
template <class CS>
class [[nodiscard]] Scope {
 public:
  Scope(CS& cs, Name name) : cs_(cs), pushed_(name.head != nullptr) {
    if (pushed_) cs_.push_namespace(name);
  }
  ~Scope() {
    if (pushed_) cs_.pop_namespace();
  }
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;

 private:
  CS& cs_;
  bool pushed_;
};

// Sorts terms by variable (inputs first), sums repeats and drops variables
// whose sum is zero: bellperson's merged linear combination.
void merge_terms(std::vector<LcTerm>& terms);
// a += b for two merged combinations (as merge_terms leaves them), in
// O(|a| + |b|); the result is merged.
void merge_sorted_terms(std::vector<LcTerm>& a, std::span<const LcTerm> b);

// The path "a/b/c" of a stack of names.
std::string format_path(std::span<const Name> names);

// Fr one or zero.
inline Fr fr_from_bool(bool b) { return b ? Fr::one() : Fr::zero(); }

}  // namespace cuzk::filecoin::snark
