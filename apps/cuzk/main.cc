// cuzk: a persistent Groth16 proving engine for BLS12-381. One git-style
// binary; see `cuzk --help`.
#include <cstdio>

#include "cuzk/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"cuzk: Groth16 prover for BLS12-381 (CPU and CUDA)", "cuzk"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Show help for every subcommand");
  cuzk::app::Runner runner;
  cuzk::app::add_version_command(app, &runner);
  cuzk::app::add_selfcheck_command(app, &runner);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  return runner ? runner() : 2;
}
