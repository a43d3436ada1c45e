// A priority queue of work items between pipeline stages.
//
// Order: higher Priority first; within a priority, the earlier job (lower
// job_seq) first, then the lower partition index — so a CRITICAL job's
// partitions overtake every queued NORMAL partition, and a job's partitions
// leave in order. pop_batch() also gathers same-group (same circuit) items
// of the same priority so one worker can prove them back to back.
// Thread-safe.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <iterator>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "cuzk/base/mutex.h"
#include "cuzk/engine/types.h"

namespace cuzk::engine {

struct SchedKey {
  Priority priority = Priority::kNormal;
  uint64_t job_seq = 0;
  uint32_t index = 0;
  // True when this key is served before `other` (no arithmetic on the
  // priority: any int orders, higher first).
  bool before(const SchedKey& other) const {
    if (priority != other.priority) return int(priority) > int(other.priority);
    return std::tuple(job_seq, index) < std::tuple(other.job_seq, other.index);
  }
};

template <class T>
class WorkQueue {
 public:
  // Adds an item. REQUIRES: keys are unique. Ignored after close().
  void push(SchedKey key, std::string group, T value) EXCLUDES(mu_) {
    MutexLock lock(mu_);
    if (closed_) return;
    items_.insert(Entry{key, std::move(group), std::move(value)});
    cv_.notify_all();
  }

  // Waits for the first item, then returns it with up to max_batch − 1 more
  // items of its group and priority, in queue order. When fewer are queued,
  // waits up to batch_wait for more. Returns an empty vector once closed.
  std::vector<T> pop_batch(size_t max_batch, std::chrono::milliseconds batch_wait) EXCLUDES(mu_) {
    MutexLock lock(mu_);
    while (!closed_ && items_.empty()) cv_.wait(mu_);
    if (closed_) return {};
    const Entry& head = *items_.begin();
    const std::string group = head.group;
    const Priority priority = head.key.priority;
    std::vector<T> out;
    fill_batch(group, priority, max_batch, batch_wait, &out);
    return out;
  }

  // pop_batch for one of several consumers that suit items differently:
  // rank(group) scores an item for this consumer (0: leave it for another).
  // The first item is, among the items of rank > 0 of the highest priority
  // present, the first of the highest rank; batch-mates are of its group and
  // priority. While every queued item has rank 0, waits and asks again every
  // `recheck` (ranks change without pushes).
  std::vector<T> pop_batch_ranked(size_t max_batch, std::chrono::milliseconds batch_wait,
                                  const std::function<int(const std::string& group)>& rank,
                                  std::chrono::milliseconds recheck) EXCLUDES(mu_) {
    MutexLock lock(mu_);
    for (;;) {
      while (!closed_ && items_.empty()) cv_.wait(mu_);
      if (closed_) return {};
      auto pick = items_.end();
      int best = 0;
      for (auto it = items_.begin(); it != items_.end(); ++it) {
        if (pick != items_.end() && it->key.priority != pick->key.priority) break;
        const int r = rank(it->group);
        if (r > best) best = r, pick = it;
      }
      if (pick == items_.end()) {
        (void)cv_.wait_until(mu_, std::chrono::steady_clock::now() + recheck);
        continue;
      }
      const std::string group = pick->group;
      const Priority priority = pick->key.priority;
      std::vector<T> out;
      out.push_back(std::move(pick->value));
      items_.erase(pick);
      fill_batch(group, priority, max_batch, batch_wait, &out);
      return out;
    }
  }

  // pop_batch(1, 0).
  std::vector<T> pop() EXCLUDES(mu_) { return pop_batch(1, std::chrono::milliseconds(0)); }

  // Removes and returns every item whose value satisfies pred.
  std::vector<T> remove_if(const std::function<bool(const T&)>& pred) EXCLUDES(mu_) {
    MutexLock lock(mu_);
    std::vector<T> out;
    for (auto it = items_.begin(); it != items_.end();) {
      if (pred(it->value)) {
        out.push_back(std::move(it->value));
        it = items_.erase(it);
      } else {
        ++it;
      }
    }
    return out;
  }

  // How many queued items are served before an item with this key.
  size_t count_before(const SchedKey& key) const EXCLUDES(mu_) {
    MutexLock lock(mu_);
    size_t n = 0;
    for (const Entry& e : items_) {
      if (!e.key.before(key)) break;
      ++n;
    }
    return n;
  }

  size_t size() const EXCLUDES(mu_) {
    MutexLock lock(mu_);
    return items_.size();
  }

  // Wakes every waiter; pops then return empty and pushes are ignored. The
  // items still queued are returned to the caller.
  std::vector<T> close() EXCLUDES(mu_) {
    MutexLock lock(mu_);
    closed_ = true;
    cv_.notify_all();
    std::vector<T> out;
    for (auto it = items_.begin(); it != items_.end(); it = items_.erase(it))
      out.push_back(std::move(it->value));
    return out;
  }

 private:
  struct Entry {
    SchedKey key;
    std::string group;
    mutable T value;  // moved out only when the entry is being erased; not part of the order
    bool operator<(const Entry& o) const { return key.before(o.key); }
  };

  // Adds queued items of the group and priority to *out, waiting up to
  // batch_wait for more while it has fewer than max_batch.
  void fill_batch(const std::string& group, Priority priority, size_t max_batch, std::chrono::milliseconds batch_wait,
                  std::vector<T>* out) REQUIRES(mu_) {
    take_matching(group, priority, max_batch, out);
    auto deadline = std::chrono::steady_clock::now() + batch_wait;
    while (out->size() < max_batch && !closed_ && batch_wait.count() > 0) {
      if (!cv_.wait_until(mu_, deadline)) break;
      take_matching(group, priority, max_batch, out);
    }
  }

  void take_matching(const std::string& group, Priority priority, size_t max_batch, std::vector<T>* out)
      REQUIRES(mu_) {
    for (auto it = items_.begin(); it != items_.end() && out->size() < max_batch;) {
      if (it->key.priority != priority) break;
      if (it->group == group) {
        out->push_back(std::move(it->value));
        it = items_.erase(it);
      } else {
        ++it;
      }
    }
  }

  mutable Mutex mu_;
  CondVar cv_;
  std::set<Entry> items_ GUARDED_BY(mu_);
  bool closed_ GUARDED_BY(mu_) = false;
};

}  // namespace cuzk::engine
