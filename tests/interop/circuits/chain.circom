pragma circom 2.0.0;

// A long multiplication chain: n + 1 constraints (n = 70000 gives a 2^17
// domain, more than 2^16 constraints), one public input and one output.
template Chain(n) {
  signal input x;
  signal input y;
  signal output out;
  signal s[n];
  s[0] <== x * y;
  for (var i = 1; i < n; i++) {
    s[i] <== s[i - 1] * x + y;
  }
  out <== s[n - 1] * s[n - 1];
}

component main {public [x]} = Chain(70000);
