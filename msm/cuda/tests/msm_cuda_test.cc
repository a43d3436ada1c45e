// Device MSM, batch addition and streamed MSM for G1 and G2 against
// independent results: the naive Σ k_i·P_i with CPU scalar multiplication at
// small sizes, and, for larger sizes, bases P_i = A + i·H whose MSM must equal
// (Σ k_i)·A + (Σ i·k_i)·H (two CPU scalar multiplications). Edge cases: empty
// input, zero scalars, 1 and r−1, repeated bases, infinity among bases, equal
// scalars (one bucket per window), tiny task sizes (many levels), sizes that
// are not powers of two, several window sizes, with and without batch-affine
// rounds (and their doubling / cancellation / infinity cases). Skips without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "cuzk/base/random.h"
#include "cuzk/ec/cuda/point_ops.h"
#include "cuzk/gpu/buffer.h"
#include "cuzk/gpu/device.h"
#include "cuzk/gpu/stream.h"
#include "cuzk/msm/cuda/msm.h"
#include "cuzk/msm/cuda/split.h"
#include "../src/msm_plan.h"

namespace cuzk::msm::cuda {
namespace {

using ec::Affine;
using ec::Jacobian;
using ff::Fr;

uint64_t fresh_seed() { return cuzk::fresh_test_seed(); }

template <class C>
Affine<C> random_point(TestRng& rng) {
  if constexpr (std::is_same_v<C, ec::G1Curve>) {
    return ec::random_g1(rng);
  } else {
    return ec::random_g2(rng);
  }
}

template <class C>
class DeviceMsmTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!gpu::device_available()) GTEST_SKIP() << gpu::device_unavailable_reason();
    auto s = gpu::Stream::create();
    ASSERT_TRUE(s.ok());
    stream_ = std::move(*s);
  }

  Jacobian<C> device_msm(const std::vector<Affine<C>>& bases, const std::vector<Fr>& scalars,
                         const MsmConfig& cfg = {}) {
    const size_t n = scalars.size();
    size_t ws_bytes = 0;
    EXPECT_TRUE(msm<C>(nullptr, nullptr, n, nullptr, nullptr, &ws_bytes, nullptr, cfg).ok());
    auto ws = gpu::DeviceBuffer<uint8_t>::allocate(ws_bytes);
    auto db = gpu::DeviceBuffer<Affine<C>>::allocate(n);
    auto ds = gpu::DeviceBuffer<Fr>::allocate(n);
    auto dr = gpu::DeviceBuffer<Jacobian<C>>::allocate(1);
    EXPECT_TRUE(ws.ok() && db.ok() && ds.ok() && dr.ok());
    EXPECT_TRUE(db->upload(bases.data(), n, stream_.get()).ok());
    EXPECT_TRUE(ds->upload(scalars.data(), n, stream_.get()).ok());
    EXPECT_TRUE(dr->fill_bytes(0x5a, stream_.get()).ok());  // poison
    Status s = msm<C>(db->data(), ds->data(), n, dr->data(), ws->data(), &ws_bytes, stream_.get(), cfg);
    EXPECT_TRUE(s.ok()) << s.to_string();
    Jacobian<C> r;
    EXPECT_TRUE(dr->download(&r, 1, stream_.get()).ok());
    EXPECT_TRUE(stream_.synchronize().ok());
    return r;
  }

  // Σ bases[i] over the positions in `ones` (every scalar there 1), run as the
  // GPU prover sums the ones of a query: an MSM over index lists with
  // MsmConfig::scalar_bits = 1, the result slot poisoned first.
  Jacobian<C> ones_list_msm(const std::vector<Affine<C>>& bases, const std::vector<Fr>& scalars,
                            const std::vector<uint32_t>& ones, int affine_rounds, MsmProfile* profile = nullptr) {
    const size_t n = scalars.size();
    auto db = gpu::DeviceBuffer<Affine<C>>::allocate(n);
    auto ds = gpu::DeviceBuffer<Fr>::allocate(n);
    auto di = gpu::DeviceBuffer<uint32_t>::allocate(std::max<size_t>(ones.size(), 1));
    auto dr = gpu::DeviceBuffer<Jacobian<C>>::allocate(1);
    EXPECT_TRUE(db.ok() && ds.ok() && di.ok() && dr.ok());
    EXPECT_TRUE(db->upload(bases.data(), n, stream_.get()).ok());
    EXPECT_TRUE(ds->upload(scalars.data(), n, stream_.get()).ok());
    EXPECT_TRUE(di->upload(ones.data(), ones.size(), stream_.get()).ok());
    MsmConfig cfg;
    cfg.scalar_bits = 1;
    cfg.affine_rounds = affine_rounds;
    cfg.point_index = di->data();
    cfg.scalar_index = di->data();
    cfg.profile = profile;
    size_t ws_bytes = 0;
    EXPECT_TRUE(msm<C>(nullptr, nullptr, ones.size(), nullptr, nullptr, &ws_bytes, nullptr, cfg).ok());
    auto ws = gpu::DeviceBuffer<uint8_t>::allocate(ws_bytes);
    EXPECT_TRUE(ws.ok());
    EXPECT_TRUE(dr->fill_bytes(0x5a, stream_.get()).ok());
    const Status st = msm<C>(db->data(), ds->data(), ones.size(), dr->data(), ws->data(), &ws_bytes, stream_.get(), cfg);
    EXPECT_TRUE(st.ok()) << st.to_string();
    Jacobian<C> got;
    EXPECT_TRUE(dr->download(&got, 1, stream_.get()).ok());
    EXPECT_TRUE(stream_.synchronize().ok());
    return got;
  }

  // The streamed batch-addition tests' inputs (BitmapCase, below).
  template <class Case>
  void make_bitmap_case(Case& c);

  // Bases A + i·H (device generator, itself checked against the CPU in ec_cuda_test).
  // progression() from fresh random A and H, with the point at infinity at
  // index inf_at.
  std::vector<Affine<C>> progression_with_infinity(TestRng& rng, size_t n, size_t inf_at) {
    std::vector<Affine<C>> bases = progression(n, random_point<C>(rng), random_point<C>(rng));
    bases[inf_at] = Affine<C>::identity();
    return bases;
  }

  std::vector<Affine<C>> progression(size_t n, const Affine<C>& a, const Affine<C>& h) {
    size_t scratch = 0;
    EXPECT_TRUE(ec::cuda::fill_progression<C>(nullptr, n, a, h, nullptr, &scratch, nullptr).ok());
    auto ws = gpu::DeviceBuffer<uint8_t>::allocate(scratch);
    auto d = gpu::DeviceBuffer<Affine<C>>::allocate(n);
    EXPECT_TRUE(ws.ok() && d.ok());
    EXPECT_TRUE(ec::cuda::fill_progression<C>(d->data(), n, a, h, ws->data(), &scratch, stream_.get()).ok());
    std::vector<Affine<C>> out(n);
    EXPECT_TRUE(d->download(out.data(), n, stream_.get()).ok());
    EXPECT_TRUE(stream_.synchronize().ok());
    return out;
  }

  gpu::Stream stream_;
};

