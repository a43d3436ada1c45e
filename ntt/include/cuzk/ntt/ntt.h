// Number-theoretic transforms over Fr on the CPU, in place.
//
// Definitions (docs/formats.md §1), n = domain.size(), ω = domain.omega():
//   forward:        out[i] = Σ_j in[j]·ω^(ij)
//   inverse:        out[i] = n^-1 · Σ_j in[j]·ω^(-ij)
//   coset_forward:  in[i] *= g^i, then forward      (evaluations at g·ω^j)
//   coset_inverse:  inverse, then out[i] *= g^-i    (coefficients from g·ω^j)
// "Coefficient i" and "evaluation j" are the mathematical indices; Order
// says where they sit in memory. A forward with kNaturalToBitReversed
// followed by an inverse with kBitReversedToNatural (or the reverse) needs no
// permutation pass: that is how the prover chains them.
//
// Threads: every function splits its work over `pool` (null means
// cuzk::default_thread_pool()) and returns when it is done. Calls on
// different spans may run concurrently with the same Domain. Called from
// inside a ThreadPool task, the work runs on the calling thread only.
//
// Cost: n/2·lg_n butterflies (one multiplication each, fewer where the
// twiddle is 1), plus 2n multiplications for the four-step twiddles when
// lg_n > kDirectMaxLg (which also absorb the inverse's 1/n), plus 2n for a
// coset's power scaling; natural -> natural adds one permutation pass.
// Memory: one scratch column block (<= 512 KiB) per worker task.
#pragma once

#include <cstdint>
#include <span>

#include "cuzk/base/status.h"
#include "cuzk/base/thread_pool.h"
#include "cuzk/ff/fr.h"
#include "cuzk/ntt/domain.h"

namespace cuzk::ntt {

enum class Order {
  kNaturalToNatural,      // index i at position i on both sides
  kNaturalToBitReversed,  // output index i at position bitrev(i)  (DIF, no permutation)
  kBitReversedToNatural,  // input index i at position bitrev(i)   (DIT, no permutation)
};

// REQUIRES for all four: data.size() == domain.size(), else INVALID_ARGUMENT
// (data untouched).
Status forward(const Domain& domain, std::span<ff::Fr> data, Order order = Order::kNaturalToNatural,
               ThreadPool* pool = nullptr);
Status inverse(const Domain& domain, std::span<ff::Fr> data, Order order = Order::kNaturalToNatural,
               ThreadPool* pool = nullptr);
// g is the coset shift: 7 (fr_generator(kBellperson)) for bellperson keys,
// root_of_unity(lg_n + 1, kSnarkjs) for snarkjs keys. g = 0 is rejected for
// coset_inverse (INVALID_ARGUMENT): it has no inverse.
Status coset_forward(const Domain& domain, std::span<ff::Fr> data, const ff::Fr& g,
                     Order order = Order::kNaturalToNatural, ThreadPool* pool = nullptr);
Status coset_inverse(const Domain& domain, std::span<ff::Fr> data, const ff::Fr& g,
                     Order order = Order::kNaturalToNatural, ThreadPool* pool = nullptr);

// data[i] *= g^i for i < data.size() (any length). Each chunk starts from
// g^begin (one pow) and then multiplies by g: ~2 multiplications per element.
void scale_by_powers(std::span<ff::Fr> data, const ff::Fr& g, ThreadPool* pool = nullptr);
// data[i] *= c·g^i: scale_by_powers with the constant c folded in (free).
void scale_by_powers(std::span<ff::Fr> data, const ff::Fr& c, const ff::Fr& g, ThreadPool* pool = nullptr);

// data[p] *= g^bitrev(p): scale_by_powers for data held in bit-reversed order.
// 2 multiplications per element; two tables of ~sqrt(n) powers.
// REQUIRES: data.size() is a power of two, else INVALID_ARGUMENT.
Status scale_by_powers_bit_reversed(std::span<ff::Fr> data, const ff::Fr& g, ThreadPool* pool = nullptr);

// Swaps data[i] and data[bitrev(i)] for all i (lg = log2 of the size), in
// cache-sized tiles. REQUIRES: data.size() is a power of two (1 included),
// else INVALID_ARGUMENT.
Status bit_reverse_permute(std::span<ff::Fr> data, ThreadPool* pool = nullptr);

// The low `bits` bits of x in reverse order. REQUIRES: 0 <= bits <= 64 and x < 2^bits.
inline uint64_t bit_reverse(uint64_t x, int bits) {
  x = ((x >> 1) & 0x5555555555555555ull) | ((x & 0x5555555555555555ull) << 1);
  x = ((x >> 2) & 0x3333333333333333ull) | ((x & 0x3333333333333333ull) << 2);
  x = ((x >> 4) & 0x0f0f0f0f0f0f0f0full) | ((x & 0x0f0f0f0f0f0f0f0full) << 4);
  x = __builtin_bswap64(x);
  return bits == 0 ? 0 : x >> (64 - bits);
}

}  // namespace cuzk::ntt
