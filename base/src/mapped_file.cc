#include "cuzk/base/mapped_file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <utility>

#include "mapping_guard.h"

namespace cuzk {
namespace {

FileIdentity identity_of(const struct stat& st) {
  FileIdentity id;
  id.device = uint64_t(st.st_dev);
  id.inode = uint64_t(st.st_ino);
  id.size = uint64_t(st.st_size);
  id.mtime_ns = int64_t(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
  return id;
}

constexpr size_t kWriteBufferBytes = size_t(4) << 20;

Status write_all(int fd, const uint8_t* p, size_t n, const std::string& path) {
  while (n > 0) {
    ssize_t w = ::write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return io_error("write " + path, errno);
    }
    p += w;
    n -= size_t(w);
  }
  return ok_status();
}

}  // namespace

StatusOr<FileIdentity> file_identity(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return io_error("stat " + path, errno);
  return identity_of(st);
}

StatusOr<MappedFile> MappedFile::open(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return io_error("open " + path, errno);
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    int e = errno;
    ::close(fd);
    return io_error("stat " + path, e);
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return invalid_argument(path + " is not a regular file");
  }
  MappedFile f;
  f.path_ = path;
  f.size_ = size_t(st.st_size);
  f.identity_ = identity_of(st);
  if (f.size_ > 0) {
    void* p = ::mmap(nullptr, f.size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      int e = errno;
      ::close(fd);
      return io_error("mmap " + path, e);
    }
    f.data_ = static_cast<const uint8_t*>(p);
    f.guard_slot_ = internal::guard_range(p, f.size_);
  }
  ::close(fd);  // the mapping keeps the file referenced
  return f;
}

