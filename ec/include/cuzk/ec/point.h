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
// Formulas follow the Explicit-Formulas Database names (a = 0); costs count
// field multiplications M and squarings S (additions are not counted).
// Nothing here is constant time.
#pragma once

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
  Jacobian dbl() const {
    if (is_infinity()) return *this;
    Field a = x.square();
    Field b = y.square();
    Field c = b.square();
    Field d = ((x + b).square() - a - c).dbl();
    Field e = a.dbl() + a;
    Field f = e.square();
    Jacobian r;
    r.x = f - d.dbl();
    r.y = e * (d - r.x) - c.dbl().dbl().dbl();
    r.z = (y * z).dbl();
    return r;
  }

  // add-2007-bl: 11M + 5S. Handles infinity operands, P + P and P + (−P).
  friend Jacobian operator+(const Jacobian& p, const Jacobian& q) {
    if (p.is_infinity()) return q;
    if (q.is_infinity()) return p;
    Field z1z1 = p.z.square();
    Field z2z2 = q.z.square();
    Field u1 = p.x * z2z2;
    Field u2 = q.x * z1z1;
    Field s1 = p.y * q.z * z2z2;
    Field s2 = q.y * p.z * z1z1;
    Field h = u2 - u1;
    Field rr = (s2 - s1).dbl();
    if (h.is_zero()) return rr.is_zero() ? p.dbl() : identity();
    Field i = h.dbl().square();
    Field j = h * i;
    Field v = u1 * i;
    Jacobian r;
    r.x = rr.square() - j - v.dbl();
    r.y = rr * (v - r.x) - (s1 * j).dbl();
    r.z = ((p.z + q.z).square() - z1z1 - z2z2) * h;
    return r;
  }

  // madd-2007-bl (second operand affine, Z2 = 1): 7M + 4S. Handles infinity,
  // P + P and P + (−P).
  friend Jacobian operator+(const Jacobian& p, const Affine<C>& q) {
    if (q.is_infinity()) return p;
    if (p.is_infinity()) return from_affine(q);
    Field z1z1 = p.z.square();
    Field u2 = q.x * z1z1;
    Field s2 = q.y * p.z * z1z1;
    Field h = u2 - p.x;
    Field rr = (s2 - p.y).dbl();
    if (h.is_zero()) return rr.is_zero() ? p.dbl() : identity();
    Field hh = h.square();
    Field i = hh.dbl().dbl();
    Field j = h * i;
    Field v = p.x * i;
    Jacobian r;
    r.x = rr.square() - j - v.dbl();
    r.y = rr * (v - r.x) - (p.y * j).dbl();
    r.z = (p.z + h).square() - z1z1 - hh;
    return r;
  }
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
  static Xyzz dbl_affine(const Affine<C>& a) {
    if (a.is_infinity()) return identity();
    Field u = a.y.dbl();
    Field v = u.square();
    Field w = u * v;
    Field s = a.x * v;
    Field xx = a.x.square();
    Field m = xx.dbl() + xx;
    Xyzz r;
    r.x = m.square() - s.dbl();
    r.y = m * (s - r.x) - w * a.y;
    r.zz = v;
    r.zzz = w;
    return r;
  }

  // dbl-2008-s-1: 6M + 3S.
  Xyzz dbl() const {
    if (is_infinity()) return *this;
    Field u = y.dbl();
    Field v = u.square();
    Field w = u * v;
    Field s = x * v;
    Field xx = x.square();
    Field m = xx.dbl() + xx;
    Xyzz r;
    r.x = m.square() - s.dbl();
    r.y = m * (s - r.x) - w * y;
    r.zz = v * zz;
    r.zzz = w * zzz;
    return r;
  }

  // madd-2008-s: 8M + 2S. Handles infinity operands, P + P (doubling) and
  // P + (−P) (infinity).
  Xyzz& operator+=(const Affine<C>& q) {
    if (q.is_infinity()) return *this;
    if (is_infinity()) return *this = from_affine(q);
    Field u2 = q.x * zz;
    Field s2 = q.y * zzz;
    Field p = u2 - x;
    Field r = s2 - y;
    if (p.is_zero()) return *this = r.is_zero() ? dbl_affine(q) : identity();
    Field pp = p.square();
    Field ppp = p * pp;
    Field qq = x * pp;
    Field x3 = r.square() - ppp - qq.dbl();
    y = r * (qq - x3) - y * ppp;
    x = x3;
    zz *= pp;
    zzz *= ppp;
    return *this;
  }
  Xyzz& operator-=(const Affine<C>& q) { return *this += -q; }

  // add-2008-s: 12M + 2S. Handles infinity operands, P + P and P + (−P).
  friend Xyzz operator+(const Xyzz& a, const Xyzz& b) {
    if (a.is_infinity()) return b;
    if (b.is_infinity()) return a;
    Field u1 = a.x * b.zz;
    Field u2 = b.x * a.zz;
    Field s1 = a.y * b.zzz;
    Field s2 = b.y * a.zzz;
    Field p = u2 - u1;
    Field r = s2 - s1;
    if (p.is_zero()) return r.is_zero() ? a.dbl() : identity();
    Field pp = p.square();
    Field ppp = p * pp;
    Field qq = u1 * pp;
    Xyzz out;
    out.x = r.square() - ppp - qq.dbl();
    out.y = r * (qq - out.x) - s1 * ppp;
    out.zz = a.zz * b.zz * pp;
    out.zzz = a.zzz * b.zzz * ppp;
    return out;
  }
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
