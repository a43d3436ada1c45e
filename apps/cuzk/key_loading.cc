#include "key_loading.h"

#include <unistd.h>

#include <cstdlib>

namespace cuzk::app {

std::string default_cache_dir() {
  if (const char* v = std::getenv("XDG_CACHE_HOME"); v != nullptr && v[0] != '\0') return std::string(v) + "/cuzk";
  if (const char* v = std::getenv("HOME"); v != nullptr && v[0] != '\0') return std::string(v) + "/.cache/cuzk";
  return "/tmp/cuzk-" + std::to_string(getuid()) + "-cache";
}

StatusOr<KeyFile> KeyFile::open(const std::string& path, const KeyCheckOptions& options, ThreadPool* pool) {
  KeyFile k;
  k.path_ = path;
  ASSIGN_OR_RETURN(k.file_, MappedFile::open(path));
  k.file_.advise_sequential();
  if (!options.full) return k;
  const std::string dir = (options.cache_dir.empty() ? default_cache_dir() : options.cache_dir) + "/checked-keys";
  k.record_.emplace(dir);
  k.digest_ = io::key_content_digest(k.file_.bytes(), pool);
  k.already_checked_ = k.record_->contains(*k.digest_);
  return k;
}

Status KeyFile::loaded() const {
  if (!check_points()) return ok_status();
  return record_->remember(*digest_, path_);
}

std::string KeyFile::summary() const {
  if (!digest_) return "";
  const std::string id = io::digest_hex(*digest_).substr(0, 16);
  if (already_checked_) return path_ + ": every point was checked in an earlier run (content digest " + id + "...)";
  return path_ + ": every point is in the prime-order subgroup (content digest " + id + "..., remembered in " +
         record_->dir() + ")";
}

}  // namespace cuzk::app
