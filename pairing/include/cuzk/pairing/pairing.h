// The optimal ate pairing of BLS12-381, e: G1 × G2 -> Gt ⊂ Fp12.
//
// e(P, Q) = f_{x,Q}(P)^(3·(p^12 - 1)/r), x = -0xd201000000010000: a Miller
// loop over |x| with the lines of the M-twist evaluated at P (conjugated at
// the end because x < 0), then the final exponentiation. The exponent carries
// the factor 3 so that values equal those of @noble/curves and of the Rust
// BLS12-381 crates bit for bit (they all use a hard part that computes the
// cube of the "textbook" (p^12 - 1)/r pairing; 3 is prime to r, so the
// result is still bilinear and non-degenerate). Gt values from different
// conventions must not be compared directly.
//
// Inputs are affine points with infinity encoded as x = y = 0 (ec/point.h).
// REQUIRES (not checked): every point lies in its prime-order subgroup; for
// points off the subgroups the value is some element of Fp12, never a crash.
// Everything here is a pure function of its arguments and thread-safe.
#pragma once

#include <span>
#include <utility>
#include <vector>

#include "cuzk/ec/curves.h"
#include "cuzk/ff/fp12.h"

namespace cuzk::pairing {

using Gt = ff::Fp12;

// One line of the Miller loop before evaluation at P = (xP, yP): the sparse
// Fp12 element c0 + (c1·xP)·v + (c4·yP)·v·w (Fp12::mul_by_014 positions
// 0, 1, 4), up to a factor in Fp2 that the final exponentiation removes.
struct LineCoeffs {
  ff::Fp2 c0, c1, c4;
};

// The 68 lines (63 doublings + 5 additions) of the Miller loop for a fixed
// G2 point, so that repeated pairings with the same Q (a verifying key's
// β, γ, δ) skip all G2 arithmetic. Immutable after construction.
class G2Prepared {
 public:
  // Infinity gives an empty line list; pairs with it are skipped.
  explicit G2Prepared(const ec::G2Affine& q);

  bool is_infinity() const { return lines_.empty(); }
  const std::vector<LineCoeffs>& lines() const { return lines_; }

 private:
  std::vector<LineCoeffs> lines_;
};

// Π f_{x,Q_i}(P_i), conjugated for x < 0, without the final exponentiation.
// Pairs where either point is infinity are skipped; no pairs gives one.
Gt multi_miller_loop(std::span<const std::pair<ec::G1Affine, ec::G2Affine>> pairs);
// The same with precomputed G2 lines. REQUIRES: every pointer is non-null.
Gt multi_miller_loop(std::span<const std::pair<ec::G1Affine, const G2Prepared*>> pairs);

// f^(3·(p^12 - 1)/r): easy part f^((p^6 - 1)(p^2 + 1)) (one Fp12 inversion),
// then the hard part 3·(p^4 - p^2 + 1)/r = (x - 1)^2 (x + p)(x^2 + p^2 - 1) + 3
// with five exponentiations by x (cyclotomic squarings). Zero maps to zero.
Gt final_exponentiation(const Gt& f);

// e(P, Q); one if either point is infinity.
Gt pairing(const ec::G1Affine& p, const ec::G2Affine& q);

// Π e(P_i, Q_i) == 1, with one multi-Miller loop and one final exponentiation.
bool pairing_product_is_one(std::span<const std::pair<ec::G1Affine, ec::G2Affine>> pairs);
bool pairing_product_is_one(std::span<const std::pair<ec::G1Affine, const G2Prepared*>> pairs);

}  // namespace cuzk::pairing
