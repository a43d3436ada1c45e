pragma circom 2.0.0;

// Twenty public signals: ten outputs (out[9] and s) ahead of the ten public
// inputs (a[9] and k), as snarkjs orders them; 19 constraints.
template ManyPub(n) {
  signal input a[n];
  signal input b[n];
  signal input k;
  signal output out[n];
  signal output s;
  signal acc[n+1];
  acc[0] <== k;
  for (var i = 0; i < n; i++) {
    out[i] <== a[i] * b[i];
    acc[i+1] <== acc[i] * out[i];
  }
  s <== acc[n] + 7;
}
component main {public [a, k]} = ManyPub(9);
