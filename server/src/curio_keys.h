// Keys of the configuration of Curio's earlier Rust cuzk daemon
// (extern/cuzk in Curio: [daemon], [gpus], [srs], [synthesis], [logging] and
// a few keys of [memory], [pipeline] and [scheduler]), so that an operator
// moving from it is told what each became. The common ones are taken, with a
// warning naming the new key; the others are errors naming what cuzk does
// instead. docs/filecoin.md has the table.
#pragma once

#include <string>
#include <vector>

#include <toml++/toml.h>

#include "cuzk/server/config.h"

namespace cuzk::server {

// Whether `section` exists only in the old daemon's configuration.
bool is_curio_section(const std::string& section);
// Whether section.key is a key of the old daemon that apply_curio_keys()
// handles (taken or refused).
bool is_curio_key(const std::string& section, const std::string& key);

// Applies the old keys cuzk takes to `config` (a cuzk key given as well wins:
// call before the cuzk readers) and appends one line per old key: a warning
// naming its new name, or an error saying what cuzk does instead.
void apply_curio_keys(const toml::table& root, ServerConfig& config, std::vector<std::string>* warnings,
                      std::vector<std::string>* errors);

}  // namespace cuzk::server
