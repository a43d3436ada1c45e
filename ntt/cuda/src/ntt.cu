// Device NTT: kernels, launchers and the host orchestration (see ntt.h).
#include <cstring>
#include <string>
#include <vector>

#include "cuzk/ff/cuda/fields.cuh"
#include "cuzk/gpu/check.h"
#include "cuzk/ntt/cuda/ntt.h"

namespace cuzk::ntt::cuda {
namespace {

using DFr = ff::cuda::Fr;

constexpr int kSplitLg = 14;        // power tables: lo[e mod 2^14] · hi[e >> 14]
constexpr int kSmallLg = 11;        // largest in-shared-memory transform
constexpr int kMaxInnerLg = 10;     // largest pass that is not the last
constexpr unsigned kPassThreads = 256;
constexpr int kWords = 8;           // 32-bit words per Fr
constexpr int kDirectMaxLg = 21;    // largest one-lookup twiddle table (64 MiB, for 2^31)
constexpr int kTileLg = 4;          // bit-reversal tiles of 2^4 × 2^4 elements

DFr to_dev(const ff::Fr& x) {
  DFr d;
  std::memcpy(&d, &x, sizeof d);
  return d;
}

// Per-element factor: none, a constant, or c·g^idx from two power tables
// (c folded into hi), with idx = pos or bitrev(pos); then, where given, a
// vector at the same memory position: multiplied in (first pass, `mul`) or
// subtracted (last pass, `sub`; the H step's fused element-wise steps).
struct Scale {
  const DFr* lo = nullptr;
  const DFr* hi = nullptr;
  DFr c{};
  int mode = 0;  // 0 none, 1 constant, 2 powers
  int bitrev = 0;
  const DFr* mul = nullptr;
  const DFr* sub = nullptr;
};

struct PassArgs {
  int lg_n, lo, k, j;
  int last;  // the last pass: reduces its output to [0, r)
  const DFr* small;  // small[e] = ω(2^11)^e, e < 2^10, of this direction
  const DFr* tw_lo;  // ω^e, e < 2^14
  const DFr* tw_hi;  // ω^(e·2^14)
  const DFr* tw_direct;  // ω^(e·2^(lg_n − lo − k)), e < 2^(lo + k); or null: tw_lo·tw_hi
  Scale pre, post;
};

__device__ __forceinline__ uint32_t bitrev(uint32_t x, int bits) { return bits == 0 ? 0 : __brev(x) >> (32 - bits); }

__device__ __forceinline__ DFr table_power(const DFr* lo, const DFr* hi, uint32_t e) {
  return lo[e & ((1u << kSplitLg) - 1)] * hi[e >> kSplitLg];
}

// Four-step twiddle ω^(col·rowrev·2^shift): one table entry where the pass has
// its own table, else the product of two.
__device__ __forceinline__ DFr pass_twiddle(const PassArgs& a, uint32_t col, uint32_t rowrev, int shift) {
  if (a.tw_direct != nullptr) return a.tw_direct[col * rowrev];
  return table_power(a.tw_lo, a.tw_hi, (col * rowrev) << shift);
}

// Factor first: with x lazy (below 2r) the product is still exact (mont_mul).
__device__ __forceinline__ DFr apply_scale(const Scale& s, const DFr& x, uint32_t pos, int lg_n) {
  if (s.mode == 0) return x;
  if (s.mode == 1) return s.c * x;
  return table_power(s.lo, s.hi, s.bitrev ? bitrev(pos, lg_n) : pos) * x;
}

// The passes keep values lazy, in [0, 2r) (2r < 2^256): the product of a
// twiddle or scale factor (< r) and a lazy value skips its final subtraction,
// sums and differences are taken mod 2r (mod_add<…, true>, mod_sub with 2r),
// and the last pass reduces once.
// Saves the product's conditional subtraction in every butterfly.
__device__ __forceinline__ DFr lazy_mul(const DFr& w, const DFr& x) {
  uint32_t p[kWords];
  DFr::modulus(p);
  DFr r;
  ff::cuda::detail::mont_mul<kWords, DFr::kSparseLow, false>(r.w, w.w, x.w, p, DFr::kInv);
  return r;
}
// a + b (kSub: a − b) mod 2r, for a, b < 2r.
template <bool kSub>
__device__ __forceinline__ DFr lazy_add_sub(const DFr& a, const DFr& b) {
  uint32_t p2[kWords];
  DFr::two_modulus(p2);
  DFr r;
  if constexpr (kSub)
    ff::cuda::detail::mod_sub<kWords>(r.w, a.w, b.w, p2);
  else
    ff::cuda::detail::mod_add<kWords, true>(r.w, a.w, b.w, p2);
  return r;
}
__device__ __forceinline__ DFr lazy_add(const DFr& a, const DFr& b) { return lazy_add_sub<false>(a, b); }
__device__ __forceinline__ DFr lazy_sub(const DFr& a, const DFr& b) { return lazy_add_sub<true>(a, b); }
__device__ __forceinline__ DFr reduce_lazy(const DFr& x) {
  uint32_t p[kWords];
  DFr::modulus(p);
  DFr r;
  ff::cuda::detail::reduce_once<kWords>(r.w, x.w, p);
  return r;
}
// Pre-scale of the first pass (its input is exact, its output may be lazy).
__device__ __forceinline__ DFr lazy_scale(const Scale& s, const DFr& x, uint32_t pos, int lg_n) {
  if (s.mode == 0) return x;
  if (s.mode == 1) return lazy_mul(s.c, x);
  return lazy_mul(table_power(s.lo, s.hi, s.bitrev ? bitrev(pos, lg_n) : pos), x);
}

// Shared memory holds the block's elements word-major (sm[w·T + i]) so that
// consecutive threads touch consecutive banks.
__device__ __forceinline__ DFr smem_load(const uint32_t* sm, int t, int i) {
  DFr x;
#pragma unroll
  for (int w = 0; w < kWords; ++w) x.w[w] = sm[w * t + i];
  return x;
}
__device__ __forceinline__ void smem_store(uint32_t* sm, int t, int i, const DFr& x) {
#pragma unroll
  for (int w = 0; w < kWords; ++w) sm[w * t + i] = x.w[w];
}

// One pass over index bits [lo, lo + k) of every sub-transform: a block owns
// 2^k rows (stride 2^lo) × 2^j adjacent columns. kDit: bit-reversed rows in,
// twiddles applied on load; otherwise (DIF) natural rows in, twiddles on store.
// Twiddle of (row r, column col): ω^(col·bitrev_k(r)·2^(lg_n − lo − k)).
template <bool kDit>
static __global__ void __launch_bounds__(kPassThreads) ntt_pass_kernel(DFr* data, PassArgs a) {
  extern __shared__ uint32_t sm[];
  const int t = 1 << (a.k + a.j);
  const uint32_t cmask = (1u << a.j) - 1;
  const uint32_t cg = blockIdx.x & ((1u << (a.lo - a.j)) - 1);
  const uint32_t high = blockIdx.x >> (a.lo - a.j);
  const uint32_t base = (high << (a.lo + a.k)) + (cg << a.j);
  const int tw_shift = a.lg_n - a.lo - a.k;
  const bool twiddle = a.lo > 0;

  for (int i = threadIdx.x; i < t; i += blockDim.x) {
    const uint32_t row = uint32_t(i) >> a.j, col = (cg << a.j) + (uint32_t(i) & cmask);
    const uint32_t pos = base + (row << a.lo) + (uint32_t(i) & cmask);
    DFr x = lazy_scale(a.pre, data[pos], pos, a.lg_n);
    if (a.pre.mul != nullptr) x = lazy_mul(a.pre.mul[pos], x);
    if (kDit && twiddle) x = lazy_mul(pass_twiddle(a, col, bitrev(row, a.k), tw_shift), x);
    smem_store(sm, t, i, x);
  }
  __syncthreads();
  for (int stage = 0; stage < a.k; ++stage) {
    const int lg_h = kDit ? stage : a.k - 1 - stage;
    const uint32_t h = 1u << lg_h;
    for (int b = threadIdx.x; b < t / 2; b += blockDim.x) {
      const uint32_t c = uint32_t(b) & cmask, rb = uint32_t(b) >> a.j;
      const uint32_t jj = rb & (h - 1);
      const uint32_t r0 = ((rb - jj) << 1) + jj;
      const int i0 = int((r0 << a.j) + c), i1 = int(((r0 + h) << a.j) + c);
      const DFr u = smem_load(sm, t, i0);
      const DFr v = smem_load(sm, t, i1);
      if (lg_h == 0) {  // every twiddle of this stage is 1 (uniform across the block)
        smem_store(sm, t, i0, lazy_add(u, v));
        smem_store(sm, t, i1, lazy_sub(u, v));
        continue;
      }
      const DFr w = a.small[jj << (kSmallLg - 1 - lg_h)];
      if (kDit) {
        const DFr vw = lazy_mul(w, v);
        smem_store(sm, t, i0, lazy_add(u, vw));
        smem_store(sm, t, i1, lazy_sub(u, vw));
      } else {
        smem_store(sm, t, i0, lazy_add(u, v));
        smem_store(sm, t, i1, lazy_mul(w, lazy_sub(u, v)));
      }
    }
    __syncthreads();
  }
  for (int i = threadIdx.x; i < t; i += blockDim.x) {
    const uint32_t row = uint32_t(i) >> a.j, col = (cg << a.j) + (uint32_t(i) & cmask);
    const uint32_t pos = base + (row << a.lo) + (uint32_t(i) & cmask);
    DFr x = smem_load(sm, t, i);
    if (!kDit && twiddle) x = lazy_mul(pass_twiddle(a, col, bitrev(row, a.k), tw_shift), x);
    if (a.last) {
      x = a.post.mode == 0 ? reduce_lazy(x) : apply_scale(a.post, x, pos, a.lg_n);
      if (a.post.sub != nullptr) x = x - a.post.sub[pos];
    }
    data[pos] = x;
  }
}

// out[e] = c·b^e for e < count.
static __global__ void powers_kernel(DFr* out, uint32_t count, DFr b, DFr c) {
  const uint32_t e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= count) return;
  DFr r = c;
  DFr sq = b;
  for (uint32_t k = e; k != 0; k >>= 1) {
    if (k & 1) r = r * sq;
    sq = sq.sqr();
  }
  out[e] = r;
}

// out[e] = lo[(e << shift) mod 2^14] · hi[(e << shift) >> 14] for e < count:
// a one-lookup table from the two-table one.
static __global__ void direct_table_kernel(DFr* out, uint32_t count, const DFr* lo, const DFr* hi, int shift) {
  const uint32_t e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < count) out[e] = table_power(lo, hi, e << shift);
}

