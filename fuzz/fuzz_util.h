// Shared by the fuzz targets: the input as a span or a string view, and a
// file holding the input for parsers that read files (an in-memory file).
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "cuzk/base/bytes.h"

namespace cuzk::fuzz {

inline ByteSpan bytes_of(const uint8_t* data, size_t size) { return ByteSpan(data, size); }
inline std::string_view text_of(const uint8_t* data, size_t size) {
  return std::string_view(reinterpret_cast<const char*>(data), size);
}

// A memfd holding the bytes, named by a /proc path; closed on destruction.
class MemFile {
 public:
  MemFile(const uint8_t* data, size_t size) : fd_(::memfd_create("cuzk-fuzz", MFD_CLOEXEC)) {
    size_t done = 0;
    while (fd_ >= 0 && done < size) {
      ssize_t w = ::write(fd_, data + done, size - done);
      if (w <= 0) break;
      done += size_t(w);
    }
  }
  ~MemFile() {
    if (fd_ >= 0) ::close(fd_);
  }
  MemFile(const MemFile&) = delete;
  MemFile& operator=(const MemFile&) = delete;
  bool ok() const { return fd_ >= 0; }
  std::string path() const { return "/proc/self/fd/" + std::to_string(fd_); }

 private:
  int fd_;
};

}  // namespace cuzk::fuzz
