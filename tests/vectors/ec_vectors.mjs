// Curve vectors from @noble/curves for G1 and G2: multiples k·G (random k and
// 0, 1, 2, r−1, r, and raw 256-bit k >= r, for which the result is (k mod r)·G),
// sums P+Q, P+P, P−P, P+O, O+P, multiples of random points, on-curve points
// outside the prime-order subgroup (with noble's cofactor clearing), and invalid
// ZCash encodings labelled with the reason they are invalid.
//
// A point is {infinity, x, y, compressed, uncompressed, lem}: x and y decimal
// (G2: [c0, c1]; "0" for infinity), compressed/uncompressed the ZCash hex
// (noble's own encoder for subgroup points), lem the snarkjs zkey bytes
// (little-endian Montgomery, c0 first, all zeros for infinity).
//
// Usage: node tests/vectors/ec_vectors.mjs --seed N --out FILE.json
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { parseArgs, makeRng, hex, writeJson } from './common.mjs';

const { Fp, Fp2, Fr } = bls12_381.fields;
const p = Fp.ORDER;
const r = Fr.ORDER;
const args = parseArgs(process.argv);
const rng = makeRng(args.seed);

// ---- encodings written here (used for points noble refuses to encode) ----
const be = (v) => hex(v, 48);
const le = (v) => be(v).match(/../g).reverse().join('');
const lem = (v) => le((v << 384n) % p);
const halfP = (p - 1n) / 2n;

const CURVES = {
  g1: {
    Point: bls12_381.G1.Point, F: Fp, b: 4n, fieldBytes: 48,
    dec: (v) => v.toString(), zero: '0',
    be: (v) => be(v), lem: (v) => lem(v),
    larger: (y) => y > halfP,
    isZero: (v) => v === 0n,
  },
  g2: {
    Point: bls12_381.G2.Point, F: Fp2, b: Fp2.create({ c0: 4n, c1: 4n }), fieldBytes: 96,
    dec: (v) => [v.c0.toString(), v.c1.toString()], zero: ['0', '0'],
    be: (v) => be(v.c1) + be(v.c0), lem: (v) => lem(v.c0) + lem(v.c1),
    larger: (y) => (y.c1 === 0n ? y.c0 > halfP : y.c1 > halfP),
    isZero: (v) => v.c0 === 0n && v.c1 === 0n,
  },
};

function setFlags(hexStr, flags) {
  const first = parseInt(hexStr.slice(0, 2), 16) | flags;
  return first.toString(16).padStart(2, '0') + hexStr.slice(2);
}

function clearFlags(hexStr, flags) {
  const first = parseInt(hexStr.slice(0, 2), 16) & ~flags;
  return first.toString(16).padStart(2, '0') + hexStr.slice(2);
}

// ZCash encodings of an affine (x, y), infinity when x = y = null.
function zcashOwn(c, aff) {
  const n = c.fieldBytes;
  if (aff === null) return { compressed: setFlags('00'.repeat(n), 0xc0), uncompressed: setFlags('00'.repeat(2 * n), 0x40) };
  const xs = c.be(aff.x);
  return { compressed: setFlags(xs, 0x80 | (c.larger(aff.y) ? 0x20 : 0)), uncompressed: xs + c.be(aff.y) };
}

// Full description of a point; noble encodes it unless it is outside the subgroup.
function describe(c, P, { ownEncoding = false } = {}) {
  if (P.is0()) {
    // (A sum P + (−P) is a zero noble will not encode itself; ZERO is the same point.)
    const own = zcashOwn(c, null), Z = c.Point.ZERO;
    if (own.compressed !== Z.toHex(true) || own.uncompressed !== Z.toHex(false)) throw new Error('infinity encoding');
    return { infinity: true, x: c.zero, y: c.zero, ...own, lem: '00'.repeat(2 * c.fieldBytes) };
  }
  const aff = P.toAffine();
  const own = zcashOwn(c, aff);
  if (!ownEncoding) {
    // Cross-check the local encoder against noble's (it is then trusted for
    // the non-subgroup points that noble refuses to encode).
    if (own.compressed !== P.toHex(true) || own.uncompressed !== P.toHex(false)) throw new Error('encoder mismatch');
  }
  return { infinity: false, x: c.dec(aff.x), y: c.dec(aff.y), ...own, lem: c.lem(aff.x) + c.lem(aff.y) };
}

const randScalar = () => 1n + rng.below(r - 1n);
const mulG = (c, k) => (k % r === 0n ? c.Point.ZERO : c.Point.BASE.multiply(k % r));

function mulCases(c) {
  const ks = [0n, 1n, 2n, r - 1n, r];
  for (let i = 0; i < 4; i++) ks.push(randScalar());
  for (let i = 0; i < 2; i++) ks.push(r + rng.below((1n << 256n) - r));  // raw limbs, not reduced
  return ks.map((k) => ({ k: k.toString(), point: describe(c, mulG(c, k)) }));
}

