// Device point formulas (XYZZ and Jacobian) against the CPU ec layer on
// random points plus P + P, P + (−P) and infinity operands; and the device
// progression generator against CPU additions. Skips without a GPU.
#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

#include "cuzk/base/random.h"
#include "cuzk/ec/cuda/point_ops.h"
#include "cuzk/gpu/buffer.h"
#include "cuzk/gpu/device.h"
#include "cuzk/gpu/stream.h"

namespace cuzk::ec::cuda {
namespace {

uint64_t fresh_seed() { return cuzk::fresh_test_seed(); }

template <class C>
Affine<C> random_point(TestRng& rng);
template <>
G1Affine random_point<G1Curve>(TestRng& rng) {
  return random_g1(rng);
}
template <>
G2Affine random_point<G2Curve>(TestRng& rng) {
  return random_g2(rng);
}

// The same point with a random Z (Jacobian coordinates not normalised).
template <class C>
Jacobian<C> rescale(const Affine<C>& a, TestRng& rng) {
  using F = typename C::Field;
  if (a.is_infinity()) return Jacobian<C>::identity();
  F z = F::random(rng);
  F z2 = z.square();
  return Jacobian<C>{a.x * z2, a.y * z2 * z, z};
}

template <class C>
class DevicePointTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!gpu::device_available()) GTEST_SKIP() << gpu::device_unavailable_reason();
  }
};
using Curves = ::testing::Types<G1Curve, G2Curve>;
TYPED_TEST_SUITE(DevicePointTest, Curves);

TYPED_TEST(DevicePointTest, OpsMatchCpu) {
  using C = TypeParam;
  TestRng rng(fresh_seed());
  std::vector<Jacobian<C>> a, b;
  std::vector<Affine<C>> c;
  const Affine<C> inf = Affine<C>::identity();
  for (int i = 0; i < 64; ++i) {
    Affine<C> p = random_point<C>(rng), q = random_point<C>(rng);
    a.push_back(rescale(p, rng));
    b.push_back(rescale(q, rng));
    c.push_back(q);
    switch (i % 8) {  // special cases, each with fresh random coordinates
      case 0: b.back() = rescale(p, rng); c.back() = p; break;     // P + P
      case 1: b.back() = rescale(-p, rng); c.back() = -p; break;   // P + (−P)
      case 2: a.back() = Jacobian<C>::identity(); break;           // O + Q
      case 3: b.back() = Jacobian<C>::identity(); c.back() = inf; break;  // P + O
      case 4: a.back() = Jacobian<C>::identity(); b.back() = Jacobian<C>::identity(); c.back() = inf; break;
      default: break;
    }
  }
  const size_t n = a.size();
  auto stream = gpu::Stream::create();
  auto da = gpu::DeviceBuffer<Jacobian<C>>::allocate(n);
  auto db = gpu::DeviceBuffer<Jacobian<C>>::allocate(n);
  auto dc = gpu::DeviceBuffer<Affine<C>>::allocate(n);
  auto dout = gpu::DeviceBuffer<Jacobian<C>>::allocate(6 * n);
  ASSERT_TRUE(stream.ok() && da.ok() && db.ok() && dc.ok() && dout.ok());
  ASSERT_TRUE(da->upload(a.data(), n, stream->get()).ok());
  ASSERT_TRUE(db->upload(b.data(), n, stream->get()).ok());
  ASSERT_TRUE(dc->upload(c.data(), n, stream->get()).ok());
  Status s = point_op_suite<C>(da->data(), db->data(), dc->data(), dout->data(), n, stream->get());
  ASSERT_TRUE(s.ok()) << s.to_string();
  std::vector<Jacobian<C>> out(6 * n);
  ASSERT_TRUE(dout->download(out.data(), 6 * n, stream->get()).ok());
  ASSERT_TRUE(stream->synchronize().ok());
  for (size_t i = 0; i < n; ++i) {
    const Jacobian<C> sum_ab = a[i] + b[i], sum_ac = a[i] + c[i], dbl = a[i].dbl();
    EXPECT_TRUE(out[i] == sum_ac) << "xyzz madd, case " << i;
    EXPECT_TRUE(out[n + i] == sum_ab) << "xyzz add, case " << i;
    EXPECT_TRUE(out[2 * n + i] == dbl) << "xyzz dbl, case " << i;
    EXPECT_TRUE(out[3 * n + i] == sum_ab) << "jacobian add, case " << i;
    EXPECT_TRUE(out[4 * n + i] == sum_ac) << "jacobian madd, case " << i;
    EXPECT_TRUE(out[5 * n + i] == dbl) << "jacobian dbl, case " << i;
    EXPECT_TRUE(out[i].is_on_curve() && out[n + i].is_on_curve() && out[2 * n + i].is_on_curve()) << i;
  }
}

TYPED_TEST(DevicePointTest, ProgressionMatchesCpu) {
  using C = TypeParam;
  TestRng rng(fresh_seed());
  const Affine<C> start = random_point<C>(rng), step = random_point<C>(rng);
  for (size_t n : {size_t(1), size_t(255), size_t(256), size_t(1000)}) {
    size_t scratch_bytes = 0;
    ASSERT_TRUE(fill_progression<C>(nullptr, n, start, step, nullptr, &scratch_bytes, nullptr).ok());
    auto stream = gpu::Stream::create();
    auto scratch = gpu::DeviceBuffer<uint8_t>::allocate(scratch_bytes);
    auto dout = gpu::DeviceBuffer<Affine<C>>::allocate(n);
    ASSERT_TRUE(stream.ok() && scratch.ok() && dout.ok());
    Status s = fill_progression<C>(dout->data(), n, start, step, scratch->data(), &scratch_bytes, stream->get());
    ASSERT_TRUE(s.ok()) << s.to_string();
    std::vector<Affine<C>> out(n);
    ASSERT_TRUE(dout->download(out.data(), n, stream->get()).ok());
    ASSERT_TRUE(stream->synchronize().ok());
    Jacobian<C> p = Jacobian<C>::from_affine(start);
    for (size_t i = 0; i < n; ++i) {
      ASSERT_TRUE(p == out[i]) << "n=" << n << " i=" << i;
      p += step;
    }
  }
}

}  // namespace
}  // namespace cuzk::ec::cuda