// In-place bit reversal by tiles: with lg_n = 2s + m, position (a, mid, b)
// (a, b < 2^s) moves to (bitrev b, bitrev mid, bitrev a). A block owns the
// tile pair mid, bitrev(mid) (2^s rows of 2^s adjacent elements each), reads
// both whole, and writes each one transposed into the other's place, so
// every global access is a run of 2^s elements.
static __global__ void __launch_bounds__(256) bitrev_tiles_kernel(uint4* data, int lg_n) {
  constexpr int kSide = 1 << kTileLg;
  constexpr int kRow = 2 * kSide + 1;  // uint4 per shared row, padded
  __shared__ uint4 tile[2][kSide * kRow];
  const int mid_bits = lg_n - 2 * kTileLg;
  const uint32_t mid = blockIdx.x;
  const uint32_t mid2 = bitrev(mid, mid_bits);
  if (mid > mid2) return;
  const int ntiles = mid == mid2 ? 1 : 2;
  const size_t row_stride = size_t(1) << (lg_n - kTileLg);  // elements between rows a and a + 1
  for (int q = threadIdx.x; q < kSide * 2 * kSide; q += blockDim.x) {
    const uint32_t a = q / (2 * kSide), rest = q % (2 * kSide);  // rest = 2b + half
    for (int t = 0; t < ntiles; ++t) {
      const size_t m = t == 0 ? mid : mid2;
      tile[t][a * kRow + rest] = data[(a * row_stride + (m << kTileLg)) * 2 + rest];
    }
  }
  __syncthreads();
  for (int q = threadIdx.x; q < kSide * 2 * kSide; q += blockDim.x) {
    const uint32_t a2 = q / (2 * kSide), b2 = (q % (2 * kSide)) / 2, half = q % 2;
    // element (a2, ·, b2) of the destination came from (bitrev b2, ·, bitrev a2)
    const uint32_t src = bitrev(b2, kTileLg) * kRow + 2 * bitrev(a2, kTileLg) + half;
    for (int t = 0; t < ntiles; ++t) {
      const size_t m = t == 0 ? mid2 : mid;  // tile t goes to the other tile's place
      data[(a2 * row_stride + (m << kTileLg)) * 2 + 2 * b2 + half] = tile[t][src];
    }
  }
}

