// Small helpers shared by the file-based commands (prove, verify, setup,
// inspect): one-line errors, terminal progress, output files.
#pragma once

#include <unistd.h>

#include <chrono>
#include <memory>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <cstdio>
#include <string>
#include <string_view>

#include "cuzk/base/status.h"
#include "cuzk/base/thread_pool.h"

namespace cuzk::app {

// Exit codes of the file-based commands.
inline constexpr int kExitOk = 0;
inline constexpr int kExitInvalid = 1;  // a proof that does not verify, a failed proof
inline constexpr int kExitUsage = 2;    // bad arguments or unreadable / malformed input

// The JSON object a command given --json prints on stdout when it fails:
// {"ok":false,"command":...,"code":"INVALID_ARGUMENT","error":...,"exit_code":2}.
std::string json_error(std::string_view command, const Status& status, int code);

// Prints "cuzk <command>: <message>" on one line to stderr; returns `code`.
// With `json`, json_error() goes to stdout as well, so that a script reading
// stdout gets an answer whether or not the command worked.
inline int fail(const char* command, const Status& status, int code = kExitUsage, bool json = false) {
  std::fprintf(stderr, "cuzk %s: %s\n", command, status.message().c_str());
  if (json) std::printf("%s\n", json_error(command, status, code).c_str());
  return code;
}

inline bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The thread pool a command runs on: its own with `threads` workers when
// threads > 0, else the process default.
class CommandPool {
 public:
  explicit CommandPool(int threads) {
    if (threads > 0) own_ = std::make_unique<ThreadPool>(unsigned(threads));
  }
  ThreadPool* get() { return own_ ? own_.get() : &default_thread_pool(); }

 private:
  std::unique_ptr<ThreadPool> own_;
};

// A progress line on stderr, redrawn in place, only when stderr is a terminal.
class Progress {
 public:
  explicit Progress(std::string label) : label_(std::move(label)), tty_(isatty(2) != 0) {}
  ~Progress() { done(); }
  void update(double fraction) {
    if (!tty_ || finished_) return;
    auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::milliseconds(100) && fraction < 1) return;
    last_ = now;
    std::fprintf(stderr, "\r%s: %5.1f%%", label_.c_str(), 100.0 * fraction);
    std::fflush(stderr);
    drawn_ = true;
  }
  void done() {
    if (drawn_ && !finished_) std::fprintf(stderr, "\r%s: done   \n", label_.c_str());
    finished_ = true;
  }

 private:
  std::string label_;
  bool tty_;
  bool drawn_ = false;
  bool finished_ = false;
  std::chrono::steady_clock::time_point last_{};
};

// For steps without a fraction to report (loading a key, proving): after the
// first 0.7 s, "label... 12 s" redrawn every half second on a terminal until
// stop() or destruction, then "label: done in 12.3 s". Quick steps print
// nothing; nothing is printed when stderr is not a terminal.
class ElapsedTicker {
 public:
  explicit ElapsedTicker(std::string label) : label_(std::move(label)) {
    if (isatty(2) == 0) return;
    thread_ = std::jthread([this](std::stop_token stop) { run(stop); });
  }
  ~ElapsedTicker() { stop(); }
  ElapsedTicker(const ElapsedTicker&) = delete;
  ElapsedTicker& operator=(const ElapsedTicker&) = delete;

  void stop() {
    if (!thread_.joinable()) return;
    thread_.request_stop();
    cv_.notify_all();
    thread_.join();
    if (drawn_) std::fprintf(stderr, "\r%s: done in %.1f s   \n", label_.c_str(), seconds());
  }

 private:
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  void run(std::stop_token stop) {
    std::unique_lock<std::mutex> lock(mu_);
    if (cv_.wait_for(lock, std::chrono::milliseconds(700), [&] { return stop.stop_requested(); })) return;
    while (!stop.stop_requested()) {
      std::fprintf(stderr, "\r%s... %.0f s", label_.c_str(), seconds());
      std::fflush(stderr);
      drawn_ = true;
      cv_.wait_for(lock, std::chrono::milliseconds(500));
    }
  }

  std::string label_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::mutex mu_;
  std::condition_variable cv_;
  bool drawn_ = false;  // GUARDED_BY(mu_) while the thread runs; read after join
  std::jthread thread_;  // declared last: joined before the members it reads go
};

}  // namespace cuzk::app
