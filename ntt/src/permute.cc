// The element-wise pieces the prover fuses around transforms: power scaling
// (natural and bit-reversed order) and the bit-reversal permutation.
#include <algorithm>
#include <string>
#include <vector>

#include "cuzk/ntt/ntt.h"
#include "kernels.h"

namespace cuzk::ntt {
namespace {

using ff::Fr;

ThreadPool& pool_or_default(ThreadPool* pool) { return pool ? *pool : default_thread_pool(); }

// log2 of a power of two, or -1.
int exact_log2(size_t n) {
  if (n == 0 || (n & (n - 1)) != 0) return -1;
  return __builtin_ctzll(n);
}

Status not_power_of_two(const char* fn, size_t n) {
  return invalid_argument(std::string("ntt::") + fn + ": length " + std::to_string(n) +
                          " is not a power of two");
}

// table[i] = c·w^bitrev_bits(i) for i < 2^bits. Cost: 2^bits multiplications.
std::vector<Fr> bit_reversed_powers(const Fr& c, const Fr& w, int bits) {
  size_t n = size_t(1) << bits;
  std::vector<Fr> powers(n), table(n);
  Fr p = c;
  for (size_t i = 0; i < n; ++i) {
    powers[i] = p;
    p *= w;
  }
  for (size_t i = 0; i < n; ++i) table[i] = powers[bit_reverse(i, bits)];
  return table;
}

constexpr int kTileLg = 4;  // 16 x 16 tiles: rows of 512 contiguous bytes
constexpr size_t kTile = size_t(1) << kTileLg;

void permute_small(std::span<Fr> data, int lg) {
  for (size_t i = 0; i < data.size(); ++i) {
    size_t j = bit_reverse(i, lg);
    if (i < j) std::swap(data[i], data[j]);
  }
}

// Index bits of a position: [hi: kTileLg][mid: lg - 2·kTileLg][lo: kTileLg].
// bitrev maps (hi, mid, lo) to (rev lo, rev mid, rev hi), so the tile of
// middle value m (16 rows of 16 contiguous elements) swaps with the tile of
// rev(m) transposed, with both in-tile indices reversed.
void permute_tile_pair(Fr* x, int lg, size_t m, size_t m_rev) {
  const int shift_hi = lg - kTileLg;
  Fr a[kTile][kTile], b[kTile][kTile];
  auto at = [&](size_t mid, size_t h, size_t l) -> Fr& { return x[(h << shift_hi) | (mid << kTileLg) | l]; };
  for (size_t h = 0; h < kTile; ++h) {
    for (size_t l = 0; l < kTile; ++l) {
      a[h][l] = at(m, h, l);
      b[h][l] = at(m_rev, h, l);
    }
  }
  for (size_t h = 0; h < kTile; ++h) {
    const size_t h_rev = bit_reverse(h, kTileLg);
    for (size_t l = 0; l < kTile; ++l) {
      const size_t l_rev = bit_reverse(l, kTileLg);
      at(m, h, l) = b[l_rev][h_rev];
      at(m_rev, h, l) = a[l_rev][h_rev];
    }
  }
}

}  // namespace

void scale_by_powers(std::span<Fr> data, const Fr& c, const Fr& g, ThreadPool* pool) {
  pool_or_default(pool).parallel_for(data.size(), 1 << 12, [&](size_t begin, size_t end) {
    Fr start = c * g.pow(uint64_t(begin));
    internal::mul_by_powers(data.data() + begin, end - begin, g, &start);
  });
}

void scale_by_powers(std::span<Fr> data, const Fr& g, ThreadPool* pool) {
  scale_by_powers(data, Fr::one(), g, pool);
}

// Position p = ph·2^s + pl has bitrev(p) = bitrev_s(pl)·2^(lg-s) + bitrev_{lg-s}(ph),
// so g^bitrev(p) = lo[pl]·hi[ph] with two tables of about sqrt(n) entries.
// Cost: 2 multiplications per element plus O(sqrt n).
Status scale_by_powers_bit_reversed(std::span<Fr> data, const Fr& g, ThreadPool* pool) {
  const int lg = exact_log2(data.size());
  if (lg < 0) return not_power_of_two("scale_by_powers_bit_reversed", data.size());
  const int s = lg / 2;
  Fr g_hi = g;  // g^(2^(lg-s))
  for (int i = 0; i < lg - s; ++i) g_hi = g_hi.square();
  const std::vector<Fr> lo = bit_reversed_powers(Fr::one(), g_hi, s);
  const std::vector<Fr> hi = bit_reversed_powers(Fr::one(), g, lg - s);
  const size_t row = size_t(1) << s;
  pool_or_default(pool).parallel_for(hi.size(), std::max<size_t>(1, 4096 / row), [&](size_t begin, size_t end) {
    for (size_t ph = begin; ph < end; ++ph) {
      internal::mul_by_scaled_table(data.data() + ph * row, row, lo.data(), hi[ph]);
    }
  });
  return ok_status();
}

Status bit_reverse_permute(std::span<Fr> data, ThreadPool* pool) {
  const int lg = exact_log2(data.size());
  if (lg < 0) return not_power_of_two("bit_reverse_permute", data.size());
  if (lg < 2 * kTileLg + 2) {
    permute_small(data, lg);
    return ok_status();
  }
  const int mid_bits = lg - 2 * kTileLg;
  pool_or_default(pool).parallel_for(size_t(1) << mid_bits, 16, [&](size_t begin, size_t end) {
    for (size_t m = begin; m < end; ++m) {
      const size_t m_rev = bit_reverse(m, mid_bits);
      if (m <= m_rev) permute_tile_pair(data.data(), lg, m, m_rev);
    }
  });
  return ok_status();
}

}  // namespace cuzk::ntt