static __global__ void bitrev_kernel(DFr* data, int lg_n) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if ((size_t(i) >> lg_n) != 0) return;
  const uint32_t r = bitrev(i, lg_n);
  if (i < r) {
    const DFr x = data[i];
    data[i] = data[r];
    data[r] = x;
  }
}

static __global__ void hadamard_sub_scale_kernel(DFr* a, const DFr* b, const DFr* c, DFr k, size_t n) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) a[i] = (a[i] * b[i] - c[i]) * k;
}

static __global__ void scale_kernel(DFr* data, DFr k, size_t n) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * k;
}

static __global__ void scale_powers_kernel(DFr* data, size_t n, Scale s, int lg_n) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) data[i] = apply_scale(s, data[i], uint32_t(i), lg_n);
}

unsigned grid_for(size_t n, unsigned threads) { return unsigned((n + threads - 1) / threads); }

// Workspace: small roots, then three pairs of power tables (twiddles, pre-scale,
// post-scale), each lo[2^14] + hi[2^max(0, lg_n − 14)].
struct Tables {
  DFr* small;
  DFr* tw_lo;
  DFr* tw_hi;
  DFr* pre_lo;
  DFr* pre_hi;
  DFr* post_lo;
  DFr* post_hi;
  DFr* direct;  // direct_entries(lg_n) entries, or null
};

