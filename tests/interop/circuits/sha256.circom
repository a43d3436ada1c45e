pragma circom 2.0.0;

include "circomlib/circuits/sha256/sha256.circom";

// SHA-256 of a 64-bit message given as bits; the digest bits are public.
template Sha64() {
  signal input in[64];
  signal output out[256];
  component h = Sha256(64);
  for (var i = 0; i < 64; i++) h.in[i] <== in[i];
  for (var i = 0; i < 256; i++) out[i] <== h.out[i];
}

component main = Sha64();
