#include "cuzk/r1cs/synthetic.h"

#include <string>

#include "cuzk/base/random.h"

namespace cuzk::r1cs {
namespace {

constexpr uint64_t kRecentVars = 4096;

class Generator {
 public:
  explicit Generator(const SyntheticParams& p)
      : p_(p), rng_(p.seed), ni_(1 + p.num_public_inputs), d_(std::min(p.num_constraints, p.num_aux)),
        f_(p.num_aux - d_), w_(ni_ + p.num_aux) {}

  StatusOr<std::vector<Fr>> run(RowSink& sink, SyntheticStats* stats) {
    assign_inputs_and_free();
    for (uint64_t i = 0; i < p_.num_constraints; ++i) {
      a_.clear();
      b_.clear();
      c_.clear();
      if (i < d_) define_row(i);
      else check_row();
      RETURN_IF_ERROR(sink.add_row(a_, b_, c_));
    }
    for (uint64_t j = ni_; j < w_.size(); ++j) stats_.zero_one_aux += (w_[j].is_zero() || w_[j].is_one()) ? 1 : 0;
    if (stats) *stats = stats_;
    return std::move(w_);
  }

 private:
  uint64_t uniform(uint64_t n) { return rng_() % n; }
  bool chance(double prob) { return double(rng_() >> 11) * 0x1.0p-53 < prob; }
  bool is_bit(uint64_t v) const { return w_[v].is_zero() || w_[v].is_one(); }

  void assign_inputs_and_free() {
    w_[0] = Fr::one();
    for (uint64_t i = 1; i < ni_; ++i) w_[i] = Fr::random(rng_);
    for (uint64_t j = 0; j < f_; ++j) {
      w_[ni_ + j] = chance(p_.zero_one_fraction) ? Fr::from_uint(rng_() & 1) : Fr::random(rng_);
    }
    pool_.resize(p_.num_distinct_coeffs);
    for (auto& c : pool_) c = Fr::random(rng_);
  }

  Fr random_coeff() {
    const uint64_t r = uniform(100);
    if (r < 50 || (r >= 80 && pool_.empty())) return Fr::one();
    if (r < 70) return -Fr::one();
    if (r < 80) return Fr::from_uint(uint64_t(1) << (1 + uniform(8)));
    return pool_[uniform(pool_.size())];
  }

  // Circuits are built from gadgets: most references are to recent
  // variables. 3/4 of the samples come from the kRecentVars latest ones.
  uint64_t sample_var(uint64_t available) {
    if (available > kRecentVars && uniform(4) != 0) return available - 1 - uniform(kRecentVars);
    return uniform(available);
  }

  uint64_t num_terms() { return 1 + uniform(2 * uint64_t(p_.terms_per_lc) - 1); }

  // A variable holding 0 or 1 among the first `available`; ONE if sampling fails.
  uint64_t sample_bit(uint64_t available) {
    for (int tries = 0; tries < 8; ++tries) {
      uint64_t v = sample_var(available);
      if (is_bit(v)) return v;
    }
    return 0;
  }

  // Appends k random terms over vars < available; returns their value.
  Fr add_random_terms(std::vector<LinTerm>& lc, uint64_t k, uint64_t available) {
    Fr sum = Fr::zero();
    for (uint64_t t = 0; t < k; ++t) {
      LinTerm term{sample_var(available), random_coeff()};
      sum += term.coeff * w_[term.var];
      lc.push_back(term);
    }
    return sum;
  }

  // Free variables row i must consume so that all are used by row d − 1.
  uint64_t quota(uint64_t i) const {
    const uint64_t left = f_ - next_free_, rows = d_ - i;
    return (left + rows - 1) / rows;
  }

  void define_row(uint64_t i) {
    const uint64_t z = ni_ + f_ + i, available = z, q = quota(i);
    Fr value;
    if (chance(p_.zero_one_fraction)) {
      ++stats_.bit_rows;
      value = q > 0 ? copy_row(z, q, available) : logic_row(z, available);
    } else {
      ++stats_.product_rows;
      value = product_row(z, q, available);
    }
    w_[z] = value;
  }

  Fr logic_row(uint64_t z, uint64_t available) {
    const uint64_t x = sample_bit(available), y = sample_bit(available);
    const Fr &wx = w_[x], &wy = w_[y];
    if (rng_() & 1) {  // AND: x·y = z
      a_.push_back({x, Fr::one()});
      b_.push_back({y, Fr::one()});
      c_.push_back({z, Fr::one()});
      return wx * wy;
    }
    // XOR: (2x)·y = x + y − z
    a_.push_back({x, Fr::from_uint(2)});
    b_.push_back({y, Fr::one()});
    c_.push_back({x, Fr::one()});
    c_.push_back({y, Fr::one()});
    c_.push_back({z, -Fr::one()});
    return wx + wy - (wx * wy).dbl();
  }

