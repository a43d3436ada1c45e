#include "cuzk/ntt/domain.h"

#include <string>

#include "cuzk/ntt/ntt.h"

namespace cuzk::ntt {
namespace {

using ff::Fr;

// Stage-concatenated radix-2 twiddles for sub-transforms up to 2^leaf_lg
// (see TwiddleTables::stage). w_top has order 2^leaf_lg; each smaller stage's
// root is a power of it. Cost: 2^leaf_lg multiplications.
std::vector<Fr> make_stage_table(const Fr& w_top, int leaf_lg) {
  std::vector<Fr> t(size_t(1) << leaf_lg);
  if (leaf_lg == 0) return t;
  // Fill the largest stage (h = 2^(leaf_lg-1), root w_top) first; stage h/2
  // uses every second entry of stage h.
  size_t h = t.size() / 2;
  Fr p = Fr::one();
  for (size_t j = 0; j < h; ++j) {
    t[h + j] = p;
    p *= w_top;
  }
  for (h /= 2; h >= 1; h /= 2) {
    for (size_t j = 0; j < h; ++j) t[h + j] = t[2 * h + 2 * j];
  }
  return t;
}

// row[r] = w^bitrev(r) for r < 2^lg_rows.
std::vector<Fr> make_row_table(const Fr& w, int lg_rows) {
  if (lg_rows == 0) return {};
  size_t rows = size_t(1) << lg_rows;
  std::vector<Fr> powers(rows), row(rows);
  Fr p = Fr::one();
  for (size_t i = 0; i < rows; ++i) {
    powers[i] = p;
    p *= w;
  }
  for (size_t r = 0; r < rows; ++r) row[r] = powers[bit_reverse(r, lg_rows)];
  return row;
}

std::shared_ptr<const TwiddleTables> make_tables(const Fr& w, int lg_n, int lg_rows) {
  auto t = std::make_shared<TwiddleTables>();
  int leaf_lg = lg_n - lg_rows;  // rows are the longer side
  // Root of order 2^leaf_lg: w^(2^(lg_n - leaf_lg)).
  Fr w_leaf = w;
  for (int i = leaf_lg; i < lg_n; ++i) w_leaf = w_leaf.square();
  t->stage = make_stage_table(w_leaf, leaf_lg);
  t->row = make_row_table(w, lg_rows);
  return t;
}

}  // namespace

StatusOr<Domain> Domain::create(int lg_n, ff::RootConvention convention) {
  if (lg_n < 0 || lg_n > kMaxLgN) {
    return invalid_argument("ntt::Domain::create: lg_n = " + std::to_string(lg_n) + " is outside [0, " +
                            std::to_string(kMaxLgN) + "] (Fr has 2-adicity 32)");
  }
  Domain d;
  d.lg_n_ = lg_n;
  d.lg_rows_ = lg_n <= kDirectMaxLg ? 0 : lg_n / 2;
  d.convention_ = convention;
  d.omega_ = ff::root_of_unity(lg_n, convention);
  d.omega_inv_ = d.omega_.inverse();
  d.n_inv_ = Fr::from_uint(1).inverse();
  Fr two_inv = Fr::from_uint(2).inverse();
  for (int i = 0; i < lg_n; ++i) d.n_inv_ *= two_inv;
  d.forward_ = make_tables(d.omega_, lg_n, d.lg_rows_);
  d.inverse_ = make_tables(d.omega_inv_, lg_n, d.lg_rows_);
  return d;
}

}  // namespace cuzk::ntt