struct PassRange {
  int lo, k;
};

// Bit ranges from the top: passes of at most 10 bits, the bottom one up to 11.
std::vector<PassRange> plan_passes(int lg_n) {
  if (lg_n <= kSmallLg) return {{0, lg_n}};
  const int passes = 1 + (lg_n - kSmallLg + kMaxInnerLg - 1) / kMaxInnerLg;
  const int base = lg_n / passes, rem = lg_n % passes;
  std::vector<PassRange> out;
  int hi = lg_n;
  for (int i = 0; i < passes; ++i) {
    const int k = i + 1 == passes ? base + rem : base;
    out.push_back({hi - k, k});
    hi -= k;
  }
  return out;
}

// The pass whose twiddle exponents are multiples of 2^(lg_n − lo − k) > 1 and
// span at most 2^kDirectMaxLg values gets a one-lookup table (the middle pass
// of three); returns its lg size, or −1 when no pass qualifies.
int direct_table_lg(int lg_n) {
  int best = -1;
  for (const PassRange& p : plan_passes(lg_n))
    if (p.lo > 0 && p.lo + p.k < lg_n && p.lo + p.k <= kDirectMaxLg) best = std::max(best, p.lo + p.k);
  return best;
}

size_t hi_entries(int lg_n) { return size_t(1) << (lg_n > kSplitLg ? lg_n - kSplitLg : 0); }
size_t direct_entries(int lg_n) {
  const int d = direct_table_lg(lg_n);
  return d < 0 ? 0 : size_t(1) << d;
}
size_t table_entries(int lg_n) {
  return (size_t(1) << (kSmallLg - 1)) + 3 * ((size_t(1) << kSplitLg) + hi_entries(lg_n)) + direct_entries(lg_n);
}

