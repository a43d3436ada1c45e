// classify_query_values against witnesses built class by class: each value
// is made a zero, a one, or a tail value of a chosen bit length (the class
// bounds and their neighbours included), and the expected counts are kept
// while building.
#include <gtest/gtest.h>

#include "cuzk/base/thread_pool.h"
#include "cuzk/r1cs/witness_stats.h"
#include "test_util.h"

namespace cuzk::r1cs {
namespace {

using testing::fresh_seed;

// A field element whose canonical value has exactly `bits` bits (2 ..
// 255; 255-bit values are drawn below r).
ff::Fr with_bits(TestRng& rng, int bits) {
  for (;;) {
    ff::Fr::Repr c{};
    for (int i = 0; i < bits - 1; ++i)
      if (rng() & 1) c[size_t(i / 64)] |= uint64_t(1) << (i % 64);
    c[size_t((bits - 1) / 64)] |= uint64_t(1) << ((bits - 1) % 64);
    ff::Fr x;
    if (ff::Fr::from_canonical(c, &x)) return x;
  }
}

size_t bucket_of(int bits) {
  size_t k = 0;
  while (bits > kTailBitBounds[k]) ++k;
  return k;
}

TEST(WitnessStats, CountsEachQuerysClassesAndTailBitLengths) {
  TestRng rng(fresh_seed());
  ThreadPool pool(2);
  const int lengths[] = {2, 17, 32, 33, 63, 64, 65, 127, 128, 129, 191, 192, 193, 254, 255};
  for (int round = 0; round < 4; ++round) {
    const uint64_t num_inputs = 1 + rng() % 20, num_aux = 1 + rng() % 200000;
    DensityBitmaps d{Bitmap(num_inputs), Bitmap(num_aux), Bitmap(num_inputs), Bitmap(num_aux)};
    std::vector<ff::Fr> w(num_inputs + num_aux);
    QueryValueClasses want;
    for (uint64_t i = 0; i < w.size(); ++i) {
      const bool input = i < num_inputs;
      const uint64_t j = input ? i : i - num_inputs;
      ValueClasses v;  // this value's class, counted once
      v.positions = 1;
      const uint64_t pick = i == 0 ? 1 : rng() % 4;  // w[0] is ONE
      if (pick == 0) {
        w[i] = ff::Fr::zero(), v.zeros = 1;
      } else if (pick == 1) {
        w[i] = ff::Fr::one(), v.ones = 1;
      } else {
        const int bits = lengths[rng() % std::size(lengths)];
        w[i] = with_bits(rng, bits);
        v.tail_by_bits[bucket_of(bits)] = 1;
      }
      Bitmap& a = input ? d.a_input : d.a_aux;
      Bitmap& b = input ? d.b_input : d.b_aux;
      if (rng() % 3 != 0) a.words[j / 64] |= uint64_t(1) << (j % 64), want.a += v;
      if (rng() % 4 == 0) b.words[j / 64] |= uint64_t(1) << (j % 64), want.b += v;
      if (!input) want.l += v;
    }
    for (ThreadPool* p : {static_cast<ThreadPool*>(nullptr), &pool}) {
      auto got = classify_query_values(d, w, num_inputs, p);
      ASSERT_TRUE(got.ok()) << got.status().to_string();
      for (const auto& [g, e, name] : {std::tuple{&got->l, &want.l, "L"}, {&got->a, &want.a, "A"}, {&got->b, &want.b, "B"}}) {
        EXPECT_EQ(g->positions, e->positions) << name;
        EXPECT_EQ(g->zeros, e->zeros) << name;
        EXPECT_EQ(g->ones, e->ones) << name;
        EXPECT_EQ(g->tail_by_bits, e->tail_by_bits) << name;
        EXPECT_EQ(g->tail(), g->positions - g->zeros - g->ones) << name;
      }
    }
  }
}

TEST(WitnessStats, SizesThatDisagreeAreNamed) {
  DensityBitmaps d{Bitmap(3), Bitmap(10), Bitmap(3), Bitmap(10)};
  std::vector<ff::Fr> w(12, ff::Fr::one());
  auto r = classify_query_values(d, w, 3);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("the witness has 3 and 9"), std::string::npos) << r.status().to_string();
  EXPECT_FALSE(classify_query_values(d, w, 0).ok());
  EXPECT_TRUE(classify_query_values(d, std::vector<ff::Fr>(13, ff::Fr::one()), 3).ok());
}

}  // namespace
}  // namespace cuzk::r1cs
