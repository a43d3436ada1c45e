#include "cuzk/base/byte_size.h"

#include <array>
#include <cctype>
#include <string>

namespace cuzk {
namespace {

using u128 = unsigned __int128;

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// log2 of the unit's size, or -1 for a unit that is not one.
int unit_shift(std::string_view unit) {
  struct Unit {
    std::string_view name;
    int shift;
  };
  static constexpr std::array<Unit, 14> kUnits = {{{"", 0},    {"b", 0},    {"k", 10},  {"kb", 10}, {"kib", 10},
                                                   {"m", 20},  {"mb", 20},  {"mib", 20}, {"g", 30},  {"gb", 30},
                                                   {"gib", 30}, {"t", 40},  {"tb", 40}, {"tib", 40}}};
  const std::string u = lower(unit);
  for (const Unit& k : kUnits)
    if (k.name == u) return k.shift;
  return -1;
}

Status not_a_size(std::string_view text, const std::string& why) {
  // Appended piece by piece: GCC 12 warns (-Wrestrict, wrongly) on "\"" + std::string(text).
  std::string m = "\"";
  m.append(text);
  m += "\" is not a size: " + why;
  m += " (examples: 4096, 512MiB, 1.5GiB, 16G; units are binary, G = GB = GiB = 2^30 bytes)";
  return invalid_argument(std::move(m));
}

}  // namespace

StatusOr<uint64_t> parse_byte_size(std::string_view text) {
  size_t i = 0;
  u128 whole = 0;
  for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
    whole = whole * 10 + u128(text[i] - '0');
    if (whole > u128(UINT64_MAX)) return not_a_size(text, "more than 2^64 - 1 bytes");
  }
  if (i == 0) return not_a_size(text, "it does not start with a digit");
  // The fraction as numerator / denominator, at most 18 digits kept (finer
  // than a byte at every unit, so the floor below is exact to the byte).
  uint64_t numerator = 0, denominator = 1;
  if (i < text.size() && text[i] == '.') {
    size_t digits = 0;
    for (++i; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i, ++digits) {
      if (digits < 18) numerator = numerator * 10 + uint64_t(text[i] - '0'), denominator *= 10;
    }
    if (digits == 0) return not_a_size(text, "no digit after the point");
  }
  size_t unit_at = i;
  while (unit_at < text.size() && text[unit_at] == ' ') ++unit_at;
  const int shift = unit_shift(text.substr(unit_at));
  if (shift < 0) return not_a_size(text, "unknown unit \"" + std::string(text.substr(unit_at)) + "\"");
  if (shift == 0 && numerator != 0) return not_a_size(text, "not a whole number of bytes");
  const u128 bytes = (whole << shift) + ((u128(numerator) << shift) / denominator);
  if (bytes > u128(UINT64_MAX)) return not_a_size(text, "more than 2^64 - 1 bytes");
  return uint64_t(bytes);
}

}  // namespace cuzk
