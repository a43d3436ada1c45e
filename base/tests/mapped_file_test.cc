// MappedFile: a file that shrinks under its mapping reads as zeros past the
// new end and is reported (faulted, check_intact), instead of killing the
// process with SIGBUS; faults outside our mappings still do.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "cuzk/base/file_lock.h"
#include "cuzk/base/mapped_file.h"
#include "cuzk/base/random.h"
#include "cuzk/base/sanitizers.h"

namespace cuzk {
namespace {

class MappedFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = (std::filesystem::temp_directory_path() / ("cuzk-mapped-" + std::to_string(OsRng()()))).string();
    TestRng rng(fresh_test_seed());
    bytes_.resize(5 * 4096 + 123);
    for (auto& b : bytes_) b = char(rng() | 1);  // no zero byte: zeros below come from the guard
    std::ofstream(path_, std::ios::binary) << bytes_;
  }
  void TearDown() override { std::filesystem::remove(path_); }

  std::string path_, bytes_;
};

TEST_F(MappedFileTest, ReadsTheFileAndKnowsItsIdentity) {
  auto f = MappedFile::open(path_);
  ASSERT_TRUE(f.ok()) << f.status().to_string();
  ASSERT_EQ(f->size(), bytes_.size());
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(f->data()), f->size()), bytes_);
  EXPECT_FALSE(f->faulted());
  EXPECT_TRUE(f->check_intact().ok());
  auto now = file_identity(path_);
  ASSERT_TRUE(now.ok());
  EXPECT_EQ(*now, f->identity());
  EXPECT_EQ(now->size, bytes_.size());
  std::filesystem::resize_file(path_, 100);
  EXPECT_NE(*file_identity(path_), f->identity());
  EXPECT_EQ(file_identity(path_ + ".none").status().code(), StatusCode::kNotFound);
}

TEST_F(MappedFileTest, AFileTruncatedUnderTheMappingReadsZerosAndIsReported) {
  auto f = MappedFile::open(path_);
  ASSERT_TRUE(f.ok());
  std::filesystem::resize_file(path_, 4096 + 10);  // keeps the first page and a bit
  const uint8_t* p = f->data();
  // Several threads read past the new end at once; none dies.
  std::vector<uint64_t> sums(4);
  {
    std::vector<std::jthread> readers;
    for (size_t t = 0; t < sums.size(); ++t)
      readers.emplace_back([&, t] {
        for (size_t i = 2 * 4096 + t; i < f->size(); i += 97) sums[t] += p[i];
      });
  }
  for (uint64_t s : sums) EXPECT_EQ(s, 0u);
  EXPECT_EQ(uint8_t(p[0]), uint8_t(bytes_[0]));  // the first page still holds the file
  EXPECT_TRUE(f->faulted());
  Status s = f->check_intact();
  EXPECT_EQ(s.code(), StatusCode::kDataLoss);
  EXPECT_NE(s.message().find(path_), std::string::npos) << s.message();
  // Another mapping of the same file is not marked by this one's fault.
  auto g = MappedFile::open(path_);
  ASSERT_TRUE(g.ok());
  EXPECT_FALSE(g->faulted());
  // A moved mapping keeps its mark; the moved-from one has none.
  MappedFile moved = std::move(*f);
  EXPECT_TRUE(moved.faulted());
  EXPECT_FALSE(f->faulted());
}

TEST_F(MappedFileTest, AFaultOutsideOurMappingsStillKillsTheProcess) {
  auto guarded = MappedFile::open(path_);  // installs the handler
  ASSERT_TRUE(guarded.ok());
  auto fault_elsewhere = [this] {
    int fd = ::open(path_.c_str(), O_RDONLY);
    void* raw = ::mmap(nullptr, bytes_.size(), PROT_READ, MAP_PRIVATE, fd, 0);
    ::ftruncate(::open(path_.c_str(), O_WRONLY), 0);
    volatile uint8_t v = static_cast<const uint8_t*>(raw)[3 * 4096];
    (void)v;
    std::_Exit(0);
  };
  if constexpr (kUnderAddressSanitizer) {
    // Passed on to the handler installed before ours: AddressSanitizer's,
    // which reports the fault and exits 1 (the debug-asan preset).
    EXPECT_EXIT(fault_elsewhere(), ::testing::ExitedWithCode(1), "AddressSanitizer: BUS");
  } else {
    EXPECT_EXIT(fault_elsewhere(), ::testing::KilledBySignal(SIGBUS), "");
  }
}

// A pid that ran and no longer runs.
pid_t dead_pid() {
  pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  int status = 0;
  ::waitpid(child, &status, 0);
  return child;
}

TEST(StalePartials, OnlyFilesOfWritersThatNoLongerRunAreRemoved) {
  std::string dir = (std::filesystem::temp_directory_path() / ("cuzk-partials-" + std::to_string(OsRng()()))).string();
  std::filesystem::create_directories(dir);
  const std::string dead = std::to_string(dead_pid()), live = std::to_string(::getppid()),
                    self = std::to_string(::getpid());
  const std::vector<std::string> names = {"k.zkey.partial." + dead + ".0", "k.zkey.partial." + live + ".3",
                                          "k.zkey.partial." + self + ".1", "k.partial", "k.partial.12x.0",
                                          "k.zkey.partial." + dead + ".x", "k.zkey"};
  for (const auto& n : names) std::ofstream(dir + "/" + n) << "x";
  auto removed = remove_stale_partials(dir);
  ASSERT_TRUE(removed.ok()) << removed.status().to_string();
  EXPECT_EQ(*removed, 1u);
  EXPECT_FALSE(std::filesystem::exists(dir + "/" + names[0]));
  for (size_t i = 1; i < names.size(); ++i) EXPECT_TRUE(std::filesystem::exists(dir + "/" + names[i])) << names[i];
  EXPECT_EQ(*remove_stale_partials(dir + "/missing"), 0u);
  std::filesystem::remove_all(dir);
}

TEST(FileLock, ExcludesOtherHoldersUntilReleased) {
  std::string dir = (std::filesystem::temp_directory_path() / ("cuzk-lock-" + std::to_string(OsRng()()))).string();
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/k.params.lock";
  auto first = FileLock::acquire(path);
  ASSERT_TRUE(first.ok()) << first.status().to_string();
  EXPECT_TRUE(first->held());
  auto second = FileLock::acquire(path, /*wait=*/false);
  EXPECT_EQ(second.status().code(), StatusCode::kUnavailable) << second.status().to_string();
  // A waiting holder gets the lock once the first one ends.
  std::atomic<bool> got{false};
  std::jthread waiter([&] {
    auto l = FileLock::acquire(path);
    EXPECT_TRUE(l.ok()) << l.status().to_string();
    got = true;
  });
  FileLock moved = std::move(*first);  // moving keeps the lock
  EXPECT_EQ(FileLock::acquire(path, false).status().code(), StatusCode::kUnavailable);
  moved = FileLock();
  waiter.join();
  EXPECT_TRUE(got.load());
  EXPECT_TRUE(FileLock::acquire(path, false).ok());
  EXPECT_EQ(FileLock::acquire(dir + "/missing/x.lock").status().code(), StatusCode::kNotFound);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace cuzk