template <class C>
Jacobian<C> naive_msm(const std::vector<Affine<C>>& bases, const std::vector<Fr>& scalars) {
  Jacobian<C> acc = Jacobian<C>::identity();
  for (size_t i = 0; i < scalars.size(); ++i) acc += ec::mul(bases[i], scalars[i]);
  return acc;
}

// Σ bases[i] over i < len with bit i of the bitmap set.
template <class C>
Jacobian<C> bitmap_sum(const std::vector<Affine<C>>& bases, const std::vector<uint64_t>& bitmap, size_t len) {
  Jacobian<C> acc = Jacobian<C>::identity();
  for (size_t i = 0; i < len; ++i)
    if ((bitmap[i / 64] >> (i % 64)) & 1) acc += bases[i];
  return acc;
}

// (Σ k_i)·A + (Σ i·k_i)·H.
template <class C>
Jacobian<C> progression_msm(const Affine<C>& a, const Affine<C>& h, const std::vector<Fr>& scalars) {
  Fr s0 = Fr::zero(), s1 = Fr::zero();
  for (size_t i = 0; i < scalars.size(); ++i) {
    s0 += scalars[i];
    s1 += scalars[i] * Fr::from_uint(i);
  }
  return ec::mul(a, s0) + ec::mul(h, s1);
}

using Curves = ::testing::Types<ec::G1Curve, ec::G2Curve>;
// n = 5013 bases (a progression with the point at infinity at 70), a random
// bitmap selecting about a quarter of them and the infinity, their sum, the
// bases in pinned memory and the bitmap on the device.
template <class C>
struct BitmapCase {
  size_t n = 5000 + 13;
  std::vector<Affine<C>> bases;
  std::vector<uint64_t> bitmap;
  Jacobian<C> want;
  StatusOr<gpu::PinnedBuffer<Affine<C>>> pinned = internal_error("not made");
  StatusOr<gpu::DeviceBuffer<uint64_t>> dbitmap = internal_error("not made");
};

template <class C>
template <class Case>
void DeviceMsmTest<C>::make_bitmap_case(Case& c) {
  TestRng rng(fresh_seed());
  c.bases = progression_with_infinity(rng, c.n, 70);
  c.bitmap.assign((c.n + 63) / 64, 0);
  for (auto& w : c.bitmap) w = rng() & rng();  // about a quarter of the bits
  c.bitmap[1] |= uint64_t(1) << 6;             // the point at infinity, selected
  c.want = bitmap_sum(c.bases, c.bitmap, c.n);
  c.pinned = gpu::PinnedBuffer<Affine<C>>::allocate(c.n);
  c.dbitmap = gpu::DeviceBuffer<uint64_t>::allocate(c.bitmap.size());
  ASSERT_TRUE(c.pinned.ok() && c.dbitmap.ok());
  std::copy(c.bases.begin(), c.bases.end(), c.pinned->begin());
  ASSERT_TRUE(c.dbitmap->upload(c.bitmap.data(), c.bitmap.size(), stream_.get()).ok());
  ASSERT_TRUE(stream_.synchronize().ok());
}

TYPED_TEST_SUITE(DeviceMsmTest, Curves);

TYPED_TEST(DeviceMsmTest, SmallSizesAndEdgeCasesMatchNaive) {
  using C = TypeParam;
  TestRng rng(fresh_seed());
  std::vector<Affine<C>> bases;
  std::vector<Fr> scalars;
  for (int i = 0; i < 150; ++i) {
    bases.push_back(random_point<C>(rng));
    scalars.push_back(Fr::random(rng));
  }
  scalars[0] = Fr::zero();
  scalars[1] = Fr::one();
  scalars[2] = -Fr::one();  // r − 1
  bases[3] = Affine<C>::identity();
  bases[4] = bases[5] = bases[6];  // repeated bases
  scalars[5] = scalars[6];
  for (size_t n : {size_t(0), size_t(1), size_t(2), size_t(3), size_t(7), size_t(33), size_t(150)}) {
    std::vector<Affine<C>> b(bases.begin(), bases.begin() + long(n));
    std::vector<Fr> s(scalars.begin(), scalars.begin() + long(n));
    const Jacobian<C> want = naive_msm(b, s);
    for (int c : {0, 2, 3, 4, 5, 13})
      for (int rounds : {-1, 0, 1, 16}) {
        MsmConfig cfg{c, 0, rounds};
        ASSERT_TRUE(this->device_msm(b, s, cfg) == want) << "n=" << n << " c=" << c << " affine_rounds=" << rounds;
      }
    ASSERT_TRUE(this->device_msm(b, s, MsmConfig{4, 2}) == want) << "n=" << n << " K=2";
  }
  std::vector<Fr> zeros(150, Fr::zero());
  EXPECT_TRUE(this->device_msm(bases, zeros).is_infinity());
}

