// Device NTT against a naive O(n^2) DFT (all variants, sizes 2^1..2^10),
// against the CPU NTT layer when it is built (2^11..2^20), and by sampled
// evaluations plus round trips at larger sizes; the fused H-step kernels
// against CPU loops. Fresh random inputs every run. Skips without a GPU.
#include <gtest/gtest.h>

#include <cstdio>
#include <utility>
#include <vector>

#include "cuzk/base/random.h"
#include "cuzk/gpu/buffer.h"
#include "cuzk/gpu/device.h"
#include "cuzk/gpu/stream.h"
#include "cuzk/ntt/cuda/ntt.h"
#ifdef CUZK_HAVE_CPU_NTT
#include "cuzk/ntt/ntt.h"
#endif

namespace cuzk::ntt::cuda {
namespace {

using ff::Fr;
using ff::RootConvention;

uint64_t fresh_seed() { return cuzk::fresh_test_seed(); }

size_t rev(size_t x, int bits) {
  size_t r = 0;
  for (int i = 0; i < bits; ++i) r |= ((x >> i) & 1) << (bits - 1 - i);
  return r;
}

std::vector<Fr> permuted(const std::vector<Fr>& v, int lg) {
  std::vector<Fr> out(v.size());
  for (size_t i = 0; i < v.size(); ++i) out[rev(i, lg)] = v[i];
  return out;
}

std::vector<Fr> random_vec(size_t n, TestRng& rng) {
  std::vector<Fr> v(n);
  for (auto& x : v) x = Fr::random(rng);
  return v;
}

// The definitions in ntt.h, computed directly. O(n^2).
std::vector<Fr> naive(const std::vector<Fr>& in, int lg, RootConvention conv, bool inverse,
                      const std::optional<Fr>& shift) {
  const size_t n = in.size();
  Fr w = ff::root_of_unity(lg, conv);
  if (inverse) w = w.inverse();
  std::vector<Fr> x = in;
  if (shift && !inverse) {
    Fr p = Fr::one();
    for (auto& e : x) e *= p, p *= *shift;
  }
  std::vector<Fr> out(n);
  Fr wi = Fr::one();
  for (size_t i = 0; i < n; ++i, wi *= w) {
    Fr acc = Fr::zero(), p = Fr::one();
    for (size_t j = 0; j < n; ++j, p *= wi) acc += x[j] * p;
    out[i] = acc;
  }
  if (inverse) {
    const Fr ninv = Fr::from_uint(n).inverse();
    const Fr sinv = shift ? shift->inverse() : Fr::one();
    Fr p = ninv;
    for (auto& e : out) e *= p, p *= sinv;
  }
  return out;
}

class DeviceNttTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!gpu::device_available()) GTEST_SKIP() << gpu::device_unavailable_reason();
    auto s = gpu::Stream::create();
    ASSERT_TRUE(s.ok());
    stream_ = std::move(*s);
  }
  // Runs one transform on a copy of `in` (positions as given) and returns the device output.
  std::vector<Fr> run(const std::vector<Fr>& in, const NttSpec& spec) {
    size_t ws_bytes = 0;
    EXPECT_TRUE(ntt(nullptr, spec, nullptr, &ws_bytes, nullptr).ok());
    auto ws = gpu::DeviceBuffer<uint8_t>::allocate(ws_bytes);
    auto d = gpu::DeviceBuffer<Fr>::allocate(in.size());
    EXPECT_TRUE(ws.ok() && d.ok());
    EXPECT_TRUE(d->upload(in.data(), in.size(), stream_.get()).ok());
    Status s = ntt(d->data(), spec, ws->data(), &ws_bytes, stream_.get());
    EXPECT_TRUE(s.ok()) << s.to_string();
    std::vector<Fr> out(in.size());
    EXPECT_TRUE(d->download(out.data(), out.size(), stream_.get()).ok());
    EXPECT_TRUE(stream_.synchronize().ok());
    return out;
  }
  gpu::Stream stream_;
};

const Order kOrders[] = {Order::kNaturalToNatural, Order::kNaturalToBitReversed, Order::kBitReversedToNatural,
                         Order::kBitReversedToBitReversed};
