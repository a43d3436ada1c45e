// A file given to an option of the wrong kind is named for what it is, and
// for the option that takes it (io::detect_file_kind, as `cuzk inspect`).
#pragma once

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "cuzk/base/status.h"
#include "cuzk/io/inspect.h"

namespace cuzk::app {

// The options of one command by the kind of file each takes, e.g.
// {{kZkey, "--zkey"}, {kParams, "--params"}, ...}.
using KindOptions = std::vector<std::pair<io::FileKind, std::string>>;

// OK when `path` is of one of the `accepted` kinds, or of no kind
// detection knows (the reader then reports what is wrong with it).
// Otherwise INVALID_ARGUMENT: "<option> <path>: the file is a <kind>; give
// it to <other option> (<option> takes: <accepted kinds>)", the other option
// from `options` when one takes that kind. Errors opening the
// file are returned with the option named.
Status expect_file_kind(const std::string& path, const std::string& option,
                        std::initializer_list<io::FileKind> accepted, const KindOptions& options);

// One input of snarkjs's positional order: the path given, the kinds its
// place takes, and the place's name in snarkjs's usage ("circuit.zkey").
struct PositionalFile {
  const std::string* path;
  std::vector<io::FileKind> accepted;
  std::string place;
};

// The kinds of files given in snarkjs's positional order, named by place
// rather than by options the user did not type. OK when each file is of a
// kind its place takes, or of no kind detection knows. Otherwise
// INVALID_ARGUMENT: when two files each have the kind of the other's place,
// "files swapped? ..."; when a file has the kind of another place, which
// place it goes to; else what it is and what its place takes. Each message
// ends with `order` (snarkjs's usage). Errors opening a file name the file.
Status expect_positional_kinds(const std::vector<PositionalFile>& files, const std::string& order);

// The options of `cuzk prove` (key files) and `cuzk verify`.
const KindOptions& prove_kind_options();
const KindOptions& verify_kind_options();

}  // namespace cuzk::app
