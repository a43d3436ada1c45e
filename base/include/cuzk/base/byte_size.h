// Sizes as people write them in configuration files and on the command
// line: "4096", "512MiB", "1.5 GiB", "16G", "16GB", "2KiB".
//
// One meaning everywhere in cuzk: every unit is binary.
//   none or B        bytes
//   K, KB, KiB       2^10 bytes
//   M, MB, MiB       2^20
//   G, GB, GiB       2^30
//   T, TB, TiB       2^40
// Units are read without regard to case ("16gib", "16g"), with or without
// a space before them. cuzk's sizes are memory budgets and sector sizes,
// which are counted in powers of two (a "16 GB" card holds 16 GiB, a 32 GiB
// sector is 2^35 bytes), so "GB" means GiB here, as in systemd's MemoryMax=;
// a decimal amount is written out in bytes.
#pragma once

#include <cstdint>
#include <string_view>

#include "cuzk/base/status.h"

namespace cuzk {

// The number of bytes `text` stands for. A fraction is allowed with a unit
// ("1.5GiB") and rounds down to whole bytes; a count of bytes must be
// whole. Errors: INVALID_ARGUMENT quoting the text, for an empty text, a
// sign or other malformed number, an unknown unit, or more than 2^64 − 1
// bytes.
StatusOr<uint64_t> parse_byte_size(std::string_view text);

}  // namespace cuzk
