// How a witness's values fall into the classes of the split MSMs (the GPU
// prover's 0/1 split: zeros are skipped, ones summed by a batch addition, the
// rest, the "tail", go to an MSM), per query, with the tail by the bit length
// of its canonical values. A diagnosis of real circuits against the
// PoRep-shaped bench circuit (`cuzk filecoin check --witness-stats`).
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "cuzk/base/thread_pool.h"
#include "cuzk/ff/fr.h"
#include "cuzk/r1cs/density.h"

namespace cuzk::r1cs {

// Upper bounds of the tail's bit-length classes: ≤ 32, ≤ 64, ≤ 128, ≤ 192, ≤ 255 bits.
inline constexpr std::array<int, 5> kTailBitBounds = {32, 64, 128, 192, 255};

struct ValueClasses {
  uint64_t positions = 0, zeros = 0, ones = 0;
  std::array<uint64_t, kTailBitBounds.size()> tail_by_bits{};  // by kTailBitBounds
  uint64_t tail() const;
  ValueClasses& operator+=(const ValueClasses& o);
};

// L covers the aux variables; A and B the variables of their density bitmaps
// (inputs and aux).
struct QueryValueClasses {
  ValueClasses l, a, b;
};

// w = (ONE, the other inputs, aux), with num_inputs counting ONE; `density`
// from the same circuit. Errors: INVALID_ARGUMENT when the sizes disagree.
StatusOr<QueryValueClasses> classify_query_values(const DensityBitmaps& density, std::span<const ff::Fr> w,
                                                  uint64_t num_inputs, ThreadPool* pool = nullptr);

}  // namespace cuzk::r1cs