// The batch-affine rounds' special cases: equal scalars put every point of a
// window into one bucket, so the rounds add P + P (doubling), P + (−P)
// (infinity), infinity + Q and infinity + infinity, over many rounds.
TYPED_TEST(DeviceMsmTest, AffineRoundsSpecialCasesMatchNaive) {
  using C = TypeParam;
  TestRng rng(fresh_seed());
  const Affine<C> b = random_point<C>(rng), other = random_point<C>(rng);
  const Affine<C> neg_b{b.x, -b.y};
  for (int pattern = 0; pattern < 3; ++pattern) {
    std::vector<Affine<C>> bases;
    std::vector<Fr> scalars;
    const Fr k = Fr::random(rng);
    for (size_t i = 0; i < 301; ++i) {
      switch (pattern) {
        case 0:  // B, B, −B, ∞, other, ...
          bases.push_back(i % 5 == 0 || i % 5 == 1 ? b
                          : i % 5 == 2             ? neg_b
                          : i % 5 == 3             ? Affine<C>::identity()
                                                   : other);
          break;
        case 1:  // B, −B alternating: every pair cancels
          bases.push_back(i % 2 == 0 ? b : neg_b);
          break;
        default:  // random points among repeated ones
          bases.push_back(rng() % 3 == 0 ? b : rng() % 2 == 0 ? neg_b : random_point<C>(rng));
      }
      scalars.push_back(pattern == 2 && rng() % 4 == 0 ? -k : (i % 11 == 10 ? Fr::zero() : k));
    }
    const Jacobian<C> want = naive_msm(bases, scalars);
    for (int c : {0, 3, 8})
      for (int rounds : {1, 2, 5, 16}) {
        MsmConfig cfg{c, 0, rounds};
        ASSERT_TRUE(this->device_msm(bases, scalars, cfg) == want)
            << "pattern=" << pattern << " c=" << c << " affine_rounds=" << rounds;
      }
  }
}

TYPED_TEST(DeviceMsmTest, LargeSizesMatchProgressionIdentity) {
  using C = TypeParam;
  TestRng rng(fresh_seed());
  const Affine<C> a = random_point<C>(rng), h = random_point<C>(rng);
  const size_t max_n = std::is_same_v<C, ec::G1Curve> ? 300001 : 70001;
  const std::vector<Affine<C>> bases = this->progression(max_n, a, h);
  for (size_t n : {size_t(1000), size_t(65536), max_n}) {
    std::vector<Affine<C>> b(bases.begin(), bases.begin() + long(n));
    std::vector<Fr> s(n);
    for (auto& x : s) x = Fr::random(rng);
    ASSERT_TRUE(this->device_msm(b, s) == progression_msm(a, h, s)) << "random scalars n=" << n;
    // Skewed: equal scalars fill one bucket per window (multi-level path), with zeros mixed in.
    const Fr k = Fr::random(rng);
    for (size_t i = 0; i < n; ++i) s[i] = (i % 5 == 0) ? Fr::zero() : k;
    ASSERT_TRUE(this->device_msm(b, s) == progression_msm(a, h, s)) << "equal scalars n=" << n;
    ASSERT_TRUE(this->device_msm(b, s, MsmConfig{9, 3}) == progression_msm(a, h, s)) << "K=3 n=" << n;
    ASSERT_TRUE(this->device_msm(b, s, MsmConfig{0, 0, 16}) == progression_msm(a, h, s)) << "16 rounds n=" << n;
    for (auto& x : s) x = Fr::random(rng);
    ASSERT_TRUE(this->device_msm(b, s, MsmConfig{0, 0, 0}) == progression_msm(a, h, s)) << "no rounds n=" << n;
    ASSERT_TRUE(this->device_msm(b, s, MsmConfig{0, 0, 6}) == progression_msm(a, h, s)) << "6 rounds n=" << n;
    // One window at a time, and two lanes with odd and even window counts (c = 14: 19 windows; 16: 16; 18: 15).
    ASSERT_TRUE(this->device_msm(b, s, MsmConfig{0, 0, -1, 1}) == progression_msm(a, h, s)) << "one lane n=" << n;
    for (int c : {14, 16, 18})
      ASSERT_TRUE(this->device_msm(b, s, MsmConfig{c, 0, -1, 2}) == progression_msm(a, h, s))
          << "two lanes c=" << c << " n=" << n;
    // Bucket-reduction groups of 2, 128 and 2^16 buckets (the last capped at c = 16's 2^15).
    for (int g : {2, 128, 1 << 16})
      ASSERT_TRUE(this->device_msm(b, s, MsmConfig{16, 0, -1, 0, g}) == progression_msm(a, h, s))
          << "reduce_group " << g << " n=" << n;
  }
}

// MsmConfig::scalar_bits: scalars below 2^bits, against the progression's
// identity; then the ones of a 0/1 split as the GPU prover sums them (one
// window of 2 bits), over index lists in descending order as classify()
// writes them, with and without pair rounds.
TYPED_TEST(DeviceMsmTest, ScalarBoundMatchesProgressionIdentity) {
  using C = TypeParam;
  TestRng rng(fresh_seed());
  const Affine<C> a = random_point<C>(rng), h = random_point<C>(rng);
  const size_t n = 40000 + 17;
  const std::vector<Affine<C>> bases = this->progression(n, a, h);
  for (int bits : {1, 2, 7, 8, 40, 254}) {
    std::vector<Fr> s(n);
    for (auto& x : s) {
      uint64_t v[4] = {rng(), rng(), rng(), rng()};
      for (int w = 0; w < 4; ++w) {
        const int lo = 64 * w;
        if (bits <= lo) v[w] = 0;
        else if (bits < lo + 64) v[w] &= (uint64_t(1) << (bits - lo)) - 1;
      }
      x = Fr::from_canonical_unchecked(Fr::Repr{v[0], v[1], v[2], v[3]});
    }
    s[5] = Fr::zero();
    for (int c : {0, 2, 5, 16}) {
      MsmConfig cfg;
      cfg.window_bits = c;
      cfg.scalar_bits = bits;
      ASSERT_TRUE(this->device_msm(bases, s, cfg) == progression_msm(a, h, s)) << "bits " << bits << " c " << c;
    }
  }
  // The ones: scalars 0/1 (and others, which the lists skip), lists of the
  // ones' positions, last first.
  std::vector<Fr> s(n);
  std::vector<uint32_t> ones;
  for (size_t i = 0; i < n; ++i) {
    const uint64_t r = rng() % 16;
    s[i] = r < 7 ? Fr::one() : r < 12 ? Fr::zero() : Fr::random(rng);
  }
  for (size_t i = n; i-- > 0;)
    if (s[i] == Fr::one()) ones.push_back(uint32_t(i));
  std::vector<Fr> only_ones(n, Fr::zero());
  for (uint32_t i : ones) only_ones[i] = Fr::one();
  const Jacobian<C> want = progression_msm(a, h, only_ones);
  for (int rounds : {-1, 0, 1, 5})
    ASSERT_TRUE(this->ones_list_msm(bases, s, ones, rounds) == want) << "ones over lists, affine_rounds " << rounds;
}