bool in_rev(Order o) { return o == Order::kBitReversedToNatural || o == Order::kBitReversedToBitReversed; }
bool out_rev(Order o) { return o == Order::kNaturalToBitReversed || o == Order::kBitReversedToBitReversed; }

// Every variant at every small size against the naive DFT.
TEST_F(DeviceNttTest, AllVariantsMatchNaiveDft) {
  TestRng rng(fresh_seed());
  for (int lg = 1; lg <= 10; ++lg) {
    const size_t n = size_t(1) << lg;
    for (RootConvention conv : {RootConvention::kBellperson, RootConvention::kSnarkjs}) {
      const Fr snarkjs_shift = ff::root_of_unity(lg + 1, RootConvention::kSnarkjs);
      for (bool inverse : {false, true}) {
        for (std::optional<Fr> shift : {std::optional<Fr>(), std::optional<Fr>(ff::fr_generator(conv)),
                                        std::optional<Fr>(snarkjs_shift), std::optional<Fr>(Fr::random(rng))}) {
          const std::vector<Fr> x = random_vec(n, rng);
          const std::vector<Fr> want = naive(x, lg, conv, inverse, shift);
          for (Order order : kOrders) {
            NttSpec spec{lg, conv, inverse ? Direction::kInverse : Direction::kForward, order, shift};
            std::vector<Fr> got = run(in_rev(order) ? permuted(x, lg) : x, spec);
            if (out_rev(order)) got = permuted(got, lg);  // permutation is an involution
            ASSERT_TRUE(got == want) << "lg=" << lg << " conv=" << int(conv) << " inverse=" << inverse
                                     << " coset=" << bool(shift) << " order=" << int(order);
          }
        }
      }
    }
  }
}

// Σ_j x_j·(g·ω^k)^j by Horner: one evaluation of the forward (coset) NTT.
Fr evaluate(const std::vector<Fr>& x, const Fr& point) {
  Fr acc = Fr::zero();
  for (size_t j = x.size(); j-- > 0;) acc = acc * point + x[j];
  return acc;
}

// Multi-pass sizes: sampled evaluations of the forward coset NTT, and round
// trips through every order pairing that the prover chains.
TEST_F(DeviceNttTest, LargeSizesSampledAndRoundTrip) {
  TestRng rng(fresh_seed());
  for (int lg : {11, 12, 13, 15, 17, 20, 21, 22, 24}) {
    const size_t n = size_t(1) << lg;
    const RootConvention conv = lg % 2 ? RootConvention::kBellperson : RootConvention::kSnarkjs;
    const Fr g = ff::fr_generator(conv);
    const std::vector<Fr> x = random_vec(n, rng);
    std::vector<Fr> fwd = run(x, NttSpec{lg, conv, Direction::kForward, Order::kNaturalToNatural, g});
    const Fr w = ff::root_of_unity(lg, conv);
    for (int s = 0; s < 3; ++s) {
      const size_t k = size_t(rng()) & (n - 1);
      ASSERT_EQ(fwd[k], evaluate(x, g * w.pow(k))) << "lg=" << lg << " k=" << k;
    }
    // natural -> bit-reversed forward, then bit-reversed -> natural inverse.
    std::vector<Fr> y = run(x, NttSpec{lg, conv, Direction::kForward, Order::kNaturalToBitReversed, g});
    ASSERT_TRUE(y == permuted(fwd, lg)) << lg;
    y = run(y, NttSpec{lg, conv, Direction::kInverse, Order::kBitReversedToNatural, g});
    ASSERT_TRUE(y == x) << "round trip lg=" << lg;
#ifdef CUZK_HAVE_CPU_NTT
    if (lg <= 20) {
      auto domain = Domain::create(lg, conv);
      ASSERT_TRUE(domain.ok());
      std::vector<Fr> cpu = x;
      ASSERT_TRUE(coset_forward(*domain, cpu, g).ok());
      ASSERT_TRUE(cpu == fwd) << "cpu ntt lg=" << lg;
      std::vector<Fr> z = random_vec(n, rng), zc = z;
      ASSERT_TRUE(inverse(*domain, zc, ntt::Order::kNaturalToBitReversed).ok());
      ASSERT_TRUE(run(z, NttSpec{lg, conv, Direction::kInverse, Order::kNaturalToBitReversed, {}}) == zc) << lg;
    }
#endif
  }
}

