#include "cuzk/r1cs/witness_stats.h"

#include <mutex>
#include <string>

#include "cuzk/ff/bigint.h"

namespace cuzk::r1cs {
namespace {

void count(const ff::Fr& x, ValueClasses* v) {
  ++v->positions;
  if (x.is_zero()) {
    ++v->zeros;
  } else if (x.is_one()) {
    ++v->ones;
  } else {
    const int bits = ff::limbs_bit_length<ff::Fr::kLimbs>(x.canonical());
    size_t k = 0;
    while (k + 1 < kTailBitBounds.size() && bits > kTailBitBounds[k]) ++k;
    ++v->tail_by_bits[k];
  }
}

}  // namespace

uint64_t ValueClasses::tail() const {
  uint64_t t = 0;
  for (uint64_t c : tail_by_bits) t += c;
  return t;
}

ValueClasses& ValueClasses::operator+=(const ValueClasses& o) {
  positions += o.positions, zeros += o.zeros, ones += o.ones;
  for (size_t k = 0; k < tail_by_bits.size(); ++k) tail_by_bits[k] += o.tail_by_bits[k];
  return *this;
}

StatusOr<QueryValueClasses> classify_query_values(const DensityBitmaps& density, std::span<const ff::Fr> w,
                                                  uint64_t num_inputs, ThreadPool* pool) {
  if (num_inputs == 0 || num_inputs > w.size())
    return invalid_argument("witness of " + std::to_string(w.size()) + " values for " + std::to_string(num_inputs) +
                            " inputs");
  const uint64_t num_aux = w.size() - num_inputs;
  if (density.a_input.bit_len != num_inputs || density.b_input.bit_len != num_inputs ||
      density.a_aux.bit_len != num_aux || density.b_aux.bit_len != num_aux)
    return invalid_argument("density bitmaps of " + std::to_string(density.a_input.bit_len) + " inputs and " +
                            std::to_string(density.a_aux.bit_len) + " aux; the witness has " +
                            std::to_string(num_inputs) + " and " + std::to_string(num_aux));
  QueryValueClasses all;
  std::mutex mu;
  auto range = [&](size_t lo, size_t hi) {
    QueryValueClasses part;
    for (size_t i = lo; i < hi; ++i) {
      const bool input = i < num_inputs;
      const uint64_t j = input ? i : i - num_inputs;
      if (!input) count(w[i], &part.l);
      if ((input ? density.a_input : density.a_aux).test(j)) count(w[i], &part.a);
      if ((input ? density.b_input : density.b_aux).test(j)) count(w[i], &part.b);
    }
    std::lock_guard<std::mutex> lock(mu);
    all.l += part.l, all.a += part.a, all.b += part.b;
  };
  if (pool != nullptr)
    pool->parallel_for(w.size(), 1 << 16, range);
  else
    range(0, w.size());
  return all;
}

}  // namespace cuzk::r1cs