// The ones' list at the sizes where the tuning takes pair rounds (G1 2^22:
// two, G2 2^22: three; the test above has about 17,500 ones, below the
// tuning's first size): one bucket of millions of points, halved round by round, every
// point added once and never negated. Five eighths of the points are listed,
// last first, as classify() writes them; the rest carry other scalars.
TYPED_TEST(DeviceMsmTest, OnesListAtTunedRoundsMatchesProgressionIdentity) {
  using C = TypeParam;
  TestRng rng(fresh_seed());
  const Affine<C> a = random_point<C>(rng), h = random_point<C>(rng);
  const size_t n = (size_t(1) << 23) + 5;
  const std::vector<Affine<C>> bases = this->progression(n, a, h);
  std::vector<Fr> s(n), only_ones(n, Fr::zero());
  std::vector<uint32_t> ones;
  for (size_t i = n; i-- > 0;) {
    const uint64_t r = rng() % 8;
    s[i] = r < 5 ? Fr::one() : r < 6 ? Fr::zero() : Fr::random(rng);
    if (r < 5) {
      ones.push_back(uint32_t(i));
      only_ones[i] = Fr::one();
    }
  }
  // About 5.2M ones (σ ≈ 1,400): always past 2^22, where G1 takes two rounds.
  ASSERT_GT(ones.size(), size_t(1) << 22);
  const Jacobian<C> want = progression_msm(a, h, only_ones);
  MsmProfile profile;
  const Jacobian<C> got = this->ones_list_msm(bases, s, ones, -1, &profile);
  EXPECT_GE(profile.affine_rounds, 2) << "the tuning took no pair rounds at " << ones.size() << " ones";
  ASSERT_TRUE(got == want) << ones.size() << " ones, " << profile.affine_rounds << " rounds";
}

TYPED_TEST(DeviceMsmTest, BatchAddMatchesCpu) {
  using C = TypeParam;
  TestRng rng(fresh_seed());
  const size_t n = 20000 + 37;
  const std::vector<Affine<C>> bases = this->progression_with_infinity(rng, n, 11);
  auto db = gpu::DeviceBuffer<Affine<C>>::allocate(n);
  auto dm = gpu::DeviceBuffer<uint64_t>::allocate((n + 63) / 64);
  auto dr = gpu::DeviceBuffer<Jacobian<C>>::allocate(1);
  size_t ws_bytes = 0;
  ASSERT_TRUE(batch_add<C>(nullptr, nullptr, n, nullptr, nullptr, &ws_bytes, nullptr).ok());
  auto ws = gpu::DeviceBuffer<uint8_t>::allocate(ws_bytes);
  ASSERT_TRUE(db.ok() && dm.ok() && dr.ok() && ws.ok());
  ASSERT_TRUE(db->upload(bases.data(), n, this->stream_.get()).ok());
  // Patterns: none, all, dense random, sparse random (about one bit in 500),
  // and only the last position of each length. Lengths: a warp of the
  // kernel takes 4 groups of 2048 positions, so 6149 ends inside a warp's
  // fourth group and n spans three warps.
  for (int pattern = 0; pattern < 5; ++pattern) {
    for (size_t len : {size_t(0), size_t(1), size_t(64), size_t(65), size_t(6149), n}) {
      std::vector<uint64_t> bitmap((n + 63) / 64);
      for (auto& w : bitmap) {
        if (pattern == 3) {
          w = 0;
          for (int k = 0; k < 64; ++k) w |= uint64_t(rng() % 500 == 0) << k;
        } else {
          w = pattern == 0 || pattern == 4 ? 0 : pattern == 1 ? ~uint64_t(0) : rng() & rng();
        }
      }
      if (pattern == 4 && len > 0) bitmap[(len - 1) / 64] |= uint64_t(1) << ((len - 1) % 64);
      const Jacobian<C> want = bitmap_sum(bases, bitmap, len);
      ASSERT_TRUE(dm->upload(bitmap.data(), bitmap.size(), this->stream_.get()).ok());
      Status s = batch_add<C>(db->data(), dm->data(), len, dr->data(), ws->data(), &ws_bytes, this->stream_.get());
      ASSERT_TRUE(s.ok()) << s.to_string();
      Jacobian<C> got;
      ASSERT_TRUE(dr->download(&got, 1, this->stream_.get()).ok());
      ASSERT_TRUE(this->stream_.synchronize().ok());
      ASSERT_TRUE(got == want) << "pattern " << pattern << " len " << len;
    }
  }
}

