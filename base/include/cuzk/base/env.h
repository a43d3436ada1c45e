// The file system and clock that the engine's key handling depends on,
// behind one small interface so that tests can make them misbehave (short
// reads, I/O errors, files truncated or replaced under a mapping, time
// jumping ahead), in the manner of leveldb's Env. Env::posix() is the real
// one. Library code is handed an Env* (in its options) and keeps no global.
#pragma once

#include <chrono>
#include <string>

#include "cuzk/base/mapped_file.h"
#include "cuzk/base/status.h"

namespace cuzk {

class Env {
 public:
  using Clock = std::chrono::steady_clock;

  virtual ~Env() = default;

  // The operating system's. Stateless; lives as long as the process.
  static Env* posix();

  // A read-only mapping of the whole file (MappedFile::open).
  virtual StatusOr<MappedFile> map_file(const std::string& path);
  // What identifies the file's current version (file_identity).
  virtual StatusOr<FileIdentity> file_identity(const std::string& path);
  // Monotonic time, for idle times and retention.
  virtual Clock::time_point now();
};

}  // namespace cuzk
