#include <chrono>
#include <cstdio>

#include "cuzk/commands.h"
#include "selfcheck.h"

namespace cuzk::app {
namespace {

int run_selfcheck() {
  int passed = 0, failed = 0;
  for (const SelfCheck& check : selfchecks()) {
    auto start = std::chrono::steady_clock::now();
    std::string error = check.run();
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (error.empty()) {
      ++passed;
      std::printf("  ok    %-24s %8.1f ms\n", check.name.c_str(), ms);
    } else {
      ++failed;
      std::printf("  FAIL  %-24s %s\n", check.name.c_str(), error.c_str());
    }
  }
  std::printf("selfcheck: %d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}

}  // namespace

void add_selfcheck_command(CLI::App& app, Runner* runner) {
  auto* cmd = app.add_subcommand("selfcheck", "Run a fast arithmetic self-test and print a pass/fail summary");
  cmd->callback([runner] { *runner = run_selfcheck; });
}

}  // namespace cuzk::app