// 0, 1, 2 and many batches; bases in pinned and in pageable host memory,
// scalars on the host and on the device.
// The batch plan (host logic, no GPU needed): batches tile [0, n) in order,
// a first batch of `first` points (at most `size`), then batches of `size`.
TEST(StreamedPlan, FirstBatchThenFullBatches) {
  using P = StreamedMsm<ec::G1Curve>::Plan;
  for (P p : {P{8, 64}, P{64, 64}, P{1, 5}, P{3, 100}, P{100, 3}}) {
    for (size_t n : {size_t(0), size_t(1), size_t(7), size_t(8), size_t(9), size_t(64), size_t(1000), size_t(4097)}) {
      const size_t count = p.count(n);
      size_t at = 0;
      for (size_t i = 0; i < count; ++i) {
        const size_t want = i == 0 ? std::min(p.first, p.size) : p.size;
        ASSERT_EQ(p.begin(i), at) << "first=" << p.first << " size=" << p.size << " n=" << n << " i=" << i;
        ASSERT_EQ(p.len(i, n), std::min(want, n - at)) << "n=" << n << " i=" << i;
        ASSERT_GT(p.len(i, n), 0u) << "first=" << p.first << " size=" << p.size << " n=" << n << " i=" << i;
        at += p.len(i, n);
      }
      EXPECT_EQ(at, n) << "first=" << p.first << " size=" << p.size;
    }
  }
}

// The pair kernels' lane mapping (kernels::pair_lane): warp w owns the 32·K
// pairs from w·32·K, its lane l every 32nd of them from w·32·K + l. The plan's
// pair_threads (level 0 of the inversion tree, and the grid) must count
// exactly the threads that own a pair, which must be a prefix of the thread
// ids, with every pair owned once and at most K per thread. Host only.
// The bucket reduction's groups: 64 buckets where the windows hold 2^21
// buckets or more (c = 22 at 2^27: 12 windows of 2^21), else 32 (c = 16 at
// 2^20: 16 windows of 2^15); a configured size is taken, capped at the
// window's buckets.
TEST(MsmPlan, ReductionGroupsFollowTheBucketCount) {
  detail::Plan p;
  const AffineTuning tuning;
  ASSERT_TRUE(detail::make_plan(size_t(1) << 27, MsmConfig{}, tuning, &p).ok());
  EXPECT_EQ(p.c, 22);
  EXPECT_EQ(p.group_len, 64u);
  EXPECT_EQ(p.groups, p.buckets / 64);
  ASSERT_TRUE(detail::make_plan(size_t(1) << 20, MsmConfig{}, tuning, &p).ok());
  EXPECT_EQ(p.c, 16);
  EXPECT_EQ(p.group_len, 32u);
  ASSERT_TRUE(detail::make_plan(1000, MsmConfig{0, 0, -1, 0, 256}, tuning, &p).ok());
  EXPECT_EQ(p.group_len, std::min<uint32_t>(256, p.buckets));
  ASSERT_TRUE(detail::make_plan(size_t(1) << 20, MsmConfig{16, 0, -1, 0, 1 << 16}, tuning, &p).ok());
  EXPECT_EQ(p.group_len, 1u << 15);
  EXPECT_EQ(p.groups, 1u);
}

TEST(MsmPlan, PairThreadsCountsTheLanesThatOwnPairs) {
  constexpr size_t kK = detail::kPairsPerThreadHost, kSpan = 32 * kK;
  TestRng rng(fresh_seed());
  std::vector<size_t> totals = {0, 1, 2, 31, 32, 33, kSpan - 1, kSpan, kSpan + 1, kSpan + 31, kSpan + 32,
                                kSpan + 33, 3 * kSpan, 5 * kSpan + 7};
  for (int i = 0; i < 40; ++i) totals.push_back(size_t(rng() % (size_t(1) << 18)));
  std::sort(totals.begin(), totals.end());
  size_t previous = 0;
  for (size_t total : totals) {
    size_t owners = 0, pairs = 0, last_owner = 0;
    for (size_t t = 0; t < (total + kSpan - 1) / kSpan * 32 + 32; ++t) {
      const size_t base = t / 32 * kSpan, first = base + t % 32, end = std::min(base + kSpan, total);
      if (first >= end) continue;
      const size_t mine = (end - 1 - first) / 32 + 1;
      ASSERT_LE(mine, kK) << "total " << total << " thread " << t;
      ++owners, pairs += mine, last_owner = t;
    }
    const size_t counted = detail::pair_threads(total);
    EXPECT_EQ(owners, counted) << "total " << total;
    if (owners > 0) {
      EXPECT_EQ(last_owner + 1, counted) << "owners are not a prefix, total " << total;
    }
    EXPECT_EQ(pairs, total);
    EXPECT_GE(counted, previous) << "pair_threads must not decrease (workspace bounds), total " << total;
    EXPECT_EQ(detail::inv_tree_bounds(total).front(), counted);
    previous = counted;
  }
}

