// cuzk: a persistent Groth16 proving engine for BLS12-381. One git-style
// binary; see `cuzk --help`.
#include <cstdio>

#include "cuzk/cli_dispatch.h"
#include "cuzk/cli_util.h"
#include "cuzk/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"cuzk: Groth16 prover for BLS12-381 (CPU and CUDA)", "cuzk"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Show help for every subcommand");
  cuzk::app::Runner runner;
  cuzk::app::add_version_flag(app);
  cuzk::app::add_help_command(app, &runner);
  cuzk::app::add_version_command(app, &runner);
  cuzk::app::add_selfcheck_command(app, &runner);
  CLI::App* bench = cuzk::app::add_bench_command(app);
#ifdef CUZK_HAVE_PAIRING
  cuzk::app::add_bench_field_command(*bench, &runner);
#endif
#ifdef CUZK_HAVE_IO
  cuzk::app::add_file_prove_command(app, &runner);
  cuzk::app::add_verify_command(app, &runner);
  cuzk::app::add_setup_command(app, &runner);
  cuzk::app::add_inspect_command(app, &runner);
  cuzk::app::add_groth16_command(app, &runner);
  cuzk::app::add_bench_prove_command(*bench, &runner);
  cuzk::app::add_bench_primitive_commands(*bench, &runner);
#endif
#ifdef CUZK_HAVE_FILECOIN
  cuzk::app::add_filecoin_commands(app, &runner);
  CLI::App* filecoin = app.get_subcommand("filecoin");
#ifdef CUZK_HAVE_FILECOIN_CS
  cuzk::app::add_filecoin_circuit_commands(*filecoin, &runner);
#endif
#ifdef CUZK_HAVE_SERVER
  cuzk::app::add_filecoin_client_commands(*filecoin, &runner);
#endif
#endif
#ifdef CUZK_HAVE_ENGINE
  cuzk::app::add_bench_pipeline_command(*bench, &runner);
#endif
#ifdef CUZK_HAVE_SERVER
  cuzk::app::add_serve_command(app, &runner);
  cuzk::app::add_prove_client_command(app, &runner);
  cuzk::app::add_client_admin_commands(app, &runner);
  cuzk::app::add_bench_daemon_commands(*bench, &runner);
#endif
  std::vector<char*> args = cuzk::app::expand_snarkjs_short_forms(argc, argv);
  argc = int(args.size());
  argv = args.data();
  const bool json = cuzk::app::wants_json(argc, argv);
  if (auto unknown = cuzk::app::unknown_command_message(app, argc, argv)) {
    std::fprintf(stderr, "%s\n", unknown->c_str());
    if (json) std::printf("%s\n", cuzk::app::json_error("cuzk", cuzk::invalid_argument(*unknown), 2).c_str());
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return cuzk::app::report_parse_error(app, e, json);
  }
  return runner ? runner() : 2;
}
