// The device matvec against the CPU's (r1cs::compute_abc), bit for bit:
// hand-made rows of every length around the short/long split (0 to 5000
// terms) with edge values (0, 1, −1 as witness values and coefficients), and
// synthetic circuits of sizes that are not powers of two, from fresh seeds.
// first_unsatisfied against a host scan. Skips without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "cuzk/base/random.h"
#include "cuzk/gpu/buffer.h"
#include "cuzk/gpu/device.h"
#include "cuzk/gpu/stream.h"
#include "cuzk/r1cs/cuda/matvec.h"
#include "cuzk/r1cs/eval.h"
#include "cuzk/r1cs/synthetic.h"

namespace cuzk::r1cs::cuda {
namespace {

using ff::Fr;

class MatvecCudaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!gpu::device_available()) GTEST_SKIP() << gpu::device_unavailable_reason();
    seed_ = fresh_test_seed();
    std::printf("seed %llu\n", static_cast<unsigned long long>(seed_));
  }
  uint64_t seed_ = 0;
};

template <class T>
gpu::DeviceBuffer<T> to_device(const std::vector<T>& v, cudaStream_t s) {
  auto d = gpu::DeviceBuffer<T>::allocate(std::max<size_t>(v.size(), 1));
  EXPECT_TRUE(d.ok());
  EXPECT_TRUE(d->upload(v.data(), v.size(), s).ok());
  return std::move(*d);
}

template <class T>
std::vector<T> to_host(const gpu::DeviceBuffer<T>& d, size_t n, cudaStream_t s) {
  std::vector<T> v(n);
  EXPECT_TRUE(d.download(v.data(), n, s).ok());
  EXPECT_EQ(cudaStreamSynchronize(s), cudaSuccess);
  return v;
}

// Device a, b, c of `c` under `w` equal the CPU's.
void expect_same_rows(const Circuit& c, const std::vector<Fr>& w) {
  auto stream = gpu::Stream::create();
  ASSERT_TRUE(stream.ok());
  cudaStream_t s = stream->get();
  auto dc = DeviceCircuit::upload(c, s);
  ASSERT_TRUE(dc.ok()) << dc.status().to_string();
  EXPECT_LE(dc->bytes(), DeviceCircuit::device_bytes(c));
  const size_t m = c.num_constraints();
  std::vector<Fr> a(m), b(m), cc(m);
  ASSERT_TRUE(compute_abc(c, w, a, b, cc).ok());
  auto d_w = to_device(w, s);
  // Poisoned outputs: every row must be written.
  std::vector<Fr> junk(std::max<size_t>(m, 1), Fr::one() + Fr::one());
  auto d_a = to_device(junk, s), d_b = to_device(junk, s), d_c = to_device(junk, s);
  ASSERT_TRUE(compute_abc(dc->view(), d_w.data(), d_a.data(), d_b.data(), d_c.data(), s).ok());
  const std::vector<Fr> ga = to_host(d_a, m, s), gb = to_host(d_b, m, s), gc = to_host(d_c, m, s);
  for (size_t i = 0; i < m; ++i) {
    ASSERT_EQ(ga[i], a[i]) << "a, row " << i;
    ASSERT_EQ(gb[i], b[i]) << "b, row " << i;
    ASSERT_EQ(gc[i], cc[i]) << "c, row " << i;
  }
}

TEST_F(MatvecCudaTest, RowsOfEveryLengthWithEdgeValues) {
  TestRng rng(seed_);
  const uint64_t num_inputs = 3, num_aux = 6000;
  std::vector<Fr> w(num_inputs + num_aux);
  w[0] = Fr::one();
  for (size_t i = 1; i < w.size(); ++i) {
    switch (rng() % 5) {
      case 0: w[i] = Fr::zero(); break;
      case 1: w[i] = Fr::one(); break;
      case 2: w[i] = -Fr::one(); break;
      default: w[i] = Fr::random(rng);
    }
  }
  const Fr coeffs[4] = {Fr::one(), -Fr::one(), Fr::random(rng), Fr::random(rng)};
  CircuitBuilder builder(num_inputs, num_aux);
  const uint32_t lengths[] = {0, 1, 2, 3, 31, 32, 33, 34, 63, 64, 65, 100, 1000, 5000};
  for (int rep = 0; rep < 3; ++rep)
    for (uint32_t la : lengths) {
      std::vector<LinTerm> lc[3];
      const uint32_t len[3] = {la, lengths[rng() % std::size(lengths)], uint32_t(rng() % 40)};
      for (int mtx = 0; mtx < 3; ++mtx) {
        // Distinct variables (canonical rows have no repeats).
        std::vector<uint64_t> vars(w.size());
        for (size_t i = 0; i < vars.size(); ++i) vars[i] = i;
        for (uint32_t t = 0; t < len[mtx]; ++t) {
          std::swap(vars[t], vars[t + rng() % (vars.size() - t)]);
          lc[mtx].push_back({vars[t], coeffs[rng() % 4]});
        }
      }
      ASSERT_TRUE(builder.add_row(lc[0], lc[1], lc[2]).ok());
    }
  auto c = std::move(builder).build();
  ASSERT_TRUE(c.ok()) << c.status().to_string();
  expect_same_rows(*c, w);
}