// classify() against a host split of the same scalars: the ones' bitmap, the
// tail's lists, and (with ones_count) the ones' lists from the arrays' far
// end, for the L form (offset) and the A/B form (index), at lengths around a
// word and a warp and past 2^20, for a mixed witness and the extreme ones.
TEST(DeviceSplit, ClassifyListsTheOnesAndTheTail) {
  if (!gpu::device_available()) GTEST_SKIP() << gpu::device_unavailable_reason();
  TestRng rng(fresh_seed());
  auto stream = gpu::Stream::create();
  ASSERT_TRUE(stream.ok());
  // Witnesses: a random mix (3/8 ones, 3/8 zeros), all ones (the ones' list
  // fills the arrays, the tail is empty), all zeros, all tail (no ones).
  const size_t total = (size_t(1) << 20) + 100;
  for (int pattern = 0; pattern < 4; ++pattern) {
    SCOPED_TRACE("witness pattern " + std::to_string(pattern));
    std::vector<Fr> w(total);
    for (auto& x : w) {
      const uint64_t r = pattern == 0 ? rng() % 8 : pattern == 1 ? 0 : pattern == 2 ? 4 : 7;
      x = r < 3 ? Fr::one() : r < 6 ? Fr::zero() : Fr::random(rng);
      if (x == Fr::one() && pattern == 3) x = Fr::one() + Fr::one();
    }
    if (pattern == 0) w[3] = Fr::one() + Fr::one();
    auto dw = gpu::DeviceBuffer<Fr>::allocate(total);
    ASSERT_TRUE(dw.ok() && dw->upload(w.data(), total, stream->get()).ok());
    for (size_t m : {size_t(0), size_t(1), size_t(63), size_t(64), size_t(65), size_t(4111), (size_t(1) << 20) + 3}) {
      for (bool indexed : {false, true}) {
        std::vector<uint32_t> index(std::max<size_t>(m, 1));
        for (auto& i : index) i = uint32_t(rng() % total);
        const uint32_t offset = indexed ? 0 : 17;
        auto scalar_of = [&](size_t j) { return indexed ? size_t(index[j]) : offset + j; };
        auto di = gpu::DeviceBuffer<uint32_t>::allocate(index.size());
        auto bitmap = gpu::DeviceBuffer<uint64_t>::allocate((m + 63) / 64 + 1);
        auto tp = gpu::DeviceBuffer<uint32_t>::allocate(std::max<size_t>(m, 1));
        auto ts = gpu::DeviceBuffer<uint32_t>::allocate(std::max<size_t>(m, 1));
        auto counts = gpu::DeviceBuffer<uint32_t>::allocate(2);
        ASSERT_TRUE(di.ok() && bitmap.ok() && tp.ok() && ts.ok() && counts.ok());
        ASSERT_TRUE(di->upload(index.data(), index.size(), stream->get()).ok());
        SplitBuffers b{bitmap->data(), tp->data(), ts->data(), counts->data(), counts->data() + 1};
        size_t ws_bytes = 0;
        ASSERT_TRUE(classify(nullptr, nullptr, 0, m, b, nullptr, &ws_bytes, nullptr).ok());
        auto ws = gpu::DeviceBuffer<uint8_t>::allocate(ws_bytes);
        ASSERT_TRUE(ws.ok());
        const Status st =
            classify(dw->data(), indexed ? di->data() : nullptr, offset, m, b, ws->data(), &ws_bytes, stream->get());
        ASSERT_TRUE(st.ok()) << st.to_string();
        std::vector<uint64_t> got_bits((m + 63) / 64);
        std::vector<uint32_t> got_tp(std::max<size_t>(m, 1)), got_ts(std::max<size_t>(m, 1)), got_counts(2);
        ASSERT_TRUE(bitmap->download(got_bits.data(), got_bits.size(), stream->get()).ok());
        ASSERT_TRUE(tp->download(got_tp.data(), got_tp.size(), stream->get()).ok());
        ASSERT_TRUE(ts->download(got_ts.data(), got_ts.size(), stream->get()).ok());
        ASSERT_TRUE(counts->download(got_counts.data(), 2, stream->get()).ok());
        ASSERT_TRUE(stream->synchronize().ok());
        std::vector<uint32_t> ones, tail;
        for (size_t j = 0; j < m; ++j) {
          const Fr& k = w[scalar_of(j)];
          const bool one = k == Fr::one();
          if (one) ones.push_back(uint32_t(j));
          if (!one && !k.is_zero()) tail.push_back(uint32_t(j));
          ASSERT_EQ(((got_bits[j / 64] >> (j % 64)) & 1) != 0, one) << "m " << m << " bit " << j;
        }
        ASSERT_EQ(got_counts[0], tail.size()) << "m " << m;
        ASSERT_EQ(got_counts[1], ones.size()) << "m " << m;
        for (size_t t = 0; t < tail.size(); ++t) {
          ASSERT_EQ(got_tp[t], tail[t]) << "m " << m << " tail " << t;
          ASSERT_EQ(got_ts[t], scalar_of(tail[t])) << "m " << m << " tail " << t;
        }
        const OnesList list = ones_list(b, m, got_counts[1]);
        const size_t first = size_t(list.points - tp->data());
        ASSERT_EQ(first, m - ones.size());
        ASSERT_EQ(size_t(list.scalars - ts->data()), first);
        for (size_t t = 0; t < ones.size(); ++t) {
          // Descending from the list's first entry: the last one first.
          ASSERT_EQ(got_tp[first + t], ones[ones.size() - 1 - t]) << "m " << m << " one " << t;
          ASSERT_EQ(got_ts[first + t], scalar_of(ones[ones.size() - 1 - t])) << "m " << m << " one " << t;
        }
      }
    }
  }
}

// Config checks come before any device call (no GPU needed).
TEST(MsmConfigCheck, OutOfRangeFieldsAreRejectedByName) {
  size_t bytes = 0;
  struct Case {
    MsmConfig cfg;
    const char* field;
  };
  for (const Case& c : {Case{MsmConfig{25}, "window_bits"}, Case{MsmConfig{0, 1}, "points_per_task"},
                        Case{MsmConfig{0, 0, 17}, "affine_rounds"}, Case{MsmConfig{0, 0, -1, 3}, "window_lanes"},
                        Case{MsmConfig{0, 0, -1, -1}, "window_lanes"}, Case{MsmConfig{0, 0, -1, 0, 1}, "reduce_group"},
                        Case{MsmConfig{0, 0, -1, 0, 48}, "reduce_group"},
                        Case{MsmConfig{0, 0, -1, 0, 1 << 17}, "reduce_group"}}) {
    const Status s = msm<ec::G1Curve>(nullptr, nullptr, 1000, nullptr, nullptr, &bytes, nullptr, c.cfg);
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << c.field;
    EXPECT_NE(s.message().find(c.field), std::string::npos) << s.to_string();
  }
  for (int bits : {-1, 256}) {
    MsmConfig cfg;
    cfg.scalar_bits = bits;
    const Status s = msm<ec::G1Curve>(nullptr, nullptr, 1000, nullptr, nullptr, &bytes, nullptr, cfg);
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << bits;
    EXPECT_NE(s.message().find("scalar_bits"), std::string::npos) << s.to_string();
  }
}

