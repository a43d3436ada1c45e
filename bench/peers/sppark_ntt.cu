// sppark (supranational/sppark, built from its public headers) for BLS12-381:
// its NTT over Fr, in place on device memory.
#include <cuda.h>

#include <ff/bls12-381.hpp>
#include <ntt/ntt.cuh>

#include "sppark_common.cuh"

namespace cuzk::peers {
namespace {
// The in-place transform on device memory is protected; reached through a
// derived class.
struct DeviceNtt : NTT {
  using NTT::Base_dev_ptr;
};
}  // namespace

std::string sppark_ntt(void* d_data, int lg, bool coset, int reps, Timings* t) {
  try {
    const gpu_t& gpu = select_gpu();
    stream_t& stream = gpu[0];
    for (int r = 0; r <= reps; ++r) {
      const double t0 = detail::now_ms();
      DeviceNtt::Base_dev_ptr(stream, static_cast<fr_t*>(d_data), uint32_t(lg), NTT::InputOutputOrder::NN,
                              NTT::Direction::forward, coset ? NTT::Type::coset : NTT::Type::standard);
      stream.sync();
      const double t1 = detail::now_ms();
      if (r > 0) t->ms.push_back(t1 - t0);
    }
    return "";
  } catch (const cuda_error& e) {
    return std::string("sppark ntt: ") + e.what();
  }
}

}  // namespace cuzk::peers
