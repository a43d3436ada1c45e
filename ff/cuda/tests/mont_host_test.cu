// The device Montgomery routines of mont.cuh, run on the host: ptx.cuh
// emulates the carry flag there, so the exact algorithm the kernels use —
// the even/odd split product, its reduction and the final correction — is
// checked against the CPU fields on every build, GPU or not. Fresh random
// inputs each run plus edge values (0, 1, p−1, p−2, values near 2^(32k)).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "cuzk/base/random.h"
#include "cuzk/ff/cuda/mont.cuh"
#include "cuzk/ff/fp.h"
#include "cuzk/ff/fr.h"

namespace cuzk::ff::cuda {
namespace {

template <class F>
constexpr int kWords = 2 * F::kLimbs;

template <class F>
void to_words(const F& a, uint32_t* w) {
  std::memcpy(w, a.mont().data(), sizeof(uint32_t) * kWords<F>);
}
template <class F>
F from_words(const uint32_t* w) {
  typename F::Repr r;
  std::memcpy(r.data(), w, sizeof(uint32_t) * kWords<F>);
  return F::from_mont(r);
}

template <class F, class P>
std::vector<F> values(TestRng& rng) {
  std::vector<F> v = {F::zero(), F::one(), -F::one(), -F::one().dbl(), F::one().dbl(),
                      F::from_mont(typename F::Repr{1}), -F::from_mont(typename F::Repr{1})};
  // Montgomery words all-ones in the low half, zero above: stresses the carries.
  typename F::Repr low{};
  for (int i = 0; i < F::kLimbs / 2; ++i) low[i] = ~uint64_t{0};
  v.push_back(F::from_mont(low));
  // Low Montgomery word zero, higher words not: reduction steps with m = 0.
  v.push_back(F::from_mont(typename F::Repr{uint64_t{1} << 32}));
  v.push_back(F::from_mont(typename F::Repr{0, 1}));
  v.push_back(F::from_mont(typename F::Repr{uint64_t{0xffffffff} << 32, 1}));
  // The top bit of every Montgomery word below the last set: the squaring's
  // doubled words carry a bit up from each.
  typename F::Repr tops{};
  for (int i = 0; i < F::kLimbs - 1; ++i) tops[i] = 0x8000000080000000ull;
  tops[F::kLimbs - 1] = 0x80000000ull;
  v.push_back(F::from_mont(tops));
  for (int i = 0; i < 200; ++i) v.push_back(F::random(rng));
  return v;
}

template <class F, class P>
void check_all() {
  constexpr int N = kWords<F>;
  TestRng rng(fresh_test_seed());
  uint32_t p[N];
  std::memcpy(p, P::kModulus, sizeof p);
  const uint32_t inv = uint32_t(P::kInv);
  uint32_t r2[N];
  std::memcpy(r2, P::kR2, sizeof r2);
  size_t inverses = 0, squares = 0;
  // Fr's modulus has low words 1 and 2^32 − 1: mont_mul's sparse reduction.
  constexpr bool kSparse = P::kModulus[0] == 0xffffffff00000001ull;
  const std::vector<F> v = values<F, P>(rng);
  size_t checked = 0;
  for (const F& a : v) {
    for (size_t j = 0; j < v.size(); j += 7) {
      const F& b = v[(j + checked) % v.size()];
      uint32_t wa[N], wb[N], r[N];
      to_words(a, wa);
      to_words(b, wb);
      detail::mont_mul<N>(r, wa, wb, p, inv);
      ASSERT_EQ(from_words<F>(r), a * b) << "mul a=" << a.to_hex() << " b=" << b.to_hex();
      if constexpr (kSparse) {
        detail::mont_mul<N, true>(r, wa, wb, p, inv);
        ASSERT_EQ(from_words<F>(r), a * b) << "sparse mul a=" << a.to_hex() << " b=" << b.to_hex();
      }
      detail::mod_add<N>(r, wa, wb, p);
      ASSERT_EQ(from_words<F>(r), a + b) << "add a=" << a.to_hex() << " b=" << b.to_hex();
      detail::mod_sub<N>(r, wa, wb, p);
      ASSERT_EQ(from_words<F>(r), a - b) << "sub a=" << a.to_hex() << " b=" << b.to_hex();
      ++checked;
    }
    uint32_t wa[N], r[N];
    to_words(a, wa);
    detail::mont_mul<N>(r, wa, wa, p, inv);
    ASSERT_EQ(from_words<F>(r), a * a) << "sqr a=" << a.to_hex();
    if constexpr (detail::kSqrFits<P>) {
      detail::mont_sqr<N>(r, wa, p, inv);
      ASSERT_EQ(from_words<F>(r), a * a) << "mont_sqr a=" << a.to_hex();
      ++squares;
    }
    if constexpr (kSparse) {
      detail::mont_mul<N, true>(r, wa, wa, p, inv);
      ASSERT_EQ(from_words<F>(r), a * a) << "sparse sqr a=" << a.to_hex();
    }
    // The device inverse: binary Euclid on the Montgomery words, then two
    // products by R^2. Zero maps to zero.
    const F want = a.is_zero() ? F::zero() : a.inverse();
    detail::mont_inverse<N>(r, wa, p, r2, inv);
    ASSERT_EQ(from_words<F>(r), want) << "inverse a=" << a.to_hex();
    if (!a.is_zero()) ASSERT_EQ(from_words<F>(r) * a, F::one()) << "inverse a=" << a.to_hex();
    if constexpr (kSparse) {
      detail::mont_inverse<N, true>(r, wa, p, r2, inv);
      ASSERT_EQ(from_words<F>(r), want) << "sparse inverse a=" << a.to_hex();
    }
    ++inverses;
  }
  EXPECT_EQ(inverses, v.size());
  EXPECT_EQ(squares, detail::kSqrFits<P> ? v.size() : 0);
  EXPECT_GT(checked, 1000u);
}

// Words of x + k·p (k = 0 or 1): the two representatives a lazy value can have.
template <class F, class P>
void lazy_words(const F& x, int k, uint32_t* w) {
  constexpr int N = kWords<F>;
  uint32_t p[N];
  std::memcpy(p, P::kModulus, sizeof p);
  to_words(x, w);
  if (k) detail::words_add<N>(w, p);
}

// The lazy forms over [0, 2p) that the NTT passes use: every output is below
// 2p and equal mod p to the exact result, for inputs with either
// representative (x and x + p), and reduce_once brings it back to [0, p).
template <class F, class P>
void check_lazy() {
  constexpr int N = kWords<F>;
  TestRng rng(fresh_test_seed());
  uint32_t p[N], p2[N];
  std::memcpy(p, P::kModulus, sizeof p);
  std::memcpy(p2, p, sizeof p2);
  detail::words_add<N>(p2, p);
  const uint32_t inv = uint32_t(P::kInv);
  constexpr bool kSparse = P::kModulus[0] == 0xffffffff00000001ull;
  const std::vector<F> v = values<F, P>(rng);
  auto below_2p = [&](const uint32_t* w) { return !detail::words_geq<N>(w, p2); };
  auto value = [&](const uint32_t* w) {
    uint32_t t[N];
    detail::reduce_once<N>(t, w, p);
    return from_words<F>(t);
  };
  size_t checked = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    for (size_t j = 0; j < v.size(); j += 5) {
      const F& a = v[i];
      const F& b = v[(j + i) % v.size()];
      for (int ka = 0; ka < 2; ++ka) {
        for (int kb = 0; kb < 2; ++kb) {
          uint32_t wa[N], wb[N], wa_exact[N], r[N];
          lazy_words<F, P>(a, ka, wa);
          lazy_words<F, P>(b, kb, wb);
          to_words(a, wa_exact);
          detail::mod_add<N, true>(r, wa, wb, p2);
          ASSERT_TRUE(below_2p(r)) << "lazy add a=" << a.to_hex() << " b=" << b.to_hex();
          ASSERT_EQ(value(r), a + b) << "lazy add a=" << a.to_hex() << " b=" << b.to_hex();
          detail::mod_sub<N>(r, wa, wb, p2);
          ASSERT_TRUE(below_2p(r)) << "lazy sub a=" << a.to_hex() << " b=" << b.to_hex();
          ASSERT_EQ(value(r), a - b) << "lazy sub a=" << a.to_hex() << " b=" << b.to_hex();
          // The product's first operand is exact (a twiddle), the second lazy.
          detail::mont_mul<N, false, false>(r, wa_exact, wb, p, inv);
          ASSERT_TRUE(below_2p(r)) << "lazy mul a=" << a.to_hex() << " b=" << b.to_hex();
          ASSERT_EQ(value(r), a * b) << "lazy mul a=" << a.to_hex() << " b=" << b.to_hex();
          if constexpr (kSparse) {
            detail::mont_mul<N, true, false>(r, wa_exact, wb, p, inv);
            ASSERT_TRUE(below_2p(r)) << "sparse lazy mul a=" << a.to_hex() << " b=" << b.to_hex();
            ASSERT_EQ(value(r), a * b) << "sparse lazy mul a=" << a.to_hex() << " b=" << b.to_hex();
          }
          // The exact product with a lazy second operand is fully reduced.
          detail::mont_mul<N, kSparse>(r, wa_exact, wb, p, inv);
          ASSERT_EQ(from_words<F>(r), a * b) << "mul of lazy b a=" << a.to_hex() << " b=" << b.to_hex();
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, 4000u);
}

TEST(MontHost, FpLazyFormsStayBelowTwoP) { check_lazy<Fp, FpParams>(); }
TEST(MontHost, FrLazyFormsStayBelowTwoP) { check_lazy<Fr, FrParams>(); }

// The dedicated squaring on many more values than the product table above:
// it is the one routine whose running sum differs from the product's.
// Fp's modulus words and the edge values plus `randoms` fresh ones.
struct FpCases {
  static constexpr int N = kWords<Fp>;
  TestRng rng{fresh_test_seed()};
  uint32_t p[N];
  std::vector<Fp> v;
  explicit FpCases(int randoms) {
    std::memcpy(p, FpParams::kModulus, sizeof p);
    v = values<Fp, FpParams>(rng);
    for (int i = 0; i < randoms; ++i) v.push_back(Fp::random(rng));
  }
};

TEST(MontHost, FpSquareMatchesCpuField) {
  constexpr int N = FpCases::N;
  FpCases cases(50000);
  const uint32_t* p = cases.p;
  std::vector<Fp>& v = cases.v;
  // Values just below 2^(32k) boundaries in Montgomery words (p − 1 and the
  // other edge values come with the cases).
  for (int k = 1; k <= N; ++k) {
    typename Fp::Repr w{};
    for (int j = 0; j < k && j < N; ++j) reinterpret_cast<uint32_t*>(w.data())[j] = 0xffffffffu;
    if (k == N) continue;  // all ones is above p
    v.push_back(Fp::from_mont(w));
  }
  for (const Fp& a : v) {
    uint32_t wa[N], r[N];
    to_words(a, wa);
    detail::mont_sqr<N>(r, wa, p, uint32_t(FpParams::kInv));
    ASSERT_EQ(from_words<Fp>(r), a * a) << "mont_sqr a=" << a.to_hex();
  }
}

TEST(MontHost, FpMatchesCpuField) { check_all<Fp, FpParams>(); }
TEST(MontHost, FrMatchesCpuField) { check_all<Fr, FrParams>(); }
static_assert(FrParams::kModulus[0] == 0xffffffff00000001ull, "Fr must exercise the sparse reduction");
static_assert(detail::kSqrFits<FpParams> && !detail::kSqrFits<FrParams>,
              "Fp squares through mont_sqr; Fr's modulus leaves no room for its larger running sum");

}  // namespace
}  // namespace cuzk::ff::cuda