TYPED_TEST(DeviceMsmTest, StreamedMatchesResident) {
  using C = TypeParam;
  TestRng rng(fresh_seed());
  const Affine<C> a = random_point<C>(rng), h = random_point<C>(rng);
  const size_t n = 5000;
  const std::vector<Affine<C>> bases = this->progression(n, a, h);
  std::vector<Fr> scalars(n);
  for (auto& x : scalars) x = Fr::random(rng);
  auto pinned = gpu::PinnedBuffer<Affine<C>>::allocate(n);
  auto dscalars = gpu::DeviceBuffer<Fr>::allocate(n);
  ASSERT_TRUE(pinned.ok() && dscalars.ok());
  std::copy(bases.begin(), bases.end(), pinned->begin());
  ASSERT_TRUE(dscalars->upload(scalars.data(), n, this->stream_.get()).ok());
  ASSERT_TRUE(this->stream_.synchronize().ok());
  const Jacobian<C> want = progression_msm(a, h, scalars);
  for (size_t batch : {size_t(5000), size_t(2500), size_t(4999), size_t(777), size_t(100000)})
    for (int rounds : {-1, 2}) {
      auto m = StreamedMsm<C>::create(batch, MsmConfig{0, 0, rounds});
      ASSERT_TRUE(m.ok()) << m.status().to_string();
      auto r0 = m->run(pinned->data(), scalars.data(), 0);
      ASSERT_TRUE(r0.ok() && r0->is_infinity()) << "zero batches";
      auto r1 = m->run(pinned->data(), scalars.data(), n);
      ASSERT_TRUE(r1.ok()) << r1.status().to_string();
      EXPECT_TRUE(*r1 == want) << "batch " << batch << " (" << m->batches_for(n) << " batches), affine_rounds "
                               << rounds;
      auto r2 = m->run(bases.data(), dscalars->data(), n);
      ASSERT_TRUE(r2.ok()) << r2.status().to_string();
      EXPECT_TRUE(*r2 == want) << "pageable bases, device scalars, batch " << batch << " affine_rounds " << rounds;
    }
}

// The batch addition with streamed bases: 0, 1, 2 and many batches (batch
// sizes that are and are not multiples of 64), pinned and pageable bases,
// bitmap on the host and on the device, against a CPU sum.
TYPED_TEST(DeviceMsmTest, StreamedBatchAddMatchesCpu) {
  using C = TypeParam;
  BitmapCase<C> bc;
  this->make_bitmap_case(bc);
  if (::testing::Test::HasFatalFailure()) return;
  const size_t n = bc.n;
  const std::vector<Affine<C>>& bases = bc.bases;
  const std::vector<uint64_t>& bitmap = bc.bitmap;
  const Jacobian<C>& want = bc.want;
  auto& pinned = bc.pinned;
  auto& dbitmap = bc.dbitmap;
  for (size_t batch : {size_t(n), size_t(2560), size_t(2600), size_t(777), size_t(64), size_t(100000)}) {
    auto m = StreamedMsm<C>::create(batch);
    ASSERT_TRUE(m.ok()) << m.status().to_string();
    auto r0 = m->run_batch_add(pinned->data(), bitmap.data(), 0);
    ASSERT_TRUE(r0.ok() && r0->is_infinity()) << "zero batches";
    auto r1 = m->run_batch_add(pinned->data(), bitmap.data(), n);
    ASSERT_TRUE(r1.ok()) << r1.status().to_string();
    EXPECT_TRUE(*r1 == want) << "pinned bases, host bitmap, batch " << batch;
    auto r2 = m->run_batch_add(bases.data(), dbitmap->data(), n);
    ASSERT_TRUE(r2.ok()) << r2.status().to_string();
    EXPECT_TRUE(*r2 == want) << "pageable bases, device bitmap, batch " << batch;
  }
  auto small = StreamedMsm<C>::create(63);
  ASSERT_TRUE(small.ok());
  EXPECT_FALSE(small->run_batch_add(pinned->data(), bitmap.data(), n).ok()) << "batch below one bitmap word";
}