Tables carve(void* ws, int lg_n) {
  DFr* p = static_cast<DFr*>(ws);
  const size_t lo = size_t(1) << kSplitLg, hi = hi_entries(lg_n);
  Tables t;
  t.small = p;
  p += size_t(1) << (kSmallLg - 1);
  t.tw_lo = p, p += lo;
  t.tw_hi = p, p += hi;
  t.pre_lo = p, p += lo;
  t.pre_hi = p, p += hi;
  t.post_lo = p, p += lo;
  t.post_hi = p, p += hi;
  t.direct = direct_entries(lg_n) ? p : nullptr;
  return t;
}

// lo[e] = b^e (e < 2^14), hi[e] = c·b^(e·2^14).
Status fill_power_pair(DFr* lo, DFr* hi, int lg_n, const ff::Fr& b, const ff::Fr& c, cudaStream_t stream) {
  const uint32_t nlo = 1u << kSplitLg, nhi = uint32_t(hi_entries(lg_n));
  powers_kernel<<<grid_for(nlo, 256), 256, 0, stream>>>(lo, nlo, to_dev(b), to_dev(ff::Fr::one()));
  RETURN_IF_ERROR(CUZK_CUDA_LAUNCH_CHECK());
  ff::Fr b_hi = b.pow(uint64_t(1) << kSplitLg);
  powers_kernel<<<grid_for(nhi, 256), 256, 0, stream>>>(hi, nhi, to_dev(b_hi), to_dev(c));
  return CUZK_CUDA_LAUNCH_CHECK();
}

template <bool kDit>
Status launch_pass_kernel(DFr* data, const PassArgs& a, unsigned blocks, unsigned threads, size_t smem,
                          cudaStream_t stream) {
  RETURN_IF_ERROR(CUZK_CUDA_CHECK(cudaFuncSetAttribute(ntt_pass_kernel<kDit>,
                                                       cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem))));
  ntt_pass_kernel<kDit><<<blocks, threads, smem, stream>>>(data, a);
  return CUZK_CUDA_LAUNCH_CHECK();
}

Status launch_pass(bool dit, DFr* data, const PassArgs& a, cudaStream_t stream) {
  const size_t t = size_t(1) << (a.k + a.j);
  const unsigned threads = unsigned(std::min<size_t>(kPassThreads, std::max<size_t>(1, t / 2)));
  const unsigned blocks = unsigned(size_t(1) << (a.lg_n - a.k - a.j));
  const size_t smem = t * sizeof(DFr);
  return dit ? launch_pass_kernel<true>(data, a, blocks, threads, smem, stream)
             : launch_pass_kernel<false>(data, a, blocks, threads, smem, stream);
}

Status check_workspace(int lg_n, void* ws, size_t* ws_bytes, bool* size_query) {
  if (lg_n < 0 || lg_n > kMaxLgN)
    return invalid_argument("ntt: lg_n " + std::to_string(lg_n) + " outside [0, " + std::to_string(kMaxLgN) + "]");
  *size_query = ws == nullptr;
  if (ws == nullptr) {
    if (ws_bytes == nullptr) return invalid_argument("ntt: null workspace and null workspace_bytes");
    *ws_bytes = ntt_workspace_bytes(lg_n);
    return ok_status();
  }
  if (ws_bytes != nullptr && *ws_bytes < ntt_workspace_bytes(lg_n))
    return invalid_argument("ntt: workspace of " + std::to_string(*ws_bytes) + " bytes, need " +
                            std::to_string(ntt_workspace_bytes(lg_n)));
  return ok_status();
}

// What the H step fuses into a transform (h_step): a factor on the inverse's
// 1/n, a vector multiplied in on the first pass's load, a vector subtracted
// on the last pass's store (both at the memory position, device pointers).
struct Fused {
  ff::Fr factor = ff::Fr::one();
  const ff::Fr* pre_mul = nullptr;
  const ff::Fr* post_sub = nullptr;
  bool plain() const { return factor == ff::Fr::one() && pre_mul == nullptr && post_sub == nullptr; }
};

