// NTT tests. The reference is the definition itself, written out here:
// out[i] = Σ_j in[j]·ω^(ij) with ω = ff::root_of_unity (not the Domain's
// tables), evaluated naively in O(n^2) for small sizes and at sampled output
// indices for large ones; plus algebraic identities (inverse∘forward, the
// convolution theorem, linearity) and edge inputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <thread>
#include <vector>

#include "../src/fr_arith.h"
#include "cuzk/base/random.h"
#include "cuzk/ntt/ntt.h"

namespace cuzk::ntt {
namespace {

using ff::Fr;
using ff::RootConvention;

constexpr RootConvention kConventions[] = {RootConvention::kBellperson, RootConvention::kSnarkjs};
constexpr Order kOrders[] = {Order::kNaturalToNatural, Order::kNaturalToBitReversed, Order::kBitReversedToNatural};

uint64_t fresh_seed() { return cuzk::fresh_test_seed(); }

std::vector<Fr> random_vector(TestRng& rng, size_t n) {
  std::vector<Fr> v(n);
  for (auto& x : v) x = Fr::random(rng);
  return v;
}

// Reference bit reversal, bit by bit.
size_t naive_bitrev(size_t x, int bits) {
  size_t r = 0;
  for (int i = 0; i < bits; ++i) r |= ((x >> i) & 1) << (bits - 1 - i);
  return r;
}

std::vector<Fr> permuted(const std::vector<Fr>& v, int lg) {
  std::vector<Fr> out(v.size());
  for (size_t i = 0; i < v.size(); ++i) out[naive_bitrev(i, lg)] = v[i];
  return out;
}

int log2_of(size_t n) { return __builtin_ctzll(n); }

// Σ_j v[j]·x^j (Horner).
Fr eval_poly(const std::vector<Fr>& v, const Fr& x) {
  Fr acc = Fr::zero();
  for (size_t j = v.size(); j-- > 0;) acc = acc * x + v[j];
  return acc;
}

enum class Op { kForward, kInverse, kCosetForward, kCosetInverse };

// Output index i of `op` on natural-order input v, from the definitions.
Fr reference_at(Op op, const std::vector<Fr>& v, size_t i, RootConvention c, const Fr& g) {
  const size_t n = v.size();
  const int lg = log2_of(n);
  const Fr w = ff::root_of_unity(lg, c);
  const Fr n_inv = Fr::from_uint(n).inverse();
  switch (op) {
    case Op::kForward:
      return eval_poly(v, w.pow(i));
    case Op::kInverse:
      return n_inv * eval_poly(v, w.inverse().pow(i));
    case Op::kCosetForward:
      return eval_poly(v, g * w.pow(i));
    case Op::kCosetInverse:
      return n_inv * g.inverse().pow(i) * eval_poly(v, w.inverse().pow(i));
  }
  return Fr::zero();
}

Status run_op(Op op, const Domain& d, std::span<Fr> data, const Fr& g, Order order, ThreadPool* pool = nullptr) {
  switch (op) {
    case Op::kForward:
      return forward(d, data, order, pool);
    case Op::kInverse:
      return inverse(d, data, order, pool);
    case Op::kCosetForward:
      return coset_forward(d, data, g, order, pool);
    case Op::kCosetInverse:
      return coset_inverse(d, data, g, order, pool);
  }
  return internal_error("bad op");
}

// Applies op with `order` to natural-order `in`, returning natural-order output.
std::vector<Fr> apply_natural(Op op, const Domain& d, std::vector<Fr> in, const Fr& g, Order order) {
  const int lg = d.lg_n();
  if (order == Order::kBitReversedToNatural) in = permuted(in, lg);
  EXPECT_TRUE(run_op(op, d, in, g, order).ok());
  if (order == Order::kNaturalToBitReversed) in = permuted(in, lg);  // permutation is an involution
  return in;
}

const char* op_name(Op op) {
  constexpr const char* kNames[] = {"forward", "inverse", "coset_forward", "coset_inverse"};
  return kNames[int(op)];
}

constexpr Op kOps[] = {Op::kForward, Op::kInverse, Op::kCosetForward, Op::kCosetInverse};

// Coset shifts the prover uses, plus a random one.
std::vector<Fr> coset_shifts(int lg, RootConvention c, TestRng& rng) {
  return {ff::fr_generator(RootConvention::kBellperson), ff::root_of_unity(std::min(lg + 1, 32), c),
          Fr::random(rng)};
}

TEST(Domain, CreateAndConstants) {
  EXPECT_FALSE(Domain::create(-1, RootConvention::kBellperson).ok());
  EXPECT_FALSE(Domain::create(33, RootConvention::kSnarkjs).ok());
  EXPECT_EQ(Domain::create(33, RootConvention::kSnarkjs).status().code(), StatusCode::kInvalidArgument);
  for (RootConvention c : kConventions) {
    for (int lg : {0, 1, 3, 10, 11, 20, 27, 32}) {
      auto d = Domain::create(lg, c);
      ASSERT_TRUE(d.ok()) << lg;
      EXPECT_EQ(d->lg_n(), lg);
      EXPECT_EQ(d->size(), size_t(1) << lg);
      EXPECT_EQ(d->convention(), c);
      EXPECT_EQ(d->omega(), ff::root_of_unity(lg, c));
      EXPECT_EQ(d->omega() * d->omega_inv(), Fr::one());
      EXPECT_EQ(d->n_inv() * Fr::from_uint(uint64_t(1) << lg), Fr::one());
      Fr w = d->omega();
      for (int i = 0; i < lg; ++i) w = w.square();
      EXPECT_EQ(w, Fr::one());
      if (lg > 0) {
        EXPECT_EQ(d->omega().pow(uint64_t(1) << (lg - 1)), -Fr::one());
      }
      EXPECT_EQ(d->lg_rows() + d->lg_cols(), lg);
    }
  }
}

TEST(Ntt, AllSmallSizesMatchNaiveDft) {
  TestRng rng(fresh_seed());
  for (RootConvention c : kConventions) {
    for (int lg = 0; lg <= 9; ++lg) {
      auto d = Domain::create(lg, c);
      ASSERT_TRUE(d.ok());
      const size_t n = d->size();
      for (Op op : kOps) {
        for (Order order : kOrders) {
          const std::vector<Fr> in = random_vector(rng, n);
          const Fr g = coset_shifts(lg, c, rng)[rng() % 3];
          std::vector<Fr> out = apply_natural(op, *d, in, g, order);
          for (size_t i = 0; i < n; ++i) {
            ASSERT_EQ(out[i], reference_at(op, in, i, c, g))
                << op_name(op) << " lg " << lg << " order " << int(order) << " index " << i;
          }
        }
      }
    }
  }
}

// Four-step sizes: full naive check at 2^11 and 2^12, sampled indices above.
TEST(Ntt, FourStepSizesMatchNaiveDft) {
  TestRng rng(fresh_seed());
  for (RootConvention c : kConventions) {
    for (int lg : {11, 12, 13, 15, 16}) {
      auto d = Domain::create(lg, c);
      ASSERT_TRUE(d.ok());
      ASSERT_GT(d->lg_rows(), 0);
      const size_t n = d->size();
      for (Op op : kOps) {
        for (Order order : kOrders) {
          const std::vector<Fr> in = random_vector(rng, n);
          const Fr g = coset_shifts(lg, c, rng)[rng() % 3];
          std::vector<Fr> out = apply_natural(op, *d, in, g, order);
          std::vector<size_t> idx = {0, 1, n / 2, n - 1};
          for (int s = 0; s < 6; ++s) idx.push_back(size_t(rng() % n));
          if (lg == 11 && op == Op::kForward) {
            idx.clear();
            for (size_t i = 0; i < n; ++i) idx.push_back(i);
          }
          for (size_t i : idx) {
            ASSERT_EQ(out[i], reference_at(op, in, i, c, g))
                << op_name(op) << " lg " << lg << " order " << int(order) << " index " << i;
          }
        }
      }
    }
  }
}

TEST(Ntt, InverseOfForwardIsIdentity) {
  TestRng rng(fresh_seed());
  for (RootConvention c : kConventions) {
    for (int lg = 0; lg <= 20; ++lg) {
      auto d = Domain::create(lg, c);
      ASSERT_TRUE(d.ok());
      const std::vector<Fr> in = random_vector(rng, d->size());
      const Fr g = coset_shifts(lg, c, rng)[rng() % 3];
      std::vector<Fr> x = in;
      // Natural round trip, then the prover's chain: DIF forward, DIT inverse.
      ASSERT_TRUE(forward(*d, x).ok());
      ASSERT_TRUE(inverse(*d, x).ok());
      ASSERT_EQ(x, in) << "natural lg " << lg;
      ASSERT_TRUE(forward(*d, x, Order::kNaturalToBitReversed).ok());
      ASSERT_TRUE(inverse(*d, x, Order::kBitReversedToNatural).ok());
      ASSERT_EQ(x, in) << "dif/dit lg " << lg;
      if (lg > 18) continue;  // keep the test quick; the chains above cover the large sizes
      ASSERT_TRUE(coset_forward(*d, x, g, Order::kNaturalToBitReversed).ok());
      ASSERT_TRUE(coset_inverse(*d, x, g, Order::kBitReversedToNatural).ok());
      ASSERT_EQ(x, in) << "coset lg " << lg;
      ASSERT_TRUE(inverse(*d, x, Order::kNaturalToBitReversed).ok());
      ASSERT_TRUE(forward(*d, x, Order::kBitReversedToNatural).ok());
      ASSERT_EQ(x, in) << "inverse first lg " << lg;
    }
  }
}

std::vector<Fr> schoolbook(const std::vector<Fr>& a, const std::vector<Fr>& b) {
  std::vector<Fr> c(a.size() + b.size() - 1, Fr::zero());
  for (size_t i = 0; i < a.size(); ++i) {
    for (size_t j = 0; j < b.size(); ++j) c[i + j] += a[i] * b[j];
  }
  return c;
}

// Product through evaluations: plain domain, or the coset g·ω^j.
std::vector<Fr> ntt_product(const std::vector<Fr>& a, const std::vector<Fr>& b, RootConvention c, bool coset,
                            const Fr& g) {
  const size_t len = a.size() + b.size() - 1;
  int lg = 0;
  while ((size_t(1) << lg) < len) ++lg;
  auto d = Domain::create(lg, c);
  EXPECT_TRUE(d.ok());
  std::vector<Fr> x(d->size(), Fr::zero()), y(d->size(), Fr::zero());
  std::copy(a.begin(), a.end(), x.begin());
  std::copy(b.begin(), b.end(), y.begin());
  if (coset) {
    EXPECT_TRUE(coset_forward(*d, x, g, Order::kNaturalToBitReversed).ok());
    EXPECT_TRUE(coset_forward(*d, y, g, Order::kNaturalToBitReversed).ok());
  } else {
    EXPECT_TRUE(forward(*d, x, Order::kNaturalToBitReversed).ok());
    EXPECT_TRUE(forward(*d, y, Order::kNaturalToBitReversed).ok());
  }
  for (size_t i = 0; i < x.size(); ++i) x[i] *= y[i];
  if (coset) {
    EXPECT_TRUE(coset_inverse(*d, x, g, Order::kBitReversedToNatural).ok());
  } else {
    EXPECT_TRUE(inverse(*d, x, Order::kBitReversedToNatural).ok());
  }
  for (size_t i = len; i < x.size(); ++i) EXPECT_TRUE(x[i].is_zero());
  x.resize(len);
  return x;
}

TEST(Ntt, ConvolutionTheorem) {
  TestRng rng(fresh_seed());
  for (int trial = 0; trial < 12; ++trial) {
    const size_t max_len = trial < 8 ? 300 : 2500;  // the larger ones take the four-step path
    const std::vector<Fr> a = random_vector(rng, 1 + rng() % max_len);
    const std::vector<Fr> b = random_vector(rng, 1 + rng() % max_len);
    const RootConvention c = kConventions[trial % 2];
    const std::vector<Fr> want = schoolbook(a, b);
    ASSERT_EQ(ntt_product(a, b, c, false, Fr::one()), want) << a.size() << " x " << b.size();
    ASSERT_EQ(ntt_product(a, b, c, true, Fr::random(rng)), want) << "coset " << a.size() << " x " << b.size();
  }
}

TEST(Ntt, Linearity) {
  TestRng rng(fresh_seed());
  for (RootConvention c : kConventions) {
    for (int lg : {5, 14}) {
      auto d = Domain::create(lg, c);
      ASSERT_TRUE(d.ok());
      for (Order order : kOrders) {
        const std::vector<Fr> x = random_vector(rng, d->size()), y = random_vector(rng, d->size());
        const Fr alpha = Fr::random(rng), beta = Fr::random(rng);
        std::vector<Fr> z(d->size()), fx = x, fy = y;
        for (size_t i = 0; i < z.size(); ++i) z[i] = alpha * x[i] + beta * y[i];
        ASSERT_TRUE(forward(*d, z, order).ok());
        ASSERT_TRUE(forward(*d, fx, order).ok());
        ASSERT_TRUE(forward(*d, fy, order).ok());
        for (size_t i = 0; i < z.size(); ++i) ASSERT_EQ(z[i], alpha * fx[i] + beta * fy[i]) << lg << " " << i;
      }
    }
  }
}

TEST(Ntt, EdgeInputs) {
  for (RootConvention c : kConventions) {
    for (int lg : {0, 1, 3, 12, 15}) {
      auto d = Domain::create(lg, c);
      ASSERT_TRUE(d.ok());
      const size_t n = d->size();
      for (Order order : kOrders) {
        std::vector<Fr> zeros(n, Fr::zero()), x = zeros;
        ASSERT_TRUE(forward(*d, x, order).ok());
        EXPECT_EQ(x, zeros);
        ASSERT_TRUE(coset_inverse(*d, x, Fr::from_uint(7), order).ok());
        EXPECT_EQ(x, zeros);
        // A single 1 at index 0 transforms to all ones, wherever it sits.
        x = zeros;
        x[0] = Fr::one();
        ASSERT_TRUE(forward(*d, x, order).ok());
        EXPECT_EQ(x, std::vector<Fr>(n, Fr::one()));
        // All p-1: out[0] = -n, the rest 0 (in any order; index 0 stays put).
        x.assign(n, -Fr::one());
        ASSERT_TRUE(forward(*d, x, order).ok());
        EXPECT_EQ(x[0], -Fr::from_uint(n));
        for (size_t i = 1; i < n; ++i) ASSERT_TRUE(x[i].is_zero()) << i;
        // A single 1 at index 1 (natural input): out[i] = ω^i.
        if (order != Order::kBitReversedToNatural && n > 1) {
          x = zeros;
          x[1] = Fr::one();
          ASSERT_TRUE(forward(*d, x, order).ok());
          const Fr w = ff::root_of_unity(lg, c);
          for (size_t p = 0; p < n; p += 1 + n / 64) {
            size_t i = order == Order::kNaturalToBitReversed ? naive_bitrev(p, lg) : p;
            ASSERT_EQ(x[p], w.pow(i)) << lg << " " << p;
          }
        }
      }
    }
  }
}

TEST(Ntt, RejectsWrongLengthAndZeroShift) {
  auto d = Domain::create(4, RootConvention::kBellperson);
  ASSERT_TRUE(d.ok());
  std::vector<Fr> x(15, Fr::one()), before = x;
  EXPECT_EQ(forward(*d, x).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(inverse(*d, x).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(coset_forward(*d, x, Fr::from_uint(7)).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(coset_inverse(*d, x, Fr::from_uint(7)).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(x, before);
  std::vector<Fr> y(16, Fr::one());
  EXPECT_EQ(coset_inverse(*d, y, Fr::zero()).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(bit_reverse_permute(x).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(scale_by_powers_bit_reversed(x, Fr::one()).code(), StatusCode::kInvalidArgument);
  std::vector<Fr> empty;
  EXPECT_EQ(bit_reverse_permute(empty).code(), StatusCode::kInvalidArgument);
}

TEST(Pieces, BitReversePermuteMatchesNaive) {
  TestRng rng(fresh_seed());
  for (int lg = 0; lg <= 16; ++lg) {
    std::vector<Fr> x = random_vector(rng, size_t(1) << lg);
    std::vector<Fr> want = permuted(x, lg);
    ASSERT_TRUE(bit_reverse_permute(x).ok());
    ASSERT_EQ(x, want) << lg;
    for (size_t i = 0; i < x.size(); i += 1 + x.size() / 16) ASSERT_EQ(bit_reverse(i, lg), naive_bitrev(i, lg));
  }
}

TEST(Pieces, ScaleByPowers) {
  TestRng rng(fresh_seed());
  ThreadPool pool(3);
  for (size_t n : {size_t(0), size_t(1), size_t(7), size_t(8), size_t(1000), size_t(4097), size_t(50001)}) {
    const std::vector<Fr> x = random_vector(rng, n);
    const Fr g = Fr::random(rng), c = Fr::random(rng);
    std::vector<Fr> y = x, z = x;
    scale_by_powers(y, g, &pool);
    scale_by_powers(z, c, g);
    Fr p = Fr::one();
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(y[i], x[i] * p) << n << " " << i;
      ASSERT_EQ(z[i], c * x[i] * p) << n << " " << i;
      p *= g;
    }
  }
  for (int lg : {0, 1, 5, 12, 15}) {
    const std::vector<Fr> x = random_vector(rng, size_t(1) << lg);
    const Fr g = Fr::random(rng);
    std::vector<Fr> y = x;
    ASSERT_TRUE(scale_by_powers_bit_reversed(y, g, &pool).ok());
    for (size_t i = 0; i < x.size(); i += 1 + x.size() / 97) {
      ASSERT_EQ(y[i], x[i] * g.pow(naive_bitrev(i, lg))) << lg << " " << i;
    }
  }
}

TEST(Pieces, BranchFreeArithmeticMatchesField) {
  TestRng rng(fresh_seed());
  const Fr pm1 = -Fr::one();
  std::vector<Fr> vals = {Fr::zero(), Fr::one(), pm1, pm1 - Fr::one(), Fr::from_uint(2), pm1.half(),
                          pm1.half() + Fr::one()};
  for (int i = 0; i < 64; ++i) vals.push_back(Fr::random(rng));
  std::printf("MULX/ADX arithmetic %s on this CPU\n", internal::has_adx() ? "available" : "not available");
  for (const Fr& a : vals) {
    for (const Fr& b : vals) {
      ASSERT_EQ(internal::PortableArith::add(a, b), a + b);
      ASSERT_EQ(internal::PortableArith::sub(a, b), a - b);
      ASSERT_EQ(internal::PortableArith::mul(a, b), a * b);
      if (internal::has_adx()) {
        ASSERT_EQ(internal::AdxArith::mul(a, b), a * b);
      }
    }
  }
}

TEST(Ntt, ConcurrentUseOfOneDomain) {
  TestRng rng(fresh_seed());
  auto d = Domain::create(16, RootConvention::kSnarkjs);
  ASSERT_TRUE(d.ok());
  ThreadPool pool(2);
  const std::vector<Fr> a = random_vector(rng, d->size()), b = random_vector(rng, d->size());
  std::vector<Fr> want_a = a, want_b = b;
  ASSERT_TRUE(forward(*d, want_a).ok());
  ASSERT_TRUE(coset_inverse(*d, want_b, Fr::from_uint(7), Order::kBitReversedToNatural).ok());
  for (int round = 0; round < 3; ++round) {
    std::vector<Fr> x = a, y = b;
    Status sx, sy;
    // Thread 1 uses the default pool, thread 2 a private one.
    std::thread t1([&] { sx = forward(*d, x); });
    std::thread t2([&] { sy = coset_inverse(*d, y, Fr::from_uint(7), Order::kBitReversedToNatural, &pool); });
    t1.join();
    t2.join();
    ASSERT_TRUE(sx.ok() && sy.ok());
    ASSERT_EQ(x, want_a);
    ASSERT_EQ(y, want_b);
  }
}

}  // namespace
}  // namespace cuzk::ntt
