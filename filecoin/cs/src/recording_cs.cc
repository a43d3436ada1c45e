#include "cuzk/filecoin/cs/recording_cs.h"

#include <bit>

namespace cuzk::filecoin::snark {
namespace {

void set_bit(std::vector<uint64_t>& words, uint64_t i) { words[i / 64] |= uint64_t(1) << (i % 64); }

void grow_bits(std::vector<uint64_t>& words, uint64_t bits) {
  if (words.size() * 64 < bits) words.resize(words.size() + 1024, 0);
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
    : sink_(options.sink), sink_inputs_(options.num_inputs), check_(options.check) {
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

void RecordingCs::track_density(const std::vector<LcTerm>& terms, bool a_matrix) {
  for (const LcTerm& t : terms) {
    if (!t.var.is_input()) {
      set_bit(a_matrix ? a_aux_ : b_aux_, t.var.index());
    } else if (!a_matrix) {
      set_bit(b_input_, t.var.index());
    }
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
