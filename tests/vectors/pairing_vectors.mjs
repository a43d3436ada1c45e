// Pairing and tower vectors from @noble/curves: e(a·G1, b·G2) for random a, b,
// a multi-pairing product, and Fp6/Fp12 arithmetic (mul, square, inverse,
// conjugate, Frobenius maps, cyclotomic squaring, final exponentiation).
//
// Every Fp is canonical big-endian hex (96 digits). An Fp2 is [c0, c1]; an Fp6
// is the 6 Fp of c0.c0, c0.c1, c1.c0, c1.c1, c2.c0, c2.c1; an Fp12 is the 12 Fp
// of c0.c0.c0, c0.c0.c1, c0.c1.c0, c0.c1.c1, c0.c2.c0, c0.c2.c1, c1.c0.c0, ...,
// c1.c2.c1 (c0 before c1 at every level; Fp12 = Fp6[w]/(w^2 - v),
// Fp6 = Fp2[v]/(v^3 - (u + 1)), Fp2 = Fp[u]/(u^2 + 1)).
// Points are affine: G1 {x, y}, G2 {x: Fp2, y: Fp2}. Scalars are decimal.
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { parseArgs, makeRng, hex, writeJson } from './common.mjs';

const { Fp, Fp2, Fp6, Fp12 } = bls12_381.fields;
const r = bls12_381.fields.Fr.ORDER;
const G1 = bls12_381.G1.Point, G2 = bls12_381.G2.Point;
const args = parseArgs(process.argv);
const rng = makeRng(args.seed);

const h = (x) => hex(x, 48);
const h2 = (x) => [h(x.c0), h(x.c1)];
const h6 = (x) => [...h2(x.c0), ...h2(x.c1), ...h2(x.c2)];
const h12 = (x) => [...h6(x.c0), ...h6(x.c1)];
const g1 = (P) => { const a = P.toAffine(); return { x: h(a.x), y: h(a.y) }; };
const g2 = (Q) => { const a = Q.toAffine(); return { x: h2(a.x), y: h2(a.y) }; };

const randFp2 = () => Fp2.create({ c0: rng.below(Fp.ORDER), c1: rng.below(Fp.ORDER) });
const randFp6 = () => Fp6.create({ c0: randFp2(), c1: randFp2(), c2: randFp2() });
const randFp12 = () => Fp12.create({ c0: randFp6(), c1: randFp6() });
const scalar = () => 1n + rng.below(r - 1n);  // non-zero: noble rejects infinity

function pairingCases(count) {
  const out = [];
  for (let i = 0; i < count; i++) {
    const a = i === 0 ? 1n : scalar(), b = i === 0 ? 1n : scalar();
    const P = G1.BASE.multiply(a), Q = G2.BASE.multiply(b);
    out.push({ a: a.toString(), b: b.toString(), p: g1(P), q: g2(Q), e: h12(bls12_381.pairing(P, Q)) });
  }
  return out;
}

// Π e(P_i, Q_i) for three random pairs (noble's batch: one final exponentiation).
function productCase() {
  const pairs = [];
  for (let i = 0; i < 3; i++) pairs.push({ g1: G1.BASE.multiply(scalar()), g2: G2.BASE.multiply(scalar()) });
  return { pairs: pairs.map((x) => ({ p: g1(x.g1), q: g2(x.g2) })), e: h12(bls12_381.pairingBatch(pairs)) };
}

function fp6Cases(count) {
  const out = [];
  for (let i = 0; i < count; i++) {
    const a = randFp6(), b = randFp6();
    out.push({
      a: h6(a), b: h6(b), mul: h6(Fp6.mul(a, b)), sqr: h6(Fp6.sqr(a)), inv: h6(Fp6.inv(a)),
      frob1: h6(Fp6.frobeniusMap(a, 1)), frob2: h6(Fp6.frobeniusMap(a, 2)), frob3: h6(Fp6.frobeniusMap(a, 3)),
    });
  }
  return out;
}

function fp12Cases(count) {
  const out = [];
  for (let i = 0; i < count; i++) {
    const a = randFp12(), b = randFp12();
    // a^((p^6 - 1)(p^2 + 1)) lies in the cyclotomic subgroup.
    const t = Fp12.div(Fp12.conjugate(a), a);
    const cyc = Fp12.mul(Fp12.frobeniusMap(t, 2), t);
    const frob = {};
    for (const k of i === 0 ? [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] : [1, 2, 3, 6]) frob[k] = h12(Fp12.frobeniusMap(a, k));
    out.push({
      a: h12(a), b: h12(b), mul: h12(Fp12.mul(a, b)), sqr: h12(Fp12.sqr(a)), inv: h12(Fp12.inv(a)),
      conj: h12(Fp12.conjugate(a)), frob, cyc: h12(cyc), cyc_sqr: h12(Fp12._cyclotomicSquare(cyc)),
      final_exp: h12(Fp12.finalExponentiate(a)),
    });
  }
  return out;
}

writeJson(args.out, {
  seed: args.seed.toString(),
  pairings: pairingCases(6),
  product: productCase(),
  fp6: fp6Cases(4),
  fp12: fp12Cases(5),
});
