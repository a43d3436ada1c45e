// `cuzk groth16 prove|verify`: snarkjs's (and rapidsnark's) command lines,
// so that their scripts can call cuzk instead:
//   cuzk groth16 prove  [circuit_final.zkey [witness.wtns [proof.json [public.json]]]]
//   cuzk groth16 verify [verification_key.json [public.json [proof.json]]]
// The names in brackets are snarkjs's defaults; snarkjs's short forms
// `cuzk g16p ...` and `cuzk g16v ...` are the same commands (main() expands
// them). Exit status as snarkjs: 0 proved / valid, 1 invalid; 2 for bad
// input (snarkjs has no such code).
#include <memory>

#include "cli_util.h"
#include "commands.h"
#include "prove_file.h"
#include "verify_file.h"

namespace cuzk::app {
namespace {

void add_groth16_prove(CLI::App* groth16, Runner* runner) {
  auto a = std::make_shared<FileProveArgs>();
  a->command = "groth16 prove";
  a->snarkjs_json = true;
  a->talk = FileProveArgs::Talk::kQuiet;
  auto files = std::make_shared<std::vector<std::string>>();
  auto* cmd = groth16->add_subcommand(
      "prove", "snarkjs groth16 prove (or g16p): circuit.zkey witness.wtns proof.json public.json");
  cmd->alias("p");
  cmd->add_option("files", *files,
                  "circuit.zkey witness.wtns proof.json public.json (defaults: circuit_final.zkey witness.wtns "
                  "proof.json public.json)")
      ->expected(0, 4);
  add_key_check_options(cmd, a.get());
  cmd->add_flag("--json", a->json, "Print a JSON summary on stdout");
  cmd->add_flag_callback("--verbose,-v", [a] { a->talk = FileProveArgs::Talk::kVerbose; },
                         "Say which backend proves, and the time of each stage, on stderr (snarkjs is silent)");
  cmd->add_option("--threads", a->threads, "Worker threads (default: all cores)")->check(CLI::Range(0, 4096));
  add_backend_options(cmd, &a->backend);
  cmd->callback([runner, a, files] {
    if (Status s = take_positional_prove_files(*files, a.get(), /*snarkjs_defaults=*/true); !s.ok()) {
      *runner = [s, a] { return fail("groth16 prove", s, kExitUsage, a->json); };
      return;
    }
    *runner = [a] { return run_file_prove(*a); };
  });
}

void add_groth16_verify(CLI::App* groth16, Runner* runner) {
  auto a = std::make_shared<VerifyArgs>();
  auto files = std::make_shared<std::vector<std::string>>();
  auto* cmd = groth16->add_subcommand("verify",
                                      "snarkjs groth16 verify (or g16v): verification_key.json public.json proof.json; "
                                      "exit 0 valid, 1 invalid, 2 unreadable input");
  cmd->alias("v");
  cmd->add_option("files", *files,
                  "verification_key.json public.json proof.json (defaults: those names in this directory)")
      ->expected(0, 3);
  cmd->add_flag("--json", a->json, "Print the result as JSON");
  cmd->add_flag_callback("--verbose,-v", [] {},
                         "Accepted as snarkjs accepts it (cuzk verify says the same either way)");
  cmd->callback([runner, a, files] {
    if (Status s = take_positional_verify_files(*files, a.get(), /*snarkjs_defaults=*/true); !s.ok()) {
      *runner = [s, a] { return fail("groth16 verify", s, kExitUsage, a->json); };
      return;
    }
    *runner = [a] { return run_verify(*a, "groth16 verify"); };
  });
}

}  // namespace

void add_groth16_command(CLI::App& app, Runner* runner) {
  auto* g = app.add_subcommand("groth16", "snarkjs-compatible command lines: groth16 prove, groth16 verify");
  g->alias("g16");
  g->require_subcommand(1);
  add_groth16_prove(g, runner);
  add_groth16_verify(g, runner);
}

}  // namespace cuzk::app
