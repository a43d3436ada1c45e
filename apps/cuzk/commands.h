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

}  // namespace cuzk::app
