// The table behind HostRegistration: which host ranges are pinned, with
// which flags, and by how many holders. Pure bookkeeping (the pinning itself
// is a callback), so that it can be tested without a GPU. Thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>

#include "cuzk/base/status.h"

namespace cuzk::gpu {

class PinnedRanges {
 public:
  // Adds a holder of [p, p + bytes). Inside a range already pinned with every
  // flag in `flags`: that range gets one more holder and `pin` is not
  // called. Clear of every pinned range: `pin()` pins it and it is recorded
  // with one holder. Returns the start of the range now held.
  // Errors: FAILED_PRECONDITION when the range only partly overlaps a pinned
  // one or asks for a flag it lacks; whatever `pin` returns.
  StatusOr<void*> acquire(void* p, size_t bytes, unsigned flags, const std::function<Status()>& pin);
  // Drops a holder of the range starting at `start` (as acquire returned).
  // The last holder's release calls `unpin()` and forgets the range; unpin
  // runs under the table's lock, so that nobody pins the range again before
  // it is unpinned.
  void release(void* start, const std::function<void()>& unpin);
  // Holders of the pinned range containing p (0: none).
  int holders(const void* p) const;

 private:
  struct Range {
    size_t bytes = 0;
    unsigned flags = 0;
    int holders = 0;
  };
  mutable std::mutex mu_;
  std::map<uintptr_t, Range> ranges_;  // GUARDED_BY(mu_), by start address
};

}  // namespace cuzk::gpu
