// Transform drivers. Sizes up to 2^kDirectMaxLg run one in-cache radix-2
// pass. Larger sizes use the four-step split n = R·C (R = 2^lg_rows rows of
// C = 2^lg_cols contiguous elements; position p = r·C + c):
//
//   natural -> bit-reversed (DIF):
//     1. every column: length-R DIF (stride C), so row r holds frequency bitrev(r)
//     2. element (r, c) *= ω^(bitrev(r)·c)
//     3. every row: length-C DIF
//   Afterwards position r·C + c holds X[bitrev_R(r) + R·bitrev_C(c)] = X[bitrev(p)].
//
//   bit-reversed -> natural (DIT): the same three steps in reverse order with
//   DIT kernels (rows, twiddle, columns).
//
// Each pass touches the data once while a column block (~512 KiB) or a row
// (<= 2^14 elements at n = 2^28) sits in L2, instead of lg_n passes over
// the whole vector. The twiddle step costs 2 multiplications per element and
// absorbs the inverse's 1/n for free.
#include "cuzk/ntt/ntt.h"

#include <algorithm>
#include <string>
#include <vector>

#include "kernels.h"

namespace cuzk::ntt {
namespace {

using ff::Fr;

ThreadPool& pool_or_default(ThreadPool* pool) { return pool ? *pool : default_thread_pool(); }

Status check_size(const Domain& d, size_t size, const char* fn) {
  if (size == d.size()) return ok_status();
  return invalid_argument(std::string("ntt::") + fn + ": data has " + std::to_string(size) +
                          " elements but the domain has 2^" + std::to_string(d.lg_n()) + " = " +
                          std::to_string(d.size()));
}

// Columns per column-pass task: about 2^14 elements (512 KiB) per task, at
// least 2 columns (one 64-byte line) and at most 16.
size_t column_batch(const Domain& d) {
  size_t b = (size_t(1) << 14) >> d.lg_rows();
  b = std::clamp<size_t>(b, 2, 16);
  return std::min(b, size_t(1) << d.lg_cols());
}

enum class Kind { kDif, kDit };

// Copies the column block starting at column c0 (rows x batch) into `buf`,
// or back. Transforming a contiguous copy avoids the L1 set conflicts of a
// power-of-two stride (every row of a block maps to the same cache sets).
void gather_columns(const Fr* x, size_t cols, size_t rows, size_t batch, Fr* buf) {
  for (size_t r = 0; r < rows; ++r) std::copy_n(x + r * cols, batch, buf + r * batch);
}
void scatter_columns(const Fr* buf, size_t cols, size_t rows, size_t batch, Fr* x) {
  for (size_t r = 0; r < rows; ++r) std::copy_n(buf + r * batch, batch, x + r * cols);
}

void column_pass(const Domain& d, Fr* x, const TwiddleTables& tw, Kind kind, ThreadPool& pool) {
  const size_t cols = size_t(1) << d.lg_cols();
  const size_t rows = size_t(1) << d.lg_rows();
  const size_t batch = column_batch(d);
  pool.parallel_for(cols / batch, 1, [&](size_t begin, size_t end) {
    std::vector<Fr> buf(rows * batch);  // <= 512 KiB, one per task
    for (size_t blk = begin; blk < end; ++blk) {
      Fr* base = x + blk * batch;
      gather_columns(base, cols, rows, batch, buf.data());
      if (kind == Kind::kDif) {
        internal::dif(buf.data(), d.lg_rows(), batch, batch, tw.stage.data());
      } else {
        internal::dit(buf.data(), d.lg_rows(), batch, batch, tw.stage.data());
      }
      scatter_columns(buf.data(), cols, rows, batch, base);
    }
  });
}

// Row r: twiddle by ω^(bitrev(r)·c) (times `scale`) and transform, in the
// order `kind` needs.
void row_pass(const Domain& d, Fr* x, const TwiddleTables& tw, Kind kind, const Fr* scale, ThreadPool& pool) {
  const size_t rows = size_t(1) << d.lg_rows();
  const size_t cols = size_t(1) << d.lg_cols();
  pool.parallel_for(rows, 1, [&](size_t begin, size_t end) {
    for (size_t r = begin; r < end; ++r) {
      Fr* row = x + r * cols;
      if (kind == Kind::kDif) {
        internal::mul_by_powers(row, cols, tw.row[r], scale);
        internal::dif(row, d.lg_cols(), 1, 1, tw.stage.data());
      } else {
        internal::dit(row, d.lg_cols(), 1, 1, tw.stage.data());
        internal::mul_by_powers(row, cols, tw.row[r], scale);
      }
    }
  });
}

// The transform of direction `inv` in the memory order of `kind`, every
// output multiplied by *scale when scale is not null.
void transform(const Domain& d, Fr* x, bool inv, Kind kind, const Fr* scale, ThreadPool& pool) {
  const TwiddleTables& tw = d.twiddles(inv);
  if (d.lg_rows() == 0) {
    if (kind == Kind::kDif) {
      internal::dif(x, d.lg_n(), 1, 1, tw.stage.data());
    } else {
      internal::dit(x, d.lg_n(), 1, 1, tw.stage.data());
    }
    if (scale) internal::mul_by_powers(x, d.size(), Fr::one(), scale);
    return;
  }
  if (kind == Kind::kDif) {
    column_pass(d, x, tw, kind, pool);
    row_pass(d, x, tw, kind, scale, pool);
  } else {
    row_pass(d, x, tw, kind, scale, pool);
    column_pass(d, x, tw, kind, pool);
  }
}

// Runs the transform for `order`: DIF for natural input, DIT for bit-reversed
// input; natural -> natural adds one permutation pass.
Status run_ordered(const Domain& d, std::span<Fr> data, bool inv, Order order, const Fr* scale, ThreadPool& pool) {
  if (order == Order::kBitReversedToNatural) {
    transform(d, data.data(), inv, Kind::kDit, scale, pool);
    return ok_status();
  }
  transform(d, data.data(), inv, Kind::kDif, scale, pool);
  if (order == Order::kNaturalToNatural) return bit_reverse_permute(data, &pool);
  return ok_status();
}

}  // namespace

Status forward(const Domain& domain, std::span<Fr> data, Order order, ThreadPool* pool) {
  RETURN_IF_ERROR(check_size(domain, data.size(), "forward"));
  return run_ordered(domain, data, false, order, nullptr, pool_or_default(pool));
}

Status inverse(const Domain& domain, std::span<Fr> data, Order order, ThreadPool* pool) {
  RETURN_IF_ERROR(check_size(domain, data.size(), "inverse"));
  return run_ordered(domain, data, true, order, &domain.n_inv(), pool_or_default(pool));
}

// Coefficients are the input: natural unless the order reads bit-reversed.
Status coset_forward(const Domain& domain, std::span<Fr> data, const Fr& g, Order order, ThreadPool* pool) {
  RETURN_IF_ERROR(check_size(domain, data.size(), "coset_forward"));
  ThreadPool& p = pool_or_default(pool);
  if (order == Order::kBitReversedToNatural) {
    RETURN_IF_ERROR(scale_by_powers_bit_reversed(data, g, &p));
  } else {
    scale_by_powers(data, g, &p);
  }
  return run_ordered(domain, data, false, order, nullptr, p);
}

// Coefficients are the output: natural unless the order writes bit-reversed.
Status coset_inverse(const Domain& domain, std::span<Fr> data, const Fr& g, Order order, ThreadPool* pool) {
  RETURN_IF_ERROR(check_size(domain, data.size(), "coset_inverse"));
  if (g.is_zero()) return invalid_argument("ntt::coset_inverse: the coset shift g is zero");
  ThreadPool& p = pool_or_default(pool);
  RETURN_IF_ERROR(run_ordered(domain, data, true, order, &domain.n_inv(), p));
  Fr g_inv = g.inverse();
  if (order == Order::kNaturalToBitReversed) return scale_by_powers_bit_reversed(data, g_inv, &p);
  scale_by_powers(data, g_inv, &p);
  return ok_status();
}

}  // namespace cuzk::ntt