// Lent memory against the owned memory and the resident msm(): 0, 1, 2 and
// many batches of n points (n not a multiple of any batch), scalars staged
// from the host and read in device memory, the lent region at an unaligned
// start and exactly its reported size, poisoned before every run; one
// borrowing object at every batch size (as the CUDA lane runs one object at
// two); an owning object lent memory between runs on its own.
TYPED_TEST(DeviceMsmTest, StreamedLentMatchesOwnedAndResident) {
  using C = TypeParam;
  TestRng rng(fresh_seed());
  const Affine<C> a = random_point<C>(rng), h = random_point<C>(rng);
  const size_t n = 5000 + 17;
  const std::vector<Affine<C>> bases = this->progression(n, a, h);
  std::vector<Fr> scalars(n);
  for (auto& x : scalars) x = Fr::random(rng);
  scalars[0] = Fr::zero(), scalars[1] = Fr::one(), scalars[n - 1] = -Fr::one();
  auto pinned = gpu::PinnedBuffer<Affine<C>>::allocate(n);
  auto dscalars = gpu::DeviceBuffer<Fr>::allocate(n);
  ASSERT_TRUE(pinned.ok() && dscalars.ok());
  std::copy(bases.begin(), bases.end(), pinned->begin());
  ASSERT_TRUE(dscalars->upload(scalars.data(), n, this->stream_.get()).ok());
  ASSERT_TRUE(this->stream_.synchronize().ok());
  const Jacobian<C> want = progression_msm(a, h, scalars);
  ASSERT_TRUE(this->device_msm(bases, scalars) == want) << "resident msm()";
  auto borrowing = StreamedMsm<C>::create_borrowing();
  ASSERT_TRUE(borrowing.ok()) << borrowing.status().to_string();
  EXPECT_EQ(borrowing->run(pinned->data(), scalars.data(), n).status().code(), StatusCode::kFailedPrecondition);
  struct Case {
    size_t batch, batches;  // batches of n with the bases in host memory
  };
  for (const Case& c : {Case{4 * n, 1}, Case{n, 2}, Case{777, 8}, Case{64, 80}}) {
    ASSERT_EQ(StreamedMsm<C>::plan_for(c.batch, false).count(n), c.batches) << "batch " << c.batch;
    auto owned = StreamedMsm<C>::create(c.batch);
    ASSERT_TRUE(owned.ok()) << owned.status().to_string();
    for (bool stage : {true, false}) {
      const Fr* sc = stage ? scalars.data() : dscalars->data();
      const size_t need = StreamedMsm<C>::run_bytes(c.batch, stage);
      ASSERT_GT(need, 0u);
      EXPECT_LE(need, StreamedMsm<C>::device_bytes(c.batch));
      if (!stage) {
        EXPECT_LT(need, StreamedMsm<C>::run_bytes(c.batch, true));
      }
      auto mem = gpu::DeviceBuffer<uint8_t>::allocate(need + 8);
      ASSERT_TRUE(mem.ok());
      const LentMemory lent{mem->data() + 8, need, c.batch};
      auto run = [&](StreamedMsm<C>& m, size_t count) {
        EXPECT_TRUE(mem->fill_bytes(0xa5, this->stream_.get()).ok());  // poison
        EXPECT_TRUE(this->stream_.synchronize().ok());
        return m.run(pinned->data(), sc, count, lent);
      };
      const std::string what = "batch " + std::to_string(c.batch) + (stage ? ", host scalars" : ", device scalars");
      auto r0 = run(*borrowing, 0);
      ASSERT_TRUE(r0.ok() && r0->is_infinity()) << "zero batches, " << what;
      auto r1 = run(*borrowing, n);
      ASSERT_TRUE(r1.ok()) << r1.status().to_string();
      EXPECT_TRUE(*r1 == want) << "borrowing, " << what;
      auto r2 = run(*owned, n);
      ASSERT_TRUE(r2.ok()) << r2.status().to_string();
      EXPECT_TRUE(*r2 == want) << "owning object, lent memory, " << what;
      auto r3 = owned->run(pinned->data(), sc, n);
      ASSERT_TRUE(r3.ok()) << r3.status().to_string();
      EXPECT_TRUE(*r3 == want) << "owning object, its own memory, " << what;
      const LentMemory short_lent{mem->data() + 8, need - 1, c.batch};
      EXPECT_EQ(borrowing->run(pinned->data(), sc, n, short_lent).status().code(), StatusCode::kInvalidArgument);
    }
  }
}

// The batch addition in lent memory against the owned memory and a CPU sum:
// 0, 1, 2 and many batches, host and device bitmap, an unaligned poisoned
// region of exactly the reported size.
TYPED_TEST(DeviceMsmTest, StreamedLentBatchAddMatchesOwned) {
  using C = TypeParam;
  BitmapCase<C> bc;
  this->make_bitmap_case(bc);
  if (::testing::Test::HasFatalFailure()) return;
  const size_t n = bc.n;
  const std::vector<uint64_t>& bitmap = bc.bitmap;
  const Jacobian<C>& want = bc.want;
  auto& pinned = bc.pinned;
  auto& dbitmap = bc.dbitmap;
  auto borrowing = StreamedMsm<C>::create_borrowing();
  ASSERT_TRUE(borrowing.ok()) << borrowing.status().to_string();
  EXPECT_EQ(borrowing->run_batch_add(pinned->data(), bitmap.data(), n).status().code(),
            StatusCode::kFailedPrecondition);
  for (size_t batch : {size_t(20480), size_t(n), size_t(777), size_t(64)}) {
    const size_t need = StreamedMsm<C>::batch_add_bytes(batch);
    ASSERT_GT(need, 0u);
    EXPECT_LE(need, StreamedMsm<C>::device_bytes(batch));
    auto mem = gpu::DeviceBuffer<uint8_t>::allocate(need + 8);
    auto owned = StreamedMsm<C>::create(batch);
    ASSERT_TRUE(mem.ok() && owned.ok());
    const LentMemory lent{mem->data() + 8, need, batch};
    for (bool host_bitmap : {true, false}) {
      const uint64_t* bm = host_bitmap ? bitmap.data() : dbitmap->data();
      const std::string what = "batch " + std::to_string(batch) + (host_bitmap ? ", host bitmap" : ", device bitmap");
      for (size_t count : {size_t(0), n}) {
        ASSERT_TRUE(mem->fill_bytes(0xa5, this->stream_.get()).ok());  // poison
        ASSERT_TRUE(this->stream_.synchronize().ok());
        auto r = borrowing->run_batch_add(pinned->data(), bm, count, lent);
        ASSERT_TRUE(r.ok()) << r.status().to_string();
        EXPECT_TRUE(count == 0 ? r->is_infinity() : *r == want) << "borrowing, n " << count << ", " << what;
      }
      auto own = owned->run_batch_add(pinned->data(), bm, n);
      ASSERT_TRUE(own.ok()) << own.status().to_string();
      EXPECT_TRUE(*own == want) << "owning object, " << what;
      auto via_owner = owned->run_batch_add(pinned->data(), bm, n, lent);
      ASSERT_TRUE(via_owner.ok()) << via_owner.status().to_string();
      EXPECT_TRUE(*via_owner == want) << "owning object, lent memory, " << what;
    }
    const LentMemory short_lent{mem->data() + 8, need - 1, batch};
    EXPECT_EQ(borrowing->run_batch_add(pinned->data(), bitmap.data(), n, short_lent).status().code(),
              StatusCode::kInvalidArgument);
  }
  auto mem = gpu::DeviceBuffer<uint8_t>::allocate(StreamedMsm<C>::device_bytes(64));
  ASSERT_TRUE(mem.ok());
  const LentMemory tiny{mem->data(), mem->bytes(), 63};
  EXPECT_EQ(borrowing->run_batch_add(pinned->data(), bitmap.data(), n, tiny).status().code(),
            StatusCode::kInvalidArgument)
      << "batch below one bitmap word";
}

}  // namespace
}  // namespace cuzk::msm::cuda
