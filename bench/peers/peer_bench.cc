// cuzk-peer-bench: cuzk's MSM and NTT beside sppark's and ICICLE's, in one
// run on one GPU, on the same device inputs, every result checked.
//   cuzk-peer-bench [--g1 24,26,27] [--g2 24] [--ntt 27] [--reps 5]
//                   [--icicle-backend DIR] [--json FILE]
// MSM: bases P_i = A + i·H (A, H random) made on the device, fresh random
// scalars; the result must be (Σ k_i)·A + (Σ i·k_i)·H, two CPU scalar
// multiplications (no peer is trusted with the answer). NTT: forward, natural
// order, 2^lg random elements: plain, on the coset of 7 (bellperson's
// convention: cuzk and sppark) and on the coset of a primitive 2^(lg+1)-th
// root of unity (cuzk and ICICLE: ICICLE takes a coset generator from its
// domain's own twiddles, here a domain of 2^(lg+1); any other generator, 7
// among them, it raises to the n powers on the host at every call — 12 s at
// 2^27 — which times its host loop, not its kernels). Every peer's output is
// compared with cuzk's on the same coset, whose NTT the
// gpu tests check against the CPU's. Timings: wall time of a synchronous call
// from start to its result on the host (the same for all three), median of
// --reps after one warm-up; inputs are resident for all three.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "cuzk/base/random.h"
#include "cuzk/base/thread_pool.h"
#include "cuzk/ec/cuda/point_ops.h"
#include "cuzk/ec/curves.h"
#include "cuzk/ec/scalar_mul.h"
#include "cuzk/gpu/buffer.h"
#include "cuzk/gpu/device.h"
#include "cuzk/gpu/stream.h"
#include "cuzk/msm/cuda/msm.h"
#include "cuzk/ntt/cuda/ntt.h"
#include "peers.h"

namespace cuzk::peers {
namespace {

using ff::Fp;
using ff::Fr;

struct Row {
  std::string op, who;
  int lg = 0;
  double median_ms = 0;
  std::string check;  // "ok", "ok (canonical limbs)", "MISMATCH", "error: ..."
};
std::vector<Row> rows;

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

void report(const Row& r) {
  rows.push_back(r);
  std::printf("%-10s 2^%-2d %-7s %10.2f ms  %s\n", r.op.c_str(), r.lg, r.who.c_str(), r.median_ms, r.check.c_str());
  std::fflush(stdout);
}

double now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void random_scalars(Fr* out, size_t n, uint64_t seed) {
  default_thread_pool().parallel_for(n, 1 << 16, [&](size_t b, size_t e) {
    TestRng rng(seed ^ (b * 0x9e3779b97f4a7c15ull));
    for (size_t i = b; i < e; ++i) out[i] = Fr::random(rng);
  });
}

// A field element of the curve's base field from limbs, read as Montgomery
// form or as canonical.
template <class F>
F field_from(const uint64_t* w, bool montgomery);
template <>
Fp field_from<Fp>(const uint64_t* w, bool montgomery) {
  ff::Limbs<6> l;
  std::memcpy(l.data(), w, 48);
  return montgomery ? Fp::from_mont(l) : Fp::from_canonical_unchecked(l);
}
template <>
ff::Fp2 field_from<ff::Fp2>(const uint64_t* w, bool montgomery) {
  return ff::Fp2(field_from<Fp>(w, montgomery), field_from<Fp>(w + 6, montgomery));
}

// Whether a peer's point is `want`: Jacobian (x = X/Z², y = Y/Z³) or
// homogeneous projective (x = X/Z, y = Y/Z), in Montgomery or canonical limbs.
template <class C>
std::string check_point(const PeerPoint& p, const ec::Affine<C>& want) {
  using F = typename C::Field;
  for (int mont = 1; mont >= 0; --mont) {
    if (p.montgomery >= 0 && p.montgomery != mont) continue;
    const F X = field_from<F>(p.x.data(), mont), Y = field_from<F>(p.y.data(), mont), Z = field_from<F>(p.z.data(), mont);
    ec::Affine<C> got;
    if (Z.is_zero()) {
      got = ec::Affine<C>::identity();
    } else {
      const F zi = Z.inverse();
      got = p.jacobian ? ec::Affine<C>{X * zi.square(), Y * zi.square() * zi} : ec::Affine<C>{X * zi, Y * zi};
    }
    if (got == want) return mont ? "ok" : "ok (canonical limbs)";
  }
  return "MISMATCH";
}

template <class C>
struct MsmInputs {
  gpu::Stream stream;
  ec::Affine<C> a, h;
  gpu::DeviceBuffer<ec::Affine<C>> bases;
  gpu::DeviceBuffer<Fr> scalars;
  std::vector<Fr> host;

