pragma circom 2.0.0;

// Inputs that appear in no constraint. circom keeps the unused public input v
// as a wire but drops the unused private input u from the wires while still
// counting it in the header's nPrvIn, so nWires < 1 + nPubOut + nPubIn + nPrvIn.
template Unused() {
  signal input a;
  signal input b;
  signal input u;
  signal input v;
  signal output c;
  c <== a * b;
}

component main {public [a, v]} = Unused();
