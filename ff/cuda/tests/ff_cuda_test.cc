// Device Fr, Fp and Fp2 arithmetic against the CPU fields, bit for bit, on
// fresh random inputs plus the edge values 0, 1, 2, p−1, p−2 and R-related
// values in every pairing. Skips without a GPU.
#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

#include "cuzk/base/random.h"
#include "cuzk/ff/cuda/field_ops.h"
#include "cuzk/gpu/buffer.h"
#include "cuzk/gpu/device.h"
#include "cuzk/gpu/stream.h"

namespace cuzk::ff::cuda {
namespace {

uint64_t fresh_seed() { return cuzk::fresh_test_seed(); }

template <class F>
std::vector<F> edge_values() {
  return {F::zero(), F::one(), F::one().dbl(), -F::one(), -F::one().dbl(), F::from_uint(0xffffffffull),
          F::from_mont(typename F::Repr{1}), -F::from_mont(typename F::Repr{1})};
}
template <>
std::vector<Fp2> edge_values<Fp2>() {
  std::vector<Fp2> out;
  for (const Fp& a : edge_values<Fp>())
    for (const Fp& b : {Fp::zero(), Fp::one(), -Fp::one()}) out.emplace_back(a, b);
  return out;
}

template <class F>
F cpu_apply(FieldOp op, const F& a, const F& b) {
  switch (op) {
    case FieldOp::kAdd:
      return a + b;
    case FieldOp::kSub:
      return a - b;
    case FieldOp::kMul:
      return a * b;
    case FieldOp::kSqr:
      return a.square();
    case FieldOp::kNeg:
      return -a;
    case FieldOp::kInv:
      return a.is_zero() ? F::zero() : a.inverse();
    default:
      return a.dbl();
  }
}

Status gpu_apply(FieldOp op, const Fr* a, const Fr* b, Fr* o, size_t n, cudaStream_t s) {
  return fr_elementwise(op, a, b, o, n, s);
}
Status gpu_apply(FieldOp op, const Fp* a, const Fp* b, Fp* o, size_t n, cudaStream_t s) {
  return fp_elementwise(op, a, b, o, n, s);
}
Status gpu_apply(FieldOp op, const Fp2* a, const Fp2* b, Fp2* o, size_t n, cudaStream_t s) {
  return fp2_elementwise(op, a, b, o, n, s);
}

const char* op_name(FieldOp op) {
  static const char* kNames[] = {"add", "sub", "mul", "sqr", "neg", "dbl", "inv"};
  return kNames[int(op)];
}

template <class F>
class DeviceFieldTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!gpu::device_available()) GTEST_SKIP() << gpu::device_unavailable_reason();
  }
};
using FieldTypes = ::testing::Types<Fr, Fp, Fp2>;
TYPED_TEST_SUITE(DeviceFieldTest, FieldTypes);

TYPED_TEST(DeviceFieldTest, MatchesCpuBitForBit) {
  using F = TypeParam;
  TestRng rng(fresh_seed());
  std::vector<F> a, b;
  const auto edges = edge_values<F>();
  for (const F& x : edges)
    for (const F& y : edges) {
      a.push_back(x);
      b.push_back(y);
    }
  for (int i = 0; i < 100000; ++i) {
    a.push_back(F::random(rng));
    b.push_back(F::random(rng));
  }
  const size_t n = a.size();
  auto stream = gpu::Stream::create();
  ASSERT_TRUE(stream.ok());
  auto da = gpu::DeviceBuffer<F>::allocate(n);
  auto db = gpu::DeviceBuffer<F>::allocate(n);
  auto dout = gpu::DeviceBuffer<F>::allocate(n);
  ASSERT_TRUE(da.ok() && db.ok() && dout.ok());
  ASSERT_TRUE(da->upload(a.data(), n, stream->get()).ok());
  ASSERT_TRUE(db->upload(b.data(), n, stream->get()).ok());
  for (FieldOp op : {FieldOp::kAdd, FieldOp::kSub, FieldOp::kMul, FieldOp::kSqr, FieldOp::kNeg, FieldOp::kDbl,
                     FieldOp::kInv}) {
    std::vector<F> out(n);
    ASSERT_TRUE(dout->fill_bytes(0xa5, stream->get()).ok());  // poison: every element must be written
    Status s = gpu_apply(op, da->data(), db->data(), dout->data(), n, stream->get());
    ASSERT_TRUE(s.ok()) << s.to_string();
    ASSERT_TRUE(dout->download(out.data(), n, stream->get()).ok());
    ASSERT_TRUE(stream->synchronize().ok());
    size_t bad = 0;
    for (size_t i = 0; i < n; ++i) {
      if (!(out[i] == cpu_apply(op, a[i], b[i]))) {
        if (bad++ < 3) ADD_FAILURE() << op_name(op) << " differs at " << i;
      }
    }
    EXPECT_EQ(bad, 0u) << op_name(op);
  }
}

}  // namespace
}  // namespace cuzk::ff::cuda
