// An exclusive advisory lock on a file (flock(2)), held by one object: for
// work on shared files that more than one process may start at once (a
// deterministic file made into a shared cache), so that one makes it and the
// others wait and then find it. Locks of separate FileLock objects exclude
// each other within one process too. The lock ends with the object (or the
// process); the lock file itself stays, empty.
#pragma once

#include <string>

#include "cuzk/base/status.h"

namespace cuzk {

class FileLock {
 public:
  // Opens (creating it if needed) `path` and locks it, waiting for another
  // holder when `wait`; without `wait`, UNAVAILABLE while another holds it.
  // Errors: an io_error naming the path.
  static StatusOr<FileLock> acquire(const std::string& path, bool wait = true);

  FileLock() = default;
  FileLock(FileLock&& other) noexcept;
  FileLock& operator=(FileLock&& other) noexcept;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  ~FileLock();

  bool held() const { return fd_ >= 0; }

 private:
  explicit FileLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

}  // namespace cuzk