  Status init(size_t n) {
    TestRng rng{OsRng()()};
    if constexpr (std::is_same_v<C, ec::G1Curve>) a = ec::random_g1(rng), h = ec::random_g1(rng);
    else a = ec::random_g2(rng), h = ec::random_g2(rng);
    ASSIGN_OR_RETURN(stream, gpu::Stream::create());
    ASSIGN_OR_RETURN(bases, gpu::DeviceBuffer<ec::Affine<C>>::allocate(n));
    size_t scratch_bytes = 0;
    RETURN_IF_ERROR(ec::cuda::fill_progression<C>(nullptr, n, a, h, nullptr, &scratch_bytes, nullptr));
    {
      ASSIGN_OR_RETURN(auto scratch, gpu::DeviceBuffer<uint8_t>::allocate(scratch_bytes));
      RETURN_IF_ERROR(ec::cuda::fill_progression<C>(bases.data(), n, a, h, scratch.data(), &scratch_bytes, stream.get()));
      RETURN_IF_ERROR(stream.synchronize());
    }
    host.resize(n);
    random_scalars(host.data(), n, rng());
    ASSIGN_OR_RETURN(scalars, gpu::DeviceBuffer<Fr>::allocate(n));
    RETURN_IF_ERROR(scalars.upload(host.data(), n, stream.get()));
    return stream.synchronize();
  }

