// Device MSM and batch addition for G1 (kernels and orchestration in msm_impl.cuh).
#include "msm_impl.cuh"

namespace cuzk::msm::cuda {
using ec::G1Curve;
}  // namespace cuzk::msm::cuda
using cuzk::msm::cuda::MsmConfig;
namespace ec = cuzk::ec;
namespace ff = cuzk::ff;
CUZK_MSM_CUDA_INSTANTIATE(cuzk::ec::G1Curve)
