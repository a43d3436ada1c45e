// MSM benchmarks: resident bases/scalars (sizes lg_min..lg_max) and, with
// --streamed, bases and scalars streamed from pinned host memory. Every size
// is checked: bases are P_i = A + i·H, so the MSM must equal
// (Σ k_i)·A + (Σ i·k_i)·H, two CPU scalar multiplications.
#include <chrono>
#include <cstdio>
#include <vector>

#include "bench_common.h"
#include "cuzk/base/random.h"
#include "cuzk/base/thread_pool.h"
#include "cuzk/ec/cuda/point_ops.h"
#include "cuzk/gpu/buffer.h"
#include "cuzk/msm/cuda/msm.h"

namespace cuzk::gpu_bench {
namespace {

using ff::Fr;
constexpr int kChunkLg = 16;

// Uniform scalars: a uniform value below r is a uniform Montgomery representation.
void random_scalars(Fr* out, size_t n, uint64_t seed) {
  default_thread_pool().parallel_for(n >> kChunkLg, 1, [&](size_t b, size_t e) {
    for (size_t c = b; c < e; ++c) {
      TestRng rng(seed + c);
      for (size_t i = c << kChunkLg; i < (c + 1) << kChunkLg; ++i) {
        for (;;) {
          ff::Limbs<4> l{rng(), rng(), rng(), rng() & 0x7fffffffffffffffull};
          if (!ff::limbs_geq<4>(l, Fr::kModulus)) {
            out[i] = Fr::from_mont(l);
            break;
          }
        }
      }
    }
  });
}

// Per 2^16-chunk sums Σ k_i and Σ i·k_i, so any power-of-two prefix ≥ 2^16 is cheap.
void chunk_sums(const Fr* k, size_t n, std::vector<Fr>* s0, std::vector<Fr>* s1) {
  const size_t chunks = n >> kChunkLg;
  s0->assign(chunks, Fr::zero());
  s1->assign(chunks, Fr::zero());
  default_thread_pool().parallel_for(chunks, 1, [&](size_t b, size_t e) {
    for (size_t c = b; c < e; ++c) {
      Fr a = Fr::zero(), w = Fr::zero();
      for (size_t i = c << kChunkLg; i < (c + 1) << kChunkLg; ++i) {
        a += k[i];
        w += k[i] * Fr::from_uint(i);
      }
      (*s0)[c] = a, (*s1)[c] = w;
    }
  });
}

template <class C>
ec::Affine<C> random_point(TestRng& rng) {
  if constexpr (std::is_same_v<C, ec::G1Curve>) return ec::random_g1(rng);
  else return ec::random_g2(rng);
}

template <class C>
struct Fixture {
  gpu::Stream stream;
  ec::Affine<C> a, h;
  gpu::DeviceBuffer<ec::Affine<C>> bases;
  gpu::PinnedBuffer<Fr> scalars;
  gpu::DeviceBuffer<Fr> d_scalars;
  std::vector<Fr> s0, s1;

  Status init(size_t n, bool with_scalars = true) {
    TestRng rng{OsRng()()};
    a = random_point<C>(rng), h = random_point<C>(rng);
    ASSIGN_OR_RETURN(stream, gpu::Stream::create());
    ASSIGN_OR_RETURN(bases, gpu::DeviceBuffer<ec::Affine<C>>::allocate(n));
    {
      size_t scratch_bytes = 0;
      RETURN_IF_ERROR(ec::cuda::fill_progression<C>(nullptr, n, a, h, nullptr, &scratch_bytes, nullptr));
      ASSIGN_OR_RETURN(auto scratch, gpu::DeviceBuffer<uint8_t>::allocate(scratch_bytes));
      RETURN_IF_ERROR(
          ec::cuda::fill_progression<C>(bases.data(), n, a, h, scratch.data(), &scratch_bytes, stream.get()));
      RETURN_IF_ERROR(stream.synchronize());
    }
    if (!with_scalars) return ok_status();
    ASSIGN_OR_RETURN(scalars, gpu::PinnedBuffer<Fr>::allocate(n));
    random_scalars(scalars.data(), n, rng());
    ASSIGN_OR_RETURN(d_scalars, gpu::DeviceBuffer<Fr>::allocate(n));
    RETURN_IF_ERROR(d_scalars.upload(scalars.data(), n, stream.get()));
    chunk_sums(scalars.data(), n, &s0, &s1);
    return stream.synchronize();
  }