  // (Σ k_i)·A + (Σ i·k_i)·H over the first n.
  ec::Affine<C> expected(size_t n) const {
    const size_t chunks = (n + (1 << 16) - 1) >> 16;
    std::vector<Fr> s0(chunks, Fr::zero()), s1(chunks, Fr::zero());
    default_thread_pool().parallel_for(chunks, 1, [&](size_t b, size_t e) {
      for (size_t c = b; c < e; ++c)
        for (size_t i = c << 16; i < std::min(n, (c + 1) << 16); ++i) s0[c] += host[i], s1[c] += host[i] * Fr::from_uint(i);
    });
    Fr a0 = Fr::zero(), a1 = Fr::zero();
    for (size_t c = 0; c < chunks; ++c) a0 += s0[c], a1 += s1[c];
    return (ec::mul(ec::Jacobian<C>::from_affine(a), a0) + ec::mul(ec::Jacobian<C>::from_affine(h), a1)).to_affine();
  }
};

template <class C>
Status bench_msm(const char* name, const std::vector<int>& lgs, int reps, bool icicle) {
  if (lgs.empty()) return ok_status();
  const int top = *std::max_element(lgs.begin(), lgs.end());
  MsmInputs<C> in;
  RETURN_IF_ERROR(in.init(size_t(1) << top));
  const bool g1 = std::is_same_v<C, ec::G1Curve>;
  for (int lg : lgs) {
    const size_t n = size_t(1) << lg;
    const ec::Affine<C> want = in.expected(n);
    {  // cuzk
      size_t ws_bytes = 0;
      RETURN_IF_ERROR(msm::cuda::msm<C>(nullptr, nullptr, n, nullptr, nullptr, &ws_bytes, nullptr, {}));
      ASSIGN_OR_RETURN(auto ws, gpu::DeviceBuffer<uint8_t>::allocate(ws_bytes));
      ASSIGN_OR_RETURN(auto result, gpu::DeviceBuffer<ec::Jacobian<C>>::allocate(1));
      std::vector<double> t;
      ec::Jacobian<C> got;
      for (int r = 0; r <= reps; ++r) {
        const double t0 = now_ms();
        RETURN_IF_ERROR(msm::cuda::msm<C>(in.bases.data(), in.scalars.data(), n, result.data(), ws.data(), &ws_bytes,
                                          in.stream.get(), {}));
        RETURN_IF_ERROR(result.download(&got, 1, in.stream.get()));
        RETURN_IF_ERROR(in.stream.synchronize());
        if (r > 0) t.push_back(now_ms() - t0);
      }
      report({name, "cuzk", lg, median(t), got == want ? "ok" : "MISMATCH"});
    }
    {  // sppark
      PeerPoint p;
      Timings t;
      const std::string err = g1 ? sppark_msm_g1(in.bases.data(), in.scalars.data(), n, reps, &p, &t)
                                 : sppark_msm_g2(in.bases.data(), in.scalars.data(), n, reps, &p, &t);
      report({name, "sppark", lg, median(t.ms), err.empty() ? check_point<C>(p, want) : "error: " + err});
    }
    if (icicle) {
      PeerPoint p;
      Timings t;
      const std::string err = g1 ? icicle_msm_g1(in.bases.data(), in.scalars.data(), n, reps, &p, &t)
                                 : icicle_msm_g2(in.bases.data(), in.scalars.data(), n, reps, &p, &t);
      report({name, "icicle", lg, median(t.ms), err.empty() ? check_point<C>(p, want) : "error: " + err});
    }
  }
  return ok_status();
}

// The NTT rows: which coset, and which peers take it.
enum class NttCase { kPlain, kCosetOfSeven, kCosetInDomain };

Status bench_ntt(int lg, int reps, bool icicle) {
  const size_t n = size_t(1) << lg;
  ASSIGN_OR_RETURN(gpu::Stream stream, gpu::Stream::create());
  std::vector<Fr> input(n);
  random_scalars(input.data(), n, OsRng()());
  ASSIGN_OR_RETURN(auto data, gpu::DeviceBuffer<Fr>::allocate(n));
  const size_t ws_bytes = ntt::cuda::ntt_workspace_bytes(lg);
  ASSIGN_OR_RETURN(auto ws, gpu::DeviceBuffer<uint8_t>::allocate(std::max<size_t>(ws_bytes, 1)));
  const Fr seven = ff::fr_generator(ff::RootConvention::kBellperson);
  // The coset ICICLE runs from its twiddles: ω of order 2^(lg+1), whose powers
  // are the domain of 2^(lg+1) that ICICLE is set up with for this row.
  const Fr half_step = ff::root_of_unity(lg + 1, ff::RootConvention::kBellperson);
  for (NttCase c : {NttCase::kPlain, NttCase::kCosetOfSeven, NttCase::kCosetInDomain}) {
    const std::string op = c == NttCase::kPlain ? "ntt" : c == NttCase::kCosetOfSeven ? "ntt_coset" : "ntt_coset_domain";
    ntt::cuda::NttSpec spec;
    spec.lg_n = lg;
    spec.direction = ntt::cuda::Direction::kForward;
    spec.order = ntt::cuda::Order::kNaturalToNatural;
    if (c == NttCase::kCosetOfSeven) spec.coset_shift = seven;
    if (c == NttCase::kCosetInDomain) spec.coset_shift = half_step;
    // cuzk: the reference output from one run on the input, then timings.
    std::vector<Fr> want(n), got(n);
    auto run_cuzk = [&]() -> Status {
      size_t b = ws_bytes;
      return ntt::cuda::ntt(data.data(), spec, ws.data(), &b, stream.get());
    };
    RETURN_IF_ERROR(data.upload(input.data(), n, stream.get()));
    RETURN_IF_ERROR(run_cuzk());
    RETURN_IF_ERROR(data.download(want.data(), n, stream.get()));
    RETURN_IF_ERROR(stream.synchronize());
    std::vector<double> t;
    for (int r = 0; r <= reps; ++r) {
      const double t0 = now_ms();
      RETURN_IF_ERROR(run_cuzk());
      RETURN_IF_ERROR(stream.synchronize());
      if (r > 0) t.push_back(now_ms() - t0);
    }
    report({op, "cuzk", lg, median(t), "reference"});
    auto compare = [&](const std::string& err, const Timings& tm, const char* who) -> Status {
      if (!err.empty()) {
        report({op, who, lg, 0, "error: " + err});
        return ok_status();
      }
      report({op, who, lg, median(tm.ms), got == want ? "ok" : "MISMATCH"});
      return ok_status();
    };
    // One checked run of a peer on the input, then timings on what is there.
    auto run_peer = [&](const char* who, const std::function<std::string(int, Timings*)>& call) -> Status {
      Timings once, tm;
      RETURN_IF_ERROR(data.upload(input.data(), n, stream.get()));
      RETURN_IF_ERROR(stream.synchronize());
      std::string err = call(0, &once);
      if (err.empty()) {
        RETURN_IF_ERROR(data.download(got.data(), n, stream.get()));
        RETURN_IF_ERROR(stream.synchronize());
        err = call(reps, &tm);
      }
      return compare(err, tm, who);
    };
    if (c != NttCase::kCosetInDomain) {  // sppark's coset is its own generator, 7
      RETURN_IF_ERROR(run_peer("sppark", [&](int k, Timings* tm) {
        return sppark_ntt(data.data(), lg, c == NttCase::kCosetOfSeven, k, tm);
      }));
    }
    if (icicle && c != NttCase::kCosetOfSeven) {
      const int max_lg = c == NttCase::kPlain ? lg : lg + 1;
      const ff::Limbs<4> root = ff::root_of_unity(max_lg, ff::RootConvention::kBellperson).canonical();
      const ff::Limbs<4> shift = half_step.canonical();
      const uint64_t* coset = c == NttCase::kCosetInDomain ? shift.data() : nullptr;
      RETURN_IF_ERROR(run_peer("icicle", [&](int k, Timings* tm) {
        return icicle_ntt(data.data(), lg, max_lg, root.data(), coset, k, tm);
      }));
    }
  }
  return ok_status();
}

std::vector<int> parse_lgs(const std::string& s) {
  std::vector<int> out;
  size_t i = 0;
  while (i < s.size()) {
    size_t j = s.find(',', i);
    if (j == std::string::npos) j = s.size();
    if (j > i) out.push_back(std::stoi(s.substr(i, j - i)));
    i = j + 1;
  }
  return out;
}

int run(int argc, char** argv) {
  std::vector<int> g1 = {24, 26, 27}, g2 = {24};
  int ntt_lg = 27, reps = 5;
  std::string icicle_dir, json;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : nullptr;
    if (v == nullptr) {
      std::fprintf(stderr, "cuzk-peer-bench: %s needs a value\n", a.c_str());
      return 2;
    }
    if (a == "--g1") g1 = parse_lgs(v);
    else if (a == "--g2") g2 = parse_lgs(v);
    else if (a == "--ntt") ntt_lg = std::stoi(v);
    else if (a == "--reps") reps = std::stoi(v);
    else if (a == "--icicle-backend") icicle_dir = v;
    else if (a == "--json") json = v;
    else {
      std::fprintf(stderr, "cuzk-peer-bench: unknown option %s\n", a.c_str());
      return 2;
    }
    ++i;
  }
  if (!gpu::device_available()) {
    std::fprintf(stderr, "cuzk-peer-bench: %s\n", gpu::device_unavailable_reason().c_str());
    return 1;
  }
  bool icicle = false;
  if (!icicle_dir.empty()) {
    const std::string err = icicle_init(icicle_dir);
    if (!err.empty()) std::fprintf(stderr, "cuzk-peer-bench: ICICLE left out: %s\n", err.c_str());
    icicle = err.empty();
  }
  Status s = bench_msm<ec::G1Curve>("msm_g1", g1, reps, icicle);
  if (s.ok()) s = bench_msm<ec::G2Curve>("msm_g2", g2, reps, icicle);
  if (s.ok() && ntt_lg > 0) s = bench_ntt(ntt_lg, reps, icicle);
  if (!s.ok()) {
    std::fprintf(stderr, "cuzk-peer-bench: %s\n", s.message().c_str());
    return 1;
  }
  if (!json.empty()) {
    FILE* f = std::fopen(json.c_str(), "w");
    if (f == nullptr) return 1;
    std::fprintf(f, "[\n");
    for (size_t i = 0; i < rows.size(); ++i)
      std::fprintf(f, "  {\"op\": \"%s\", \"who\": \"%s\", \"lg\": %d, \"median_ms\": %.3f, \"check\": \"%s\"}%s\n",
                   rows[i].op.c_str(), rows[i].who.c_str(), rows[i].lg, rows[i].median_ms, rows[i].check.c_str(),
                   i + 1 < rows.size() ? "," : "");
    std::fprintf(f, "]\n");
    std::fclose(f);
  }
  bool bad = false;
  for (const Row& r : rows) bad = bad || r.check.rfind("ok", 0) != 0 && r.check != "reference";
  return bad ? 1 : 0;
}

}  // namespace
}  // namespace cuzk::peers

int main(int argc, char** argv) { return cuzk::peers::run(argc, argv); }
