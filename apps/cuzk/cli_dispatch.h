// What the command line does before a command runs: `cuzk --version`,
// `cuzk help [COMMAND...]`, a command name that does not exist (named, with
// a suggestion), and parse errors as JSON when --json was given.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "commands.h"

namespace cuzk::app {

// `--version` on the top-level app: "cuzk <version> (<git revision>)".
void add_version_flag(CLI::App& app);

// `cuzk help [COMMAND [SUBCOMMAND]]`: the help of that command, or of cuzk;
// an unknown name is an error that suggests the nearest.
void add_help_command(CLI::App& app, Runner* runner);

// The closest of `names` to `typed` when it is close enough to be a likely
// typo (edit distance at most a third of the length, at least 2), or a name
// that `typed` contains ("fullprove" → "prove"); nullopt otherwise.
std::optional<std::string> suggest_name(const std::string& typed, const std::vector<std::string>& names);

// Walks argv through the subcommand tree before CLI11 parses it: when a
// command that needs a subcommand is followed by a word that names none, or
// by nothing, returns the message to print ("cuzk groth16: "fullprove" is
// not a command; did you mean "prove"? ..."). nullopt when argv names known
// commands, or asks for help or the version.
std::optional<std::string> unknown_command_message(const CLI::App& app, int argc, const char* const* argv);

// argv with snarkjs's one-word forms of the commands cuzk shares with it
// expanded: `g16p` is `groth16 prove`, `g16v` is `groth16 verify`, so that
// a script that calls `snarkjs g16p ...` works with cuzk in its place. The
// strings are argv's own (or static); the vector holds argc or argc + 1.
std::vector<char*> expand_snarkjs_short_forms(int argc, char** argv);

// True when argv holds --json (any command's JSON output).
bool wants_json(int argc, const char* const* argv);

// What main() prints for a CLI11 parse error or --help/--version; returns the
// exit status (0 for help and version, 2 for errors). With `json` an error is
// also a json_error() object on stdout.
int report_parse_error(const CLI::App& app, const CLI::ParseError& e, bool json);

}  // namespace cuzk::app
