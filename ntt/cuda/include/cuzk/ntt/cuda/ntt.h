// Number-theoretic transforms over Fr on the device, in place, and the fused
// element-wise kernels of the Groth16 H step. Host API (include from .cc).
//
// Definitions (docs/formats.md §1; the same as ntt/ntt.h on the CPU), n = 2^lg_n,
// ω = ff::root_of_unity(lg_n, convention), g = coset shift:
//   forward:        out[i] = Σ_j in[j]·ω^(ij)
//   inverse:        out[i] = n^-1 · Σ_j in[j]·ω^(-ij)
//   coset forward:  in[i] *= g^i, then forward      (evaluations at g·ω^j)
//   coset inverse:  inverse, then out[i] *= g^-i    (coefficients from g·ω^j)
// Order says where indices sit in memory; "bit-reversed" means index i at
// position bitrev_lg_n(i). Natural→bit-reversed runs decimation in frequency,
// bit-reversed→natural decimation in time, with no permutation pass; the two
// other orders add one in-place permutation pass.
//
// Algorithm: lg_n is split into passes of at most 10 bits (11 for the last),
// each one launch that loads 2^(k+j) elements into shared memory, runs k
// radix-2 stages there and multiplies by the four-step twiddles ω^(col·row)
// on the way out (DIF) or in (DIT). Coset and 1/n scaling are folded into the
// first / last pass. Cost: n/2·lg_n butterflies (1 multiplication each) plus
// 2n multiplications per pass boundary (twiddle = two table entries
// multiplied; n for the middle pass of three, which has a table of its own),
// plus n for each scaling; ceil((lg_n − 11)/10) + 1 passes over memory, and
// for the permuting orders one more (tiles of 16 × 16 elements swapped
// through shared memory, so every access is a 512-byte run).
//
// Workspace: the caller passes device memory of ntt_workspace_bytes(lg_n)
// bytes (≈1.5 MiB, plus the middle pass's table from 2^22 up: 8 MiB at 2^27;
// twiddle and power tables, rebuilt by every call) and the stream; calls on
// different streams need different workspaces.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <optional>

#include "cuzk/base/status.h"
#include "cuzk/ff/fr.h"

namespace cuzk::ntt::cuda {

inline constexpr int kMaxLgN = 31;

enum class Direction { kForward, kInverse };

enum class Order {
  kNaturalToNatural,
  kNaturalToBitReversed,      // DIF, no permutation
  kBitReversedToNatural,      // DIT, no permutation
  kBitReversedToBitReversed,
};

struct NttSpec {
  int lg_n = 0;  // 0 .. kMaxLgN
  ff::RootConvention convention = ff::RootConvention::kBellperson;
  Direction direction = Direction::kForward;
  Order order = Order::kNaturalToNatural;
  // The coset shift g, or none for the plain transform. Forward multiplies
  // input i by g^i; inverse multiplies output i by g^-i (g must be non-zero).
  std::optional<ff::Fr> coset_shift;
};

// Bytes of workspace ntt() needs for transforms of size 2^lg_n.
size_t ntt_workspace_bytes(int lg_n);

// Transforms d_data[0 .. 2^lg_n) in place (device memory) on `stream`.
// With d_workspace == nullptr: stores the workspace size in *workspace_bytes
// and returns OK without touching d_data (CUB style).
// Errors: INVALID_ARGUMENT for lg_n outside [0, kMaxLgN], a zero coset shift
// with the inverse, or a workspace smaller than needed; launch errors.
Status ntt(ff::Fr* d_data, const NttSpec& spec, void* d_workspace, size_t* workspace_bytes, cudaStream_t stream);

// Fused H-step kernels (one pass over memory each; any n, device pointers).
// d_a[i] = (d_a[i]·d_b[i] − d_c[i])·k. Cost: 2n multiplications.
Status hadamard_sub_scale(ff::Fr* d_a, const ff::Fr* d_b, const ff::Fr* d_c, const ff::Fr& k, size_t n,
                          cudaStream_t stream);
// d_data[i] *= k. Cost: n multiplications.
Status scale(ff::Fr* d_data, const ff::Fr& k, size_t n, cudaStream_t stream);
// d_data[p] *= c·g^idx(p), idx(p) = p (natural) or bitrev_lg_n(p) (bit-reversed;
// then n = 2^lg_n). Same workspace as ntt(). Cost: 2n multiplications.
Status scale_by_powers(ff::Fr* d_data, int lg_n, size_t n, const ff::Fr& g, const ff::Fr& c, bool bit_reversed,
                       void* d_workspace, size_t* workspace_bytes, cudaStream_t stream);
// Swaps d_data[i] and d_data[bitrev_lg_n(i)]: one pass.
Status bit_reverse_permute(ff::Fr* d_data, int lg_n, cudaStream_t stream);

// The Groth16 H step on the device. In: a, b, c, the evaluations of the
// constraint polynomials A, B, C on the domain ω^i (n = 2^lg_n, natural
// order). The quotient H = (A·B − C)/Z has degree < n, so it is fixed by its
// values on a coset g·ω^i, where Z(g·ω^i) = g^n − 1 is one constant:
//   kCosetEvaluations: d_a[i] = (A·B − C)(g·ω^i)·k (snarkjs' layout, with k = 1:
//                      3 inverse + 3 coset forward transforms);
//   kCoefficients:     d_a = the coefficients of (A·B − C)·k read back from
//                      the coset, natural order (bellperson's, with
//                      k = (g^n − 1)^-1, so d_a = H). 6 transforms, not 7: the
//                      coset inverse is linear and undoes the coset forward
//                      of C, so C's coefficients (its inverse transform) are
//                      subtracted after the last transform instead of C being
//                      taken to the coset and back:
//                        coset-iNTT(A_g·B_g − C_g) = coset-iNTT(A_g·B_g) − iNTT(c).
//                      Exact in the field: the same bits as the 7-transform
//                      order for any a, b, c. The element-wise steps ride on
//                      the transforms' passes: k on C's 1/n, A_g·B_g on the
//                      last transform's first load, k·g^-i/n and − k·C on its
//                      last store; then one permutation pass to natural order.
// d_b and d_c are consumed (left holding intermediate values). arrived[i],
// where not null, is waited for before polynomial i is first read (so that
// uploads overlap the transforms before them). `workspace` as ntt().
enum class HOutput { kCosetEvaluations, kCoefficients };
struct HStepSpec {
  int lg_n = 0;
  ff::RootConvention convention = ff::RootConvention::kBellperson;
  ff::Fr shift;  // g (non-zero)
  ff::Fr k;
  HOutput output = HOutput::kCoefficients;
};
Status h_step(ff::Fr* d_a, ff::Fr* d_b, ff::Fr* d_c, const HStepSpec& spec, const cudaEvent_t arrived[3],
              void* d_workspace, size_t* workspace_bytes, cudaStream_t stream);
// The two provers' H steps at n = 2^lg_n (lg_n in [0, kMaxLgN]):
//   bellperson: coefficients of H, read back from the coset g = the field's
//               generator (7), k = (g^n − 1)^-1, bellperson's roots;
//   snarkjs:    (A·B − C) on the odd coset ω(2n)·ω(n)^j, k = 1, snarkjs' roots.
HStepSpec bellperson_h_step(int lg_n);
HStepSpec snarkjs_h_step(int lg_n);

}  // namespace cuzk::ntt::cuda
