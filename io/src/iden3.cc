#include "cuzk/io/iden3.h"

#include <algorithm>
#include <cstring>

namespace cuzk::io {
namespace {

constexpr uint64_t kPreambleBytes = 12;
constexpr uint64_t kSectionHeaderBytes = 12;

std::string at(uint64_t offset) { return " at byte " + std::to_string(offset); }

std::string printable_magic(ByteSpan m) {
  std::string s;
  for (uint8_t c : m) {
    if (c < 0x20 || c > 0x7e) return "0x" + to_hex(m);
    s.push_back(char(c));
  }
  return "'" + s + "'";
}

}  // namespace

const Iden3Section* Iden3Container::find(uint32_t id) const {
  for (const Iden3Section& s : sections) {
    if (s.id == id) return &s;
  }
  return nullptr;
}

StatusOr<Iden3Container> parse_iden3_container(ByteSpan file, std::string_view expected_magic,
                                               const Iden3SizeFixup& fixup) {
  const std::string kind = expected_magic.empty() ? std::string("iden3 file") : std::string(expected_magic);
  if (file.size() < kPreambleBytes)
    return invalid_argument(kind + ": truncated" + at(file.size()) + ": the file preamble needs 12 bytes");
  Iden3Container c;
  c.magic.assign(reinterpret_cast<const char*>(file.data()), 4);
  if (!expected_magic.empty() && c.magic != expected_magic)
    return invalid_argument(kind + ": bad magic" + at(0) + ": found " + printable_magic(file.first(4)) +
                            ", expected '" + kind + "'");
  c.version = load_u32le(file.data() + 4);
  const uint32_t n = load_u32le(file.data() + 8);
  c.sections.reserve(std::min<uint64_t>(n, file.size() / kSectionHeaderBytes));
  uint64_t pos = kPreambleBytes;
  for (uint32_t k = 0; k < n; ++k) {
    if (file.size() - pos < kSectionHeaderBytes)
      return invalid_argument(kind + ": truncated" + at(file.size()) + ": section header " + std::to_string(k) +
                              " of " + std::to_string(n) + " starts" + at(pos) + " and needs 12 bytes");
    Iden3Section s{load_u32le(file.data() + pos), pos, pos + kSectionHeaderBytes, load_u64le(file.data() + pos + 4)};
    if (fixup) s.size = fixup(s, c.sections);
    if (s.size > file.size() - s.offset)
      return invalid_argument(kind + ": truncated" + at(file.size()) + ": section " + std::to_string(s.id) +
                              " (header" + at(pos) + ") declares " + std::to_string(s.size) + " bytes from byte " +
                              std::to_string(s.offset));
    if (const Iden3Section* first = c.find(s.id))
      return invalid_argument(kind + ": section " + std::to_string(s.id) + " appears twice, at bytes " +
                              std::to_string(first->header_offset) + " and " + std::to_string(pos));
    c.sections.push_back(s);
    pos = s.end();
  }
  c.end_offset = pos;
  return c;
}

}  // namespace cuzk::io
