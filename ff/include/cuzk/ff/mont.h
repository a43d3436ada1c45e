// MontField<P>: a prime field in Montgomery form over P::kLimbs 64-bit limbs.
// Fp = MontField<FpParams>, Fr = MontField<FrParams> (fp.h, fr.h).
//
// Representation: value·R mod p, R = 2^(64·N), limbs little-endian — the same
// bytes as blst vec384/vec256 and zkcrypto on a little-endian machine.
// Both BLS12-381 moduli leave the top bit of the top limb free, which lets the
// multiplication skip the extra carry word (the "no-carry" CIOS variant).
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/base/status.h"
#include "cuzk/ff/bigint.h"
#ifdef CUZK_FF_X86_CARRY
#include "cuzk/ff/mont_mul_adx.h"
#endif

namespace cuzk::ff {

template <class P>
class MontField {
 public:
  static constexpr int kLimbs = P::kLimbs;
  static constexpr int kBits = P::kBits;
  static constexpr size_t kBytes = size_t(kLimbs) * 8;
  using Repr = Limbs<kLimbs>;

  static constexpr Repr kModulus = to_limbs<kLimbs>(P::kModulus);
  static_assert(P::kModulus[kLimbs - 1] < 0x7ffffffffffffffeull, "no-carry multiplication needs a spare top bit");

  constexpr MontField() : v_{} {}

  static constexpr MontField zero() { return MontField(); }
  static constexpr MontField one() { return from_mont(to_limbs<kLimbs>(P::kR)); }
  static MontField from_uint(uint64_t v) {
    Repr r{};
    r[0] = v;
    return from_canonical_unchecked(r);
  }
  // The field element with Montgomery limbs m (m < p assumed).
  static constexpr MontField from_mont(const Repr& m) {
    MontField f;
    f.v_ = m;
    return f;
  }
  // The field element whose integer value is c. Returns false (out untouched) if c >= p.
  static bool from_canonical(const Repr& c, MontField* out) {
    if (limbs_geq<kLimbs>(c, kModulus)) return false;
    *out = from_canonical_unchecked(c);
    return true;
  }
  // REQUIRES: c < p.
  static MontField from_canonical_unchecked(const Repr& c) {
    return from_mont(c) * from_mont(to_limbs<kLimbs>(P::kR2));
  }
  // Reduces an arbitrary N-limb integer modulo p.
  static MontField from_limbs_reduce(Repr c) {
    while (limbs_geq<kLimbs>(c, kModulus)) limbs_sub<kLimbs>(c, kModulus);
    return from_canonical_unchecked(c);
  }

  const Repr& mont() const { return v_; }
  Repr canonical() const {
    Repr one{};
    one[0] = 1;
    return mont_mul(v_, one);
  }

  bool is_zero() const { return limbs_is_zero<kLimbs>(v_); }
  bool is_one() const { return v_ == one().v_; }
  friend bool operator==(const MontField& a, const MontField& b) { return a.v_ == b.v_; }
  friend bool operator!=(const MontField& a, const MontField& b) { return a.v_ != b.v_; }

  friend MontField operator+(const MontField& a, const MontField& b) {
    MontField r = a;
    limbs_add<kLimbs>(r.v_, b.v_);  // no overflow: a, b < p < 2^(64N-2)
    r.reduce_once();
    return r;
  }
  // Without a branch on the borrow (a coin flip for random operands): the
  // modulus is masked in. Cost: 2N limb additions.
  friend MontField operator-(const MontField& a, const MontField& b) {
    MontField r = a;
    const uint64_t mask = uint64_t(0) - limbs_sub<kLimbs>(r.v_, b.v_);
    Repr pm;
    for (int i = 0; i < kLimbs; ++i) pm[i] = kModulus[i] & mask;
    limbs_add<kLimbs>(r.v_, pm);
    return r;
  }
  MontField operator-() const {
    if (is_zero()) return *this;
    MontField r = from_mont(kModulus);
    limbs_sub<kLimbs>(r.v_, v_);
    return r;
  }
  friend MontField operator*(const MontField& a, const MontField& b) { return from_mont(mont_mul(a.v_, b.v_)); }
  MontField& operator+=(const MontField& b) { return *this = *this + b; }
  MontField& operator-=(const MontField& b) { return *this = *this - b; }
  MontField& operator*=(const MontField& b) { return *this = *this * b; }

  MontField dbl() const { return *this + *this; }
  MontField square() const { return *this * *this; }
  MontField sqr() const { return square(); }  // the name the shared curve formulas use (ec/formulas.h)
  // Halving: x/2 mod p.
  MontField half() const {
    MontField r = *this;
    uint64_t carry = 0;
    if (r.v_[0] & 1) carry = limbs_add<kLimbs>(r.v_, kModulus);
    r.v_ = limbs_shr1<kLimbs>(r.v_);
    r.v_[kLimbs - 1] |= carry << 63;
    return r;
  }

  // x^e for an exponent given as little-endian limbs (any width).
  template <size_t M>
  MontField pow(const std::array<uint64_t, M>& e) const {
    MontField r = one();
    for (int i = int(M) * 64 - 1; i >= 0; --i) {
      r = r.square();
      if ((e[size_t(i) / 64] >> (i % 64)) & 1) r *= *this;
    }
    return r;
  }
  MontField pow(uint64_t e) const { return pow(std::array<uint64_t, 1>{e}); }

