// Small helpers shared by the file-based commands (prove, verify, setup,
// inspect): one-line errors, terminal progress, output files.
#pragma once

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "cuzk/base/status.h"

namespace cuzk::app {

// Exit codes of the file-based commands.
inline constexpr int kExitOk = 0;
inline constexpr int kExitInvalid = 1;  // a proof that does not verify, a failed proof
inline constexpr int kExitUsage = 2;    // bad arguments or unreadable / malformed input

// Prints "cuzk <command>: <message>" on one line to stderr; returns `code`.
inline int fail(const char* command, const Status& status, int code = kExitUsage) {
  std::fprintf(stderr, "cuzk %s: %s\n", command, status.message().c_str());
  return code;
}

inline bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

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

}  // namespace cuzk::app
