#include "cuzk/base/utf8.h"

#include <cstdint>

namespace cuzk {
namespace {

// Length of the well-formed sequence starting at text[i], or 0 when the byte
// there does not start one (RFC 3629, table 3-7 of the Unicode standard).
size_t sequence_length(std::string_view text, size_t i) {
  auto byte = [&](size_t k) { return k < text.size() ? uint8_t(text[k]) : uint8_t(0); };
  auto in = [](uint8_t b, uint8_t lo, uint8_t hi) { return b >= lo && b <= hi; };
  const uint8_t b0 = byte(i);
  if (b0 < 0x80) return 1;
  const uint8_t b1 = byte(i + 1);
  if (in(b0, 0xc2, 0xdf)) return in(b1, 0x80, 0xbf) ? 2 : 0;
  const bool cont2 = in(byte(i + 2), 0x80, 0xbf);
  if (b0 == 0xe0) return in(b1, 0xa0, 0xbf) && cont2 ? 3 : 0;  // no overlong forms
  if (b0 == 0xed) return in(b1, 0x80, 0x9f) && cont2 ? 3 : 0;  // no surrogates
  if (in(b0, 0xe1, 0xef)) return in(b1, 0x80, 0xbf) && cont2 ? 3 : 0;
  const bool cont3 = cont2 && in(byte(i + 3), 0x80, 0xbf);
  if (b0 == 0xf0) return in(b1, 0x90, 0xbf) && cont3 ? 4 : 0;  // no overlong forms
  if (b0 == 0xf4) return in(b1, 0x80, 0x8f) && cont3 ? 4 : 0;  // nothing past U+10FFFF
  if (in(b0, 0xf1, 0xf3)) return in(b1, 0x80, 0xbf) && cont3 ? 4 : 0;
  return 0;
}

}  // namespace

bool is_valid_utf8(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    const size_t n = sequence_length(text, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string valid_utf8(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const size_t n = sequence_length(text, i);
    if (n > 0) {
      out.append(text.substr(i, n));
      i += n;
      continue;
    }
    const auto c = uint8_t(text[i++]);
    out += "\\x";
    out += kHex[c >> 4];
    out += kHex[c & 15];
  }
  return out;
}

void make_valid_utf8(std::string* text) {
  if (!is_valid_utf8(*text)) *text = valid_utf8(*text);
}

}  // namespace cuzk
