#include "cuzk/ec/zcash_codec.h"

#include <algorithm>
#include <string>

namespace cuzk::ec {

namespace {

constexpr uint8_t kCompressedFlag = 0x80;
constexpr uint8_t kInfinityFlag = 0x40;
constexpr uint8_t kSortFlag = 0x20;
constexpr uint8_t kFlagMask = 0xe0;

// (p − 1)/2 as limbs.
constexpr ff::Limbs<6> kHalfModulus = ff::limbs_shr1<6>(ff::limbs_sub_small<6>(ff::Fp::kModulus, 1));

// Canonical big-endian value at in (48 bytes) into an Fp; false when >= p.
bool read_fp_be(const uint8_t* in, ff::Fp* out) {
  ff::Limbs<6> c{};
  for (int i = 0; i < 6; ++i) c[size_t(i)] = load_u64be(in + 40 - 8 * i);
  return ff::Fp::from_canonical(c, out);
}

Status coordinate_error(const char* curve, const char* name) {
  return invalid_argument(std::string(curve) + " ZCash point: " + name + " is not below the field modulus");
}

// Per-curve field encoding: Fp is 48 bytes; Fp2 is c1 then c0.
template <class C>
struct FieldCodec;

template <>
struct FieldCodec<G1Curve> {
  static constexpr size_t kBytes = 48;
  static void write(const ff::Fp& v, uint8_t* out) { v.to_bytes_be(out); }
  static Status read(const uint8_t* in, const char* name, ff::Fp* out) {
    if (!read_fp_be(in, out)) return coordinate_error("G1", name);
    return ok_status();
  }
};

template <>
struct FieldCodec<G2Curve> {
  static constexpr size_t kBytes = 96;
  static void write(const ff::Fp2& v, uint8_t* out) {
    v.c1.to_bytes_be(out);
    v.c0.to_bytes_be(out + 48);
  }
  static Status read(const uint8_t* in, const char* name, ff::Fp2* out) {
    std::string n(name);
    if (!read_fp_be(in, &out->c1)) return coordinate_error("G2", (n + ".c1").c_str());
    if (!read_fp_be(in + 48, &out->c0)) return coordinate_error("G2", (n + ".c0").c_str());
    return ok_status();
  }
};

template <class C, size_t N>
std::array<uint8_t, N> encode(const Affine<C>& p, bool compressed) {
  using Codec = FieldCodec<C>;
  std::array<uint8_t, N> out{};
  if (p.is_infinity()) {
    out[0] = kInfinityFlag | (compressed ? kCompressedFlag : 0);
    return out;
  }
  Codec::write(p.x, out.data());
  if (compressed) {
    out[0] |= kCompressedFlag | (zcash_sort_flag(p.y) ? kSortFlag : 0);
  } else {
    Codec::write(p.y, out.data() + Codec::kBytes);
  }
  return out;
}

// Checks the length and the flag bits; sets *infinity when the encoding is the
// (well-formed) point at infinity.
template <class C>
Status check_flags(ByteSpan in, bool* infinity) {
  constexpr size_t kFb = FieldCodec<C>::kBytes;
  const std::string where = std::string(C::kName) + " ZCash point: ";
  if (in.size() != kFb && in.size() != 2 * kFb)
    return invalid_argument(where + "expected " + std::to_string(kFb) + " (compressed) or " +
                            std::to_string(2 * kFb) + " (uncompressed) bytes, got " + std::to_string(in.size()));
  const bool compressed_length = in.size() == kFb;
  const uint8_t flags = in[0] & kFlagMask;
  const bool compressed = flags & kCompressedFlag;
  if (compressed && !compressed_length)
    return invalid_argument(where + "compression flag (0x80) is set on a " + std::to_string(in.size()) +
                            "-byte (uncompressed) encoding");
  if (!compressed && compressed_length)
    return invalid_argument(where + "compression flag (0x80) is clear on a " + std::to_string(in.size()) +
                            "-byte (compressed) encoding");
  const bool sort = flags & kSortFlag;
  if (sort && !compressed) return invalid_argument(where + "sort flag (0x20) is set on an uncompressed encoding");
  *infinity = flags & kInfinityFlag;
  if (*infinity) {
    if (sort) return invalid_argument(where + "sort flag (0x20) is set on the point at infinity");
    bool rest_zero = (in[0] & ~kFlagMask) == 0 && std::all_of(in.begin() + 1, in.end(), [](uint8_t b) { return b == 0; });
    if (!rest_zero) return invalid_argument(where + "infinity flag (0x40) is set but other bits are non-zero");
  }
  return ok_status();
}

template <class C>
StatusOr<Affine<C>> decode(ByteSpan in, SubgroupCheck check) {
  using Codec = FieldCodec<C>;
  bool infinity = false;
  RETURN_IF_ERROR(check_flags<C>(in, &infinity));
  if (infinity) return Affine<C>::identity();
  const std::string where = std::string(C::kName) + " ZCash point: ";
  const bool compressed = in[0] & kCompressedFlag;
  const bool sort = in[0] & kSortFlag;
  uint8_t buf[2 * Codec::kBytes];
  std::copy(in.begin(), in.end(), buf);
  buf[0] &= uint8_t(~kFlagMask);
  Affine<C> p;
  RETURN_IF_ERROR(Codec::read(buf, "x", &p.x));
  if (compressed) {
    if (!(p.x.square() * p.x + C::kB).sqrt(&p.y))
      return invalid_argument(where + "x is not the x-coordinate of a curve point (x^3 + b has no square root)");
    if (zcash_sort_flag(p.y) != sort) p.y = -p.y;
  } else {
    RETURN_IF_ERROR(Codec::read(buf + Codec::kBytes, "y", &p.y));
    // (0, 0) is not a curve point (b != 0); it only stands for infinity in memory.
    if (p.is_infinity() || !p.is_on_curve()) return invalid_argument(where + "(x, y) is not on the curve");
  }
  if (check == SubgroupCheck::kCheck && !in_subgroup(p))
    return invalid_argument(where + "point is not in the prime-order subgroup");
  return p;
}

}  // namespace

bool zcash_sort_flag(const ff::Fp& y) { return !ff::limbs_geq<6>(kHalfModulus, y.canonical()); }

bool zcash_sort_flag(const ff::Fp2& y) { return y.c1.is_zero() ? zcash_sort_flag(y.c0) : zcash_sort_flag(y.c1); }

std::array<uint8_t, kG1CompressedBytes> g1_to_zcash_compressed(const G1Affine& p) {
  return encode<G1Curve, kG1CompressedBytes>(p, true);
}
std::array<uint8_t, kG1UncompressedBytes> g1_to_zcash_uncompressed(const G1Affine& p) {
  return encode<G1Curve, kG1UncompressedBytes>(p, false);
}
std::array<uint8_t, kG2CompressedBytes> g2_to_zcash_compressed(const G2Affine& p) {
  return encode<G2Curve, kG2CompressedBytes>(p, true);
}
std::array<uint8_t, kG2UncompressedBytes> g2_to_zcash_uncompressed(const G2Affine& p) {
  return encode<G2Curve, kG2UncompressedBytes>(p, false);
}

StatusOr<G1Affine> g1_from_zcash(ByteSpan bytes, SubgroupCheck check) { return decode<G1Curve>(bytes, check); }
StatusOr<G2Affine> g2_from_zcash(ByteSpan bytes, SubgroupCheck check) { return decode<G2Curve>(bytes, check); }

}  // namespace cuzk::ec