// Pre-scale (coset forward) and post-scale (inverse, coset inverse) specs;
// fills the tables they read.
Status prepare_scales(const NttSpec& spec, const Fused& fused, const Tables& tb, Scale* pre, Scale* post,
                      cudaStream_t stream) {
  const int lg_n = spec.lg_n;
  const bool inverse = spec.direction == Direction::kInverse;
  const bool in_rev = spec.order == Order::kBitReversedToNatural || spec.order == Order::kBitReversedToBitReversed;
  const bool dif = !in_rev;
  const ff::Fr n_inv = ff::Fr::from_uint(uint64_t(1) << lg_n).inverse() * fused.factor;
  if (spec.coset_shift && !inverse) {
    RETURN_IF_ERROR(fill_power_pair(tb.pre_lo, tb.pre_hi, lg_n, *spec.coset_shift, ff::Fr::one(), stream));
    *pre = Scale{tb.pre_lo, tb.pre_hi, {}, 2, in_rev ? 1 : 0};
  }
  if (inverse && spec.coset_shift) {
    RETURN_IF_ERROR(fill_power_pair(tb.post_lo, tb.post_hi, lg_n, spec.coset_shift->inverse(), n_inv, stream));
    *post = Scale{tb.post_lo, tb.post_hi, {}, 2, dif ? 1 : 0};  // DIF output is bit-reversed
  } else if (inverse) {
    *post = Scale{nullptr, nullptr, to_dev(n_inv), 1, 0};
  }
  pre->mul = reinterpret_cast<const DFr*>(fused.pre_mul);
  post->sub = reinterpret_cast<const DFr*>(fused.post_sub);
  return ok_status();
}

Status run_passes(ff::Fr* d_data, const NttSpec& spec, const Tables& tb, const Scale& pre, const Scale& post,
                  cudaStream_t stream) {
  const int lg_n = spec.lg_n;
  const bool dit = spec.order == Order::kBitReversedToNatural || spec.order == Order::kBitReversedToBitReversed;
  std::vector<PassRange> passes = plan_passes(lg_n);
  if (dit) std::reverse(passes.begin(), passes.end());
  DFr* data = reinterpret_cast<DFr*>(d_data);
  const int direct_lg = tb.direct != nullptr ? direct_table_lg(lg_n) : -1;
  for (size_t p = 0; p < passes.size(); ++p) {
    PassArgs a{};
    a.lg_n = lg_n;
    a.lo = passes[p].lo;
    a.k = passes[p].k;
    a.j = std::min(a.lo, kSmallLg - a.k);
    a.small = tb.small;
    a.tw_lo = tb.tw_lo;
    a.tw_hi = tb.tw_hi;
    if (a.lo > 0 && a.lo + a.k < lg_n && a.lo + a.k == direct_lg) a.tw_direct = tb.direct;
    if (p == 0) a.pre = pre;
    if (p + 1 == passes.size()) a.post = post, a.last = 1;
    RETURN_IF_ERROR(launch_pass(dit, data, a, stream));
  }
  return ok_status();
}

