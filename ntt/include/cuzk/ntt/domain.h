// NTT evaluation domain over Fr: the subgroup of 2^lg_n-th roots of unity of
// one root convention (docs/formats.md §1), with the twiddle tables the
// transforms in ntt.h read.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "cuzk/base/status.h"
#include "cuzk/ff/fr.h"

namespace cuzk::ntt {

// Largest supported domain: r - 1 = 2^32 · odd.
inline constexpr int kMaxLgN = 32;

// Transforms up to this size run as one in-cache radix-2 pass on the calling
// thread; larger ones use the four-step split lg_n = lg_rows + lg_cols (ntt.cc).
// 2^10 elements are 32 KiB, an L1-sized working set.
inline constexpr int kDirectMaxLg = 10;

// Twiddles of one direction (ω or ω^-1). Immutable after Domain::create.
struct TwiddleTables {
  // stage[h + j] = w(2h)^j for every power of two h < 2^leaf_lg and j < h,
  // where w(2h) = ω^(n / 2h) is the primitive 2h-th root of this direction.
  // One contiguous run per radix-2 stage, shared by every sub-transform of
  // size <= 2^leaf_lg. stage[0] is unused.
  std::vector<ff::Fr> stage;
  // row[r] = ω^bitrev_{lg_rows}(r), r < 2^lg_rows: the four-step twiddle of
  // row r is row[r]^c at column c. Empty for direct-size domains.
  std::vector<ff::Fr> row;
};

// An NTT domain of size n = 2^lg_n. Cheap to copy (the tables are shared);
// immutable; every method is safe to call from several threads at once.
class Domain {
 public:
  // Builds the domain and its tables: O(2^ceil(lg_n/2)) multiplications and
  // memory (64 KiB per direction at lg_n = 20, 1 MiB at lg_n = 28).
  // Errors: INVALID_ARGUMENT unless 0 <= lg_n <= 32.
  static StatusOr<Domain> create(int lg_n, ff::RootConvention convention);

  int lg_n() const { return lg_n_; }
  size_t size() const { return size_t(1) << lg_n_; }
  ff::RootConvention convention() const { return convention_; }
  // ω = root_of_unity(lg_n, convention), its inverse, and n^-1.
  const ff::Fr& omega() const { return omega_; }
  const ff::Fr& omega_inv() const { return omega_inv_; }
  const ff::Fr& n_inv() const { return n_inv_; }

  // The four-step split used for this size: lg_n = lg_rows + lg_cols, rows
  // of 2^lg_cols contiguous elements. lg_rows = 0 for direct sizes.
  int lg_rows() const { return lg_rows_; }
  int lg_cols() const { return lg_n_ - lg_rows_; }

  // Tables for the forward (ω) or inverse (ω^-1) direction.
  const TwiddleTables& twiddles(bool inverse) const { return inverse ? *inverse_ : *forward_; }

 private:
  Domain() = default;

  int lg_n_ = 0;
  int lg_rows_ = 0;
  ff::RootConvention convention_ = ff::RootConvention::kBellperson;
  ff::Fr omega_, omega_inv_, n_inv_;
  std::shared_ptr<const TwiddleTables> forward_;
  std::shared_ptr<const TwiddleTables> inverse_;
};

}  // namespace cuzk::ntt
