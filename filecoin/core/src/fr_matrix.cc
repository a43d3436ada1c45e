// FrMatrix: the small dense matrices of Poseidon's linear layers.
#include "cuzk/filecoin/poseidon.h"

namespace cuzk::filecoin {

FrMatrix FrMatrix::identity(size_t n) {
  FrMatrix m(n);
  for (size_t i = 0; i < n; ++i) m.at(i, i) = Fr::one();
  return m;
}

FrMatrix FrMatrix::transpose() const {
  FrMatrix t(n_);
  for (size_t i = 0; i < n_; ++i)
    for (size_t j = 0; j < n_; ++j) t.at(j, i) = at(i, j);
  return t;
}

FrMatrix FrMatrix::minor(size_t i, size_t j) const {
  FrMatrix m(n_ - 1);
  for (size_t r = 0, rr = 0; r < n_; ++r) {
    if (r == i) continue;
    for (size_t c = 0, cc = 0; c < n_; ++c) {
      if (c == j) continue;
      m.at(rr, cc++) = at(r, c);
    }
    ++rr;
  }
  return m;
}

FrMatrix FrMatrix::operator*(const FrMatrix& other) const {
  FrMatrix p(n_);
  for (size_t i = 0; i < n_; ++i)
    for (size_t k = 0; k < n_; ++k) {
      const Fr a = at(i, k);
      if (a.is_zero()) continue;
      for (size_t j = 0; j < n_; ++j) p.at(i, j) += a * other.at(k, j);
    }
  return p;
}

std::vector<Fr> FrMatrix::apply_left(std::span<const Fr> x) const {
  std::vector<Fr> y(n_);
  for (size_t i = 0; i < n_; ++i)
    for (size_t j = 0; j < n_; ++j) y[i] += at(i, j) * x[j];
  return y;
}

std::vector<Fr> FrMatrix::apply_right(std::span<const Fr> x) const {
  std::vector<Fr> y(n_);
  for (size_t j = 0; j < n_; ++j)
    for (size_t i = 0; i < n_; ++i) y[j] += at(i, j) * x[i];
  return y;
}

// Gauss-Jordan elimination on [A | I]: n inversions and ~2n^3 products. The
// inverse of a matrix is unique, so the elimination order does not matter
// for the result.
StatusOr<FrMatrix> FrMatrix::inverse() const {
  FrMatrix a = *this;
  FrMatrix inv = identity(n_);
  for (size_t col = 0; col < n_; ++col) {
    size_t pivot = col;
    while (pivot < n_ && a.at(pivot, col).is_zero()) ++pivot;
    if (pivot == n_) return failed_precondition("matrix is singular");
    if (pivot != col) {
      for (size_t j = 0; j < n_; ++j) {
        std::swap(a.at(pivot, j), a.at(col, j));
        std::swap(inv.at(pivot, j), inv.at(col, j));
      }
    }
    const Fr scale = a.at(col, col).inverse();
    for (size_t j = 0; j < n_; ++j) {
      a.at(col, j) *= scale;
      inv.at(col, j) *= scale;
    }
    for (size_t r = 0; r < n_; ++r) {
      if (r == col) continue;
      const Fr f = a.at(r, col);
      if (f.is_zero()) continue;
      for (size_t j = 0; j < n_; ++j) {
        a.at(r, j) -= f * a.at(col, j);
        inv.at(r, j) -= f * inv.at(col, j);
      }
    }
  }
  return inv;
}

FrMatrix SparseMatrix::to_matrix() const {
  FrMatrix m = FrMatrix::identity(w_hat.size());
  for (size_t i = 0; i < w_hat.size(); ++i) m.at(i, 0) = w_hat[i];
  for (size_t j = 0; j < v_rest.size(); ++j) m.at(0, j + 1) = v_rest[j];
  return m;
}

}  // namespace cuzk::filecoin
