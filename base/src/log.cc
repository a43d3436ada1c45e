#include "cuzk/base/log.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <mutex>

#include "cuzk/base/utf8.h"

namespace cuzk::log {
namespace {

void default_sink(Level level, std::string_view, int, std::string_view message) {
  static std::mutex mu;
  auto now = std::chrono::system_clock::now();
  std::time_t t = std::chrono::system_clock::to_time_t(now);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char ts[32];
  std::strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%SZ", &tm);
  std::lock_guard<std::mutex> lock(mu);
  std::fprintf(stderr, "%s %-5.*s %.*s\n", ts, int(level_name(level).size()), level_name(level).data(),
               int(message.size()), message.data());
}

struct State {
  Sink sink = default_sink;
  Level min = Level::kInfo;
};

State& state() {
  static State s;
  return s;
}

}  // namespace

std::string_view level_name(Level level) {
  switch (level) {
    case Level::kTrace: return "trace";
    case Level::kDebug: return "debug";
    case Level::kInfo: return "info";
    case Level::kWarn: return "warn";
    case Level::kError: return "error";
    case Level::kOff: return "off";
  }
  return "?";
}

bool parse_level(std::string_view text, Level* out) {
  for (int i = 0; i <= int(Level::kOff); ++i) {
    if (level_name(Level(i)) == text) {
      *out = Level(i);
      return true;
    }
  }
  if (text == "warning") {
    *out = Level::kWarn;
    return true;
  }
  return false;
}

void set_sink(Sink sink, Level min_level) {
  state().sink = sink ? std::move(sink) : Sink(default_sink);
  state().min = min_level;
}

Level min_level() { return state().min; }

void emit(Level level, const char* file, int line, std::string_view message) {
  if (level < state().min) return;
  // Lines may quote client input; sinks (files, journald, JSON) get valid UTF-8.
  if (!is_valid_utf8(message)) {
    state().sink(level, file, line, valid_utf8(message));
    return;
  }
  state().sink(level, file, line, message);
}

}  // namespace cuzk::log
