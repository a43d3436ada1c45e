// Logging facade. Library code logs through CUZK_LOG(level) << ...; where the
// lines go is decided once, by main(), through set_log_sink(). This sink is
// the one process-wide setting cuzk keeps: it is written before any thread
// starts and only read afterwards.
#pragma once

#include <functional>
#include <sstream>
#include <string>
#include <string_view>

namespace cuzk::log {

enum class Level : int { kTrace = 0, kDebug = 1, kInfo = 2, kWarn = 3, kError = 4, kOff = 5 };

std::string_view level_name(Level level);
// Parses "trace", "debug", "info", "warn", "error", "off". Returns false on anything else.
bool parse_level(std::string_view text, Level* out);

using Sink = std::function<void(Level, std::string_view file, int line, std::string_view message)>;

// REQUIRES: called before other threads log (normally from main()).
void set_sink(Sink sink, Level min_level);
Level min_level();
void emit(Level level, const char* file, int line, std::string_view message);

// Collects one line and emits it on destruction.
class LineBuilder {
 public:
  LineBuilder(Level level, const char* file, int line) : level_(level), file_(file), line_(line) {}
  ~LineBuilder() { emit(level_, file_, line_, stream_.str()); }
  template <class T>
  LineBuilder& operator<<(const T& v) {
    stream_ << v;
    return *this;
  }

 private:
  Level level_;
  const char* file_;
  int line_;
  std::ostringstream stream_;
};

}  // namespace cuzk::log

#define CUZK_LOG(lvl)                                                    \
  if (::cuzk::log::Level::k##lvl < ::cuzk::log::min_level()) {           \
  } else                                                                 \
    ::cuzk::log::LineBuilder(::cuzk::log::Level::k##lvl, __FILE__, __LINE__)
