#include "cuzk/base/env.h"

namespace cuzk {

Env* Env::posix() {
  static Env env;  // stateless: every method forwards to the OS
  return &env;
}

StatusOr<MappedFile> Env::map_file(const std::string& path) { return MappedFile::open(path); }

StatusOr<FileIdentity> Env::file_identity(const std::string& path) { return cuzk::file_identity(path); }

Env::Clock::time_point Env::now() { return Clock::now(); }

}  // namespace cuzk
