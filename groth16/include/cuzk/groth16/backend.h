// The compute operations the prover delegates: the H polynomial (NTTs and
// element-wise steps) and multi-scalar multiplications. A CPU implementation
// (make_cpu_backend) and a CUDA one implement this interface; the CPU one is
// the oracle the CUDA one is checked against, bit for bit.
#pragma once

#include <memory>
#include <span>
#include <string_view>

#include "cuzk/base/status.h"
#include "cuzk/base/thread_pool.h"
#include "cuzk/ec/curves.h"
#include "cuzk/groth16/keys.h"

namespace cuzk::groth16 {

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string_view name() const = 0;

  // Turns the row values a, b, c (each of length n = 2^lg_n, zero-padded)
  // into the scalars of the H query, written to a:
  //  - kBellperson: the coefficients of h = (A·B − C)/Z, computed on the coset
  //    g = 7; the first n − 1 are the scalars. Errors: FAILED_PRECONDITION when
  //    coefficient n − 1 is non-zero (A·B − C is not divisible by Z: the
  //    witness does not satisfy the circuit).
  //  - kSnarkjs: P_j = a_j·b_j − c_j on the odd coset ω(2n)·ω(n)^j (n scalars).
  // b and c are clobbered.
  virtual Status compute_h(KeyLayout layout, int lg_n, std::span<Fr> a, std::span<Fr> b, std::span<Fr> c) = 0;

  // Σ scalars[i]·bases[i]. REQUIRES: equal lengths.
  virtual ec::G1Jacobian msm_g1(std::span<const G1Affine> bases, std::span<const Fr> scalars) = 0;
  virtual ec::G2Jacobian msm_g2(std::span<const G2Affine> bases, std::span<const Fr> scalars) = 0;
};

// The CPU backend over ntt/ and msm/, running on `pool` (default pool when null).
std::unique_ptr<Backend> make_cpu_backend(ThreadPool* pool = nullptr);

}  // namespace cuzk::groth16
