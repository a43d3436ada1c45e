#include "cuzk/ec/json_codec.h"

namespace cuzk::ec {

namespace {

StatusOr<ff::Fp> parse_fp(const std::string& s, const std::string& where, const char* name) {
  auto v = ff::Fp::from_decimal(s);
  if (!v.ok()) return invalid_argument(where + name + ": " + v.status().message());
  return v;
}

StatusOr<ff::Fp2> parse_fp2(std::span<const std::string> s, const std::string& where, const std::string& name) {
  if (s.size() != 2)
    return invalid_argument(where + name + ": expected 2 entries (c0, c1), got " + std::to_string(s.size()));
  ff::Fp2 out;
  ASSIGN_OR_RETURN(out.c0, parse_fp(s[0], where, (name + ".c0").c_str()));
  ASSIGN_OR_RETURN(out.c1, parse_fp(s[1], where, (name + ".c1").c_str()));
  return out;
}

// The shared tail: z is one (affine point, checked) or zero (only with the
// infinity form x = 0, y = 1).
template <class C>
StatusOr<Affine<C>> finish(const Affine<C>& p, const typename C::Field& z, const std::string& where,
                           SubgroupCheck check) {
  using F = typename C::Field;
  if (z.is_zero()) {
    if (p.x.is_zero() && p.y == F::one()) return Affine<C>::identity();
    return invalid_argument(where + "z is zero but (x, y) is not the infinity form (0, 1)");
  }
  if (z != F::one()) return invalid_argument(where + "z must be one (affine point) or zero (infinity)");
  // (0, 0) is not a curve point (b != 0); it only stands for infinity in memory.
  if (p.is_infinity() || !p.is_on_curve()) return invalid_argument(where + "(x, y) is not on the curve");
  if (check == SubgroupCheck::kCheck && !in_subgroup(p))
    return invalid_argument(where + "point is not in the prime-order subgroup");
  return p;
}

std::array<std::string, 2> fp2_strings(const ff::Fp2& v) { return {v.c0.to_decimal(), v.c1.to_decimal()}; }

}  // namespace

G1JsonStrings g1_to_json_strings(const G1Affine& p) {
  if (p.is_infinity()) return {"0", "1", "0"};
  return {p.x.to_decimal(), p.y.to_decimal(), "1"};
}

G2JsonStrings g2_to_json_strings(const G2Affine& p) {
  if (p.is_infinity()) return {{{"0", "0"}, {"1", "0"}, {"0", "0"}}};
  return {fp2_strings(p.x), fp2_strings(p.y), {"1", "0"}};
}

StatusOr<G1Affine> g1_from_json_strings(std::span<const std::string> v, SubgroupCheck check) {
  const std::string where = "G1 JSON point: ";
  if (v.size() != 3) return invalid_argument(where + "expected 3 entries (x, y, z), got " + std::to_string(v.size()));
  G1Affine p;
  ASSIGN_OR_RETURN(p.x, parse_fp(v[0], where, "x"));
  ASSIGN_OR_RETURN(p.y, parse_fp(v[1], where, "y"));
  ASSIGN_OR_RETURN(ff::Fp z, parse_fp(v[2], where, "z"));
  return finish<G1Curve>(p, z, where, check);
}

StatusOr<G2Affine> g2_from_json_strings(std::span<const std::vector<std::string>> v, SubgroupCheck check) {
  const std::string where = "G2 JSON point: ";
  if (v.size() != 3) return invalid_argument(where + "expected 3 entries (x, y, z), got " + std::to_string(v.size()));
  G2Affine p;
  ASSIGN_OR_RETURN(p.x, parse_fp2(v[0], where, "x"));
  ASSIGN_OR_RETURN(p.y, parse_fp2(v[1], where, "y"));
  ASSIGN_OR_RETURN(ff::Fp2 z, parse_fp2(v[2], where, "z"));
  return finish<G2Curve>(p, z, where, check);
}

StatusOr<G2Affine> g2_from_json_strings(const G2JsonStrings& v, SubgroupCheck check) {
  std::vector<std::vector<std::string>> vv;
  for (const auto& pair : v) vv.emplace_back(pair.begin(), pair.end());
  return g2_from_json_strings(std::span<const std::vector<std::string>>(vv), check);
}

}  // namespace cuzk::ec
