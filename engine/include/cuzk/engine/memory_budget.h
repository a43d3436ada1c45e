// A byte budget shared by everything the engine holds in host memory.
// Work reserves its working set before it starts (admission) and gives it
// back piece by piece as buffers are freed; concurrency follows from what
// fits. Thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "cuzk/base/mutex.h"
#include "cuzk/base/status.h"

namespace cuzk::engine {

class MemoryBudget;

// Bytes held against a MemoryBudget; returned on destruction. Move-only.
class Reservation {
 public:
  Reservation() = default;
  Reservation(Reservation&& other) noexcept;
  Reservation& operator=(Reservation&& other) noexcept;
  Reservation(const Reservation&) = delete;
  Reservation& operator=(const Reservation&) = delete;
  ~Reservation();

  uint64_t bytes() const { return bytes_; }
  // Gives back min(bytes, this->bytes()) now (a buffer was freed).
  void release(uint64_t bytes);
  void release_all() { release(bytes_); }
  // Moves min(bytes, this->bytes()) into a reservation of its own.
  Reservation split(uint64_t bytes);
  // Takes `other`'s bytes into this one. REQUIRES: both from the same
  // budget (or either empty).
  void absorb(Reservation&& other);

 private:
  friend class MemoryBudget;
  Reservation(MemoryBudget* budget, uint64_t bytes) : budget_(budget), bytes_(bytes) {}
  MemoryBudget* budget_ = nullptr;
  uint64_t bytes_ = 0;
};

class MemoryBudget {
 public:
  // REQUIRES: total_bytes > 0.
  explicit MemoryBudget(uint64_t total_bytes);
  MemoryBudget(const MemoryBudget&) = delete;
  MemoryBudget& operator=(const MemoryBudget&) = delete;
  // REQUIRES: every Reservation has been destroyed.
  ~MemoryBudget();

  // Reserves `bytes` when they fit now. Never blocks.
  bool try_reserve(uint64_t bytes, Reservation* out);

  // Waits until `bytes` fit, polling `cancelled` (checked on every release
  // and at least every 50 ms). Errors: RESOURCE_EXHAUSTED when bytes exceed
  // the total (it can never fit), CANCELLED when `cancelled` returned true or
  // close() was called.
  StatusOr<Reservation> reserve(uint64_t bytes, const std::function<bool()>& is_cancelled);

  // Counts `bytes` the caller holds already (memory allocated before it
  // could be asked for: a request as gRPC decoded it), past the total if
  // need be. While used() exceeds the total nothing else fits: reservations
  // wait (or try_reserve fails) until enough comes back. Never blocks.
  Reservation charge(uint64_t bytes);

  // Wakes every waiter; later waits fail with CANCELLED.
  void close();

  // Called after every give-back, without the budget's lock held, so that
  // whoever waits for memory elsewhere can look again. REQUIRES: set before
  // the budget is shared; `listener` must not reserve.
  void set_release_listener(std::function<void()> listener);

  uint64_t total() const { return total_; }
  uint64_t used() const;
  uint64_t peak() const;  // highest used() seen
  uint32_t waiters() const;

 private:
  friend class Reservation;
  void give_back(uint64_t bytes);
  bool fits_locked(uint64_t bytes) const REQUIRES(mu_) { return used_ <= total_ && bytes <= total_ - used_; }

  const uint64_t total_;
  std::function<void()> release_listener_;  // fixed once the budget is shared
  mutable Mutex mu_;
  CondVar cv_;
  uint64_t used_ GUARDED_BY(mu_) = 0;
  uint64_t peak_ GUARDED_BY(mu_) = 0;
  uint32_t waiters_ GUARDED_BY(mu_) = 0;
  bool closed_ GUARDED_BY(mu_) = false;
};

}  // namespace cuzk::engine