// The permutation pass alone (the tiled kernel from 2^8 up, odd and even
// numbers of middle bits), and the orders that use it at multi-pass sizes.
TEST_F(DeviceNttTest, BitReversePermuteAndPermutingOrders) {
  TestRng rng(fresh_seed());
  for (int lg : {2, 7, 8, 9, 10, 13, 16, 19, 22, 23}) {
    const size_t n = size_t(1) << lg;
    const std::vector<Fr> x = random_vec(n, rng);
    auto d = gpu::DeviceBuffer<Fr>::allocate(n);
    ASSERT_TRUE(d.ok() && d->upload(x.data(), n, stream_.get()).ok());
    ASSERT_TRUE(bit_reverse_permute(d->data(), lg, stream_.get()).ok());
    std::vector<Fr> got(n);
    ASSERT_TRUE(d->download(got.data(), n, stream_.get()).ok() && stream_.synchronize().ok());
    ASSERT_TRUE(got == permuted(x, lg)) << "lg=" << lg;
  }
  for (int lg : {14, 22, 23}) {
    const size_t n = size_t(1) << lg;
    const RootConvention conv = lg % 2 ? RootConvention::kBellperson : RootConvention::kSnarkjs;
    const std::vector<Fr> x = random_vec(n, rng);
    const std::vector<Fr> nr = run(x, NttSpec{lg, conv, Direction::kInverse, Order::kNaturalToBitReversed, {}});
    ASSERT_TRUE(run(x, NttSpec{lg, conv, Direction::kInverse, Order::kNaturalToNatural, {}}) == permuted(nr, lg))
        << "inverse NN lg=" << lg;
    const std::vector<Fr> xr = permuted(x, lg);
    const std::vector<Fr> rn = run(xr, NttSpec{lg, conv, Direction::kForward, Order::kBitReversedToNatural, {}});
    ASSERT_TRUE(run(xr, NttSpec{lg, conv, Direction::kForward, Order::kBitReversedToBitReversed, {}}) ==
                permuted(rn, lg))
        << "forward RR lg=" << lg;
    ASSERT_TRUE(rn == run(x, NttSpec{lg, conv, Direction::kForward, Order::kNaturalToNatural, {}}))
        << "forward RN vs NN lg=" << lg;
  }
}

