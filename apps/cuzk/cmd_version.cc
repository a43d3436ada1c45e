#include <cstdio>

#include "cuzk/build_info.h"
#include "cuzk/commands.h"
#ifdef CUZK_HAVE_CUDA_PROVER
#include "cuzk/gpu/arch.h"
#include "cuzk/gpu/device.h"
#endif

namespace cuzk::app {

void add_version_command(CLI::App& app, Runner* runner) {
  auto* cmd = app.add_subcommand("version", "Print version, build type, compiler, CUDA support and git revision");
  cmd->callback([runner] {
    *runner = [] {
      std::printf("cuzk %s\n", CUZK_VERSION);
      std::printf("git revision: %s\n", CUZK_GIT_REVISION);
      std::printf("build type:   %s\n", CUZK_BUILD_TYPE);
      std::printf("compiler:     %s\n", CUZK_COMPILER);
#ifdef CUZK_HAVE_CUDA_PROVER
      std::printf("cuda:         on, GPU code for %s\n", gpu::build_architectures().describe().c_str());
      // The devices found, and the code each runs (or why it cannot).
      auto n = gpu::device_count();
      if (!n.ok() || *n == 0) std::printf("devices:      none (%s)\n", gpu::device_unavailable_reason().c_str());
      for (int i = 0; n.ok() && i < *n; ++i) {
        auto info = gpu::device_info(i);
        auto code = gpu::device_code(i);
        std::printf("device:       cuda:%d %s: %s\n", i, info.ok() ? info->summary().c_str() : "?",
                    code.ok() ? ("runs " + *code).c_str() : ("proves on the CPU: " + code.status().message()).c_str());
      }
#else
      std::printf("cuda:         off (built without nvcc: proving on the CPU only)\n");
#endif
      return 0;
    };
  });
}

CLI::App* add_bench_command(CLI::App& app) {
  auto* bench = app.add_subcommand("bench", "Benchmarks (medians after warm-up; results as a table and JSON)");
  bench->require_subcommand(1);
  return bench;
}

}  // namespace cuzk::app