MappedFile::MappedFile(MappedFile&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      path_(std::move(other.path_)),
      identity_(other.identity_),
      guard_slot_(std::exchange(other.guard_slot_, -1)) {}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept {
  if (this != &other) {
    reset();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    path_ = std::move(other.path_);
    identity_ = other.identity_;
    guard_slot_ = std::exchange(other.guard_slot_, -1);
  }
  return *this;
}

MappedFile::~MappedFile() { reset(); }

void MappedFile::reset() {
  internal::unguard(std::exchange(guard_slot_, -1));
  if (data_ != nullptr) ::munmap(const_cast<uint8_t*>(data_), size_);
  data_ = nullptr;
  size_ = 0;
}

bool MappedFile::faulted() const { return internal::guarded_faulted(guard_slot_); }

Status MappedFile::check_intact() const {
  if (!faulted()) return ok_status();
  return data_loss(path_ + " changed while in use: it became shorter than the " + std::to_string(size_) +
                   " bytes read from it (truncated or rewritten in place); what was read from it is discarded");
}

void MappedFile::advise_sequential() const {
  if (data_ == nullptr) return;
  void* p = const_cast<uint8_t*>(data_);
  ::madvise(p, size_, MADV_SEQUENTIAL);
  ::madvise(p, size_, MADV_WILLNEED);
}

StatusOr<FileWriter> FileWriter::create(const std::string& path) {
  FileWriter w;
  w.path_ = path;
  // A name of its own per writer (process id and a counter), so that writers
  // of one path in several processes (daemons sharing a cache directory) or
  // threads never write into the same partial file; the last rename wins.
  static std::atomic<uint64_t> counter{0};
  w.partial_path_ = path + ".partial." + std::to_string(::getpid()) + "." + std::to_string(counter.fetch_add(1));
  w.fd_ = ::open(w.partial_path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  // Named by the user's path: the partial name is ours (a missing directory
  // or a read-only one is the same answer for both).
  if (w.fd_ < 0) return io_error("create " + path, errno);
  w.buffer_.reserve(kWriteBufferBytes);
  return w;
}

FileWriter::FileWriter(FileWriter&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      path_(std::move(other.path_)),
      partial_path_(std::move(other.partial_path_)),
      buffer_(std::move(other.buffer_)),
      written_(std::exchange(other.written_, 0)) {}

FileWriter& FileWriter::operator=(FileWriter&& other) noexcept {
  if (this != &other) {
    abandon();
    fd_ = std::exchange(other.fd_, -1);
    path_ = std::move(other.path_);
    partial_path_ = std::move(other.partial_path_);
    buffer_ = std::move(other.buffer_);
    written_ = std::exchange(other.written_, 0);
  }
  return *this;
}

FileWriter::~FileWriter() { abandon(); }

void FileWriter::abandon() {
  if (fd_ < 0) return;
  ::close(fd_);
  ::unlink(partial_path_.c_str());
  fd_ = -1;
}

Status FileWriter::flush() {
  if (buffer_.empty()) return ok_status();
  Status s = write_all(fd_, reinterpret_cast<const uint8_t*>(buffer_.data()), buffer_.size(), partial_path_);
  buffer_.clear();
  return s;
}

Status FileWriter::write(ByteSpan bytes) {
  if (fd_ < 0) return failed_precondition("write to a closed FileWriter");
  written_ += bytes.size();
  if (buffer_.size() + bytes.size() > kWriteBufferBytes) {
    RETURN_IF_ERROR(flush());
    if (bytes.size() >= kWriteBufferBytes) return write_all(fd_, bytes.data(), bytes.size(), partial_path_);
  }
  buffer_.append(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  return ok_status();
}

Status FileWriter::write_zeros(size_t count) {
  static const uint8_t kZeros[4096] = {};
  while (count > 0) {
    size_t n = count < sizeof(kZeros) ? count : sizeof(kZeros);
    RETURN_IF_ERROR(write(ByteSpan(kZeros, n)));
    count -= n;
  }
  return ok_status();
}

Status FileWriter::write_at(uint64_t offset, ByteSpan bytes) {
  if (fd_ < 0) return failed_precondition("write to a closed FileWriter");
  if (offset + bytes.size() > written_) return out_of_range("write_at past the end of " + partial_path_);
  RETURN_IF_ERROR(flush());
  const uint8_t* p = bytes.data();
  size_t n = bytes.size();
  while (n > 0) {
    ssize_t w = ::pwrite(fd_, p, n, off_t(offset));
    if (w < 0) {
      if (errno == EINTR) continue;
      return io_error("pwrite " + partial_path_, errno);
    }
    p += w;
    n -= size_t(w);
    offset += uint64_t(w);
  }
  return ok_status();
}

Status FileWriter::commit() {
  if (fd_ < 0) return failed_precondition("commit of a closed FileWriter");
  RETURN_IF_ERROR(flush());
  if (::fsync(fd_) != 0) return io_error("fsync " + partial_path_, errno);
  if (::close(fd_) != 0) {
    fd_ = -1;
    ::unlink(partial_path_.c_str());
    return io_error("close " + partial_path_, errno);
  }
  fd_ = -1;
  if (::rename(partial_path_.c_str(), path_.c_str()) != 0) {
    int e = errno;
    ::unlink(partial_path_.c_str());
    return io_error("rename " + partial_path_ + " to " + path_, e);
  }
  return ok_status();
}

Status write_file(const std::string& path, ByteSpan bytes) {
  ASSIGN_OR_RETURN(FileWriter w, FileWriter::create(path));
  RETURN_IF_ERROR(w.write(bytes));
  return w.commit();
}

namespace {

// The writer's pid in "<name>.partial.<pid>.<n>", or 0.
pid_t partial_writer(const std::string& name) {
  size_t at = name.rfind(".partial.");
  if (at == std::string::npos) return 0;
  const char* p = name.c_str() + at + 9;
  char* end = nullptr;
  long pid = std::strtol(p, &end, 10);
  if (end == p || *end != '.' || pid <= 0) return 0;
  const char* n = end + 1;
  std::strtoull(n, &end, 10);
  return end != n && *end == '\0' ? pid_t(pid) : 0;
}

}  // namespace

StatusOr<size_t> remove_stale_partials(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return size_t(0);
  size_t removed = 0;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    pid_t pid = partial_writer(it->path().filename().string());
    if (pid == 0 || pid == ::getpid()) continue;
    if (::kill(pid, 0) == 0 || errno != ESRCH) continue;  // running (or not ours to ask): keep
    std::error_code rm;
    if (fs::remove(it->path(), rm)) removed++;
  }
  if (ec) return io_error("read the directory " + dir, ec.value());
  return removed;
}

}  // namespace cuzk