Status run_ntt(ff::Fr* d_data, const NttSpec& spec, const Fused& fused, void* d_workspace, size_t* workspace_bytes,
               cudaStream_t stream) {
  bool size_query = false;
  RETURN_IF_ERROR(check_workspace(spec.lg_n, d_workspace, workspace_bytes, &size_query));
  if (size_query) return ok_status();
  const bool inverse = spec.direction == Direction::kInverse;
  if (!inverse && !(fused.factor == ff::Fr::one())) return internal_error("ntt: a factor on a forward transform");
  if (inverse && spec.coset_shift && spec.coset_shift->is_zero())
    return invalid_argument("ntt: coset inverse with a zero shift");
  if (spec.lg_n == 0 && !spec.coset_shift && fused.plain()) return ok_status();  // size 1: the identity
  const Tables tb = carve(d_workspace, spec.lg_n);
  const ff::Fr small_root = ff::root_of_unity(kSmallLg, spec.convention);
  const ff::Fr omega = ff::root_of_unity(spec.lg_n, spec.convention);
  powers_kernel<<<grid_for(1u << (kSmallLg - 1), 256), 256, 0, stream>>>(
      tb.small, 1u << (kSmallLg - 1), to_dev(inverse ? small_root.inverse() : small_root), to_dev(ff::Fr::one()));
  RETURN_IF_ERROR(CUZK_CUDA_LAUNCH_CHECK());
  RETURN_IF_ERROR(fill_power_pair(tb.tw_lo, tb.tw_hi, spec.lg_n, inverse ? omega.inverse() : omega, ff::Fr::one(),
                                  stream));
  if (tb.direct != nullptr) {
    const int d = direct_table_lg(spec.lg_n);
    direct_table_kernel<<<grid_for(size_t(1) << d, 256), 256, 0, stream>>>(tb.direct, 1u << d, tb.tw_lo, tb.tw_hi,
                                                                          spec.lg_n - d);
    RETURN_IF_ERROR(CUZK_CUDA_LAUNCH_CHECK());
  }
  Scale pre, post;
  RETURN_IF_ERROR(prepare_scales(spec, fused, tb, &pre, &post, stream));
  if (spec.order == Order::kBitReversedToBitReversed) {
    RETURN_IF_ERROR(run_passes(d_data, spec, tb, pre, post, stream));  // DIT: natural out
    return bit_reverse_permute(d_data, spec.lg_n, stream);
  }
  RETURN_IF_ERROR(run_passes(d_data, spec, tb, pre, post, stream));
  if (spec.order == Order::kNaturalToNatural) return bit_reverse_permute(d_data, spec.lg_n, stream);
  return ok_status();
}

}  // namespace

size_t ntt_workspace_bytes(int lg_n) {
  if (lg_n < 0 || lg_n > kMaxLgN) return 0;
  return table_entries(lg_n) * sizeof(DFr);
}

Status ntt(ff::Fr* d_data, const NttSpec& spec, void* d_workspace, size_t* workspace_bytes, cudaStream_t stream) {
  return run_ntt(d_data, spec, Fused{}, d_workspace, workspace_bytes, stream);
}

Status hadamard_sub_scale(ff::Fr* d_a, const ff::Fr* d_b, const ff::Fr* d_c, const ff::Fr& k, size_t n,
                          cudaStream_t stream) {
  if (n == 0) return ok_status();
  hadamard_sub_scale_kernel<<<grid_for(n, 256), 256, 0, stream>>>(
      reinterpret_cast<DFr*>(d_a), reinterpret_cast<const DFr*>(d_b), reinterpret_cast<const DFr*>(d_c), to_dev(k),
      n);
  return CUZK_CUDA_LAUNCH_CHECK();
}

Status h_step(ff::Fr* d_a, ff::Fr* d_b, ff::Fr* d_c, const HStepSpec& spec, const cudaEvent_t arrived[3],
              void* d_workspace, size_t* workspace_bytes, cudaStream_t stream) {
  if (spec.lg_n < 0 || spec.lg_n > kMaxLgN)
    return invalid_argument("h_step: lg_n = " + std::to_string(spec.lg_n) + " outside [0, 31]");
  if (spec.shift.is_zero()) return invalid_argument("h_step: zero coset shift");
  const size_t n = size_t(1) << spec.lg_n;
  const bool coefficients = spec.output == HOutput::kCoefficients;
  ff::Fr* abc[3] = {d_a, d_b, d_c};
  auto transform = [&](ff::Fr* p, Direction direction, Order order, std::optional<ff::Fr> shift, const Fused& f) {
    return run_ntt(p, NttSpec{spec.lg_n, spec.convention, direction, order, shift}, f, d_workspace, workspace_bytes,
                   stream);
  };
  for (int i = 0; i < 3; ++i) {
    if (arrived != nullptr && arrived[i] != nullptr)
      RETURN_IF_ERROR(CUZK_CUDA_CHECK(cudaStreamWaitEvent(stream, arrived[i], 0)));
    if (coefficients && i == 2) {
      // k·C's coefficients, bit-reversed, for the last transform's store.
      RETURN_IF_ERROR(transform(d_c, Direction::kInverse, Order::kNaturalToBitReversed, std::nullopt,
                                Fused{.factor = spec.k}));
      break;
    }
    RETURN_IF_ERROR(transform(abc[i], Direction::kInverse, Order::kNaturalToBitReversed, std::nullopt, Fused{}));
    RETURN_IF_ERROR(transform(abc[i], Direction::kForward, Order::kBitReversedToNatural, spec.shift, Fused{}));
  }
  if (!coefficients) return hadamard_sub_scale(d_a, d_b, d_c, spec.k, n, stream);
  // A_g·B_g on the first pass's load, k·g^-i/n and − k·C on the last pass's
  // store (both in bit-reversed positions), then natural order.
  RETURN_IF_ERROR(transform(d_a, Direction::kInverse, Order::kNaturalToBitReversed, spec.shift,
                            Fused{.factor = spec.k, .pre_mul = d_b, .post_sub = d_c}));
  return bit_reverse_permute(d_a, spec.lg_n, stream);
}

