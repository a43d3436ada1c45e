// The sparse matrix-vector products a = A·w, b = B·w, c = C·w on the device,
// over a circuit kept in device memory (the layout of r1cs/circuit.h as is:
// interleaved row offsets, {var, coeff} terms, the coefficient table).
//
// Work split: a row of one matrix (a "segment", k = 3·row + matrix) is summed
// by one thread when it has at most kLongSegmentTerms terms — real circuits'
// rows mostly have 1 to 4 — and by a warp when it is longer (packing
// constraints, MultiEq rows: hundreds of terms), so that one long row does not
// hold a warp of short ones. The long segments are listed once, at upload.
// Cost per term: one 8-byte term read (sequential), one coefficient read (the
// table stays in L1/L2), one 32-byte witness read (near its neighbours' in
// real circuits, whose gadgets use recent variables), one Fr multiplication
// and addition. At the 32 GiB PoRep partition's ~722M terms that is ≈ 12 ms
// of multiplications on an H200; the rest is memory traffic.
//
// Host API (include from .cc); every launcher takes the stream it runs on.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "cuzk/base/status.h"
#include "cuzk/base/thread_pool.h"
#include "cuzk/gpu/buffer.h"
#include "cuzk/r1cs/circuit.h"

namespace cuzk::r1cs::cuda {

inline constexpr uint32_t kLongSegmentTerms = 32;

// A circuit's arrays in device memory (DeviceCircuit::view()).
struct CircuitView {
  uint64_t rows = 0;
  uint64_t num_vars = 0;
  const uint32_t* offsets = nullptr;  // 3·rows + 1
  const Term* terms = nullptr;
  const ff::Fr* coeffs = nullptr;
  const uint32_t* long_segments = nullptr;  // segments with more than kLongSegmentTerms terms, ascending
  uint64_t num_long = 0;
};

// A circuit held in device memory. Move-only; frees its memory when destroyed.
class DeviceCircuit {
 public:
  DeviceCircuit() = default;

  // An upper bound of the device bytes upload() allocates for `c` (the
  // arrays, plus the long-segment list at its largest).
  static uint64_t device_bytes(const Circuit& c);

  // Validates `c` (r1cs::validate on `pool`: the kernels then read only
  // inside the witness and the table), lists its long segments and copies
  // the arrays to the current device on `stream`, waiting for the copies.
  // Errors: INVALID_ARGUMENT from validation; RESOURCE_EXHAUSTED when the
  // device memory runs out; other device errors.
  static StatusOr<DeviceCircuit> upload(const Circuit& c, cudaStream_t stream, ThreadPool* pool = nullptr);

  const CircuitView& view() const { return view_; }
  // The device bytes held.
  uint64_t bytes() const { return offsets_.bytes() + terms_.bytes() + coeffs_.bytes() + long_.bytes(); }

 private:
  CircuitView view_;
  gpu::DeviceBuffer<uint32_t> offsets_;
  gpu::DeviceBuffer<Term> terms_;
  gpu::DeviceBuffer<ff::Fr> coeffs_;
  gpu::DeviceBuffer<uint32_t> long_;
};

// a_i = <A_i, w>, b_i = <B_i, w>, c_i = <C_i, w> for every row i < c.rows,
// as r1cs::compute_abc computes them (bit for bit: the same field elements
// in Montgomery form). REQUIRES: d_w holds c.num_vars values; d_a, d_b, d_c
// hold c.rows values each (rows past c.rows are not touched).
Status compute_abc(const CircuitView& c, const ff::Fr* d_w, ff::Fr* d_a, ff::Fr* d_b, ff::Fr* d_c,
                   cudaStream_t stream);

// *d_first ← the smallest i < rows with a_i·b_i ≠ c_i, or UINT32_MAX when
// every row holds (rows < 2^32: the circuit layout's limit). Stream-ordered.
Status first_unsatisfied(const ff::Fr* d_a, const ff::Fr* d_b, const ff::Fr* d_c, uint64_t rows, uint32_t* d_first,
                         cudaStream_t stream);

}  // namespace cuzk::r1cs::cuda
