#include "backend_select.h"

#include <cctype>
#include <cmath>

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

StatusOr<uint64_t> parse_byte_size(const std::string& text) {
  size_t i = 0;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) ++i;
  std::string unit = text.substr(i);
  for (char& ch : unit) ch = char(std::toupper(static_cast<unsigned char>(ch)));
  const double v = i == 0 ? -1 : std::strtod(text.substr(0, i).c_str(), nullptr);
  struct U {
    const char* name;
    double mul;
  };
  static const U units[] = {{"", 1},           {"B", 1},          {"K", 1024.0},    {"KIB", 1024.0},
                            {"M", 1048576.0},  {"MIB", 1048576.0}, {"G", 1073741824.0}, {"GIB", 1073741824.0},
                            {"T", 1099511627776.0}, {"TIB", 1099511627776.0}, {"KB", 1e3}, {"MB", 1e6},
                            {"GB", 1e9},       {"TB", 1e12}};
  for (const U& u : units)
    if (unit == u.name && v >= 0) return uint64_t(std::llround(v * u.mul));
  return invalid_argument("\"" + text + "\" is not a size (examples: 16GiB, 512MiB, 4096)");
}

StatusOr<std::unique_ptr<groth16::Backend>> make_backend(const BackendChoice& c, ThreadPool* pool,
                                                         std::string* said) {
  uint64_t limit = 0;
  if (!c.vram_limit.empty()) {
    ASSIGN_OR_RETURN(limit, parse_byte_size(c.vram_limit));
    if (limit == 0) return invalid_argument("--vram-limit must be positive");
  }
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
    *said = (*b)->describe() + (c.name == "auto" ? " (auto: a CUDA device is present)" : "");
    return b;
  }
  if (c.name == "auto") *said = "cpu (auto: " + gpu::device_unavailable_reason() + ")";
#else
  if (c.name == "cuda") return unavailable("--backend cuda: this build of cuzk has no CUDA backend");
  if (c.name == "auto") *said = "cpu (auto: this build has no CUDA backend)";
#endif
  if (c.name != "auto" && c.name != "cpu") return invalid_argument("--backend " + c.name + ": expected cuda, cpu or auto");
  auto b = groth16::make_cpu_backend(pool);
  *said = b->describe() + (c.name == "auto" ? " " + said->substr(4) : std::string());
  if (!c.vram_limit.empty() || c.placement != "auto") *said += " (--vram-limit and --placement apply to CUDA only)";
  return b;
}

}  // namespace cuzk::app