// h_step against the 7-transform definition: A, B, C to the coset (naive DFT
// at small sizes, the device's single transforms above that), (a·b − c)·k
// there, and for kCoefficients the coset inverse of that. Random a, b, c (no
// constraint system: the identity h_step relies on holds for any input).
TEST_F(DeviceNttTest, HStepMatchesSevenTransforms) {
  TestRng rng(fresh_seed());
  for (int lg : {0, 1, 2, 5, 9, 12, 16}) {
    const size_t n = size_t(1) << lg;
    for (RootConvention conv : {RootConvention::kBellperson, RootConvention::kSnarkjs}) {
      for (HOutput output : {HOutput::kCoefficients, HOutput::kCosetEvaluations}) {
        HStepSpec spec;
        spec.lg_n = lg;
        spec.convention = conv;
        spec.shift = output == HOutput::kCoefficients ? ff::fr_generator(conv) : ff::root_of_unity(lg + 1, conv);
        spec.k = Fr::random(rng);
        spec.output = output;
        std::vector<Fr> abc[3] = {random_vec(n, rng), random_vec(n, rng), random_vec(n, rng)};
        auto transform = [&](const std::vector<Fr>& x, bool inverse, std::optional<Fr> shift) {
          if (lg <= 9) return naive(x, lg, conv, inverse, shift);
          return run(x, NttSpec{lg, conv, inverse ? Direction::kInverse : Direction::kForward,
                                Order::kNaturalToNatural, shift});
        };
        std::vector<Fr> on_coset[3];
        for (int i = 0; i < 3; ++i) on_coset[i] = transform(transform(abc[i], true, std::nullopt), false, spec.shift);
        std::vector<Fr> want(n);
        for (size_t i = 0; i < n; ++i) want[i] = (on_coset[0][i] * on_coset[1][i] - on_coset[2][i]) * spec.k;
        if (output == HOutput::kCoefficients) want = transform(want, true, spec.shift);

        size_t ws_bytes = ntt_workspace_bytes(lg);
        auto ws = gpu::DeviceBuffer<uint8_t>::allocate(ws_bytes);
        auto d = gpu::DeviceBuffer<Fr>::allocate(3 * n);
        ASSERT_TRUE(ws.ok() && d.ok());
        for (int i = 0; i < 3; ++i) ASSERT_TRUE(d->upload(abc[i].data(), n, stream_.get(), i * n).ok());
        Status st = h_step(d->data(), d->data() + n, d->data() + 2 * n, spec, nullptr, ws->data(), &ws_bytes,
                           stream_.get());
        ASSERT_TRUE(st.ok()) << st.to_string();
        std::vector<Fr> got(n);
        ASSERT_TRUE(d->download(got.data(), n, stream_.get()).ok() && stream_.synchronize().ok());
        ASSERT_TRUE(got == want) << "lg=" << lg << " conv=" << int(conv) << " output=" << int(output);
      }
    }
  }
  HStepSpec bad;
  bad.lg_n = 4;
  bad.shift = Fr::zero();
  EXPECT_EQ(h_step(nullptr, nullptr, nullptr, bad, nullptr, nullptr, nullptr, stream_.get()).code(),
            StatusCode::kInvalidArgument);
}

// The two provers' H-step specs (no device needed): bellperson divides by
// Z(g) = g^n − 1 on the generator's coset and keeps the coefficients; snarkjs
// evaluates on the odd coset of the 2n-th roots (g^n = −1), k = 1.
TEST(HStepSpecs, BellpersonAndSnarkjs) {
  for (int lg : {0, 1, 5, 20, 27}) {
    const uint64_t n = uint64_t(1) << lg;
    const HStepSpec bell = bellperson_h_step(lg);
    EXPECT_EQ(bell.lg_n, lg);
    EXPECT_EQ(bell.convention, RootConvention::kBellperson);
    EXPECT_EQ(bell.output, HOutput::kCoefficients);
    EXPECT_EQ(bell.shift, Fr::from_uint(7));
    EXPECT_EQ(bell.k * (bell.shift.pow(n) - Fr::one()), Fr::one());
    const HStepSpec sj = snarkjs_h_step(lg);
    EXPECT_EQ(sj.lg_n, lg);
    EXPECT_EQ(sj.convention, RootConvention::kSnarkjs);
    EXPECT_EQ(sj.output, HOutput::kCosetEvaluations);
    EXPECT_EQ(sj.k, Fr::one());
    EXPECT_EQ(sj.shift.pow(n), -Fr::one());
  }
}

