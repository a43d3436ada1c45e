// Final exponentiation f^(3·(p^12 - 1)/r) for BLS12-381.
//
// (p^12 - 1)/r = (p^6 - 1)(p^2 + 1) · (p^4 - p^2 + 1)/r. The easy part
// (p^6 - 1)(p^2 + 1) costs one inversion and Frobenius maps, and leaves m in
// the cyclotomic subgroup, where inversion is conjugation and squaring is the
// cheap Granger–Scott formula. For the hard part, with p and r written in x
// (p = (x - 1)^2 (x^4 - x^2 + 1)/3 + x, r = x^4 - x^2 + 1), one has the
// polynomial identity (Hayashida–Hayasaka–Teruya, 2020)
//   3·(p^4 - p^2 + 1)/r = (x - 1)^2 (x + p)(x^2 + p^2 - 1) + 3,
// so m^(3·(p^4 - p^2 + 1)/r) takes five exponentiations by x and a few
// multiplications and Frobenius maps. The factor 3 is kept on purpose: it is
// the exponent @noble/curves and the Rust crates use (pairing.h).
#include "cuzk/ff/params.h"
#include "cuzk/pairing/pairing.h"

namespace cuzk::pairing {

namespace {

// m^x for cyclotomic m: 63 cyclotomic squarings + 5 multiplications by |x|,
// then a conjugation (= inversion) because x < 0.
Gt cyclotomic_exp_by_x(const Gt& m) {
  Gt r = m.cyclotomic_pow(std::array<uint64_t, 1>{ff::kBlsX});
  return ff::kBlsXIsNegative ? r.conjugate() : r;
}

// m^((p^6 - 1)(p^2 + 1)); zero stays zero.
Gt easy_part(const Gt& f) {
  Gt t = f.conjugate() * f.inverse();  // f^(p^6 - 1)
  return t.frobenius_map(2) * t;       // t^(p^2 + 1)
}

// m^((x - 1)^2 (x + p)(x^2 + p^2 - 1) + 3) for cyclotomic m.
Gt hard_part(const Gt& m) {
  Gt t = cyclotomic_exp_by_x(m) * m.conjugate();            // m^(x - 1)
  Gt a = cyclotomic_exp_by_x(t) * t.conjugate();            // m^((x - 1)^2)
  Gt b = cyclotomic_exp_by_x(a) * a.frobenius_map(1);       // a^(x + p)
  Gt c = cyclotomic_exp_by_x(cyclotomic_exp_by_x(b));       // b^(x^2)
  c = c * b.frobenius_map(2) * b.conjugate();               // b^(x^2 + p^2 - 1)
  return c * m.cyclotomic_square() * m;                     // · m^3
}

}  // namespace

Gt final_exponentiation(const Gt& f) {
  if (f.is_zero()) return f;
  return hard_part(easy_part(f));
}

}  // namespace cuzk::pairing
