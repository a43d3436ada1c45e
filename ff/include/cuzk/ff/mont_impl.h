// Out-of-line parts of MontField (conversions, square root). Included by mont.h.
#pragma once

#include <algorithm>

namespace cuzk::ff {

template <class P>
bool MontField<P>::sqrt(MontField* out) const {
  if (is_zero()) {
    *out = zero();
    return true;
  }
  // p - 1 = 2^s · t with t odd.
  constexpr int s = P::kTwoAdicity;
  Repr t = limbs_sub_small<kLimbs>(kModulus, 1);
  for (int i = 0; i < s; ++i) t = limbs_shr1<kLimbs>(t);
  // Tonelli–Shanks: x = a^((t+1)/2), b = a^t, z = c^t for a non-residue c.
  MontField z = from_uint(P::kNonResidue).pow(t);
  MontField w = pow(limbs_shr1<kLimbs>(limbs_sub_small<kLimbs>(t, 1)));  // a^((t-1)/2)
  MontField x = *this * w;
  MontField b = x * w;
  int m = s;
  while (!b.is_one()) {
    int k = 0;
    MontField b2k = b;
    while (!b2k.is_one()) {
      b2k = b2k.square();
      ++k;
      if (k == m) return false;  // not a square
    }
    MontField w2 = z;
    for (int i = 0; i < m - k - 1; ++i) w2 = w2.square();
    z = w2.square();
    b *= z;
    x *= w2;
    m = k;
  }
  if (x.square() != *this) return false;
  *out = x;
  return true;
}

template <class P>
void MontField<P>::to_bytes_le(uint8_t* out) const {
  Repr c = canonical();
  for (int i = 0; i < kLimbs; ++i)
    for (int j = 0; j < 8; ++j) out[8 * i + j] = uint8_t(c[i] >> (8 * j));
}

template <class P>
void MontField<P>::to_bytes_be(uint8_t* out) const {
  to_bytes_le(out);
  std::reverse(out, out + kBytes);
}

template <class P>
StatusOr<MontField<P>> MontField<P>::from_repr_checked(const Repr& c, const char* what) {
  MontField f;
  if (!from_canonical(c, &f))
    return invalid_argument(std::string(what) + ": value is not below the field modulus");
  return f;
}

template <class P>
StatusOr<MontField<P>> MontField<P>::from_bytes_le(std::span<const uint8_t> in) {
  if (in.size() != kBytes)
    return invalid_argument("field element: expected " + std::to_string(kBytes) + " bytes, got " +
                            std::to_string(in.size()));
  Repr c{};
  for (int i = 0; i < kLimbs; ++i)
    for (int j = 0; j < 8; ++j) c[i] |= uint64_t(in[8 * i + j]) << (8 * j);
  return from_repr_checked(c, "field element");
}

template <class P>
StatusOr<MontField<P>> MontField<P>::from_bytes_be(std::span<const uint8_t> in) {
  if (in.size() != kBytes)
    return invalid_argument("field element: expected " + std::to_string(kBytes) + " bytes, got " +
                            std::to_string(in.size()));
  uint8_t le[kBytes];
  std::reverse_copy(in.begin(), in.end(), le);
  return from_bytes_le(std::span<const uint8_t>(le, kBytes));
}

template <class P>
std::string MontField<P>::to_decimal() const {
  Repr c = canonical();
  if (limbs_is_zero<kLimbs>(c)) return "0";
  std::string digits;
  while (!limbs_is_zero<kLimbs>(c)) {
    // Divide by 10^19, collecting the remainder.
    constexpr uint64_t kChunk = 10000000000000000000ull;
    u128 rem = 0;
    for (int i = kLimbs - 1; i >= 0; --i) {
      u128 cur = (rem << 64) | c[i];
      c[i] = uint64_t(cur / kChunk);
      rem = cur % kChunk;
    }
    uint64_t r = uint64_t(rem);
    for (int k = 0; k < 19; ++k) {
      digits.push_back(char('0' + r % 10));
      r /= 10;
    }
  }
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  std::reverse(digits.begin(), digits.end());
  return digits;
}

template <class P>
StatusOr<MontField<P>> MontField<P>::from_decimal(std::string_view s) {
  if (s.empty()) return invalid_argument("decimal field element: empty string");
  Repr c{};
  for (size_t pos = 0; pos < s.size(); ++pos) {
    char ch = s[pos];
    if (ch < '0' || ch > '9')
      return invalid_argument("decimal field element: unexpected character '" + std::string(1, ch) +
                              "' at position " + std::to_string(pos));
    uint64_t carry = uint64_t(ch - '0');
    for (int i = 0; i < kLimbs; ++i) c[i] = mac(0, c[i], 10, carry);
    if (carry) return invalid_argument("decimal field element: value is not below the field modulus");
  }
  return from_repr_checked(c, "decimal field element");
}

template <class P>
std::string MontField<P>::to_hex() const {
  uint8_t be[kBytes];
  to_bytes_be(be);
  static const char* kDigits = "0123456789abcdef";
  std::string s;
  for (uint8_t b : be) {
    s += kDigits[b >> 4];
    s += kDigits[b & 15];
  }
  return s;
}

}  // namespace cuzk::ff
