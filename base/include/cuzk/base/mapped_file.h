// Whole-file I/O helpers: a read-only memory mapping (MappedFile) and a
// buffered writer that publishes its file atomically (FileWriter).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "cuzk/base/bytes.h"
#include "cuzk/base/status.h"

namespace cuzk {

// What tells one version of a file from another without reading it.
struct FileIdentity {
  uint64_t device = 0, inode = 0, size = 0;
  int64_t mtime_ns = 0;
  bool operator==(const FileIdentity&) const = default;
};

// The identity of the file at `path` now. Errors: as MappedFile::open.
StatusOr<FileIdentity> file_identity(const std::string& path);

// A read-only, private mapping of a whole file. Move-only; unmaps on
// destruction. An empty file maps to an empty span (no mapping is made).
// Thread-safe for concurrent reads.
//
// A file that shrinks while mapped (truncated, or rewritten in place) does
// not crash its readers: the pages past its new end read as zeros from the
// first such read on, and faulted() turns true. Whoever decoded or used the
// bytes checks check_intact() afterwards and discards what it built.
class MappedFile {
 public:
  // Errors: NOT_FOUND / PERMISSION_DENIED / INTERNAL with the path and strerror.
  static StatusOr<MappedFile> open(const std::string& path);

  MappedFile() = default;
  MappedFile(MappedFile&& other) noexcept;
  MappedFile& operator=(MappedFile&& other) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  ByteSpan bytes() const { return ByteSpan(data_, size_); }
  const std::string& path() const { return path_; }
  // The file as it was when mapped.
  const FileIdentity& identity() const { return identity_; }

  // Whether a read went past the file's end since it was mapped (those
  // bytes read as zeros). Lock-free; safe from any thread.
  bool faulted() const;
  // DATA_LOSS naming the file when faulted().
  Status check_intact() const;

  // Hints that the whole mapping will be read soon, in order (madvise
  // WILLNEED + SEQUENTIAL). Purely advisory.
  void advise_sequential() const;

 private:
  void reset();

  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  std::string path_;
  FileIdentity identity_;
  int guard_slot_ = -1;
};

// Writes `<path>.partial.<pid>.<n>` (a name of its own) through a buffer and
// renames it to `path` at commit(), so readers never see a half-written file
// and concurrent writers of one path (other threads or processes) never mix
// their bytes: the last commit wins. If the writer is destroyed without a
// successful commit(), the partial file is removed. One writer is not
// thread-safe.
class FileWriter {
 public:
  static StatusOr<FileWriter> create(const std::string& path);

  FileWriter() = default;
  FileWriter(FileWriter&& other) noexcept;
  FileWriter& operator=(FileWriter&& other) noexcept;
  FileWriter(const FileWriter&) = delete;
  FileWriter& operator=(const FileWriter&) = delete;
  ~FileWriter();

  // Appends bytes at the current end.
  Status write(ByteSpan bytes);
  Status write_zeros(size_t count);
  // Overwrites already written bytes at `offset` (e.g. a header patched at
  // the end). REQUIRES: offset + bytes.size() <= bytes_written().
  Status write_at(uint64_t offset, ByteSpan bytes);
  uint64_t bytes_written() const { return written_; }
  const std::string& path() const { return path_; }

  // Flushes, fsyncs, closes and renames the partial file onto path().
  Status commit();

 private:
  Status flush();
  void abandon();

  int fd_ = -1;
  std::string path_;
  std::string partial_path_;
  std::string buffer_;
  uint64_t written_ = 0;  // bytes accepted, buffered included
};

// Writes `bytes` to `path` through a FileWriter (atomic replace).
Status write_file(const std::string& path, ByteSpan bytes);

// Removes the partial files (`<name>.partial.<pid>.<n>`) in `dir`, not
// recursively, that FileWriters of processes no longer running left behind
// (a writer killed before its commit). Files of running processes, this one
// included, are left alone. Returns how many were removed. A missing
// directory is no error. Errors: the directory cannot be read.
StatusOr<size_t> remove_stale_partials(const std::string& dir);

}  // namespace cuzk
