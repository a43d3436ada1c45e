// Synthetic satisfiable circuits for tests and benchmarks.
//
// Shape: witness (1, public..., aux...). With m constraints and n aux
// variables, d = min(m, n) aux are "derived" (aux n−d+i is defined by row i)
// and f = n − d are "free" (assigned up front; a bit with probability
// zero_one_fraction, else a random field element). Row i < d is one of:
//   - a bit row (probability zero_one_fraction), whose derived value is 0/1:
//       AND  x·y = z;   XOR  (2x)·y = x + y − z   (x, y sampled 0/1 variables);
//       COPY (x + Σ c_k u_k)·1 = z + Σ c_k u_k when free variables remain to
//       be consumed;
//   - a product row: (Σ A terms)·(Σ B terms) = z + Σ C terms, z = a·b − Σ C.
// Rows i >= d (only when m > n) are checks: booleanity x·(1 − x) = 0 or a
// linear L·1 = L. Free variables are consumed (placed in some A) at a steady
// rate so that every aux variable appears in some row. Product and check
// LCs have k terms, k uniform in [1, 2·terms_per_lc − 1], over variables
// already assigned (3/4 among the 4096 most recent, as gadgets do, the rest
// uniformly); product rows whose derived value comes out 0/1 are redrawn.
// Coefficients are 1 (50%),
// −1 (20%), 2^j with 1 <= j <= 8 (10%) or one of num_distinct_coeffs random
// constants (20%). So the aux 0/1 share is ≈ zero_one_fraction, and the
// coefficient table stays small.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cuzk/base/status.h"
#include "cuzk/base/thread_pool.h"
#include "cuzk/r1cs/circuit.h"
#include "cuzk/r1cs/precompiled.h"

namespace cuzk::r1cs {

struct SyntheticParams {
  uint64_t num_constraints = 1024;
  uint64_t num_public_inputs = 4;  // ONE excluded
  uint64_t num_aux = 1024;
  double zero_one_fraction = 0.8;  // in [0, 1]
  uint32_t terms_per_lc = 2;       // >= 1
  uint32_t num_distinct_coeffs = 64;
  uint64_t seed = 1;
};

struct SyntheticStats {
  uint64_t bit_rows = 0;      // AND, XOR and COPY rows
  uint64_t product_rows = 0;
  uint64_t check_rows = 0;
  uint64_t zero_one_aux = 0;  // aux values equal to 0 or 1
};

// Generates the rows into `sink` in order and returns the witness
// (num_inputs + num_aux values, w[0] = 1). Errors: INVALID_ARGUMENT for bad
// parameters; whatever the sink returns.
StatusOr<std::vector<Fr>> generate_synthetic_rows(const SyntheticParams& params, RowSink& sink,
                                                  SyntheticStats* stats = nullptr);

struct SyntheticCircuit {
  Circuit circuit;
  std::vector<Fr> witness;
  SyntheticStats stats;
};

// In memory (tests).
StatusOr<SyntheticCircuit> generate_synthetic(const SyntheticParams& params);

// The proportions of Filecoin's 32 GiB PoRep partition scaled to a domain of
// 2^lg (exact at lg = 27): rows including the per-input rows, inputs (ONE
// included), aux, and the aux variables that A and B touch.
struct PorepShape {
  int lg = 0;
  uint64_t rows = 0, num_inputs = 0, num_aux = 0, a_aux = 0, b_aux = 0;
};
PorepShape porep_shape(int lg);

// A satisfiable circuit of that shape (8 <= lg <= 27) for benchmarks: its rows
// without the per-input rows, B-input density ONE only, a few terms per
// linear combination, and the value shares of a real PoRep partition's
// witness: ≈ 97% of aux values 0 or 1 (zeros ≈ 49%, ones ≈ 48%), B's values
// ≈ 8% neither, A's aux ≈ 2.6% (porep_shape.cc). Built in parallel on `pool`
// (default pool when null) from the row index alone; at lg = 27 it holds
// ≈ 700M non-zeros (≈ 7 GB) and its witness 4.2 GB.
StatusOr<SyntheticCircuit> generate_porep_shaped(int lg, uint64_t seed, ThreadPool* pool = nullptr);

// Straight to a precompiled file; only the witness and the coefficient
// table are held in memory.
StatusOr<std::vector<Fr>> write_synthetic_precompiled(const SyntheticParams& params, const std::string& path,
                                                      SyntheticStats* stats = nullptr);

}  // namespace cuzk::r1cs