  // (x + Σ c_k u_k)·1 = z + Σ c_k u_k, consuming q free variables u_k.
  Fr copy_row(uint64_t z, uint64_t q, uint64_t available) {
    const uint64_t x = sample_bit(available);
    a_.push_back({x, Fr::one()});
    for (uint64_t k = 0; k < q; ++k) {
      LinTerm u{ni_ + next_free_++, random_coeff()};
      a_.push_back(u);
      c_.push_back(u);
    }
    b_.push_back({0, Fr::one()});
    c_.push_back({z, Fr::one()});
    return w_[x];
  }

  // Retries while the derived value is 0 or 1 (likely when the sampled
  // variables are mostly bits), so that product rows keep the 0/1 share.
  Fr product_row(uint64_t z, uint64_t q, uint64_t available) {
    const uint64_t first_free = next_free_;
    Fr value;
    for (int tries = 0; tries < 16; ++tries) {
      a_.clear();
      b_.clear();
      c_.clear();
      next_free_ = first_free;
      value = product_terms(z, q, available);
      if (!value.is_zero() && !value.is_one()) break;
    }
    return value;
  }

  Fr product_terms(uint64_t z, uint64_t q, uint64_t available) {
    Fr a = Fr::zero();
    for (uint64_t k = 0; k < q; ++k) {
      LinTerm u{ni_ + next_free_++, random_coeff()};
      a += u.coeff * w_[u.var];
      a_.push_back(u);
    }
    const uint64_t ka = num_terms();
    a += add_random_terms(a_, ka > q ? ka - q : 0, available);
    const Fr b = add_random_terms(b_, num_terms(), available);
    const Fr s = add_random_terms(c_, num_terms() - 1, available);
    c_.push_back({z, Fr::one()});
    return a * b - s;
  }

  void check_row() {
    ++stats_.check_rows;
    const uint64_t available = w_.size();
    if (chance(p_.zero_one_fraction)) {  // x·(1 − x) = 0
      const uint64_t x = sample_bit(available);
      a_.push_back({x, Fr::one()});
      b_.push_back({0, Fr::one()});
      b_.push_back({x, -Fr::one()});
      return;
    }
    add_random_terms(a_, num_terms(), available);  // L·1 = L
    b_.push_back({0, Fr::one()});
    c_ = a_;
  }

  const SyntheticParams& p_;
  TestRng rng_;
  const uint64_t ni_, d_, f_;
  std::vector<Fr> w_;
  std::vector<Fr> pool_;
  uint64_t next_free_ = 0;
  std::vector<LinTerm> a_, b_, c_;
  SyntheticStats stats_;
};

Status check_params(const SyntheticParams& p) {
  if (!(p.zero_one_fraction >= 0.0 && p.zero_one_fraction <= 1.0)) {
    return invalid_argument("zero_one_fraction must be in [0, 1]");
  }
  if (p.terms_per_lc == 0) return invalid_argument("terms_per_lc must be >= 1");
  if (p.num_aux > 0 && p.num_constraints == 0) return invalid_argument("aux variables need at least one constraint");
  if (1 + p.num_public_inputs + p.num_aux > (uint64_t(1) << 32)) return invalid_argument("more than 2^32 variables");
  return ok_status();
}

}  // namespace

StatusOr<std::vector<Fr>> generate_synthetic_rows(const SyntheticParams& params, RowSink& sink,
                                                  SyntheticStats* stats) {
  RETURN_IF_ERROR(check_params(params));
  Generator g(params);
  return g.run(sink, stats);
}

StatusOr<SyntheticCircuit> generate_synthetic(const SyntheticParams& params) {
  RETURN_IF_ERROR(check_params(params));
  CircuitBuilder builder(1 + params.num_public_inputs, params.num_aux);
  SyntheticCircuit out;
  ASSIGN_OR_RETURN(out.witness, generate_synthetic_rows(params, builder, &out.stats));
  ASSIGN_OR_RETURN(out.circuit, std::move(builder).build());
  return out;
}

StatusOr<std::vector<Fr>> write_synthetic_precompiled(const SyntheticParams& params, const std::string& path,
                                                      SyntheticStats* stats) {
  RETURN_IF_ERROR(check_params(params));
  ASSIGN_OR_RETURN(PrecompiledWriter writer,
                   PrecompiledWriter::create(path, 1 + params.num_public_inputs, params.num_aux));
  ASSIGN_OR_RETURN(std::vector<Fr> witness, generate_synthetic_rows(params, writer, stats));
  RETURN_IF_ERROR(writer.finish().status());
  return witness;
}

}  // namespace cuzk::r1cs
