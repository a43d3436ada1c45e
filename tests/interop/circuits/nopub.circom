pragma circom 2.0.0;

// No public signals at all: IC holds only the ONE point.
template NoPublic(n) {
  signal input x;
  signal acc[n];
  acc[0] <== x * x;
  for (var i = 1; i < n; i++) {
    acc[i] <== acc[i - 1] * x + i;
  }
}

component main = NoPublic(11);
