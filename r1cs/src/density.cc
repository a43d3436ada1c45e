#include "cuzk/r1cs/density.h"

#include <atomic>
#include <bit>

#include "internal.h"

namespace cuzk::r1cs {
namespace {

constexpr size_t kRowsPerChunk = 8192;

// Sets bit i; concurrent callers may set bits of the same word.
inline void set_bit(Bitmap& map, uint64_t i) {
  uint64_t& word = map.words[i / 64];
  const uint64_t mask = uint64_t(1) << (i % 64);
  std::atomic_ref<uint64_t> ref(word);
  if ((ref.load(std::memory_order_relaxed) & mask) == 0) ref.fetch_or(mask, std::memory_order_relaxed);
}

void finish(Bitmap& map) {
  uint64_t n = 0;
  for (uint64_t w : map.words) n += uint64_t(std::popcount(w));
  map.popcount = n;
}

// Marks every var of the row in the input or aux bitmap.
void mark_row(std::span<const Term> row, uint64_t num_inputs, Bitmap& inputs, Bitmap& aux) {
  for (const Term& t : row) {
    if (t.var < num_inputs) set_bit(inputs, t.var);
    else set_bit(aux, t.var - num_inputs);
  }
}

}  // namespace

DensityBitmaps compute_density(const Circuit& circuit, const DensityOptions& options, ThreadPool* pool) {
  const uint64_t ni = circuit.num_inputs(), na = circuit.num_aux();
  DensityBitmaps d{Bitmap(ni), Bitmap(na), Bitmap(ni), Bitmap(na)};
  // Canonical form guarantees every stored coefficient is non-zero, so a
  // stored term is an appearance.
  run_chunks(pool, circuit.num_constraints(), kRowsPerChunk, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      mark_row(circuit.row(i, Matrix::kA), ni, d.a_input, d.a_aux);
      mark_row(circuit.row(i, Matrix::kB), ni, d.b_input, d.b_aux);
    }
  });
  if (options.include_input_rows) {
    for (uint64_t i = 0; i < ni; ++i) set_bit(d.a_input, i);
  }
  finish(d.a_input);
  finish(d.a_aux);
  finish(d.b_input);
  finish(d.b_aux);
  return d;
}

}  // namespace cuzk::r1cs
