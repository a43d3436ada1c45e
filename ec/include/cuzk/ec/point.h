// Points of a short Weierstrass curve y^2 = x^3 + b (a = 0) in three forms,
// written once as templates over a curve-parameter struct C (params.h):
//   C::Field  the coordinate field (ff::Fp for G1, ff::Fp2 for G2)
//   C::kB     the constant b;  C::kGenX, C::kGenY  the generator.
//
// Layouts are fixed (device code mirrors them and MSM copies them as bytes):
//   Affine<C>   = {x, y}             infinity: x = y = 0 (as blst/sppark)
//   Jacobian<C> = {x, y, z}          (x/z^2, y/z^3);            infinity: z = 0
//   Xyzz<C>     = {x, y, zz, zzz}    (x/zz, y/zzz), zz^3 = zzz^2; infinity: zz = 0
//
// The addition and doubling formulas are ec/formulas.h, the one text the
// device code (ec/cuda/point.cuh) uses too; costs count field
// multiplications M and squarings S. Nothing here is constant time.
#pragma once

#include "cuzk/ec/formulas.h"

namespace cuzk::ec {

template <class C>
struct Affine {
  using Curve = C;
  using Field = typename C::Field;
  Field x, y;

  static constexpr Affine identity() { return Affine{}; }
  static constexpr Affine generator() { return Affine{C::kGenX, C::kGenY}; }
  bool is_infinity() const { return x.is_zero() && y.is_zero(); }
  // y^2 = x^3 + b, or the point at infinity. Cost: 1M + 2S.
  bool is_on_curve() const { return is_infinity() || y.square() == x.square() * x + C::kB; }
  Affine operator-() const { return is_infinity() ? *this : Affine{x, -y}; }
  friend bool operator==(const Affine& a, const Affine& b) { return a.x == b.x && a.y == b.y; }
};

template <class C>
struct Jacobian {
  using Curve = C;
  using Field = typename C::Field;
  Field x, y, z;

  static constexpr Jacobian identity() { return Jacobian{Field::one(), Field::one(), Field::zero()}; }
  static constexpr Jacobian generator() { return Jacobian{C::kGenX, C::kGenY, Field::one()}; }
  static Jacobian from_affine(const Affine<C>& a) {
    return a.is_infinity() ? identity() : Jacobian{a.x, a.y, Field::one()};
  }
  bool is_infinity() const { return z.is_zero(); }
  // Y^2 = X^3 + b·Z^6. Cost: 2M + 4S.
  bool is_on_curve() const {
    if (is_infinity()) return true;
    Field z2 = z.square();
    Field z6 = z2.square() * z2;
    return y.square() == x.square() * x + C::kB * z6;
  }
  Jacobian operator-() const { return Jacobian{x, -y, z}; }

  // dbl-2009-l: 2M + 5S.
  Jacobian dbl() const { return formulas::jacobian_dbl(*this); }

  // add-2007-bl: 11M + 5S. Handles infinity operands, P + P and P + (−P).
  friend Jacobian operator+(const Jacobian& p, const Jacobian& q) { return formulas::jacobian_add(p, q); }

  // madd-2007-bl (second operand affine, Z2 = 1): 7M + 4S. Handles infinity,
  // P + P and P + (−P).
  friend Jacobian operator+(const Jacobian& p, const Affine<C>& q) { return formulas::jacobian_add_affine(p, q); }
  friend Jacobian operator+(const Affine<C>& q, const Jacobian& p) { return p + q; }
  friend Jacobian operator-(const Jacobian& p, const Jacobian& q) { return p + (-q); }
  friend Jacobian operator-(const Jacobian& p, const Affine<C>& q) { return p + (-q); }
  Jacobian& operator+=(const Jacobian& q) { return *this = *this + q; }
  Jacobian& operator+=(const Affine<C>& q) { return *this = *this + q; }
  Jacobian& operator-=(const Jacobian& q) { return *this = *this - q; }
  Jacobian& operator-=(const Affine<C>& q) { return *this = *this - q; }

  // Same point: X1·Z2^2 = X2·Z1^2 and Y1·Z2^3 = Y2·Z1^3. Cost: 6M + 2S.
  friend bool operator==(const Jacobian& p, const Jacobian& q) {
    if (p.is_infinity() || q.is_infinity()) return p.is_infinity() == q.is_infinity();
    Field z1z1 = p.z.square(), z2z2 = q.z.square();
    return p.x * z2z2 == q.x * z1z1 && p.y * z2z2 * q.z == q.y * z1z1 * p.z;
  }
  // Same point as an affine one: X = x·Z^2 and Y = y·Z^3. Cost: 3M + 1S.
  friend bool operator==(const Jacobian& p, const Affine<C>& q) {
    if (p.is_infinity() || q.is_infinity()) return p.is_infinity() == q.is_infinity();
    Field zz = p.z.square();
    return p.x == q.x * zz && p.y == q.y * zz * p.z;
  }

