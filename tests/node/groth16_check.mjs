// An independent Groth16 check over @noble/curves, for tests that drive the
// daemon from Node: e(A,B) = e(α,β)·e(IC(x),γ)·e(C,δ), with the proof in
// cuzk's 192-byte form (A, B, C compressed, ZCash encoding) and the
// verifying key as snarkjs verification_key.json.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, '../..');
export const vectors = path.join(root, 'tests/vectors');
export const requireVectors = createRequire(path.join(vectors, 'package.json'));
const { bls12_381 } = await import(pathToFileURL(path.join(vectors, 'node_modules/@noble/curves/bls12-381.js')).href);

const { Fp2, Fp12 } = bls12_381.fields;
const G1 = bls12_381.G1.Point, G2 = bls12_381.G2.Point;
const g1 = (p) => G1.fromAffine({ x: BigInt(p[0]), y: BigInt(p[1]) });
const g2 = (p) => G2.fromAffine({
  x: Fp2.create({ c0: BigInt(p[0][0]), c1: BigInt(p[0][1]) }),
  y: Fp2.create({ c0: BigInt(p[1][0]), c1: BigInt(p[1][1]) }),
});

export const beToBig = (b) => BigInt('0x' + Buffer.from(b).toString('hex'));

// Whether `proof` (192 bytes) verifies for `publics` (BigInts) under `vk`.
export function verifyProof(vk, proof, publics) {
  const A = G1.fromHex(proof.subarray(0, 48).toString('hex'));
  const B = G2.fromHex(proof.subarray(48, 144).toString('hex'));
  const C = G1.fromHex(proof.subarray(144, 192).toString('hex'));
  let acc = g1(vk.IC[0]);
  publics.forEach((x, i) => { acc = acc.add(g1(vk.IC[i + 1]).multiplyUnsafe(x)); });
  const e = bls12_381.pairingBatch([
    { g1: A, g2: B },
    { g1: acc.negate(), g2: g2(vk.vk_gamma_2) },
    { g1: C.negate(), g2: g2(vk.vk_delta_2) },
    { g1: g1(vk.vk_alpha_1).negate(), g2: g2(vk.vk_beta_2) },
  ]);
  return Fp12.eql(e, Fp12.ONE);
}
