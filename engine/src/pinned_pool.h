// Pinned host buffers for partition inputs (the witness copy a GPU uploads
// from, and a, b, c when the host makes them), made once and reused.
//
// Pinning gigabytes costs seconds and freeing pinned memory synchronises the
// device, so neither may happen per partition: a buffer is made the first
// time a partition needs one of its size and is reused from then on.
//
// Budget: every buffer's bytes stay charged to the host budget while it
// exists. A new buffer takes its charge out of the taker's reservation; the
// charge travels with the buffer, stays with it while it waits idle here, and
// comes along when an admission claims it (claim()), so an admission asks the
// budget only for what no idle buffer covers. reclaim() frees idle buffers
// only when memory is short for something no buffer can serve (a key load, a
// partition of another size).
//
// Thread-safety: every method may be called from any thread.
// REQUIRES: outlives every buffer it hands out; the budget outlives it.
#pragma once

#include <cstdint>
#include <mutex>
#include <vector>

#include "cuzk/base/status.h"
#include "cuzk/engine/memory_budget.h"
#include "cuzk/groth16/backend.h"

namespace cuzk::engine {

class PinnedPool {
 public:
  explicit PinnedPool(size_t max_idle = 16) : max_idle_(max_idle) {}

  // A buffer of n values: an idle one of that size, else a new one from
  // `alloc` whose bytes move out of *charge into the buffer's own charge (an
  // idle buffer brings its charge along, and that many bytes of *charge go
  // back to the budget).
  StatusOr<groth16::HostBuffer> take(uint64_t n, groth16::Backend& alloc, Reservation* charge);
  // An idle buffer of n values with its charge, or an empty buffer when none
  // is idle. Never allocates.
  groth16::HostBuffer claim(uint64_t n);
  // Frees idle buffers, least recently returned first, until at least
  // `bytes` went back to the budget or none is left; returns the bytes freed.
  uint64_t reclaim(uint64_t bytes);

  // How many idle buffers it keeps at most (more are freed when returned).
  void set_max_idle(size_t n) {
    std::lock_guard<std::mutex> lock(mu_);
    max_idle_ = n;
  }
  uint64_t idle_bytes() const;
  // Buffers made and freed since the start (a steady pipeline makes none).
  uint64_t allocations() const;
  uint64_t frees() const;

 private:
  struct Idle {
    groth16::HostBuffer buffer;
    Reservation charge;
  };
  // The buffer handed out: returns to the pool, with its charge, when the
  // holder lets go of it.
  groth16::HostBuffer lend(groth16::HostBuffer b, Reservation charge);
  void give_back(groth16::HostBuffer b, Reservation charge);

  mutable std::mutex mu_;
  std::vector<Idle> idle_;  // GUARDED_BY(mu_); oldest first
  uint64_t allocations_ = 0, frees_ = 0;  // GUARDED_BY(mu_)
  size_t max_idle_;  // GUARDED_BY(mu_)
};

}  // namespace cuzk::engine
