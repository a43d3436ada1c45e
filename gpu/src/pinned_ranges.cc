#include "cuzk/gpu/pinned_ranges.h"

#include <iterator>
#include <string>

namespace cuzk::gpu {

StatusOr<void*> PinnedRanges::acquire(void* p, size_t bytes, unsigned flags, const std::function<Status()>& pin) {
  const uintptr_t begin = reinterpret_cast<uintptr_t>(p), end = begin + bytes;
  const std::string what = "pinning " + std::to_string(bytes) + " bytes of host memory";
  std::lock_guard<std::mutex> lock(mu_);
  // The pinned range that starts at or before p, if any, and the next one.
  auto next = ranges_.upper_bound(begin);
  if (next != ranges_.begin()) {
    auto it = std::prev(next);
    const uintptr_t it_end = it->first + it->second.bytes;
    if (begin < it_end) {
      if (end > it_end)
        return Status(StatusCode::kFailedPrecondition,
                      what + ": it runs past the end of a pinned range of " + std::to_string(it->second.bytes) +
                          " bytes that it overlaps");
      if ((flags & ~it->second.flags) != 0)
        return Status(StatusCode::kFailedPrecondition, what + ": it lies in a range pinned with flags " +
                                                           std::to_string(it->second.flags) + ", which lack some of " +
                                                           std::to_string(flags));
      ++it->second.holders;
      return reinterpret_cast<void*>(it->first);
    }
  }
  if (next != ranges_.end() && next->first < end)
    return Status(StatusCode::kFailedPrecondition,
                  what + ": it overlaps the start of a pinned range of " + std::to_string(next->second.bytes) + " bytes");
  RETURN_IF_ERROR(pin());
  ranges_.emplace(begin, Range{bytes, flags, 1});
  return p;
}

void PinnedRanges::release(void* start, const std::function<void()>& unpin) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = ranges_.find(reinterpret_cast<uintptr_t>(start));
  if (it == ranges_.end() || --it->second.holders > 0) return;
  unpin();
  ranges_.erase(it);
}

int PinnedRanges::holders(const void* p) const {
  std::lock_guard<std::mutex> lock(mu_);
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  auto next = ranges_.upper_bound(a);
  if (next == ranges_.begin()) return 0;
  auto it = std::prev(next);
  return a < it->first + it->second.bytes ? it->second.holders : 0;
}

}  // namespace cuzk::gpu
