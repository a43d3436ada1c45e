#include "cuzk/ec/zkey_codec.h"

#include <string>

namespace cuzk::ec {

namespace {

constexpr size_t kFpBytes = 48;

void write_fp_lem(const ff::Fp& v, uint8_t* out) {
  for (size_t i = 0; i < 6; ++i) store_u64le(out + 8 * i, v.mont()[i]);
}

// Reads 48 little-endian Montgomery bytes; false when the value is >= p.
bool read_fp_lem(const uint8_t* in, ff::Fp* out) {
  ff::Limbs<6> m{};
  for (size_t i = 0; i < 6; ++i) m[i] = load_u64le(in + 8 * i);
  if (ff::limbs_geq<6>(m, ff::Fp::kModulus)) return false;
  *out = ff::Fp::from_mont(m);
  return true;
}

// The coordinates in file order: G1 x, y; G2 x.c0, x.c1, y.c0, y.c1.
template <class C>
struct Layout;
template <>
struct Layout<G1Curve> {
  static constexpr const char* kNames[2] = {"x", "y"};
  static ff::Fp* coord(G1Affine& p, int i) { return i == 0 ? &p.x : &p.y; }
};
template <>
struct Layout<G2Curve> {
  static constexpr const char* kNames[4] = {"x.c0", "x.c1", "y.c0", "y.c1"};
  static ff::Fp* coord(G2Affine& p, int i) {
    ff::Fp2& f = i < 2 ? p.x : p.y;
    return (i & 1) ? &f.c1 : &f.c0;
  }
};

template <class C, size_t N>
std::array<uint8_t, N> encode(Affine<C> p) {
  std::array<uint8_t, N> out{};
  if (p.is_infinity()) return out;
  for (size_t i = 0; i < N / kFpBytes; ++i) write_fp_lem(*Layout<C>::coord(p, int(i)), out.data() + kFpBytes * i);
  return out;
}

template <class C, size_t N>
StatusOr<Affine<C>> decode(ByteSpan in, SubgroupCheck check) {
  const std::string where = std::string(C::kName) + " zkey point: ";
  if (in.size() != N)
    return invalid_argument(where + "expected " + std::to_string(N) + " bytes, got " + std::to_string(in.size()));
  Affine<C> p;
  for (size_t i = 0; i < N / kFpBytes; ++i) {
    if (!read_fp_lem(in.data() + kFpBytes * i, Layout<C>::coord(p, int(i))))
      return invalid_argument(where + Layout<C>::kNames[i] + " (Montgomery form) is not below the field modulus");
  }
  if (p.is_infinity()) return p;
  if (!p.is_on_curve()) return invalid_argument(where + "(x, y) is not on the curve");
  if (check == SubgroupCheck::kCheck && !in_subgroup(p))
    return invalid_argument(where + "point is not in the prime-order subgroup");
  return p;
}

}  // namespace

std::array<uint8_t, kG1ZkeyBytes> g1_to_zkey(const G1Affine& p) { return encode<G1Curve, kG1ZkeyBytes>(p); }
std::array<uint8_t, kG2ZkeyBytes> g2_to_zkey(const G2Affine& p) { return encode<G2Curve, kG2ZkeyBytes>(p); }

StatusOr<G1Affine> g1_from_zkey(ByteSpan bytes, SubgroupCheck check) {
  return decode<G1Curve, kG1ZkeyBytes>(bytes, check);
}
StatusOr<G2Affine> g2_from_zkey(ByteSpan bytes, SubgroupCheck check) {
  return decode<G2Curve, kG2ZkeyBytes>(bytes, check);
}

}  // namespace cuzk::ec
