// Loading key files with the checks a command asks for (io/key_check.h says
// what each check protects): by default points on the curve and the
// verifying key in the subgroup; with --full-check every point in the
// subgroup, on all cores, unless the file's content digest is in the record
// of checked keys, and remembered there once the checks pass.
#pragma once

#include <optional>
#include <string>

#include "cuzk/base/mapped_file.h"
#include "cuzk/base/status.h"
#include "cuzk/base/thread_pool.h"
#include "cuzk/io/key_check.h"

namespace cuzk::app {

struct KeyCheckOptions {
  bool full = false;       // --full-check
  std::string cache_dir;   // the record lives in <cache_dir>/checked-keys; "" = default_cache_dir()
};

// $XDG_CACHE_HOME/cuzk, else $HOME/.cache/cuzk, else /tmp/cuzk-<uid>-cache
// (the daemon's default cache directory).
std::string default_cache_dir();

// A key file opened for loading, and what its loading must check.
class KeyFile {
 public:
  // Maps the file; with options.full, computes its digest and looks it up.
  static StatusOr<KeyFile> open(const std::string& path, const KeyCheckOptions& options, ThreadPool* pool);

  ByteSpan bytes() const { return file_.bytes(); }
  // Whether the reader must run the subgroup checks on every point.
  bool check_points() const { return digest_.has_value() && !already_checked_; }
  // With --full-check: whether an earlier run checked this content.
  bool already_checked() const { return already_checked_; }
  // After a successful load: records the digest when the checks ran.
  Status loaded() const;
  // One line for the user about the checks made, or "".
  std::string summary() const;

 private:
  MappedFile file_;
  std::string path_;
  std::optional<io::Sha256Digest> digest_;
  std::optional<io::CheckedKeyRecord> record_;
  bool already_checked_ = false;
};

}  // namespace cuzk::app
