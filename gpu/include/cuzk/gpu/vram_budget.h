// A device-memory budget: the bytes a device may give to cuzk (its free
// memory at start, lowered by a configured limit so that a large GPU can
// reproduce a small one), and reservations against it. Every long-lived
// device allocation (resident keys, lane workspaces) is reserved here first,
// so that several users of one device never drive it out of memory.
// Reservations never block: one that does not fit fails at once.
// Thread-safe.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "cuzk/base/status.h"

namespace cuzk::gpu {

namespace detail {
struct BudgetState {
  std::mutex mu;
  uint64_t total = 0;
  uint64_t used = 0;  // GUARDED_BY(mu)
  uint64_t peak = 0;  // GUARDED_BY(mu)
};
}  // namespace detail

class VramBudget {
  using State = detail::BudgetState;

 public:
  explicit VramBudget(uint64_t total_bytes) : state_(std::make_shared<State>()) { state_->total = total_bytes; }

  // Bytes held until destroyed or release()d. Move-only.
  class Reservation {
   public:
    Reservation() = default;
    Reservation(Reservation&& o) noexcept : state_(std::move(o.state_)), bytes_(std::exchange(o.bytes_, 0)) {}
    Reservation& operator=(Reservation&& o) noexcept {
      if (this != &o) {
        release();
        state_ = std::move(o.state_);
        bytes_ = std::exchange(o.bytes_, 0);
      }
      return *this;
    }
    Reservation(const Reservation&) = delete;
    Reservation& operator=(const Reservation&) = delete;
    ~Reservation() { release(); }
    uint64_t bytes() const { return bytes_; }
    void release() {
      if (state_ && bytes_) {
        std::lock_guard<std::mutex> lock(state_->mu);
        state_->used -= bytes_;
      }
      bytes_ = 0;
      state_.reset();
    }

   private:
    friend class VramBudget;
    std::shared_ptr<detail::BudgetState> state_;
    uint64_t bytes_ = 0;
  };

  // Errors: RESOURCE_EXHAUSTED naming `what`, the bytes asked for and the
  // bytes available.
  StatusOr<Reservation> reserve(uint64_t bytes, const std::string& what) {
    std::lock_guard<std::mutex> lock(state_->mu);
    if (bytes > state_->total - state_->used)
      return resource_exhausted(what + " needs " + format_bytes(bytes) + " of device memory; " +
                                format_bytes(state_->total - state_->used) + " of the " +
                                format_bytes(state_->total) + " budget are free");
    state_->used += bytes;
    state_->peak = std::max(state_->peak, state_->used);
    Reservation r;
    r.state_ = state_;
    r.bytes_ = bytes;
    return r;
  }

  uint64_t total() const { return state_->total; }
  uint64_t used() const {
    std::lock_guard<std::mutex> lock(state_->mu);
    return state_->used;
  }
  uint64_t peak() const {
    std::lock_guard<std::mutex> lock(state_->mu);
    return state_->peak;
  }
  uint64_t available() const {
    std::lock_guard<std::mutex> lock(state_->mu);
    return state_->total - state_->used;
  }

  // "1.50 GiB", "12.0 MiB", "512 B".
  static std::string format_bytes(uint64_t bytes);

 private:
  std::shared_ptr<State> state_;
};

}  // namespace cuzk::gpu
