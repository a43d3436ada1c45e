#include <cstdio>

#include "cuzk/build_info.h"
#include "cuzk/commands.h"

namespace cuzk::app {

void add_version_command(CLI::App& app, Runner* runner) {
  auto* cmd = app.add_subcommand("version", "Print version, build type, compiler, CUDA support and git revision");
  cmd->callback([runner] {
    *runner = [] {
      std::printf("cuzk %s\n", CUZK_VERSION);
      std::printf("git revision: %s\n", CUZK_GIT_REVISION);
      std::printf("build type:   %s\n", CUZK_BUILD_TYPE);
      std::printf("compiler:     %s\n", CUZK_COMPILER);
      std::printf("cuda:         %s\n", std::string(CUZK_CUDA_ENABLED_STR) == "ON" ? "on" : "off");
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
