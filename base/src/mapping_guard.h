// Survival of file mappings whose file shrinks under them (internal to
// MappedFile).
//
// Reading a page of a shared file mapping that lies past the file's current
// end raises SIGBUS, which kills the process. A guarded range instead gets
// the rest of its pages replaced by zero pages on the first such fault, and
// is marked as faulted; the reader sees zeros and the mapping's owner checks
// the mark afterwards (MappedFile::check_intact()).
#pragma once

#include <cstddef>

namespace cuzk::internal {

// A slot index for guarded_faulted/unguard, or -1 when every slot is taken
// (the range is then unguarded: a fault kills the process as before).
// Installs the SIGBUS handler on first use. Thread-safe.
int guard_range(const void* begin, size_t bytes);

// Whether a fault was absorbed in the slot's range since guard_range().
bool guarded_faulted(int slot);

// Forgets the range. REQUIRES: called before the range is unmapped.
void unguard(int slot);

}  // namespace cuzk::internal
