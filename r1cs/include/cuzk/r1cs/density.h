// Density bitmaps for the split MSMs (formats.md §3, §6, §7.7).
//
// A bit is set when the variable appears with a non-zero coefficient in some
// row of the matrix: it depends on the circuit only, never on witness values.
// Layout as supraseal's Assignment expects: u64 words, bit i at word i/64,
// position i%64; unused high bits of the last word are zero.
#pragma once

#include <cstdint>
#include <vector>

#include "cuzk/base/thread_pool.h"
#include "cuzk/r1cs/circuit.h"

namespace cuzk::r1cs {

struct Bitmap {
  std::vector<uint64_t> words;
  uint64_t bit_len = 0;
  uint64_t popcount = 0;

  explicit Bitmap(uint64_t bits = 0) : words((bits + 63) / 64, 0), bit_len(bits) {}
  bool test(uint64_t i) const { return (words[i / 64] >> (i % 64)) & 1; }
  friend bool operator==(const Bitmap&, const Bitmap&) = default;
};

struct DensityOptions {
  // Consider bellperson's per-input rows ("input_i · 0 = 0", A only, ONE
  // included), which make every input appear in A (a_input all ones). They
  // touch neither B nor the aux bitmaps.
  bool include_input_rows = true;
};

struct DensityBitmaps {
  Bitmap a_input;  // num_inputs bits (all set with include_input_rows)
  Bitmap a_aux;    // num_aux bits: popcount = |A query| − num_inputs
  Bitmap b_input;  // num_inputs bits
  Bitmap b_aux;    // num_aux bits: |B query| = b_input.popcount + b_aux.popcount
};

// One pass over the A and B terms. Runs on `pool` when given.
DensityBitmaps compute_density(const Circuit& circuit, const DensityOptions& options = {},
                               ThreadPool* pool = nullptr);

}  // namespace cuzk::r1cs
