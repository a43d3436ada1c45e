// A cheap look at a .wtns image before it is queued: container, field and
// count, without converting the values (io::parse_wtns does that later, in
// a preparation worker).
#pragma once

#include <cstdint>

#include "cuzk/base/bytes.h"
#include "cuzk/base/status.h"

namespace cuzk::engine {

// The .wtns version io::parse_wtns reads.
inline constexpr uint32_t kWtnsVersion = 2;

// Checks magic "wtns", the version, the field (32-byte BLS12-381 r), section
// 2's size, that nothing follows the last section, and that the witness has
// `expected_vars` values: whatever parse_wtns would refuse later but the
// values themselves. Errors: INVALID_ARGUMENT with what is wrong (and for a
// count mismatch, both counts).
Status check_wtns_header(ByteSpan bytes, uint64_t expected_vars);

}  // namespace cuzk::engine
