#include "cuzk/ec/json_codec.h"

#include <algorithm>

namespace cuzk::ec {

namespace {

int hex_digit(char ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
  return -1;
}

// "0x" and hex digits, big-endian, into a canonical field element.
template <class F>
StatusOr<F> field_from_hex(std::string_view digits) {
  if (digits.empty()) return invalid_argument("hex field element: no digits after 0x");
  for (size_t pos = 0; pos < digits.size(); ++pos) {
    if (hex_digit(digits[pos]) < 0)
      return invalid_argument("hex field element: unexpected character '" + std::string(1, digits[pos]) +
                              "' at position " + std::to_string(pos + 2));
  }
  digits.remove_prefix(std::min(digits.find_first_not_of('0'), digits.size()));
  if (digits.size() > 2 * F::kBytes) return invalid_argument("hex field element: value is not below the field modulus");
  uint8_t be[F::kBytes] = {};
  // Digit k from the right is the low or high nibble of byte kBytes - 1 - k/2.
  for (size_t k = 0; k < digits.size(); ++k) {
    const int d = hex_digit(digits[digits.size() - 1 - k]);
    be[F::kBytes - 1 - k / 2] |= uint8_t(k % 2 == 0 ? d : d << 4);
  }
  auto v = F::from_bytes_be(std::span<const uint8_t>(be, F::kBytes));
  if (!v.ok()) return invalid_argument("hex field element: value is not below the field modulus");
  return v;
}

template <class F>
StatusOr<F> field_from_json_string(std::string_view s) {
  if (s.starts_with("0x")) return field_from_hex<F>(s.substr(2));
  return F::from_decimal(s);
}

StatusOr<ff::Fp> parse_fp(const std::string& s, const std::string& where, const char* name) {
  auto v = fp_from_json_string(s);
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

StatusOr<ff::Fp> fp_from_json_string(std::string_view s) { return field_from_json_string<ff::Fp>(s); }
StatusOr<ff::Fr> fr_from_json_string(std::string_view s) { return field_from_json_string<ff::Fr>(s); }

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
  if (v.size() != 3 && v.size() != 2)
    return invalid_argument(where + "expected 3 entries (x, y, z), got " + std::to_string(v.size()));
  G1Affine p;
  ASSIGN_OR_RETURN(p.x, parse_fp(v[0], where, "x"));
  ASSIGN_OR_RETURN(p.y, parse_fp(v[1], where, "y"));
  ff::Fp z = ff::Fp::one();  // [x, y]: snarkjs takes z as one
  if (v.size() == 3) {
    ASSIGN_OR_RETURN(z, parse_fp(v[2], where, "z"));
  }
  return finish<G1Curve>(p, z, where, check);
}

StatusOr<G2Affine> g2_from_json_strings(std::span<const std::vector<std::string>> v, SubgroupCheck check) {
  const std::string where = "G2 JSON point: ";
  if (v.size() != 3 && v.size() != 2)
    return invalid_argument(where + "expected 3 entries (x, y, z), got " + std::to_string(v.size()));
  G2Affine p;
  ASSIGN_OR_RETURN(p.x, parse_fp2(v[0], where, "x"));
  ASSIGN_OR_RETURN(p.y, parse_fp2(v[1], where, "y"));
  ff::Fp2 z = ff::Fp2::one();  // [x, y]: snarkjs takes z as one
  if (v.size() == 3) {
    ASSIGN_OR_RETURN(z, parse_fp2(v[2], where, "z"));
  }
  return finish<G2Curve>(p, z, where, check);
}

StatusOr<G2Affine> g2_from_json_strings(const G2JsonStrings& v, SubgroupCheck check) {
  std::vector<std::vector<std::string>> vv;
  for (const auto& pair : v) vv.emplace_back(pair.begin(), pair.end());
  return g2_from_json_strings(std::span<const std::vector<std::string>>(vv), check);
}

}  // namespace cuzk::ec
