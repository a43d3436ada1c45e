#include "cuzk/ec/curves.h"

#include <string>

namespace cuzk::ec {

namespace {

constexpr uint64_t kXAbs = ff::kBlsX;  // x = −kXAbs
static_assert(ff::kBlsXIsNegative, "the formulas below take x < 0");

}  // namespace

G1Affine g1_phi(const G1Affine& p) { return G1Affine{p.x * kG1Beta, p.y}; }

G2Affine g2_psi(const G2Affine& p) {
  return G2Affine{p.x.conjugate() * kG2PsiX, p.y.conjugate() * kG2PsiY};
}

// In Jacobian coordinates conj(X/Z^2)·cx = (conj(X)·cx)/conj(Z)^2, so Z is
// only conjugated.
G2Jacobian g2_psi(const G2Jacobian& p) {
  return G2Jacobian{p.x.conjugate() * kG2PsiX, p.y.conjugate() * kG2PsiY, p.z.conjugate()};
}

G2Jacobian g2_psi2(const G2Jacobian& p) { return G2Jacobian{p.x * kG2Psi2X, -p.y, p.z}; }

bool in_subgroup(const G1Affine& p) {
  if (p.is_infinity()) return true;
  // [x²]P = [|x|]([|x|]P), so φ(P) = [−x²]P  ⇔  φ(P) + [|x|]([|x|]P) = O.
  G1Jacobian xp = mul_u64(p, kXAbs);
  G1Jacobian x2p = mul_u64(xp, kXAbs);
  return x2p == -g1_phi(p);
}

bool in_subgroup(const G2Affine& p) {
  if (p.is_infinity()) return true;
  // ψ(P) = [x]P = −[|x|]P.
  G2Jacobian xp = mul_u64(p, kXAbs);
  return xp == -g2_psi(p);
}

G1Jacobian clear_cofactor(const G1Jacobian& p) {
  // [1 − x]P = P + [|x|]P.
  return p + mul_u64(p, kXAbs);
}

G2Jacobian clear_cofactor(const G2Jacobian& p) {
  // With [x]Q = −[|x|]Q:
  //   t1 = [x]P, t2 = ψ(P), t3 = ψ²(2P) − ψ(P), t2 = [x](t1 + ψ(P)) = [x²]P + [x]ψ(P)
  //   result = t3 + t2 − t1 − P = [x² − x − 1]P + [x − 1]ψ(P) + ψ²(2P).
  G2Jacobian t1 = -mul_u64(p, kXAbs);
  G2Jacobian t2 = g2_psi(p);
  G2Jacobian t3 = g2_psi2(p.dbl()) - t2;
  t2 = -mul_u64(t1 + t2, kXAbs);
  return t3 + t2 - t1 - p;
}

namespace {

template <class C>
Status validate_point(const Affine<C>& p, SubgroupCheck check) {
  if (p.is_infinity()) return ok_status();
  if (!p.is_on_curve()) return invalid_argument(std::string(C::kName) + " point: (x, y) is not on the curve");
  if (check == SubgroupCheck::kCheck && !in_subgroup(p))
    return invalid_argument(std::string(C::kName) + " point: not in the prime-order subgroup");
  return ok_status();
}

}  // namespace

Status validate(const G1Affine& p, SubgroupCheck check) { return validate_point(p, check); }
Status validate(const G2Affine& p, SubgroupCheck check) { return validate_point(p, check); }

}  // namespace cuzk::ec
