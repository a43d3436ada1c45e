pragma circom 2.0.0;

// Two public signals (output c, input a), a private input and one internal
// signal: 2 constraints, a domain that is not filled.
template Tiny() {
  signal input a;
  signal input b;
  signal output c;
  signal t;
  t <== a * b;
  c <== t * a + b;
}

component main {public [a]} = Tiny();