TEST_F(DeviceNttTest, FusedHStepKernels) {
  TestRng rng(fresh_seed());
  const int lg = 13;
  const size_t n = (size_t(1) << lg) - 77;  // not a power of two
  std::vector<Fr> a = random_vec(n, rng), b = random_vec(n, rng), c = random_vec(n, rng);
  const Fr k = Fr::random(rng), g = Fr::random(rng);
  auto da = gpu::DeviceBuffer<Fr>::allocate(n);
  auto db = gpu::DeviceBuffer<Fr>::allocate(n);
  auto dc = gpu::DeviceBuffer<Fr>::allocate(n);
  size_t ws_bytes = ntt_workspace_bytes(lg);
  auto ws = gpu::DeviceBuffer<uint8_t>::allocate(ws_bytes);
  ASSERT_TRUE(da.ok() && db.ok() && dc.ok() && ws.ok());
  ASSERT_TRUE(da->upload(a.data(), n, stream_.get()).ok());
  ASSERT_TRUE(db->upload(b.data(), n, stream_.get()).ok());
  ASSERT_TRUE(dc->upload(c.data(), n, stream_.get()).ok());
  ASSERT_TRUE(hadamard_sub_scale(da->data(), db->data(), dc->data(), k, n, stream_.get()).ok());
  ASSERT_TRUE(scale(db->data(), k, n, stream_.get()).ok());
  ASSERT_TRUE(scale_by_powers(dc->data(), lg, n, g, k, false, ws->data(), &ws_bytes, stream_.get()).ok());
  std::vector<Fr> ra(n), rb(n), rc(n);
  ASSERT_TRUE(da->download(ra.data(), n, stream_.get()).ok());
  ASSERT_TRUE(db->download(rb.data(), n, stream_.get()).ok());
  ASSERT_TRUE(dc->download(rc.data(), n, stream_.get()).ok());
  ASSERT_TRUE(stream_.synchronize().ok());
  Fr p = k;
  for (size_t i = 0; i < n; ++i, p *= g) {
    ASSERT_EQ(ra[i], (a[i] * b[i] - c[i]) * k) << i;
    ASSERT_EQ(rb[i], b[i] * k) << i;
    ASSERT_EQ(rc[i], c[i] * p) << i;
  }
  // Bit-reversed powers on a full power-of-two array.
  const size_t m = size_t(1) << lg;
  std::vector<Fr> d = random_vec(m, rng);
  auto dd = gpu::DeviceBuffer<Fr>::allocate(m);
  ASSERT_TRUE(dd.ok() && dd->upload(d.data(), m, stream_.get()).ok());
  ASSERT_TRUE(scale_by_powers(dd->data(), lg, m, g, Fr::one(), true, ws->data(), &ws_bytes, stream_.get()).ok());
  std::vector<Fr> rd(m);
  ASSERT_TRUE(dd->download(rd.data(), m, stream_.get()).ok() && stream_.synchronize().ok());
  for (size_t i = 0; i < m; i += 97) ASSERT_EQ(rd[i], d[i] * g.pow(rev(i, lg))) << i;
}

// Host only (runs without a GPU): a workspace sized for 2^m serves every
// smaller transform, which callers that allocate once for their largest size
// rely on.
TEST(NttWorkspace, NeverShrinksWithSize) {
  size_t prev = 0;
  for (int lg = 0; lg <= kMaxLgN; ++lg) {
    const size_t b = ntt_workspace_bytes(lg);
    EXPECT_GE(b, prev) << "lg=" << lg;
    EXPECT_LT(b, size_t(128) << 20) << "lg=" << lg;
    prev = b;
  }
  EXPECT_EQ(ntt_workspace_bytes(kMaxLgN + 1), 0u);
}

TEST_F(DeviceNttTest, RejectsBadArguments) {
  size_t bytes = 0;
  EXPECT_EQ(ntt(nullptr, NttSpec{kMaxLgN + 1}, nullptr, &bytes, nullptr).code(), StatusCode::kInvalidArgument);
  NttSpec zero_shift{4, RootConvention::kBellperson, Direction::kInverse, Order::kNaturalToNatural, Fr::zero()};
  auto ws = gpu::DeviceBuffer<uint8_t>::allocate(ntt_workspace_bytes(4));
  auto d = gpu::DeviceBuffer<Fr>::allocate(16);
  ASSERT_TRUE(ws.ok() && d.ok());
  EXPECT_EQ(ntt(d->data(), zero_shift, ws->data(), nullptr, stream_.get()).code(), StatusCode::kInvalidArgument);
  size_t small = 16;
  EXPECT_EQ(ntt(d->data(), NttSpec{4}, ws->data(), &small, stream_.get()).code(), StatusCode::kInvalidArgument);
  // Size 1 is the identity.
  std::vector<Fr> one = {Fr::from_uint(5)};
  EXPECT_TRUE(run(one, NttSpec{0}) == one);
  EXPECT_TRUE(run(one, NttSpec{0, RootConvention::kBellperson, Direction::kInverse}) == one);
}

}  // namespace
}  // namespace cuzk::ntt::cuda
