#include "cuzk/msm/split.h"

#include <algorithm>
#include <bit>
#include <cassert>

#include "affine_batch.h"
#include "cuzk/base/huge_pages.h"

namespace cuzk::msm {
namespace {

// Positions classified per task (a multiple of 64, so tasks own whole words).
constexpr size_t kClassifyBlock = size_t(1) << 14;
// batch_add: accumulators per range, i.e. additions per shared inversion.
constexpr size_t kBatchWidth = 1024;
// batch_add: fewest positions per parallel range.
constexpr size_t kMinRangePositions = size_t(1) << 14;

struct BlockTail {
  std::vector<uint32_t> positions;
  std::vector<ff::Limbs<4>> scalars;
  size_t ones = 0, zeros = 0;
};

void classify_block(std::span<const ff::Fr> scalars, size_t lo, size_t hi, std::span<uint64_t> words,
                    BlockTail& tail) {
  const ff::Fr one = ff::Fr::one();
  for (size_t i = lo; i < hi; ++i) {
    const ff::Fr& s = scalars[i];
    if (s.is_zero()) {
      ++tail.zeros;
    } else if (s == one) {
      ++tail.ones;
      words[i / 64] |= uint64_t(1) << (i % 64);
    } else {
      tail.positions.push_back(uint32_t(i));
      tail.scalars.push_back(s.canonical());
    }
  }
}

// Σ bases[i] over the set bits i in [lo, hi). kBatchWidth accumulators each
// take one more point per batch (one inversion per batch); at the end they are
// summed level by level.
template <class C>
ec::Affine<C> batch_add_range(std::span<const ec::Affine<C>> bases, std::span<const uint64_t> bitmap, size_t lo,
                              size_t hi) {
  using A = ec::Affine<C>;
  std::vector<A> acc;
  acc.reserve(kBatchWidth);  // pairs_ point into acc: no reallocation
  std::vector<detail::PairRef<C>> pairs;
  std::vector<typename C::Field> prefix;
  for (size_t w = lo / 64; w * 64 < hi; ++w) {
    uint64_t bits = bitmap[w];
    if (w * 64 + 64 > hi) bits &= (uint64_t(1) << (hi - w * 64)) - 1;
    while (bits) {
      const size_t i = w * 64 + size_t(std::countr_zero(bits));
      bits &= bits - 1;
      if (acc.size() < kBatchWidth) {
        acc.push_back(bases[i]);
        continue;
      }
      A* slot = &acc[pairs.size()];
      pairs.push_back({slot, &bases[i], slot, 0});
      if (pairs.size() == kBatchWidth) {
        detail::add_pairs<C>(pairs, prefix);
        pairs.clear();
      }
    }
  }
  detail::add_pairs<C>(pairs, prefix);
  return detail::reduce_in_place<C>(acc, pairs, prefix);
}

}  // namespace

SplitScalars classify(std::span<const ff::Fr> scalars, const MsmOptions& options) {
  assert(scalars.size() < (size_t(1) << 32));
  SplitScalars out;
  out.size = scalars.size();
  out.ones.assign((scalars.size() + 63) / 64, 0);
  const size_t blocks = (scalars.size() + kClassifyBlock - 1) / kClassifyBlock;
  std::vector<BlockTail> tails(blocks);
  pool_of(options).parallel_for(blocks, 1, [&](size_t b, size_t e) {
    for (size_t k = b; k < e; ++k) {
      classify_block(scalars, k * kClassifyBlock, std::min(scalars.size(), (k + 1) * kClassifyBlock), out.ones,
                     tails[k]);
    }
  });
  size_t tail_count = 0;
  for (const BlockTail& t : tails) {
    tail_count += t.positions.size();
    out.ones_count += t.ones;
    out.zeros_count += t.zeros;
  }
  out.tail_positions.reserve(tail_count);
  out.tail_scalars.reserve(tail_count);
  for (const BlockTail& t : tails) {
    out.tail_positions.insert(out.tail_positions.end(), t.positions.begin(), t.positions.end());
    out.tail_scalars.insert(out.tail_scalars.end(), t.scalars.begin(), t.scalars.end());
  }
  return out;
}

template <class C>
ec::Jacobian<C> batch_add(std::span<const ec::Affine<C>> bases, std::span<const uint64_t> bitmap,
                          const MsmOptions& options) {
  const size_t n = bases.size();
  assert(bitmap.size() * 64 >= n);
  ThreadPool& pool = pool_of(options);
  const size_t words = (n + 63) / 64;
  const size_t ranges =
      std::max<size_t>(1, std::min<size_t>(4 * (size_t(pool.size()) + 1), n / kMinRangePositions));
  std::vector<ec::Affine<C>> partial(ranges);
  pool.parallel_for(ranges, 1, [&](size_t b, size_t e) {
    for (size_t r = b; r < e; ++r) {
      const size_t lo = 64 * (words * r / ranges), hi = std::min(n, 64 * (words * (r + 1) / ranges));
      partial[r] = batch_add_range<C>(bases, bitmap, lo, hi);
    }
  });
  ec::Jacobian<C> sum = ec::Jacobian<C>::identity();
  for (const auto& p : partial) sum += p;
  return sum;
}

template <class C>
ec::Jacobian<C> split_msm(std::span<const ec::Affine<C>> bases, const SplitScalars& split,
                          const MsmOptions& options) {
  assert(bases.size() == split.size);
  const ec::Jacobian<C> ones = batch_add<C>(bases, split.ones, options);
  std::vector<ec::Affine<C>> tail_bases = huge_page_vector<ec::Affine<C>>(split.tail_positions.size());
  pool_of(options).parallel_for(tail_bases.size(), 4096, [&](size_t b, size_t e) {
    for (size_t j = b; j < e; ++j) tail_bases[j] = bases[split.tail_positions[j]];
  });
  return ones + msm<C>(tail_bases, split.tail_scalars, options);
}

template <class C>
ec::Jacobian<C> split_msm(std::span<const ec::Affine<C>> bases, std::span<const ff::Fr> scalars,
                          const MsmOptions& options) {
  assert(bases.size() == scalars.size());
  return split_msm<C>(bases, classify(scalars, options), options);
}

size_t count_density(std::span<const uint64_t> density_words, size_t bit_count) {
  assert(density_words.size() * 64 >= bit_count);
  size_t count = 0;
  for (size_t w = 0; w * 64 < bit_count; ++w) {
    uint64_t bits = density_words[w];
    if (w * 64 + 64 > bit_count) bits &= (uint64_t(1) << (bit_count - w * 64)) - 1;
    count += size_t(std::popcount(bits));
  }
  return count;
}

std::vector<ff::Fr> gather_by_density(std::span<const ff::Fr> scalars, std::span<const uint64_t> density_words,
                                      size_t bit_count) {
  assert(bit_count <= scalars.size());
  std::vector<ff::Fr> out;
  out.reserve(count_density(density_words, bit_count));
  for (size_t w = 0; w * 64 < bit_count; ++w) {
    uint64_t bits = density_words[w];
    if (w * 64 + 64 > bit_count) bits &= (uint64_t(1) << (bit_count - w * 64)) - 1;
    while (bits) {
      out.push_back(scalars[w * 64 + size_t(std::countr_zero(bits))]);
      bits &= bits - 1;
    }
  }
  return out;
}

template ec::Jacobian<ec::G1Curve> batch_add(std::span<const ec::G1Affine>, std::span<const uint64_t>,
                                             const MsmOptions&);
template ec::Jacobian<ec::G2Curve> batch_add(std::span<const ec::G2Affine>, std::span<const uint64_t>,
                                             const MsmOptions&);
template ec::Jacobian<ec::G1Curve> split_msm(std::span<const ec::G1Affine>, const SplitScalars&, const MsmOptions&);
template ec::Jacobian<ec::G2Curve> split_msm(std::span<const ec::G2Affine>, const SplitScalars&, const MsmOptions&);
template ec::Jacobian<ec::G1Curve> split_msm(std::span<const ec::G1Affine>, std::span<const ff::Fr>,
                                             const MsmOptions&);
template ec::Jacobian<ec::G2Curve> split_msm(std::span<const ec::G2Affine>, std::span<const ff::Fr>,
                                             const MsmOptions&);

}  // namespace cuzk::msm