  // One inversion: 1I + 3M + 1S.
  Affine<C> to_affine() const {
    if (is_infinity()) return Affine<C>::identity();
    Field zi = z.inverse();
    Field zi2 = zi.square();
    return Affine<C>{x * zi2, y * zi2 * zi};
  }
};

template <class C>
struct Xyzz {
  using Curve = C;
  using Field = typename C::Field;
  Field x, y, zz, zzz;

  static constexpr Xyzz identity() { return Xyzz{Field::one(), Field::one(), Field::zero(), Field::zero()}; }
  static Xyzz from_affine(const Affine<C>& a) {
    return a.is_infinity() ? identity() : Xyzz{a.x, a.y, Field::one(), Field::one()};
  }
  // (X, Y, Z) -> (X, Y, Z^2, Z^3): 1M + 1S.
  static Xyzz from_jacobian(const Jacobian<C>& j) {
    if (j.is_infinity()) return identity();
    Field z2 = j.z.square();
    return Xyzz{j.x, j.y, z2, z2 * j.z};
  }
  bool is_infinity() const { return zz.is_zero(); }
  Xyzz operator-() const { return Xyzz{x, -y, zz, zzz}; }

  // mdbl-2008-s-1 (doubling of an affine point, the P + P case of the mixed
  // addition): 4M + 3S.
  static Xyzz dbl_affine(const Affine<C>& a) { return formulas::xyzz_dbl_affine<Xyzz>(a); }

  // dbl-2008-s-1: 6M + 3S.
  Xyzz dbl() const { return formulas::xyzz_dbl(*this); }

  // madd-2008-s: 8M + 2S. Handles infinity operands, P + P (doubling) and
  // P + (−P) (infinity).
  Xyzz& operator+=(const Affine<C>& q) {
    formulas::xyzz_add_affine(*this, q);
    return *this;
  }
  Xyzz& operator-=(const Affine<C>& q) { return *this += -q; }

  // add-2008-s: 12M + 2S. Handles infinity operands, P + P and P + (−P).
  friend Xyzz operator+(const Xyzz& a, const Xyzz& b) { return formulas::xyzz_add(a, b); }
  Xyzz& operator+=(const Xyzz& b) { return *this = *this + b; }

  // Same point: X1·ZZ2 = X2·ZZ1 and Y1·ZZZ2 = Y2·ZZZ1. Cost: 4M.
  friend bool operator==(const Xyzz& a, const Xyzz& b) {
    if (a.is_infinity() || b.is_infinity()) return a.is_infinity() == b.is_infinity();
    return a.x * b.zz == b.x * a.zz && a.y * b.zzz == b.y * a.zzz;
  }
  // Same point as an affine one: X = x·ZZ and Y = y·ZZZ. Cost: 2M.
  friend bool operator==(const Xyzz& a, const Affine<C>& b) {
    if (a.is_infinity() || b.is_infinity()) return a.is_infinity() == b.is_infinity();
    return a.x == b.x * a.zz && a.y == b.y * a.zzz;
  }
  // Cost: 2M (conversion) + 6M + 2S.
  friend bool operator==(const Xyzz& a, const Jacobian<C>& b) { return a.to_jacobian() == b; }

  // (X, Y, ZZ, ZZZ) -> (X·ZZ, Y·ZZZ, ZZ): with Z = ZZ, X/Z^2 = X/ZZ and
  // Y·ZZZ/Z^3 = Y·ZZZ/ZZZ^2 = Y/ZZZ (uses ZZ^3 = ZZZ^2). Cost: 2M.
  Jacobian<C> to_jacobian() const {
    if (is_infinity()) return Jacobian<C>::identity();
    return Jacobian<C>{x * zz, y * zzz, zz};
  }
  // One inversion of ZZZ; 1/ZZ = (ZZ/ZZZ)^2. Cost: 1I + 3M + 1S.
  Affine<C> to_affine() const {
    if (is_infinity()) return Affine<C>::identity();
    Field izzz = zzz.inverse();
    Field izz = (zz * izzz).square();
    return Affine<C>{x * izz, y * izzz};
  }
};

}  // namespace cuzk::ec
