// iden3's binary container, which .zkey, .r1cs, .wtns and .ptau share: a
// 4-byte ASCII magic, u32le version, u32le section count, then sections,
// each u32le id ‖ u64le payload size ‖ payload. Every reader of those files
// (io/, engine/, apps/) walks it with parse_iden3_container.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/base/bytes.h"
#include "cuzk/base/status.h"

namespace cuzk::io {

struct Iden3Section {
  uint32_t id = 0;
  uint64_t header_offset = 0;  // where the 12-byte section header starts
  uint64_t offset = 0;         // first payload byte
  uint64_t size = 0;           // payload bytes
  uint64_t end() const { return offset + size; }
};

struct Iden3Container {
  std::string magic;  // 4 characters
  uint32_t version = 0;
  std::vector<Iden3Section> sections;  // in file order
  uint64_t end_offset = 0;             // first byte after the last section

  // The section with this id, or null. Ids are unique (parse rejects
  // duplicates).
  const Iden3Section* find(uint32_t id) const;
};

// Chooses the payload size of a section from its declared size, seeing the
// sections before it: lets a reader correct a size a known writer gets
// wrong (circom_runtime's .wtns section 2 from 4 GiB on).
using Iden3SizeFixup = std::function<uint64_t(const Iden3Section& declared, const std::vector<Iden3Section>& before)>;

// Parses the container directory. Messages start with `expected_magic`
// ("zkey: ...", or "iden3 file: ..." when it is empty, which accepts any
// magic). Errors, INVALID_ARGUMENT naming the byte: "truncated at byte N"
// (a file shorter than the 12-byte preamble, a section header or payload
// running past the end), "bad magic at byte 0", "section I appears twice,
// at bytes A and B".
StatusOr<Iden3Container> parse_iden3_container(ByteSpan file, std::string_view expected_magic,
                                               const Iden3SizeFixup& fixup = {});

}  // namespace cuzk::io
