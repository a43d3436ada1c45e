#include "cuzk/ec/cuda/curve_traits.cuh"
#include "cuzk/ec/cuda/point_ops.h"
#include "cuzk/gpu/check.h"

namespace cuzk::ec::cuda {
namespace {

constexpr unsigned kThreads = 128;
constexpr size_t kProgressionChunk = 256;

unsigned blocks_for(size_t n, unsigned threads) { return unsigned((n + threads - 1) / threads); }

// out[op·n + i] for one operation of the suite (see point_ops.h); one kernel
// per operation keeps register pressure and compile time low.
template <class F, int kOp>
static __global__ void point_op_kernel(const Jacobian<F>* a, const Jacobian<F>* b, const Affine<F>* c,
                                       Jacobian<F>* out, size_t n) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Jacobian<F> r;
  if constexpr (kOp == 0) {
    Xyzz<F> t = jacobian_to_xyzz(a[i]);
    xyzz_add_affine(t, c[i]);
    r = xyzz_to_jacobian(t);
  } else if constexpr (kOp == 1) {
    r = xyzz_to_jacobian(xyzz_add(jacobian_to_xyzz(a[i]), jacobian_to_xyzz(b[i])));
  } else if constexpr (kOp == 2) {
    r = xyzz_to_jacobian(xyzz_dbl(jacobian_to_xyzz(a[i])));
  } else if constexpr (kOp == 3) {
    r = jacobian_add(a[i], b[i]);
  } else if constexpr (kOp == 4) {
    r = jacobian_add_affine(a[i], c[i]);
  } else {
    r = jacobian_dbl(a[i]);
  }
  out[kOp * n + i] = r;
}

template <class F, int kOp>
Status launch_point_op(const Jacobian<F>* a, const Jacobian<F>* b, const Affine<F>* c, Jacobian<F>* out, size_t n,
                       cudaStream_t stream) {
  point_op_kernel<F, kOp><<<blocks_for(n, kThreads), kThreads, 0, stream>>>(a, b, c, out, n);
  return CUZK_CUDA_LAUNCH_CHECK();
}

// Thread t writes points [t·chunk, (t+1)·chunk): start + i·step, first as
// XYZZ into scratch with the running product of ZZZ in out[i].x, then, after
// one inversion, backwards into affine form (Montgomery's trick).
template <class F>
static __global__ void progression_kernel(Affine<F>* out, size_t n, Affine<F> start, Affine<F> step,
                                          Xyzz<F>* scratch) {
  const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const size_t begin = t * kProgressionChunk;
  if (begin >= n) return;
  const size_t end = min(n, begin + kProgressionChunk);
  Xyzz<F> p = xyzz_mul_small(Xyzz<F>::from_affine(step), uint64_t(begin));
  xyzz_add_affine(p, start);
  F prefix = F::one();
  for (size_t i = begin; i < end; ++i) {
    scratch[i] = p;
    prefix = prefix * p.zzz;
    out[i].x = prefix;
    xyzz_add_affine(p, step);
  }
  F inv = prefix.inverse();
  for (size_t i = end; i-- > begin;) {
    const Xyzz<F> q = scratch[i];
    const F izzz = i > begin ? inv * out[i - 1].x : inv;
    inv = inv * q.zzz;
    const F izz = (q.zz * izzz).sqr();
    out[i] = Affine<F>{q.x * izz, q.y * izzz};
  }
}

}  // namespace

template <class C>
Status point_op_suite(const ::cuzk::ec::Jacobian<C>* a, const ::cuzk::ec::Jacobian<C>* b,
                      const ::cuzk::ec::Affine<C>* c, ::cuzk::ec::Jacobian<C>* out, size_t n, cudaStream_t stream) {
  if (n == 0) return ok_status();
  using F = typename DeviceCurve<C>::F;
  auto *da = dev<C>(a), *db = dev<C>(b);
  auto* dc = dev<C>(c);
  auto* dout = dev<C>(out);
  RETURN_IF_ERROR((launch_point_op<F, 0>(da, db, dc, dout, n, stream)));
  RETURN_IF_ERROR((launch_point_op<F, 1>(da, db, dc, dout, n, stream)));
  RETURN_IF_ERROR((launch_point_op<F, 2>(da, db, dc, dout, n, stream)));
  RETURN_IF_ERROR((launch_point_op<F, 3>(da, db, dc, dout, n, stream)));
  RETURN_IF_ERROR((launch_point_op<F, 4>(da, db, dc, dout, n, stream)));
  return launch_point_op<F, 5>(da, db, dc, dout, n, stream);
}

template <class C>
Status fill_progression(::cuzk::ec::Affine<C>* out, size_t n, const ::cuzk::ec::Affine<C>& start,
                        const ::cuzk::ec::Affine<C>& step, void* scratch, size_t* scratch_bytes, cudaStream_t stream) {
  using F = typename DeviceCurve<C>::F;
  if (scratch == nullptr) {
    if (scratch_bytes == nullptr) return invalid_argument("fill_progression: no scratch and no size pointer");
    *scratch_bytes = n * sizeof(Xyzz<F>);
    return ok_status();
  }
  if (n == 0) return ok_status();
  const size_t threads = (n + kProgressionChunk - 1) / kProgressionChunk;
  progression_kernel<F><<<blocks_for(threads, 64), 64, 0, stream>>>(dev<C>(out), n, dev_value<C>(start),
                                                                      dev_value<C>(step),
                                                                      static_cast<Xyzz<F>*>(scratch));
  return CUZK_CUDA_LAUNCH_CHECK();
}

template Status point_op_suite<G1Curve>(const G1Jacobian*, const G1Jacobian*, const G1Affine*, G1Jacobian*, size_t,
                                        cudaStream_t);
template Status point_op_suite<G2Curve>(const G2Jacobian*, const G2Jacobian*, const G2Affine*, G2Jacobian*, size_t,
                                        cudaStream_t);
template Status fill_progression<G1Curve>(G1Affine*, size_t, const G1Affine&, const G1Affine&, void*, size_t*,
                                          cudaStream_t);
template Status fill_progression<G2Curve>(G2Affine*, size_t, const G2Affine&, const G2Affine&, void*, size_t*,
                                          cudaStream_t);

}  // namespace cuzk::ec::cuda
