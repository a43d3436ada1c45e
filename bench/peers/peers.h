// The peers cuzk is measured against, behind one small interface so that
// their headers stay in their own translation units (sppark_*.cu,
// icicle_peer.cc). Every call works on device memory cuzk filled: bases as
// cuzk's affine points (x, y in Montgomery form, R = 2^384 — the layout both
// peers use for BLS12-381 too) and scalars as cuzk's Fr (Montgomery, R =
// 2^256). Each returns "" or the peer's error, and the wall time of each
// repetition (the call, synchronous, from start to its result on the host).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cuzk::peers {

// A projective result as three coordinates of `limbs` 64-bit limbs each
// (Fp: 6, Fp2: 12), in the peer's own representation; `jacobian` says
// whether x = X/Z² (sppark) or x = X/Z (ICICLE); `montgomery` whether the
// limbs are Montgomery form (unknown: the caller tries both).
struct PeerPoint {
  std::vector<uint64_t> x, y, z;
  bool jacobian = true;
  int montgomery = -1;  // 1 yes, 0 no, -1 unknown
};

struct Timings {
  std::vector<double> ms;
};

std::string sppark_msm_g1(const void* d_bases, const void* d_scalars, size_t n, int reps, PeerPoint* out, Timings* t);
std::string sppark_msm_g2(const void* d_bases, const void* d_scalars, size_t n, int reps, PeerPoint* out, Timings* t);
// Forward NTT of 2^lg elements in place (natural order in and out), plain or
// on sppark's coset; d_data holds cuzk Fr (Montgomery), as sppark's fr_t.
std::string sppark_ntt(void* d_data, int lg, bool coset, int reps, Timings* t);

// Loads ICICLE's CUDA backend from `backend_dir` and selects the GPU.
std::string icicle_init(const std::string& backend_dir);
std::string icicle_msm_g1(const void* d_bases, const void* d_scalars, size_t n, int reps, PeerPoint* out, Timings* t);
std::string icicle_msm_g2(const void* d_bases, const void* d_scalars, size_t n, int reps, PeerPoint* out, Timings* t);
// Forward NTT of 2^lg elements (natural order), in place on the device, over
// the domain of `root` (a primitive 2^max_lg-th root of unity, canonical
// 64-bit limbs) and, when `coset` is given (canonical limbs), on that coset.
std::string icicle_ntt(void* d_data, int lg, int max_lg, const uint64_t root[4], const uint64_t* coset, int reps,
                       Timings* t);

}  // namespace cuzk::peers