  // Multiplicative inverse by Fermat (x^(p-2)); inverse of zero is zero. ~N·64 squarings.
  MontField inverse() const { return pow(limbs_sub_small<kLimbs>(kModulus, 2)); }

  // Inverts every non-zero element in place with one inversion and 3(n-1)
  // multiplications (Montgomery's trick). Zeros stay zero.
  static void batch_inverse(std::span<MontField> xs) {
    std::vector<MontField> prefix(xs.size());
    MontField acc = one();
    for (size_t i = 0; i < xs.size(); ++i) {
      prefix[i] = acc;
      if (!xs[i].is_zero()) acc *= xs[i];
    }
    MontField inv = acc.inverse();
    for (size_t i = xs.size(); i-- > 0;) {
      if (xs[i].is_zero()) continue;
      MontField t = inv * prefix[i];
      inv *= xs[i];
      xs[i] = t;
    }
  }

  // Legendre symbol: 0 for zero, 1 for a non-zero square, -1 otherwise.
  int legendre() const {
    MontField t = pow(limbs_shr1<kLimbs>(limbs_sub_small<kLimbs>(kModulus, 1)));
    if (t.is_zero()) return 0;
    return t.is_one() ? 1 : -1;
  }

  // Square root (Tonelli–Shanks; for p = 3 mod 4 it is one exponentiation).
  // Returns false when x is not a square. Which of the two roots is returned
  // is unspecified.
  bool sqrt(MontField* out) const;

  // Uniform in [0, p): rejection sampling over kBits-bit integers.
  template <class Rng>
  static MontField random(Rng& rng) {
    for (;;) {
      Repr c;
      for (auto& l : c) l = uint64_t(rng());
      constexpr int top_bits = kBits - 64 * (kLimbs - 1);
      c[kLimbs - 1] &= (top_bits == 64) ? ~uint64_t(0) : ((uint64_t(1) << top_bits) - 1);
      MontField f;
      if (from_canonical(c, &f)) return f;
    }
  }

  // Canonical value, kBytes bytes.
  void to_bytes_be(uint8_t* out) const;
  void to_bytes_le(uint8_t* out) const;
  // Rejects wrong length and values >= p.
  static StatusOr<MontField> from_bytes_be(std::span<const uint8_t> in);
  static StatusOr<MontField> from_bytes_le(std::span<const uint8_t> in);
  // Decimal of the canonical value; parsing accepts only digits (no sign), < p.
  std::string to_decimal() const;
  static StatusOr<MontField> from_decimal(std::string_view s);
  // Lower-case hex of the canonical value, big-endian, 2·kBytes digits, no prefix.
  std::string to_hex() const;

  // Montgomery product a·b·R^-1 mod p. On x86-64 with ADX, the 6- and 4-limb
  // fields (Fp, Fr) use the mulx/adcx/adox kernels (mont_mul_adx.h);
  // everything else the portable form below.
  static constexpr Repr mont_mul(const Repr& a, const Repr& b) {
#ifdef CUZK_FF_X86_CARRY
    if constexpr (kLimbs == 6 || kLimbs == 4) {
      if (!std::is_constant_evaluated() && detail::cpu_has_adx()) {
        Repr t;
        if constexpr (kLimbs == 6) {
          detail::mont_mul_6_adx(a.data(), b.data(), kModulus.data(), &P::kInv, t.data());
        } else {
          static_assert(P::kModulus[3] < (uint64_t(1) << 63), "the 4-limb kernel needs r < 2^255");
          detail::mont_mul_4_adx(a.data(), b.data(), kModulus.data(), &P::kInv, t.data());
        }
        if (limbs_geq<kLimbs>(t, kModulus)) limbs_sub<kLimbs>(t, kModulus);
        return t;
      }
    }
#endif
    return mont_mul_portable(a, b);
  }

  // Montgomery product a·b·R^-1 mod p (CIOS, no-carry variant).
  // Cost: 2N^2 + N 64x64 multiplications.
  static constexpr Repr mont_mul_portable(const Repr& a, const Repr& b) {
    Repr t{};
#pragma GCC unroll 8
    for (int i = 0; i < kLimbs; ++i) {
      uint64_t carry_a = 0;
      t[0] = mac(t[0], a[0], b[i], carry_a);
      uint64_t m = t[0] * P::kInv;
      uint64_t carry_m = 0;
      mac(t[0], m, kModulus[0], carry_m);
#pragma GCC unroll 8
      for (int j = 1; j < kLimbs; ++j) {
        t[j] = mac(t[j], a[j], b[i], carry_a);
        t[j - 1] = mac(t[j], m, kModulus[j], carry_m);
      }
      t[kLimbs - 1] = carry_a + carry_m;
    }
    if (limbs_geq<kLimbs>(t, kModulus)) limbs_sub<kLimbs>(t, kModulus);
    return t;
  }

 private:
  void reduce_once() {
    if (limbs_geq<kLimbs>(v_, kModulus)) limbs_sub<kLimbs>(v_, kModulus);
  }
  static StatusOr<MontField> from_repr_checked(const Repr& c, const char* what);

  Repr v_;
};

}  // namespace cuzk::ff

#include "cuzk/ff/mont_impl.h"
