// The CUDA backend (cuda_backend.h).
#include "cuzk/groth16/cuda/cuda_backend.h"

#include <algorithm>
#include <string>

#include "cuda_internal.h"
#include "cuzk/base/log.h"
#include "cuzk/gpu/arch.h"
#include "cuzk/gpu/check.h"
#include "cuzk/gpu/device.h"
#include "cuzk/msm/cuda/tuning.h"

namespace cuzk::groth16::cuda {
namespace {

constexpr uint64_t kMarginBytes = uint64_t(512) << 20;

class CudaBackend final : public Backend {
 public:
  explicit CudaBackend(std::shared_ptr<DeviceContext> ctx) : ctx_(std::move(ctx)) {}
  std::string_view name() const override { return "cuda"; }
  DeviceMemory device_memory() const override {
    return {ctx_->total_bytes, ctx_->budget.total(), ctx_->budget.used(), ctx_->budget.peak()};
  }
  std::string describe() const override {
    return "cuda:" + std::to_string(ctx_->ordinal) + " " + ctx_->name + ", device budget " +
           gpu::VramBudget::format_bytes(ctx_->budget.total()) + " (" +
           gpu::VramBudget::format_bytes(ctx_->budget.used()) + " in use)";
  }
  StatusOr<std::shared_ptr<const AttachedKey>> attach(const ProvingKey& pk, const AttachOptions& options) override {
    ASSIGN_OR_RETURN(std::shared_ptr<const CudaKey> key, CudaKey::create(pk, ctx_, options));
    return std::shared_ptr<const AttachedKey>(std::move(key));
  }
  uint64_t resident_key_bytes(const ProvingKey& pk) const override { return cuda::resident_key_bytes(pk); }
  StatusOr<std::unique_ptr<Lane>> make_lane() override { return make_cuda_lane(ctx_); }
  // Pinned (page-locked) host memory, which uploads at full PCIe speed;
  // pageable memory when pinning fails (the upload is then slower).
  StatusOr<HostBuffer> allocate_inputs(size_t n) override {
    if (n == 0) return HostBuffer();
    void* p = nullptr;
    if (ctx_->faults.fail_pinned_alloc) return Backend::allocate_inputs(n);
    if (cudaHostAlloc(&p, n * sizeof(Fr), cudaHostAllocPortable) == cudaSuccess)
      return HostBuffer(static_cast<Fr*>(p), n, true, [](Fr* q) { cudaFreeHost(q); });
    cudaGetLastError();
    return Backend::allocate_inputs(n);
  }

 private:
  std::shared_ptr<DeviceContext> ctx_;
};

}  // namespace

StatusOr<std::unique_ptr<Backend>> make_cuda_backend(const CudaBackendOptions& options) {
  ASSIGN_OR_RETURN(int count, gpu::device_count());
  if (options.device < 0 || options.device >= count)
    return unavailable("no CUDA device " + std::to_string(options.device) + " (" + std::to_string(count) +
                       " present)");
  // A GPU the build has no device code for: a plain refusal here rather than
  // a "no kernel image" error from the first launch.
  RETURN_IF_ERROR(gpu::device_code(options.device).status());
  ASSIGN_OR_RETURN(gpu::ScopedDevice scope, gpu::ScopedDevice::create(options.device));
  ASSIGN_OR_RETURN(gpu::DeviceInfo info, gpu::device_info(options.device));
  ASSIGN_OR_RETURN(gpu::MemInfo mem, gpu::mem_info());
  uint64_t budget = mem.free_bytes > kMarginBytes ? mem.free_bytes - kMarginBytes : 0;
  if (options.vram_limit_bytes != 0) budget = std::min<uint64_t>(budget, options.vram_limit_bytes);
  auto ctx = std::make_shared<DeviceContext>();
  ctx->ordinal = options.device;
  ctx->name = info.summary();
  // What the MSMs take from this device's properties (every size the
  // backend plans and every MSM it runs use it), logged once per device.
  ctx->tuning = msm::cuda::tune_device(info);
  CUZK_LOG(Info) << "cuda:" << options.device << " tuning: " << ctx->tuning.summary();
  ctx->total_bytes = mem.total_bytes;
  ctx->faults = options.faults;
  ctx->ones_by_pairs = options.ones_sum == OnesSum::kPairRounds;
  ctx->placement = options.placement;
  ctx->pool = options.pool;
  ctx->budget = gpu::VramBudget(budget);
  return std::unique_ptr<Backend>(std::make_unique<CudaBackend>(std::move(ctx)));
}

}  // namespace cuzk::groth16::cuda
