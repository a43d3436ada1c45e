#include <gtest/gtest.h>

#include <string>

#include "cuzk/base/log.h"
#include "cuzk/base/random.h"
#include "cuzk/base/utf8.h"

namespace cuzk {
namespace {

TEST(Utf8, WellFormedTextIsKept) {
  for (const char* s : {"", "plain ascii", "back\\slash \\x41", "\xc3\xa9t\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x94\x92",
                        "\xef\xbf\xbf", "\xf4\x8f\xbf\xbf", "nul \x7f"}) {
    EXPECT_TRUE(is_valid_utf8(s)) << s;
    EXPECT_EQ(valid_utf8(s), s);
  }
}

TEST(Utf8, BadBytesAreEscaped) {
  // The C1 reader's echo that made status_json() throw.
  EXPECT_EQ(valid_utf8("found '\xff'"), "found '\\xff'");
  EXPECT_EQ(valid_utf8("\xc3"), "\\xc3");                     // truncated
  EXPECT_EQ(valid_utf8("\xc0\xaf"), "\\xc0\\xaf");            // overlong '/'
  EXPECT_EQ(valid_utf8("\xe0\x80\xaf"), "\\xe0\\x80\\xaf");   // overlong, 3 bytes
  EXPECT_EQ(valid_utf8("\xed\xa0\x80"), "\\xed\\xa0\\x80");   // a surrogate
  EXPECT_EQ(valid_utf8("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // past U+10FFFF
  EXPECT_EQ(valid_utf8("\xf5"), "\\xf5");
  EXPECT_EQ(valid_utf8("a\x80z\xe2\x82\xac"), "a\\x80z\xe2\x82\xac");  // the valid part stays
  for (const char* s : {"\xff", "\xc3", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80"}) EXPECT_FALSE(is_valid_utf8(s));
}

// Random bytes: the result is always valid, and valid input is a fixed point.
TEST(Utf8, RandomBytesAlwaysComeOutValid) {
  TestRng rng(fresh_test_seed());
  for (int round = 0; round < 2000; ++round) {
    std::string s(rng() % 40, '\0');
    for (char& c : s) c = char(rng() % 4 == 0 ? 0x80 + rng() % 0x80 : rng() % 256);
    const std::string v = valid_utf8(s);
    ASSERT_TRUE(is_valid_utf8(v));
    EXPECT_EQ(valid_utf8(v), v);
    if (is_valid_utf8(s)) {
      EXPECT_EQ(v, s);
    }
  }
}

TEST(Utf8, LogLinesAreValid) {
  std::string seen;
  log::set_sink([&](log::Level, std::string_view, int, std::string_view m) { seen = std::string(m); },
                log::Level::kInfo);
  CUZK_LOG(Warn) << "bad \xc3(";
  log::set_sink(nullptr, log::Level::kInfo);
  EXPECT_EQ(seen, "bad \\xc3(");
}

}  // namespace
}  // namespace cuzk
