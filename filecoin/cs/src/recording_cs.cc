#include "cuzk/filecoin/cs/recording_cs.h"

#include <algorithm>
#include <bit>

namespace cuzk::filecoin::snark {
namespace {

void set_bit(std::vector<uint64_t>& words, uint64_t i) { words[i / 64] |= uint64_t(1) << (i % 64); }

void grow_bits(std::vector<uint64_t>& words, uint64_t bits) {
  if (words.size() * 64 < bits) words.resize(std::max<size_t>(2 * words.size(), (bits + 63) / 64 + 1024), 0);
}

r1cs::Bitmap to_bitmap(const std::vector<uint64_t>& words, uint64_t bits) {
  r1cs::Bitmap b(bits);
  for (size_t k = 0; k < b.words.size() && k < words.size(); ++k) {
    b.words[k] = words[k];
    b.popcount += uint64_t(std::popcount(words[k]));
  }
  return b;
}

}  // namespace

RecordingCs::RecordingCs(const RecordingOptions& options)
    : sink_(options.sink),
      sink_inputs_(options.num_inputs),
      check_(options.check),
      replicate_(options.replicate_sections && !options.sink && !options.check) {
  alloc_input(Name("ONE"), Fr::one());
}

Var RecordingCs::alloc(Name, const Fr& value) {
  const uint64_t j = counts_.num_aux++;
  grow_bits(a_aux_, j + 1);
  grow_bits(b_aux_, j + 1);
  if (check_) aux_values_.push_back(value);
  return Var::aux(j);
}

Var RecordingCs::alloc_input(Name name, const Fr& value) {
  const uint64_t i = counts_.num_inputs++;
  grow_bits(b_input_, i + 1);
  if (check_) input_values_.push_back(value);
  if (sink_ && i >= sink_inputs_) {
    fail(invalid_argument("input " + std::to_string(i) + " (" + format_path(names_) + "/" + name.str() +
                          ") exceeds the " + std::to_string(sink_inputs_) + " inputs the row sink was given"));
  }
  return Var::input(i);
}

void RecordingCs::fail(Status s) {
  if (status_.ok()) status_ = std::move(s);
}

// Tags of section_outer_ entries.
constexpr uint64_t kOuterAAux = 0, kOuterBAux = 1, kOuterBInput = 2;

void RecordingCs::track_density(const std::vector<LcTerm>& terms, bool a_matrix) {
  for (const LcTerm& t : terms) {
    const uint64_t i = t.var.index();
    if (!t.var.is_input()) {
      set_bit(a_matrix ? a_aux_ : b_aux_, i);
      if (in_section_ && i < section_aux_base_) section_outer_.push_back(((a_matrix ? kOuterAAux : kOuterBAux) << 62) | i);
    } else if (!a_matrix) {
      set_bit(b_input_, i);
      if (in_section_ && i < section_in_base_) section_outer_.push_back((kOuterBInput << 62) | i);
    }
  }
}

RecordingCs::Mark RecordingCs::begin_section() {
  Mark m{counts_, std::move(section_outer_)};
  std::sort(m.outer.begin(), m.outer.end());
  m.outer.erase(std::unique(m.outer.begin(), m.outer.end()), m.outer.end());
  section_outer_.clear();
  in_section_ = true;
  section_aux_base_ = counts_.num_aux;
  section_in_base_ = counts_.num_inputs;
  return m;
}

namespace {

CircuitCounts minus(const CircuitCounts& a, const CircuitCounts& b) {
  CircuitCounts d{a.num_inputs - b.num_inputs, a.num_aux - b.num_aux, a.num_constraints - b.num_constraints, {}};
  for (size_t m = 0; m < 3; ++m) d.nonzeros[m] = a.nonzeros[m] - b.nonzeros[m];
  return d;
}

bool get_bit(const std::vector<uint64_t>& w, uint64_t i) { return (w[i / 64] >> (i % 64)) & 1; }

bool same_bits(const std::vector<uint64_t>& w, uint64_t a, uint64_t b, uint64_t len) {
  for (uint64_t k = 0; k < len; ++k)
    if (get_bit(w, a + k) != get_bit(w, b + k)) return false;
  return true;
}

void copy_bits(std::vector<uint64_t>& w, uint64_t from, uint64_t to, uint64_t len) {
  grow_bits(w, to + len);
  for (uint64_t k = 0; k < len; ++k)
    if (get_bit(w, from + k)) set_bit(w, to + k);
}

}  // namespace

void RecordingCs::replicate(const Mark& m0, const Mark& m1, const Mark& m2, size_t n) {
  const CircuitCounts d = minus(m1.counts, m0.counts);
  const bool same = d == minus(m2.counts, m1.counts) && m1.outer == m2.outer &&
                    same_bits(a_aux_, m0.counts.num_aux, m1.counts.num_aux, d.num_aux) &&
                    same_bits(b_aux_, m0.counts.num_aux, m1.counts.num_aux, d.num_aux) &&
                    same_bits(b_input_, m0.counts.num_inputs, m1.counts.num_inputs, d.num_inputs);
  if (!same) {
    return fail(internal_error("sections 0 and 1 (" + format_path(names_) +
                               ") do not synthesize identically; they cannot be replicated"));
  }
  for (size_t k = 2; k < n; ++k) {
    copy_bits(a_aux_, m1.counts.num_aux, counts_.num_aux, d.num_aux);
    copy_bits(b_aux_, m1.counts.num_aux, counts_.num_aux, d.num_aux);
    copy_bits(b_input_, m1.counts.num_inputs, counts_.num_inputs, d.num_inputs);
    counts_.num_inputs += d.num_inputs;
    counts_.num_aux += d.num_aux;
    counts_.num_constraints += d.num_constraints;
    for (size_t m = 0; m < 3; ++m) counts_.nonzeros[m] += d.nonzeros[m];
  }
}

void RecordingCs::add_row(Name name) {
  for (int m = 0; m < 3; ++m) {
    std::vector<LcTerm>& terms = lcs_[size_t(m)].mutable_terms();
    merge_terms(terms);
    counts_.nonzeros[size_t(m)] += terms.size();
  }
  track_density(lcs_[0].mutable_terms(), true);
  track_density(lcs_[1].mutable_terms(), false);
  if (check_ && !violated_) check_row(name);
  if (sink_ && status_.ok()) emit_row();
  ++counts_.num_constraints;
}

Fr RecordingCs::evaluate(const std::vector<LcTerm>& terms) const {
  Fr acc = Fr::zero();
  for (const LcTerm& t : terms) acc += t.coeff * value(t.var);
  return acc;
}

void RecordingCs::check_row(Name name) {
  const Fr a = evaluate(lcs_[0].mutable_terms());
  const Fr b = evaluate(lcs_[1].mutable_terms());
  const Fr c = evaluate(lcs_[2].mutable_terms());
  if (a * b == c) return;
  violated_ = true;
  std::string path = format_path(names_);
  if (!path.empty()) path += '/';
  path += name.str();
  violation_ = "constraint " + std::to_string(counts_.num_constraints) + " (" + path +
               ") is not satisfied: a = " + a.to_hex() + ", b = " + b.to_hex() + ", c = " + c.to_hex();
}

void RecordingCs::emit_row() {
  for (int m = 0; m < 3; ++m) {
    std::vector<r1cs::LinTerm>& out = sink_terms_[m];
    out.clear();
    for (const LcTerm& t : lcs_[size_t(m)].terms()) out.push_back({t.var.witness_index(sink_inputs_), t.coeff});
  }
  Status s = sink_->add_row(sink_terms_[0], sink_terms_[1], sink_terms_[2]);
  if (!s.ok()) fail(s.with_context("row " + std::to_string(counts_.num_constraints) + " (" + format_path(names_) + ")"));
}

r1cs::DensityBitmaps RecordingCs::density() const {
  r1cs::DensityBitmaps d;
  d.a_input = r1cs::Bitmap(counts_.num_inputs);
  for (uint64_t i = 0; i < counts_.num_inputs; ++i) set_bit(d.a_input.words, i);
  d.a_input.popcount = counts_.num_inputs;
  d.a_aux = to_bitmap(a_aux_, counts_.num_aux);
  d.b_input = to_bitmap(b_input_, counts_.num_inputs);
  d.b_aux = to_bitmap(b_aux_, counts_.num_aux);
  return d;
}

Status RecordingCs::satisfied() const {
  if (!check_) return failed_precondition("satisfied(): this RecordingCs was not asked to check rows");
  if (violated_) return invalid_argument(violation_);
  return ok_status();
}

}  // namespace cuzk::filecoin::snark
