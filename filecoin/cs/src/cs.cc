#include "cuzk/filecoin/cs/cs.h"

#include <algorithm>
#include <array>

namespace cuzk::filecoin::snark {
namespace {

std::array<Fr, 256> make_pow2_table() {
  std::array<Fr, 256> t;
  t[0] = Fr::one();
  for (size_t k = 1; k < t.size(); ++k) t[k] = t[k - 1].dbl();
  return t;
}

inline bool key_less(const LcTerm& x, const LcTerm& y) { return x.var.order_key() < y.var.order_key(); }

// Insertion sort beats std::sort for the short combinations most rows have.
void sort_terms(std::vector<LcTerm>& terms) {
  if (terms.size() > 24) {
    std::sort(terms.begin(), terms.end(), [](const LcTerm& x, const LcTerm& y) { return key_less(x, y); });
    return;
  }
  for (size_t i = 1; i < terms.size(); ++i) {
    if (!key_less(terms[i], terms[i - 1])) continue;
    LcTerm t = terms[i];
    size_t j = i;
    for (; j > 0 && key_less(t, terms[j - 1]); --j) terms[j] = terms[j - 1];
    terms[j] = t;
  }
}

}  // namespace

const Fr& pow2(unsigned k) {
  static const std::array<Fr, 256> table = make_pow2_table();
  return table[k];
}

const Fr& Lc::minus_one() {
  static const Fr m = -Fr::one();
  return m;
}

Lc& Lc::sub(const Lc& other) {
  terms_.reserve(terms_.size() + other.terms_.size());
  for (const LcTerm& t : other.terms_) terms_.push_back({t.var, -t.coeff});
  return *this;
}

Lc& Lc::add_scaled(const Lc& other, const Fr& scale) {
  terms_.reserve(terms_.size() + other.terms_.size());
  for (const LcTerm& t : other.terms_) terms_.push_back({t.var, t.coeff * scale});
  return *this;
}

Lc& Lc::scale(const Fr& c) {
  for (LcTerm& t : terms_) t.coeff *= c;
  return *this;
}

void merge_terms(std::vector<LcTerm>& terms) {
  if (terms.empty()) return;
  sort_terms(terms);
  size_t out = 0;
  for (size_t i = 0; i < terms.size();) {
    LcTerm sum = terms[i];
    size_t j = i + 1;
    for (; j < terms.size() && terms[j].var == sum.var; ++j) sum.coeff += terms[j].coeff;
    if (!sum.coeff.is_zero()) terms[out++] = sum;
    i = j;
  }
  terms.resize(out);
}

void merge_sorted_terms(std::vector<LcTerm>& a, std::span<const LcTerm> b) {
  if (b.empty()) return;
  if (a.empty() || key_less(a.back(), b.front())) {
    a.insert(a.end(), b.begin(), b.end());
    return;
  }
  std::vector<LcTerm> out;
  out.reserve(a.size() + b.size());
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (j == b.size() || (i < a.size() && key_less(a[i], b[j]))) {
      out.push_back(a[i++]);
    } else if (i == a.size() || key_less(b[j], a[i])) {
      out.push_back(b[j++]);
    } else {
      LcTerm t{a[i].var, a[i].coeff + b[j].coeff};
      ++i;
      ++j;
      if (!t.coeff.is_zero()) out.push_back(t);
    }
  }
  a.swap(out);
}

std::string Name::str() const {
  std::string s = head ? head : "";
  if (i >= 0) s += std::to_string(i);
  if (mid) s += mid;
  if (j >= 0) s += std::to_string(j);
  if (tail) s += tail;
  return s;
}

std::string format_path(std::span<const Name> names) {
  std::string path;
  for (const Name& n : names) {
    if (!path.empty()) path += '/';
    path += n.str();
  }
  return path;
}

}  // namespace cuzk::filecoin::snark