  ec::Jacobian<C> expected(size_t n) const {
    Fr a0 = Fr::zero(), a1 = Fr::zero();
    for (size_t c = 0; c < (n >> kChunkLg); ++c) a0 += s0[c], a1 += s1[c];
    return ec::mul(a, a0) + ec::mul(h, a1);
  }
};

std::string profile_note(const msm::cuda::MsmProfile& p) {
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "c=%d windows=%d affine_rounds=%d levels=%d prep=%.2fms sort=%.2fms accumulate=%.2fms reduce=%.2fms",
                p.window_bits, p.windows, p.affine_rounds, p.levels, p.prep_ms, p.sort_ms, p.accumulate_ms,
                p.reduce_ms);
  return buf;
}

template <class C>
Status bench_resident(Fixture<C>& f, int lg, int reps, const msm::cuda::MsmConfig& base_cfg, const std::string& op,
                      std::vector<Record>* out) {
  const size_t n = size_t(1) << lg;
  size_t ws_bytes = 0;
  RETURN_IF_ERROR(msm::cuda::msm<C>(nullptr, nullptr, n, nullptr, nullptr, &ws_bytes, nullptr, base_cfg));
  ASSIGN_OR_RETURN(auto ws, gpu::DeviceBuffer<uint8_t>::allocate(ws_bytes));
  ASSIGN_OR_RETURN(auto result, gpu::DeviceBuffer<ec::Jacobian<C>>::allocate(1));
  auto once = [&]() -> StatusOr<float> {
    return event_time(f.stream, [&] {
      return msm::cuda::msm<C>(f.bases.data(), f.d_scalars.data(), n, result.data(), ws.data(), &ws_bytes,
                               f.stream.get(), base_cfg);
    });
  };
  ASSIGN_OR_RETURN(Record r, time_runs(op, lg, reps, once));
  ec::Jacobian<C> got;
  RETURN_IF_ERROR(result.download(&got, 1, f.stream.get()));
  RETURN_IF_ERROR(f.stream.synchronize());
  r.checked = true;
  r.ok = got == f.expected(n);
  msm::cuda::MsmProfile prof;
  msm::cuda::MsmConfig cfg = base_cfg;
  cfg.profile = &prof;
  RETURN_IF_ERROR(msm::cuda::msm<C>(f.bases.data(), f.d_scalars.data(), n, result.data(), ws.data(), &ws_bytes,
                                    f.stream.get(), cfg));
  r.note = profile_note(prof) + " workspace=" + std::to_string(ws_bytes >> 20) + "MiB";
  if (base_cfg.reduce_group != 0) r.note += " reduce_group=" + std::to_string(base_cfg.reduce_group);
  print_record(r, 24, 2);
  out->push_back(r);
  return ok_status();
}

template <class C>
Status bench_streamed(Fixture<C>& f, const gpu::PinnedBuffer<ec::Affine<C>>& host_bases, int lg, int batch_lg,
                      int reps, const msm::cuda::MsmConfig& cfg, const std::string& op, std::vector<Record>* out) {
  const size_t n = size_t(1) << lg;
  const size_t batch = size_t(1) << (batch_lg > 0 ? std::min(batch_lg, lg) : std::max(lg - 2, 1));
  ASSIGN_OR_RETURN(auto m, msm::cuda::StreamedMsm<C>::create(batch, cfg));
  ec::Jacobian<C> got;
  auto once = [&]() -> StatusOr<float> {
    auto t0 = std::chrono::steady_clock::now();
    ASSIGN_OR_RETURN(got, m.run(host_bases.data(), f.scalars.data(), n));
    return float(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  };
  ASSIGN_OR_RETURN(Record r, time_runs(op, lg, reps, once));
  r.checked = true;
  r.ok = got == f.expected(n);
  r.note = "bases+scalars from pinned host, batch 2^" + std::to_string(__builtin_ctzll(batch)) + " (" +
           std::to_string(m.batches_for(n)) + " batches), host wall time";
  print_record(r, 24, 2);
  out->push_back(r);
  return ok_status();
}

template <class C>
Status bench_curve(const Options& o, const std::string& name, std::vector<Record>* out) {
  if (o.lg_min < kChunkLg) return invalid_argument("msm bench: --lg-min must be >= 16");
  Fixture<C> f;
  RETURN_IF_ERROR(f.init(size_t(1) << o.lg_max));
  msm::cuda::MsmConfig cfg;
  cfg.window_bits = o.window_bits;
  cfg.window_lanes = o.window_lanes;
  cfg.affine_rounds = o.affine_rounds;
  for (int lg = o.lg_min; lg <= o.lg_max; ++lg)
    for (int g : o.reduce_groups) {
      cfg.reduce_group = g;
      RETURN_IF_ERROR(bench_resident(f, lg, o.reps, cfg, "msm_" + name, out));
    }
  cfg.reduce_group = o.reduce_groups.front();
  if (!o.streamed) return ok_status();
  const size_t nmax = size_t(1) << o.lg_max;
  ASSIGN_OR_RETURN(auto host_bases, gpu::PinnedBuffer<ec::Affine<C>>::allocate(nmax));
  RETURN_IF_ERROR(f.bases.download(host_bases.data(), nmax, f.stream.get()));
  RETURN_IF_ERROR(f.stream.synchronize());
  for (int lg = o.lg_min; lg <= o.lg_max; ++lg)
    RETURN_IF_ERROR(bench_streamed(f, host_bases, lg, o.batch_lg, o.reps, cfg, "msm_" + name + "_streamed", out));
  return ok_status();
}

// The batch addition of the ones (msm::cuda::batch_add): the bases selected
// by a random bitmap of the given density (percent) summed. Checked: the sum
// of P_i = A + i·H over the set bits is (count)·A + (Σ i)·H.
template <class C>
Status bench_ones(const Options& o, const std::string& name, std::vector<Record>* out) {
  Fixture<C> f;
  const size_t nmax = size_t(1) << o.lg_max;
  RETURN_IF_ERROR(f.init(nmax, false));
  TestRng rng{OsRng()()};
  std::vector<uint64_t> bitmap((nmax + 63) / 64);
  const uint64_t threshold = uint64_t(o.density * 0.01 * 65536.0);
  default_thread_pool().parallel_for(bitmap.size(), 1 << 12, [&](size_t b, size_t e) {
    TestRng r(rng() ^ (b * 0x9e3779b97f4a7c15ull));
    for (size_t w = b; w < e; ++w) {
      uint64_t bits = 0;
      for (int k = 0; k < 64; ++k) bits |= uint64_t((r() & 0xffff) < threshold) << k;
      bitmap[w] = bits;
    }
  });
  ASSIGN_OR_RETURN(auto d_bitmap, gpu::DeviceBuffer<uint64_t>::allocate(bitmap.size()));
  RETURN_IF_ERROR(d_bitmap.upload(bitmap.data(), bitmap.size(), f.stream.get()));
  ASSIGN_OR_RETURN(auto result, gpu::DeviceBuffer<ec::Jacobian<C>>::allocate(1));
  for (int lg = o.lg_min; lg <= o.lg_max; ++lg) {
    const size_t n = size_t(1) << lg;
    size_t ws_bytes = 0;
    RETURN_IF_ERROR(msm::cuda::batch_add<C>(nullptr, nullptr, n, nullptr, nullptr, &ws_bytes, nullptr));
    ASSIGN_OR_RETURN(auto ws, gpu::DeviceBuffer<uint8_t>::allocate(ws_bytes));
    auto once = [&]() -> StatusOr<float> {
      return event_time(f.stream, [&] {
        return msm::cuda::batch_add<C>(f.bases.data(), d_bitmap.data(), n, result.data(), ws.data(), &ws_bytes,
                                       f.stream.get());
      });
    };
    ASSIGN_OR_RETURN(Record r, time_runs("ones_" + name, lg, o.reps, once));
    ec::Jacobian<C> got;
    RETURN_IF_ERROR(result.download(&got, 1, f.stream.get()));
    RETURN_IF_ERROR(f.stream.synchronize());
    uint64_t count = 0, index_sum = 0;
    for (size_t i = 0; i < n; ++i)
      if ((bitmap[i >> 6] >> (i & 63)) & 1) ++count, index_sum += i;
    r.checked = true;
    r.ok = got == ec::mul(f.a, Fr::from_uint(count)) + ec::mul(f.h, Fr::from_uint(index_sum));
    char pct[32];
    std::snprintf(pct, sizeof pct, "%g", o.density);
    r.note = std::to_string(count) + " ones (" + pct + "% of the bits)";
    print_record(r, 24, 2);
    out->push_back(r);
    // The same sum by pair rounds (what the GPU prover's resident plan does
    // with CudaBackendOptions::ones_sum = kPairRounds): an MSM over the list
    // of the set positions, descending as classify() writes them, every
    // scalar 1 (each index of the scalar list points at one Montgomery 1).
    std::vector<uint32_t> list;
    list.reserve(count);
    for (size_t i = n; i-- > 0;)
      if ((bitmap[i >> 6] >> (i & 63)) & 1) list.push_back(uint32_t(i));
    ASSIGN_OR_RETURN(auto d_list, gpu::DeviceBuffer<uint32_t>::allocate(std::max<size_t>(list.size(), 1)));
    ASSIGN_OR_RETURN(auto d_zero, gpu::DeviceBuffer<uint32_t>::allocate(std::max<size_t>(list.size(), 1)));
    ASSIGN_OR_RETURN(auto d_one, gpu::DeviceBuffer<Fr>::allocate(1));
    const Fr one = Fr::one();
    RETURN_IF_ERROR(d_list.upload(list.data(), list.size(), f.stream.get()));
    RETURN_IF_ERROR(d_zero.fill_bytes(0, f.stream.get()));
    RETURN_IF_ERROR(d_one.upload(&one, 1, f.stream.get()));
    msm::cuda::MsmConfig cfg;
    cfg.scalar_bits = 1;
    cfg.point_index = d_list.data();
    cfg.scalar_index = d_zero.data();
    cfg.affine_rounds = o.affine_rounds;
    size_t pws_bytes = msm::cuda::msm_workspace_bytes<C>(list.size(), cfg);
    if (pws_bytes == 0) return invalid_argument("ones by pair rounds: no plan for " + std::to_string(list.size()));
    ASSIGN_OR_RETURN(auto pws, gpu::DeviceBuffer<uint8_t>::allocate(pws_bytes));
    auto pairs = [&]() -> StatusOr<float> {
      return event_time(f.stream, [&] {
        return msm::cuda::msm<C>(f.bases.data(), d_one.data(), list.size(), result.data(), pws.data(), &pws_bytes,
                                 f.stream.get(), cfg);
      });
    };
    ASSIGN_OR_RETURN(Record rp, time_runs("ones_pairs_" + name, lg, o.reps, pairs));
    RETURN_IF_ERROR(result.download(&got, 1, f.stream.get()));
    RETURN_IF_ERROR(f.stream.synchronize());
    rp.checked = true;
    rp.ok = got == ec::mul(f.a, Fr::from_uint(count)) + ec::mul(f.h, Fr::from_uint(index_sum));
    rp.note = r.note + ", pair rounds, " + std::to_string(pws_bytes >> 20) + " MiB of workspace";
    print_record(rp, 24, 2);
    out->push_back(rp);
  }
  return ok_status();
}

}  // namespace

Status run_ones_bench(const Options& o, std::vector<Record>* out) {
  if (o.density < 0 || o.density > 100) return invalid_argument("--density must be 0 .. 100");
  if (o.curve == "g1") return bench_ones<ec::G1Curve>(o, "g1", out);
  if (o.curve == "g2") return bench_ones<ec::G2Curve>(o, "g2", out);
  return invalid_argument("--curve must be g1 or g2");
}

Status run_msm_bench(const Options& o, std::vector<Record>* out) {
  if (o.curve == "g1") return bench_curve<ec::G1Curve>(o, "g1", out);
  if (o.curve == "g2") return bench_curve<ec::G2Curve>(o, "g2", out);
  return invalid_argument("--curve must be g1 or g2");
}

}  // namespace cuzk::gpu_bench
