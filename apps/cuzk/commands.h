// Subcommands of the cuzk binary. Each add_* registers its options on the
// parent app and returns a callback slot the main dispatcher runs.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace cuzk::app {

// The exit code the subcommand produced (0 success, 1 failure/invalid, 2 usage or input error).
using Runner = std::function<int()>;

void add_version_command(CLI::App& app, Runner* runner);
void add_selfcheck_command(CLI::App& app, Runner* runner);

// `cuzk bench`: the parent of every benchmark subcommand. Add benchmarks with
// their own add_bench_*_command(bench, runner).
CLI::App* add_bench_command(CLI::App& app);
void add_bench_field_command(CLI::App& bench, Runner* runner);

// The file-based commands (groth16 + io): prove with key files, verify,
// setup (insecure, development), inspect. Registered before the daemon client,
// which then takes the remote form of `prove`.
void add_file_prove_command(CLI::App& app, Runner* runner);
void add_verify_command(CLI::App& app, Runner* runner);
void add_setup_command(CLI::App& app, Runner* runner);
void add_inspect_command(CLI::App& app, Runner* runner);
// `cuzk groth16 prove|verify` with snarkjs's positional arguments.
void add_groth16_command(CLI::App& app, Runner* runner);
void add_bench_prove_command(CLI::App& bench, Runner* runner);
void add_bench_primitive_commands(CLI::App& bench, Runner* runner);
// `cuzk bench pipeline` (the engine in-process, CUZK_HAVE_ENGINE).
void add_bench_pipeline_command(CLI::App& bench, Runner* runner);

// `cuzk filecoin` (built with the filecoin and io layers, CUZK_HAVE_FILECOIN):
// verify-seal / verify-window-post / verify-winning-post / verify-snap,
// check-vanilla, and the test-input makers seal and dev-prove.
void add_filecoin_commands(CLI::App& app, Runner* runner);
void add_filecoin_dev_commands(CLI::App& filecoin, Runner* runner);
// `cuzk filecoin circuit / setup / bench-synth` (the circuits of filecoin/cs)
// and `cuzk filecoin prove` (the Filecoin kinds through the daemon).
void add_filecoin_circuit_commands(CLI::App& filecoin, Runner* runner);
void add_filecoin_client_commands(CLI::App& filecoin, Runner* runner);

// The daemon and its clients (built with the server, CUZK_HAVE_SERVER).
void add_serve_command(CLI::App& app, Runner* runner);
void add_prove_client_command(CLI::App& app, Runner* runner);
void add_client_admin_commands(CLI::App& app, Runner* runner);
void add_bench_daemon_commands(CLI::App& bench, Runner* runner);

}  // namespace cuzk::app
