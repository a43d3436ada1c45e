#include "cuzk/r1cs/circuit.h"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "cuzk/r1cs/eval.h"

namespace cuzk::r1cs {
namespace {

struct OwnedArrays {
  std::vector<uint32_t> offsets;
  std::vector<Term> terms;
  std::vector<Fr> coeffs;
};

struct ReprHash {
  size_t operator()(const Fr::Repr& r) const {
    uint64_t h = r[0] * 0x9e3779b97f4a7c15ull;
    for (int i = 1; i < 4; ++i) h = (h ^ (h >> 29) ^ r[i]) * 0xbf58476d1ce4e5b9ull;
    return size_t(h ^ (h >> 32));
  }
};

constexpr uint64_t kU32Limit = 0xffffffffull;

}  // namespace

StatusOr<Circuit> Circuit::from_parts(CircuitShape shape, std::vector<uint32_t> offsets, std::vector<Term> terms,
                                      std::vector<Fr> coeffs) {
  auto owned = std::make_shared<OwnedArrays>();
  owned->offsets = std::move(offsets);
  owned->terms = std::move(terms);
  owned->coeffs = std::move(coeffs);
  Circuit c = from_view(shape, owned->offsets, owned->terms, owned->coeffs, owned);
  RETURN_IF_ERROR(validate(c));
  return c;
}

Circuit Circuit::from_view(CircuitShape shape, std::span<const uint32_t> offsets, std::span<const Term> terms,
                           std::span<const Fr> coeffs, std::shared_ptr<const void> owner) {
  Circuit c;
  c.shape_ = shape;
  c.offsets_ = offsets;
  c.terms_ = terms;
  c.coeffs_ = coeffs;
  c.owner_ = std::move(owner);
  return c;
}

uint64_t Circuit::num_nonzeros(Matrix m) const {
  uint64_t n = 0;
  for (uint64_t i = 0; i < shape_.num_constraints; ++i) n += row(i, m).size();
  return n;
}

uint64_t Circuit::storage_bytes() const {
  return offsets_.size_bytes() + terms_.size_bytes() + coeffs_.size_bytes();
}

struct CoeffInterner::Index {
  std::unordered_map<Fr::Repr, uint32_t, ReprHash> ids;
};

CoeffInterner::CoeffInterner() : index_(std::make_unique<Index>()) {}
CoeffInterner::~CoeffInterner() = default;
CoeffInterner::CoeffInterner(CoeffInterner&&) noexcept = default;
CoeffInterner& CoeffInterner::operator=(CoeffInterner&&) noexcept = default;

uint32_t CoeffInterner::intern(const Fr& c) {
  auto [it, inserted] = index_->ids.try_emplace(c.mont(), uint32_t(table_.size()));
  if (inserted) table_.push_back(c);
  return it->second;
}

std::vector<Fr> CoeffInterner::take_table() && {
  index_->ids.clear();
  return std::move(table_);
}

Status normalize_lincomb(LinComb lc, uint64_t num_vars, CoeffInterner& interner, std::vector<LinTerm>& scratch,
                         std::vector<Term>& out) {
  scratch.assign(lc.begin(), lc.end());
  bool sorted = true;
  for (size_t i = 0; i < scratch.size(); ++i) {
    if (scratch[i].var >= num_vars) {
      return invalid_argument("term " + std::to_string(i) + " has var " + std::to_string(scratch[i].var) +
                              " >= num_vars " + std::to_string(num_vars));
    }
    if (i > 0 && scratch[i - 1].var >= scratch[i].var) sorted = false;
  }
  if (!sorted) {
    std::stable_sort(scratch.begin(), scratch.end(),
                     [](const LinTerm& x, const LinTerm& y) { return x.var < y.var; });
  }
  for (size_t i = 0; i < scratch.size();) {
    Fr sum = scratch[i].coeff;
    size_t j = i + 1;
    for (; j < scratch.size() && scratch[j].var == scratch[i].var; ++j) sum += scratch[j].coeff;
    if (!sum.is_zero()) out.push_back(Term{uint32_t(scratch[i].var), interner.intern(sum)});
    i = j;
  }
  return ok_status();
}

CircuitBuilder::CircuitBuilder(uint64_t num_inputs, uint64_t num_aux) {
  shape_.num_inputs = num_inputs;
  shape_.num_aux = num_aux;
}

Status CircuitBuilder::add_row(LinComb a, LinComb b, LinComb c) {
  const uint64_t row = num_rows();
  const LinComb lcs[3] = {a, b, c};
  const char* names[3] = {"A", "B", "C"};
  uint32_t ends[3];
  row_terms_.clear();
  for (int m = 0; m < 3; ++m) {
    Status s = normalize_lincomb(lcs[m], shape_.num_vars(), interner_, scratch_, row_terms_);
    if (!s.ok()) return s.with_context("row " + std::to_string(row) + " " + names[m]);
    if (terms_.size() + row_terms_.size() > kU32Limit) {
      return invalid_argument("row " + std::to_string(row) + ": more than 2^32-1 non-zeros in the circuit");
    }
    ends[m] = uint32_t(terms_.size() + row_terms_.size());
  }
  terms_.insert(terms_.end(), row_terms_.begin(), row_terms_.end());
  offsets_.insert(offsets_.end(), ends, ends + 3);
  return ok_status();
}

StatusOr<Circuit> CircuitBuilder::build() && {
  if (shape_.num_inputs == 0) return invalid_argument("a circuit needs at least the ONE input");
  if (shape_.num_vars() > kU32Limit + 1) {
    return invalid_argument("num_vars " + std::to_string(shape_.num_vars()) + " exceeds 2^32");
  }
  shape_.num_constraints = num_rows();
  return Circuit::from_parts(shape_, std::move(offsets_), std::move(terms_), std::move(interner_).take_table());
}

Status check_key_shape(const CircuitShape& shape, const std::string& circuit_name, uint64_t key_vars,
                       uint64_t key_inputs, const std::string& key_name) {
  if (key_vars == shape.num_vars() && key_inputs == shape.num_inputs) return ok_status();
  return invalid_argument(key_name + " is not a key of " + circuit_name + ": the key has " + std::to_string(key_vars) +
                          " variables, " + std::to_string(key_inputs - 1) + " of them public; the circuit " +
                          std::to_string(shape.num_vars()) + " and " + std::to_string(shape.num_inputs - 1));
}

}  // namespace cuzk::r1cs