function addCases(c) {
  const out = [];
  const push = (kind, P, Q) => out.push({ case: kind, p: describe(c, P), q: describe(c, Q), sum: describe(c, P.add(Q)) });
  for (let i = 0; i < 2; i++) push('random', mulG(c, randScalar()), mulG(c, randScalar()));
  const P = mulG(c, randScalar());
  push('double', P, P);
  push('inverse', P, P.negate());
  push('identity_right', P, c.Point.ZERO);
  push('identity_left', c.Point.ZERO, P);
  push('identity_both', c.Point.ZERO, c.Point.ZERO);
  return out;
}

function mulPointCases(c) {
  const P = mulG(c, randScalar());
  const ks = [0n, 1n, r - 1n, r, randScalar(), randScalar()];
  return ks.map((k) => ({
    p: describe(c, P), k: k.toString(), result: describe(c, k % r === 0n ? c.Point.ZERO : P.multiply(k % r)),
  }));
}

function randomField(c) {
  return c === CURVES.g1 ? rng.below(p) : Fp2.create({ c0: rng.below(p), c1: rng.below(p) });
}
const rhs = (c, x) => c.F.add(c.F.mul(c.F.sqr(x), x), c.b);
function trySqrt(c, v) {
  try { return c.F.sqrt(v); } catch { return null; }
}

// On-curve points with random x, not cofactor-cleared (outside the subgroup).
function nonSubgroupCases(c, count) {
  const out = [];
  while (out.length < count) {
    const x = randomField(c);
    let y = trySqrt(c, rhs(c, x));
    if (y === null) continue;
    if (rng.next64() & 1n) y = c.F.neg(y);
    const P = c.Point.fromAffine({ x, y });
    if (P.isTorsionFree()) continue;
    if (!c.F.eql(c.F.sqr(y), rhs(c, x))) throw new Error('sqrt');
    const d = describe(c, P, { ownEncoding: true });
    for (const h of [d.compressed, d.uncompressed]) expectRejected(c, h, 'not_in_subgroup');
    out.push({ ...d, cleared: describe(c, P.clearCofactor()) });
  }
  return out;
}

function expectRejected(c, h, reason) {
  let accepted = false;
  try { c.Point.fromHex(h); accepted = true; } catch { /* rejected, as expected */ }
  if (accepted) throw new Error(`noble accepts an encoding labelled ${reason}: ${h}`);
}

// An x in the field (canonical) with x^3 + b not a square.
function nonSquareX(c) {
  for (;;) {
    const x = randomField(c);
    if (trySqrt(c, rhs(c, x)) === null) return x;
  }
}

function invalidCases(c, nonSubgroup) {
  const n = c.fieldBytes;
  const P = mulG(c, randScalar());
  const aff = P.toAffine();
  const comp = P.toHex(true), unc = P.toHex(false);
  const pHex = be(p), maxHex = be((1n << 381n) - 1n);
  const yPlusOne = c === CURVES.g1 ? Fp.add(aff.y, 1n) : Fp2.add(aff.y, Fp2.ONE);
  const cases = [
    ['length', comp.slice(0, -2)],
    ['length', unc + '00'],
    ['length', ''],
    ['compression_flag', setFlags(unc, 0x80)],
    ['compression_flag', clearFlags(comp, 0x80)],
    ['sort_flag_uncompressed', setFlags(unc, 0x20)],
    ['sort_flag_infinity', setFlags('00'.repeat(n), 0xe0)],
    ['infinity_bits', setFlags('00'.repeat(n - 1) + '01', 0xc0)],
    ['infinity_bits', setFlags('01' + '00'.repeat(n - 1), 0xc0)],
    ['infinity_bits', setFlags('00'.repeat(2 * n - 1) + '05', 0x40)],
    ['infinity_bits', setFlags(clearFlags(comp, 0x20), 0x40)],
    ['x_range', setFlags(pHex + (n === 96 ? '00'.repeat(48) : ''), 0x80)],
    ['x_range', setFlags(maxHex + (n === 96 ? maxHex : ''), 0x80)],
    ['y_range', unc.slice(0, 2 * n) + (n === 96 ? '00'.repeat(48) + pHex : pHex)],
    ['no_sqrt', setFlags(c.be(nonSquareX(c)), 0x80)],
    ['not_on_curve', unc.slice(0, 2 * n) + c.be(yPlusOne)],
    ['not_in_subgroup', nonSubgroup.compressed],
    ['not_in_subgroup', nonSubgroup.uncompressed],
  ];
  if (n === 96) cases.push(['x_range', setFlags('00'.repeat(48) + pHex, 0x80)]);  // x.c0 = p
  for (const [reason, h] of cases) expectRejected(c, h, reason);
  return cases.map(([reason, h]) => ({ reason, hex: h }));
}

function curveVectors(c) {
  const nonSubgroup = nonSubgroupCases(c, 3);
  return {
    generator: describe(c, c.Point.BASE),
    mul: mulCases(c),
    add: addCases(c),
    mul_point: mulPointCases(c),
    non_subgroup: nonSubgroup,
    invalid: invalidCases(c, nonSubgroup[0]),
  };
}

writeJson(args.out, {
  source: '@noble/curves 2.4.0 (bls12_381.G1/G2)',
  seed: args.seed.toString(),
  g1: curveVectors(CURVES.g1),
  g2: curveVectors(CURVES.g2),
});
