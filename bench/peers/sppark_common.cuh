// Shared by sppark_msm.cu and sppark_ntt.cu: timing, errors, the MSM call.
#pragma once

#include <chrono>
#include <string>

#include "peers.h"

namespace cuzk::peers::detail {

inline double now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

inline std::string error_text(const RustError& e, const char* what) {
  if (e.code == 0) return "";
  return std::string(what) + ": " + cudaGetErrorName(cudaError_t(e.code)) + " (" + std::to_string(e.code) + ")";
}

// sppark's msm_t over bases and scalars already on the device, read in
// place (dev_ptr_t made from a pointer does not own it).
template <class Msm, class Affine, class Scalar, class Point>
std::string run_msm(const void* d_bases, const void* d_scalars, size_t n, int reps, Point* result, Timings* t) {
  Msm msm(nullptr, n);
  dev_ptr_t<Affine> bases(const_cast<Affine*>(static_cast<const Affine*>(d_bases)));
  dev_ptr_t<Scalar> scalars(const_cast<Scalar*>(static_cast<const Scalar*>(d_scalars)));
  for (int r = 0; r <= reps; ++r) {  // one warm-up
    const double t0 = now_ms();
    RustError e = msm.invoke(*result, bases, n, scalars, true);
    const double t1 = now_ms();
    if (e.code != 0) return error_text(e, "sppark msm");
    if (r > 0) t->ms.push_back(t1 - t0);
  }
  return "";
}

}  // namespace cuzk::peers::detail