TEST_F(MatvecCudaTest, SyntheticCircuits) {
  const uint64_t sizes[][2] = {{1, 1}, {7, 5}, {1000, 1200}, {4097, 3000}, {100000, 90001}};
  uint64_t seed = seed_;
  for (const auto& [rows, aux] : sizes) {
    SyntheticParams p;
    p.num_constraints = rows;
    p.num_aux = aux;
    p.terms_per_lc = uint32_t(1 + seed % 6);
    p.seed = seed++;
    auto sc = generate_synthetic(p);
    ASSERT_TRUE(sc.ok()) << sc.status().to_string();
    SCOPED_TRACE(rows);
    expect_same_rows(sc->circuit, sc->witness);
  }
}

TEST_F(MatvecCudaTest, PorepShaped) {
  auto sc = generate_porep_shaped(14, seed_);
  ASSERT_TRUE(sc.ok()) << sc.status().to_string();
  expect_same_rows(sc->circuit, sc->witness);
}

TEST_F(MatvecCudaTest, FirstUnsatisfiedRow) {
  auto stream = gpu::Stream::create();
  ASSERT_TRUE(stream.ok());
  cudaStream_t s = stream->get();
  TestRng rng(seed_);
  SyntheticParams p;
  p.num_constraints = 50000;
  p.num_aux = 40000;
  p.seed = seed_;
  auto sc = generate_synthetic(p);
  ASSERT_TRUE(sc.ok());
  const size_t m = p.num_constraints;
  std::vector<Fr> a(m), b(m), c(m);
  ASSERT_TRUE(compute_abc(sc->circuit, sc->witness, a, b, c).ok());
  auto first_of = [&](const std::vector<Fr>& cc) {
    auto d_a = to_device(a, s), d_b = to_device(b, s), d_c = to_device(cc, s);
    auto d_first = gpu::DeviceBuffer<uint32_t>::allocate(1);
    EXPECT_TRUE(d_first.ok());
    EXPECT_TRUE(first_unsatisfied(d_a.data(), d_b.data(), d_c.data(), m, d_first->data(), s).ok());
    return to_host(*d_first, 1, s)[0];
  };
  EXPECT_EQ(first_of(c), UINT32_MAX);
  for (int trial = 0; trial < 4; ++trial) {
    std::vector<Fr> bad = c;
    const size_t j = rng() % m, k = rng() % m;
    bad[j] += Fr::one();
    bad[k] += Fr::one() + Fr::one();
    size_t expect = m;
    for (size_t i = 0; i < m && expect == m; ++i)
      if (a[i] * b[i] != bad[i]) expect = i;
    ASSERT_LT(expect, m);
    EXPECT_EQ(first_of(bad), uint32_t(expect));
  }
  // The host check names the same row.
  std::vector<Fr> w = sc->witness;
  w.back() += Fr::one();
  std::vector<Fr> wa(m), wb(m), wc(m);
  ASSERT_TRUE(compute_abc(sc->circuit, w, wa, wb, wc).ok());
  a = wa, b = wb;
  const uint32_t got = first_of(wc);
  Status host = is_satisfied(sc->circuit, w);
  if (got == UINT32_MAX) {
    EXPECT_TRUE(host.ok());
  } else {
    EXPECT_NE(host.message().find("constraint " + std::to_string(got) + " is not satisfied"), std::string::npos)
        << host.message();
  }
}

}  // namespace
}  // namespace cuzk::r1cs::cuda
