// Field vectors from @noble/curves: Fp, Fr and Fp2 operations on random and
// edge-case values, plus the Fr roots of unity of both domain conventions.
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { parseArgs, makeRng, hex, writeJson } from './common.mjs';

const { Fp, Fr, Fp2 } = bls12_381.fields;
const args = parseArgs(process.argv);
const rng = makeRng(args.seed);

function primeCases(F, bytes, count) {
  const p = F.ORDER;
  const values = [0n, 1n, p - 1n, 2n, (p - 1n) / 2n];
  for (let i = 0; i < count; i++) values.push(rng.below(p));
  const out = [];
  for (let i = 0; i < values.length; i++) {
    const a = values[i], b = values[(i * 7 + 3) % values.length];
    const e = rng.next64();
    const leg = F.pow(a, (p - 1n) / 2n);
    const sq = F.sqr(a);
    out.push({
      a: hex(a, bytes), b: hex(b, bytes), e: e.toString(),
      add: hex(F.add(a, b), bytes), sub: hex(F.sub(a, b), bytes), mul: hex(F.mul(a, b), bytes),
      sqr: hex(sq, bytes), neg: hex(F.neg(a), bytes),
      inv: hex(a === 0n ? 0n : F.inv(a), bytes), pow: hex(F.pow(a, e), bytes),
      legendre: a === 0n ? 0 : (leg === 1n ? 1 : -1),
      sqrt_of_sqr: hex(F.sqrt(sq), bytes), decimal: a.toString(),
    });
  }
  return out;
}

function fp2Cases(count) {
  const p = Fp.ORDER;
  const out = [];
  for (let i = 0; i < count; i++) {
    const a = Fp2.create({ c0: rng.below(p), c1: rng.below(p) });
    const b = Fp2.create({ c0: rng.below(p), c1: i === 0 ? 0n : rng.below(p) });
    const h = (x) => [hex(x.c0, 48), hex(x.c1, 48)];
    const sq = Fp2.sqr(a);
    out.push({
      a: h(a), b: h(b), add: h(Fp2.add(a, b)), sub: h(Fp2.sub(a, b)), mul: h(Fp2.mul(a, b)),
      sqr: h(sq), inv: h(Fp2.inv(a)), frob: h(Fp2.frobeniusMap(a, 1)),
      mul_nonresidue: h(Fp2.mulByNonresidue(a)), sqrt_of_sqr: h(Fp2.sqrt(sq)),
    });
  }
  return out;
}

function roots() {
  const r = Fr.ORDER;
  let t = r - 1n;
  while (t % 2n === 0n) t /= 2n;
  const out = [];
  for (const [name, g] of [['bellperson', 7n], ['snarkjs', 5n]]) {
    let w = Fr.pow(g, t);  // order 2^32
    const table = [];
    for (let k = 32; k >= 0; k--) {
      table[k] = w;
      w = Fr.sqr(w);
    }
    out.push({ convention: name, roots: table.map((x) => hex(x, 32)) });
  }
  return out;
}

writeJson(args.out, {
  seed: args.seed.toString(),
  fp: primeCases(Fp, 48, 40),
  fr: primeCases(Fr, 32, 40),
  fp2: fp2Cases(30),
  roots: roots(),
});
