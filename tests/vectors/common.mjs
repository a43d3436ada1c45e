// Helpers shared by the vector generators: a seeded PRNG (so a failing run can
// be reproduced from its seed), argument parsing and hex formatting.
import { writeFileSync } from 'node:fs';

export function parseArgs(argv) {
  const args = { seed: 1n, out: null };
  for (let i = 2; i < argv.length; i++) {
    if (argv[i] === '--seed') args.seed = BigInt(argv[++i]);
    else if (argv[i] === '--out') args.out = argv[++i];
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  if (!args.out) throw new Error('usage: --seed N --out FILE.json');
  return args;
}

// xorshift128+ over BigInt, seeded by splitmix64: reproducible, not cryptographic.
export function makeRng(seed) {
  const M = (1n << 64n) - 1n;
  let x = seed & M;
  const splitmix = () => {
    x = (x + 0x9e3779b97f4a7c15n) & M;
    let z = x;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M;
    return z ^ (z >> 31n);
  };
  let s0 = splitmix(), s1 = splitmix();
  const next64 = () => {
    let a = s0;
    const b = s1;
    s0 = b;
    a ^= (a << 23n) & M;
    s1 = a ^ b ^ (a >> 17n) ^ (b >> 26n);
    return (s1 + b) & M;
  };
  // Uniform below `bound` by rejection over the next power of two.
  const below = (bound) => {
    const bits = bound.toString(2).length;
    for (;;) {
      let v = 0n;
      for (let i = 0; i < bits; i += 64) v = (v << 64n) | next64();
      v &= (1n << BigInt(bits)) - 1n;
      if (v < bound) return v;
    }
  };
  return { next64, below };
}

export const hex = (v, bytes) => v.toString(16).padStart(bytes * 2, '0');

export function writeJson(path, obj) {
  writeFileSync(path, JSON.stringify(obj, (k, v) => (typeof v === 'bigint' ? v.toString() : v)));
}
