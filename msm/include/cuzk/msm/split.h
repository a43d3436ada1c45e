// The 0/1 split of the witness MSMs (docs/design.md, "The job a proof does"):
// aux scalars are mostly 0 or 1, so the bases whose scalar is 1 are summed by
// a batch addition driven by a bitmap, zeros are dropped, and only the rest
// (the "tail") goes through Pippenger.
//
// Bitmaps are u64 words, bit i of the set at word i / 64, bit i % 64.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/ec/curves.h"
#include "cuzk/ff/bigint.h"
#include "cuzk/ff/fr.h"
#include "cuzk/msm/msm.h"

namespace cuzk::msm {

struct SplitScalars {
  size_t size = 0;              // number of scalars classified
  std::vector<uint64_t> ones;   // ⌈size/64⌉ words: bit i set iff scalar i == 1
  size_t ones_count = 0;
  size_t zeros_count = 0;
  // Positions (ascending) of the scalars that are neither 0 nor 1, and their
  // canonical values: tail_scalars[j] is the scalar at tail_positions[j].
  std::vector<uint32_t> tail_positions;
  std::vector<ff::Limbs<4>> tail_scalars;
};

// Classifies Montgomery-form scalars, in parallel. REQUIRES: scalars.size() < 2^32.
SplitScalars classify(std::span<const ff::Fr> scalars, const MsmOptions& options = {});

// Σ bases[i] over the i < bases.size() whose bit is set, by batch-affine
// additions (one inversion per group of additions), in parallel.
// REQUIRES: bitmap.size() >= ⌈bases.size()/64⌉; bits at positions >= bases.size() are ignored.
template <class C>
ec::Jacobian<C> batch_add(std::span<const ec::Affine<C>> bases, std::span<const uint64_t> bitmap,
                          const MsmOptions& options = {});

// batch_add of the ones + Pippenger over the tail; equals msm(bases, scalars).
// REQUIRES: bases.size() == split.size (asserted).
template <class C>
ec::Jacobian<C> split_msm(std::span<const ec::Affine<C>> bases, const SplitScalars& split,
                          const MsmOptions& options = {});

// classify() then split_msm(). REQUIRES: bases.size() == scalars.size() (asserted).
template <class C>
ec::Jacobian<C> split_msm(std::span<const ec::Affine<C>> bases, std::span<const ff::Fr> scalars,
                          const MsmOptions& options = {});

// The scalars of the variables selected by a density bitmap, in order:
// out[j] = scalars[i_j] where i_0 < i_1 < ... are the set bits below
// bit_count, so the j-th point of a density-filtered query (A, B) pairs with
// out[j]. REQUIRES: bit_count <= scalars.size(), density_words.size() >= ⌈bit_count/64⌉.
std::vector<ff::Fr> gather_by_density(std::span<const ff::Fr> scalars, std::span<const uint64_t> density_words,
                                      size_t bit_count);

// Number of set bits below bit_count.
size_t count_density(std::span<const uint64_t> density_words, size_t bit_count);

extern template ec::Jacobian<ec::G1Curve> batch_add(std::span<const ec::G1Affine>, std::span<const uint64_t>,
                                                    const MsmOptions&);
extern template ec::Jacobian<ec::G2Curve> batch_add(std::span<const ec::G2Affine>, std::span<const uint64_t>,
                                                    const MsmOptions&);
extern template ec::Jacobian<ec::G1Curve> split_msm(std::span<const ec::G1Affine>, const SplitScalars&,
                                                    const MsmOptions&);
extern template ec::Jacobian<ec::G2Curve> split_msm(std::span<const ec::G2Affine>, const SplitScalars&,
                                                    const MsmOptions&);
extern template ec::Jacobian<ec::G1Curve> split_msm(std::span<const ec::G1Affine>, std::span<const ff::Fr>,
                                                    const MsmOptions&);
extern template ec::Jacobian<ec::G2Curve> split_msm(std::span<const ec::G2Affine>, std::span<const ff::Fr>,
                                                    const MsmOptions&);

}  // namespace cuzk::msm
