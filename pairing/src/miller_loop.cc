// Miller loop of the optimal ate pairing on the M-twist E'(Fp2): y^2 = x^3 + b'
// with b' = 4ξ, ξ = u + 1.
//
// The untwisting map sends (x, y) on E' to (x/w^2, y/w^3) on E(Fp12). A line
// through points of E' with slope λ, evaluated at P = (xP, yP) and multiplied
// by w^3, is (λ·x_T - y_T) - λ·xP·v + yP·v·w: only the Fp12 coefficients at
// positions 0, 1 and 4 are non-zero (Fp12::mul_by_014). The factor w^3 and
// every Fp2 factor lie in proper subfields and vanish in the final
// exponentiation, which lets the steps below use homogeneous projective
// coordinates (x = X/Z, y = Y/Z) on E' without any inversion.
#include <cassert>

#include "cuzk/ff/params.h"
#include "cuzk/pairing/pairing.h"

namespace cuzk::pairing {

namespace {

using ff::Fp;
using ff::Fp2;

struct G2Homogeneous {
  Fp2 x, y, z;
};

Fp2 half(const Fp2& a) { return {a.c0.half(), a.c1.half()}; }

// 3b' = 12ξ; times a: 12·ξ·a with additions only.
Fp2 mul_by_3b(const Fp2& a) {
  Fp2 t = a.mul_by_nonresidue().dbl().dbl();  // 4ξa
  return t + t.dbl();
}

// T <- 2T and the tangent line at T, scaled by -2YZ:
//   A = XY/2, B = Y^2, C = Z^2, E = 3b'C, F = 3E, G = (B + F)/2,
//   H = (Y + Z)^2 - B - C = 2YZ, J = X^2;
//   X' = A(B - F), Y' = G^2 - 3E^2, Z' = B·H;
//   line = (E - B) + 3J·xP·v - H·yP·v·w.
// Cost: 3M + 6S (plus multiplications by constants).
LineCoeffs doubling_step(G2Homogeneous& t) {
  Fp2 a = half(t.x * t.y);
  Fp2 b = t.y.square();
  Fp2 c = t.z.square();
  Fp2 e = mul_by_3b(c);
  Fp2 f = e + e.dbl();
  Fp2 g = half(b + f);
  Fp2 h = (t.y + t.z).square() - b - c;
  Fp2 j = t.x.square();
  Fp2 e2 = e.square();
  t.x = a * (b - f);
  t.y = g.square() - (e2 + e2.dbl());
  t.z = b * h;
  return {e - b, j + j.dbl(), -h};
}

// T <- T + Q (Q affine) and the line through T and Q, scaled by
// λ = X - xQ·Z:  θ = Y - yQ·Z, C = θ^2, D = λ^2, E = λ·D, F = Z·C, G = X·D,
//   H = E + F - 2G;  X' = λH, Y' = θ(G - H) - E·Y, Z' = Z·E;
//   line = (θ·xQ - λ·yQ) - θ·xP·v + λ·yP·v·w.
// Cost: 11M + 2S.
LineCoeffs addition_step(G2Homogeneous& t, const ec::G2Affine& q) {
  Fp2 theta = t.y - q.y * t.z;
  Fp2 lambda = t.x - q.x * t.z;
  Fp2 c = theta.square();
  Fp2 d = lambda.square();
  Fp2 e = lambda * d;
  Fp2 f = t.z * c;
  Fp2 g = t.x * d;
  Fp2 h = e + f - g.dbl();
  t.x = lambda * h;
  t.y = theta * (g - h) - e * t.y;
  t.z = t.z * e;
  return {theta * q.x - lambda * q.y, -theta, lambda};
}

// f·line(P): 4 Fp multiplications to evaluate, 13 Fp2 M to multiply.
void ell(Gt& f, const LineCoeffs& l, const ec::G1Affine& p) {
  f = f.mul_by_014(l.c0, l.c1 * p.x, l.c4 * p.y);
}

constexpr uint64_t kLoopParam = ff::kBlsX;
constexpr int kLoopTopBit = 63 - __builtin_clzll(kLoopParam);

bool skip(const ec::G1Affine& p, const ec::G2Affine& q) { return p.is_infinity() || q.is_infinity(); }

}  // namespace

G2Prepared::G2Prepared(const ec::G2Affine& q) {
  if (q.is_infinity()) return;
  lines_.reserve(size_t(kLoopTopBit + __builtin_popcountll(kLoopParam)));
  G2Homogeneous t{q.x, q.y, Fp2::one()};
  for (int i = kLoopTopBit - 1; i >= 0; --i) {
    lines_.push_back(doubling_step(t));
    if ((kLoopParam >> i) & 1) lines_.push_back(addition_step(t, q));
  }
}

// One shared accumulator for all pairs: each bit costs one Fp12 squaring
// (skipped while f = 1) plus one sparse product per line.
Gt multi_miller_loop(std::span<const std::pair<ec::G1Affine, ec::G2Affine>> pairs) {
  std::vector<size_t> live;
  std::vector<G2Homogeneous> ts;
  for (size_t k = 0; k < pairs.size(); ++k) {
    if (skip(pairs[k].first, pairs[k].second)) continue;
    live.push_back(k);
    ts.push_back({pairs[k].second.x, pairs[k].second.y, Fp2::one()});
  }
  Gt f = Gt::one();
  for (int i = kLoopTopBit - 1; i >= 0; --i) {
    if (i != kLoopTopBit - 1) f = f.square();
    for (size_t j = 0; j < live.size(); ++j) ell(f, doubling_step(ts[j]), pairs[live[j]].first);
    if (!((kLoopParam >> i) & 1)) continue;
    for (size_t j = 0; j < live.size(); ++j) {
      const auto& [p, q] = pairs[live[j]];
      ell(f, addition_step(ts[j], q), p);
    }
  }
  return ff::kBlsXIsNegative ? f.conjugate() : f;
}

Gt multi_miller_loop(std::span<const std::pair<ec::G1Affine, const G2Prepared*>> pairs) {
  std::vector<size_t> live;
  for (size_t k = 0; k < pairs.size(); ++k) {
    assert(pairs[k].second != nullptr);
    if (!pairs[k].first.is_infinity() && !pairs[k].second->is_infinity()) live.push_back(k);
  }
  Gt f = Gt::one();
  size_t line = 0;
  for (int i = kLoopTopBit - 1; i >= 0; --i) {
    if (i != kLoopTopBit - 1) f = f.square();
    for (size_t k : live) ell(f, pairs[k].second->lines()[line], pairs[k].first);
    ++line;
    if (!((kLoopParam >> i) & 1)) continue;
    for (size_t k : live) ell(f, pairs[k].second->lines()[line], pairs[k].first);
    ++line;
  }
  return ff::kBlsXIsNegative ? f.conjugate() : f;
}

Gt pairing(const ec::G1Affine& p, const ec::G2Affine& q) {
  const std::pair<ec::G1Affine, ec::G2Affine> one_pair[1] = {{p, q}};
  return final_exponentiation(multi_miller_loop(one_pair));
}

bool pairing_product_is_one(std::span<const std::pair<ec::G1Affine, ec::G2Affine>> pairs) {
  return final_exponentiation(multi_miller_loop(pairs)).is_one();
}

bool pairing_product_is_one(std::span<const std::pair<ec::G1Affine, const G2Prepared*>> pairs) {
  return final_exponentiation(multi_miller_loop(pairs)).is_one();
}

}  // namespace cuzk::pairing
