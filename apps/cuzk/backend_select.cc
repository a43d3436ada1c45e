#include "backend_select.h"

#include "cuzk/base/byte_size.h"

#ifdef CUZK_HAVE_CUDA_PROVER
#include "cuzk/gpu/device.h"
#include "cuzk/groth16/cuda/cuda_backend.h"
#endif

namespace cuzk::app {

void add_backend_options(CLI::App* cmd, BackendChoice* c) {
  cmd->add_option("--backend", c->name, "cuda, cpu, or auto (CUDA when a device is present)")
      ->check(CLI::IsMember({"auto", "cuda", "cpu"}))
      ->capture_default_str();
  cmd->add_option("--vram-limit", c->vram_limit,
                  "CUDA: use at most this much device memory (e.g. 16GiB, to reproduce a smaller card)");
  cmd->add_option("--placement", c->placement, "CUDA keys: auto, resident (in device memory) or streamed")
      ->check(CLI::IsMember({"auto", "resident", "streamed"}))
      ->capture_default_str();
}

StatusOr<std::unique_ptr<groth16::Backend>> make_backend(const BackendChoice& c, ThreadPool* pool,
                                                         std::string* said, std::string* why_not_gpu) {
  uint64_t limit = 0;
  if (!c.vram_limit.empty()) {
    auto parsed = parse_byte_size(c.vram_limit);
    if (!parsed.ok()) return parsed.status().with_context("--vram-limit");
    limit = *parsed;
    if (limit == 0) return invalid_argument("--vram-limit must be positive");
  }
  std::string reason;
#ifdef CUZK_HAVE_CUDA_PROVER
  if (c.name == "cuda" || (c.name == "auto" && gpu::device_available())) {
    groth16::cuda::CudaBackendOptions o;
    o.vram_limit_bytes = limit;
    o.pool = pool;
    o.placement = c.placement == "resident"   ? groth16::cuda::Placement::kResident
                  : c.placement == "streamed" ? groth16::cuda::Placement::kStreamed
                                              : groth16::cuda::Placement::kAuto;
    auto b = groth16::cuda::make_cuda_backend(o);
    if (!b.ok()) return b.status().with_context("--backend " + c.name);
    *said = "proving on " + (*b)->describe();
    return b;
  }
  reason = gpu::device_unavailable_reason();
#else
  if (c.name == "cuda") return unavailable("--backend cuda: this build of cuzk has no CUDA backend");
  reason = "this build of cuzk has no CUDA backend";
#endif
  if (c.name != "auto" && c.name != "cpu") return invalid_argument("--backend " + c.name + ": expected cuda, cpu or auto");
  auto b = groth16::make_cpu_backend(pool);
  *said = c.name == "auto" ? "no GPU found, proving on the " + b->describe() : "proving on the " + b->describe();
  if (!c.vram_limit.empty() || c.placement != "auto") *said += " (--vram-limit and --placement apply to CUDA only)";
  if (why_not_gpu != nullptr) *why_not_gpu = c.name == "auto" ? reason : std::string();
  return b;
}

}  // namespace cuzk::app