HStepSpec bellperson_h_step(int lg_n) {
  HStepSpec spec;
  spec.lg_n = lg_n;
  spec.convention = ff::RootConvention::kBellperson;
  spec.shift = ff::fr_generator(spec.convention);
  spec.k = (spec.shift.pow(uint64_t(1) << lg_n) - ff::Fr::one()).inverse();
  spec.output = HOutput::kCoefficients;
  return spec;
}

HStepSpec snarkjs_h_step(int lg_n) {
  HStepSpec spec;
  spec.lg_n = lg_n;
  spec.convention = ff::RootConvention::kSnarkjs;
  spec.shift = ff::root_of_unity(lg_n + 1, spec.convention);
  spec.k = ff::Fr::one();
  spec.output = HOutput::kCosetEvaluations;
  return spec;
}

Status scale(ff::Fr* d_data, const ff::Fr& k, size_t n, cudaStream_t stream) {
  if (n == 0) return ok_status();
  scale_kernel<<<grid_for(n, 256), 256, 0, stream>>>(reinterpret_cast<DFr*>(d_data), to_dev(k), n);
  return CUZK_CUDA_LAUNCH_CHECK();
}

Status scale_by_powers(ff::Fr* d_data, int lg_n, size_t n, const ff::Fr& g, const ff::Fr& c, bool bit_reversed,
                       void* d_workspace, size_t* workspace_bytes, cudaStream_t stream) {
  bool size_query = false;
  RETURN_IF_ERROR(check_workspace(lg_n, d_workspace, workspace_bytes, &size_query));
  if (size_query) return ok_status();
  if (n > (size_t(1) << lg_n))
    return invalid_argument("scale_by_powers: n = " + std::to_string(n) + " exceeds 2^lg_n");
  if (n == 0) return ok_status();
  const Tables tb = carve(d_workspace, lg_n);
  RETURN_IF_ERROR(fill_power_pair(tb.pre_lo, tb.pre_hi, lg_n, g, c, stream));
  const Scale s{tb.pre_lo, tb.pre_hi, {}, 2, bit_reversed ? 1 : 0};
  scale_powers_kernel<<<grid_for(n, 256), 256, 0, stream>>>(reinterpret_cast<DFr*>(d_data), n, s, lg_n);
  return CUZK_CUDA_LAUNCH_CHECK();
}

Status bit_reverse_permute(ff::Fr* d_data, int lg_n, cudaStream_t stream) {
  if (lg_n < 0 || lg_n > kMaxLgN) return invalid_argument("bit_reverse_permute: lg_n out of range");
  if (lg_n <= 1) return ok_status();
  const size_t n = size_t(1) << lg_n;
  if (lg_n >= 2 * kTileLg) {
    bitrev_tiles_kernel<<<unsigned(size_t(1) << (lg_n - 2 * kTileLg)), 256, 0, stream>>>(
        reinterpret_cast<uint4*>(d_data), lg_n);
    return CUZK_CUDA_LAUNCH_CHECK();
  }
  bitrev_kernel<<<grid_for(n, 256), 256, 0, stream>>>(reinterpret_cast<DFr*>(d_data), lg_n);
  return CUZK_CUDA_LAUNCH_CHECK();
}

}  // namespace cuzk::ntt::cuda
