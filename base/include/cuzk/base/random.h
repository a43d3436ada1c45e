// Random sources. OsRng reads the operating system's CSPRNG (getrandom);
// TestRng is a seeded, reproducible generator for tests and benchmarks.
// Both are UniformRandomBitGenerators returning uint64_t.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

#include "cuzk/base/status.h"

namespace cuzk {

class OsRng {
 public:
  using result_type = uint64_t;
  // Where the bytes come from: getrandom(2) by default; tests pass a source
  // that fails. Returns the bytes written, or -1 with errno set.
  using Source = long (*)(void* buf, size_t bytes, unsigned flags);

  OsRng() = default;
  explicit OsRng(Source source) : source_(source) {}
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return std::numeric_limits<uint64_t>::max(); }

  // Fills buf from the OS CSPRNG. Errors: UNAVAILABLE naming the errno when
  // the source fails (proofs must never be made with weak randomness, so
  // there is no fallback).
  Status try_fill(void* buf, size_t bytes) const;
  // A UniformRandomBitGenerator cannot return an error: operator() throws
  // std::system_error when the source fails (the engine's workers turn an
  // exception into a failed job; nothing aborts the process).
  result_type operator()();

 private:
  Source source_ = nullptr;  // null: getrandom
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
