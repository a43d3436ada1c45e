#include "cli_dispatch.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "cuzk/base/edit_distance.h"
#include "cuzk/build_info.h"

namespace cuzk::app {
namespace {

std::vector<std::string> command_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    names.push_back(sub->get_name());
  return names;
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

const CLI::App* find_command(const CLI::App& app, const std::string& word) {
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    if (sub->check_name(word)) return sub;
  return nullptr;
}

// `path` (e.g. "cuzk groth16") has no command `word`.
std::string no_such_command(const CLI::App& parent, const std::string& path, const std::string& word) {
  const std::vector<std::string> names = command_names(parent);
  std::string msg = path + ": \"" + word + "\" is not a command";
  if (auto near = suggest_name(word, names)) msg += "; did you mean \"" + *near + "\"?";
  // "cuzk groth16" → `cuzk help groth16`
  msg += " (commands: " + joined(names) + "; see `cuzk help" + path.substr(std::min<size_t>(4, path.size())) + "`)";
  if (path == "cuzk groth16" && word == "fullprove")
    msg += "\ncuzk proves from a witness: compute it with `snarkjs wtns calculate circuit.wasm input.json "
           "witness.wtns`, then run `cuzk groth16 prove circuit.zkey witness.wtns proof.json public.json`";
  return msg;
}

// The parsed command, as json_error names it ("groth16 prove"; "cuzk"
// when none was).
std::string parsed_command(const CLI::App& app) {
  std::string path;
  const CLI::App* cur = &app;
  while (!cur->get_subcommands().empty()) {
    cur = cur->get_subcommands().front();
    path += (path.empty() ? "" : " ") + cur->get_name();
  }
  return path.empty() ? app.get_name() : path;
}

// An option word of `app` that takes the word after it as its value.
bool takes_value(const CLI::App& app, const std::string& word) {
  if (word.find('=') != std::string::npos) return false;
  const CLI::Option* opt = app.get_option_no_throw(word);
  return opt != nullptr && opt->get_items_expected_min() > 0;
}

}  // namespace

std::string json_error(std::string_view command, const Status& status, int code) {
  nlohmann::json j{{"ok", false},
                   {"command", command},
                   {"code", status_code_name(status.code())},
                   {"error", status.message()},
                   {"exit_code", code}};
  return j.dump();
}

void add_version_flag(CLI::App& app) {
  app.set_version_flag("--version", std::string("cuzk ") + CUZK_VERSION + " (" + CUZK_GIT_REVISION + ")",
                       "Print the version and exit (`cuzk version` says more)");
}

void add_help_command(CLI::App& app, Runner* runner) {
  auto names = std::make_shared<std::vector<std::string>>();
  auto* cmd = app.add_subcommand("help", "Show help for cuzk or for a command (cuzk help groth16 prove)");
  cmd->add_option("command", *names, "A command and its subcommands");
  const CLI::App* root = &app;
  cmd->callback([runner, names, root] {
    *runner = [names, root] {
      const CLI::App* cur = root;
      std::string path = root->get_name();
      for (const std::string& word : *names) {
        const CLI::App* next = find_command(*cur, word);
        if (next == nullptr) {
          std::fprintf(stderr, "%s\n", no_such_command(*cur, path, word).c_str());
          return kExitUsage;
        }
        path += " " + next->get_name();
        cur = next;
      }
      std::printf("%s", cur->get_formatter()->make_help(cur, path, CLI::AppFormatMode::Normal).c_str());
      return kExitOk;
    };
  });
}

std::optional<std::string> suggest_name(const std::string& typed, const std::vector<std::string>& names) {
  std::optional<std::string> best;
  size_t best_distance = std::max<size_t>(2, typed.size() / 3) + 1;
  for (const std::string& n : names) {
    const size_t d = edit_distance(typed, n);
    if (d < best_distance) best = n, best_distance = d;
  }
  if (best) return best;
  for (const std::string& n : names)
    if (n.size() >= 3 && typed.find(n) != std::string::npos) return n;
  return std::nullopt;
}

std::optional<std::string> unknown_command_message(const CLI::App& app, int argc, const char* const* argv) {
  const CLI::App* cur = &app;
  std::string path = app.get_name();
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word == "--") return std::nullopt;
    if (word == "-h" || word == "--help" || word == "--help-all" || word == "--version") return std::nullopt;
    if (word.starts_with("-")) {
      if (takes_value(*cur, word)) ++i;  // the option's value, not a command
      continue;
    }
    if (command_names(*cur).empty()) return std::nullopt;
    const CLI::App* next = find_command(*cur, word);
    if (next == nullptr) {
      if (cur->get_require_subcommand_min() == 0) return std::nullopt;  // a positional argument
      return no_such_command(*cur, path, word);
    }
    path += " " + next->get_name();
    cur = next;
  }
  if (cur->get_require_subcommand_min() == 0) return std::nullopt;
  return path + ": a command is required (commands: " + joined(command_names(*cur)) + "; see `cuzk help" +
         path.substr(std::min<size_t>(4, path.size())) + "`)";
}

std::vector<char*> expand_snarkjs_short_forms(int argc, char** argv) {
  static char kGroth16[] = "groth16", kProve[] = "prove", kVerify[] = "verify";
  std::vector<char*> out(argv, argv + argc);
  if (argc < 2) return out;
  const std::string first = argv[1];
  if (first != "g16p" && first != "g16v") return out;
  out[1] = kGroth16;
  out.insert(out.begin() + 2, first == "g16p" ? kProve : kVerify);
  return out;
}

bool wants_json(int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]) == "--") break;
    if (std::string_view(argv[i]) == "--json") return true;
  }
  return false;
}

int report_parse_error(const CLI::App& app, const CLI::ParseError& e, bool json) {
  const int code = app.exit(e);
  if (code == 0) return kExitOk;
  if (json) std::printf("%s\n", json_error(parsed_command(app), invalid_argument(e.what()), kExitUsage).c_str());
  return kExitUsage;
}

}  // namespace cuzk::app
