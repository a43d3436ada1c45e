// Random sources. OsRng reads the operating system's CSPRNG (getrandom);
// TestRng is a seeded, reproducible generator for tests and benchmarks.
// Both are UniformRandomBitGenerators returning uint64_t.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

namespace cuzk {

class OsRng {
 public:
  using result_type = uint64_t;
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return std::numeric_limits<uint64_t>::max(); }
  // Aborts the process if the OS CSPRNG fails: proofs must never be made with
  // weak randomness.
  result_type operator()();
  static void fill(void* buf, size_t bytes);
};

// splitmix64-seeded xoshiro256**; not cryptographic.
class TestRng {
 public:
  using result_type = uint64_t;
  explicit TestRng(uint64_t seed);
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return std::numeric_limits<uint64_t>::max(); }
  result_type operator()();

 private:
  uint64_t s_[4];
};

// A fresh seed from the OS CSPRNG for a test, printed to stdout as
// "seed N" so that a failing run can be reproduced (tests draw fresh random
// inputs every run).
uint64_t fresh_test_seed();

}  // namespace cuzk
