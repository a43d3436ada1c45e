#include "cuzk/engine/memory_budget.h"

#include <cassert>
#include <chrono>

namespace cuzk::engine {

Reservation::Reservation(Reservation&& other) noexcept : budget_(other.budget_), bytes_(other.bytes_) {
  other.budget_ = nullptr;
  other.bytes_ = 0;
}

Reservation& Reservation::operator=(Reservation&& other) noexcept {
  if (this != &other) {
    release_all();
    budget_ = other.budget_;
    bytes_ = other.bytes_;
    other.budget_ = nullptr;
    other.bytes_ = 0;
  }
  return *this;
}

Reservation::~Reservation() { release_all(); }

void Reservation::release(uint64_t bytes) {
  if (bytes > bytes_) bytes = bytes_;
  if (bytes == 0 || budget_ == nullptr) return;
  bytes_ -= bytes;
  budget_->give_back(bytes);
}

Reservation Reservation::split(uint64_t bytes) {
  if (bytes > bytes_) bytes = bytes_;
  bytes_ -= bytes;
  return Reservation(bytes ? budget_ : nullptr, bytes);
}

void Reservation::absorb(Reservation&& other) {
  if (other.bytes_ == 0) return;
  assert(budget_ == nullptr || budget_ == other.budget_);
  if (budget_ == nullptr) budget_ = other.budget_;
  bytes_ += other.bytes_;
  other.bytes_ = 0;
  other.budget_ = nullptr;
}

MemoryBudget::MemoryBudget(uint64_t total_bytes) : total_(total_bytes) { assert(total_bytes > 0); }

MemoryBudget::~MemoryBudget() {
  MutexLock lock(mu_);
  assert(used_ == 0 && "a Reservation outlived its MemoryBudget");
}

bool MemoryBudget::try_reserve(uint64_t bytes, Reservation* out) {
  MutexLock lock(mu_);
  if (!fits_locked(bytes)) return false;
  used_ += bytes;
  if (used_ > peak_) peak_ = used_;
  *out = Reservation(this, bytes);
  return true;
}

StatusOr<Reservation> MemoryBudget::reserve(uint64_t bytes, const std::function<bool()>& is_cancelled) {
  if (bytes > total_)
    return resource_exhausted("needs " + std::to_string(bytes) + " bytes but the memory budget is " +
                              std::to_string(total_) + " bytes in all");
  MutexLock lock(mu_);
  ++waiters_;
  while (true) {
    if (closed_ || (is_cancelled && is_cancelled())) {
      --waiters_;
      return cancelled(closed_ ? "the memory budget is closed (shutting down)" : "cancelled while waiting for memory");
    }
    if (fits_locked(bytes)) break;
    cv_.wait_for(mu_, std::chrono::milliseconds(50));
  }
  --waiters_;
  used_ += bytes;
  if (used_ > peak_) peak_ = used_;
  return Reservation(this, bytes);
}

Reservation MemoryBudget::charge(uint64_t bytes) {
  MutexLock lock(mu_);
  used_ += bytes;
  if (used_ > peak_) peak_ = used_;
  return Reservation(this, bytes);
}

void MemoryBudget::close() {
  MutexLock lock(mu_);
  closed_ = true;
  cv_.notify_all();
}

uint64_t MemoryBudget::used() const {
  MutexLock lock(mu_);
  return used_;
}

uint64_t MemoryBudget::peak() const {
  MutexLock lock(mu_);
  return peak_;
}

uint32_t MemoryBudget::waiters() const {
  MutexLock lock(mu_);
  return waiters_;
}

void MemoryBudget::set_release_listener(std::function<void()> listener) { release_listener_ = std::move(listener); }

void MemoryBudget::give_back(uint64_t bytes) {
  {
    MutexLock lock(mu_);
    assert(bytes <= used_);
    used_ -= bytes;
    cv_.notify_all();
  }
  if (release_listener_) release_listener_();
}

}  // namespace cuzk::engine
