// BLS12-381 G1 and G2: point types, generators, endomorphisms, subgroup checks,
// cofactor clearing and random points for tests.
#pragma once

#include <type_traits>

#include "cuzk/base/status.h"
#include "cuzk/ec/batch.h"
#include "cuzk/ec/params.h"
#include "cuzk/ec/point.h"
#include "cuzk/ec/scalar_mul.h"
#include "cuzk/ff/fr.h"

namespace cuzk::ec {

using G1Affine = Affine<G1Curve>;
using G1Jacobian = Jacobian<G1Curve>;
using G1Xyzz = Xyzz<G1Curve>;
using G2Affine = Affine<G2Curve>;
using G2Jacobian = Jacobian<G2Curve>;
using G2Xyzz = Xyzz<G2Curve>;

// The blst affine layout: the same bytes as blst_p1_affine / blst_p2_affine.
static_assert(sizeof(G1Affine) == 96 && sizeof(G2Affine) == 192);
static_assert(sizeof(G1Jacobian) == 144 && sizeof(G1Xyzz) == 192);
static_assert(std::is_standard_layout_v<G1Affine> && std::is_trivially_copyable_v<G1Affine>);
static_assert(std::is_standard_layout_v<G2Affine> && std::is_trivially_copyable_v<G2Affine>);

constexpr G1Affine g1_generator() { return G1Affine::generator(); }
constexpr G2Affine g2_generator() { return G2Affine::generator(); }

// φ(x, y) = (β·x, y): on G1 it is multiplication by −x². Cost: 1M.
G1Affine g1_phi(const G1Affine& p);
// ψ = untwist ∘ Frobenius ∘ twist on E'(Fp2); on G2 it is multiplication by x.
// Cost: 2 Fp2 multiplications in either form (a Jacobian Z is only conjugated).
G2Affine g2_psi(const G2Affine& p);
G2Jacobian g2_psi(const G2Jacobian& p);
// ψ²(x, y) = (x·ω, −y) with ω ∈ Fp a cube root of unity. Cost: 2 Fp multiplications.
G2Jacobian g2_psi2(const G2Jacobian& p);

// Prime-order subgroup membership. REQUIRES: p on the curve (the result is
// meaningless otherwise). The point at infinity is in the subgroup.
//   G1: φ(P) = [−x²]P  (Scott, "A note on group membership tests for G1, G2
//       and GT on BLS pairing-friendly curves", 2021): two multiplications by
//       |x|, ~126 doublings + 10 additions.
//   G2: ψ(P) = [x]P (same note): one multiplication by |x| + ψ, ~63 doublings
//       + 5 additions.
bool in_subgroup(const G1Affine& p);
bool in_subgroup(const G2Affine& p);
// The definition, [r]P = O; ~4x slower than the endomorphism tests. For tests.
template <class C>
bool in_subgroup_slow(const Affine<C>& p) {
  return mul(p, std::span<const uint64_t>(kGroupOrder)).is_infinity();
}

// Cofactor clearing with the effective cofactors of RFC 9380 (what hash-to-curve
// implementations such as @noble/curves compute), mapping any curve point into
// the subgroup:
//   G1: [1 − x]P                                   (~63 doublings + 6 additions)
//   G2: [x² − x − 1]P + [x − 1]ψ(P) + ψ²(2P)       (Budroni–Pintore; ~126 doublings)
G1Jacobian clear_cofactor(const G1Jacobian& p);
G2Jacobian clear_cofactor(const G2Jacobian& p);

// Whether to test membership in the prime-order subgroup when decoding or
// validating points. Skip only for trusted inputs (our own files); the
// on-curve check is always made.
enum class SubgroupCheck { kCheck, kSkip };

// OK when p is the point at infinity or on the curve (and, with kCheck, in the
// subgroup); otherwise INVALID_ARGUMENT naming the failed check. Coordinates
// are assumed reduced (< p), which every constructor of Fp guarantees.
Status validate(const G1Affine& p, SubgroupCheck check = SubgroupCheck::kCheck);
Status validate(const G2Affine& p, SubgroupCheck check = SubgroupCheck::kCheck);

// Random subgroup points: the generator times a uniformly random Fr.
template <class Rng>
G1Affine random_g1(Rng& rng) {
  return mul(g1_generator(), ff::Fr::random(rng)).to_affine();
}
template <class Rng>
G2Affine random_g2(Rng& rng) {
  return mul(g2_generator(), ff::Fr::random(rng)).to_affine();
}

// A random point of the whole curve E(F) (random x with x^3 + b a square,
// random sign of y), not cofactor-cleared: outside the subgroup with
// overwhelming probability. For tests of the subgroup checks.
template <class C, class Rng>
Affine<C> random_curve_point(Rng& rng) {
  using F = typename C::Field;
  for (;;) {
    F x = F::random(rng);
    F y;
    if (!(x.square() * x + C::kB).sqrt(&y)) continue;
    if (rng() & 1) y = -y;
    return Affine<C>{x, y};
  }
}

}  // namespace cuzk::ec
