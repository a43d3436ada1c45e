// A cheap look at a .wtns image before it is queued: container, field and
// count, without converting the values (io::parse_wtns does that later, in
// a preparation worker).
#pragma once

#include <cstdint>

#include "cuzk/base/bytes.h"
#include "cuzk/base/status.h"

namespace cuzk::engine {

// io::parse_wtns_header (whatever parse_wtns would refuse later but the
// values themselves, in its words), then what the daemon asks beyond it:
// nothing after the last section, and `expected_vars` values. Errors:
// INVALID_ARGUMENT with what is wrong (and for a count mismatch, both counts).
Status check_wtns_header(ByteSpan bytes, uint64_t expected_vars);

}  // namespace cuzk::engine
