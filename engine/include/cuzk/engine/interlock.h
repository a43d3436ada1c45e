// The per-device interlock: the prover workers of one device take turns in
// the device region (uploads, NTTs, MSMs), first come first served. A ticket
// lock rather than std::mutex, whose unfairness let one worker starve for
// tens of seconds in the seed system. Only the device region is covered:
// preparation and finalization run outside it. Thread-safe.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace cuzk::engine {

class DeviceInterlock {
 public:
  class Guard {
   public:
    Guard(Guard&& other) noexcept : lock_(other.lock_) { other.lock_ = nullptr; }
    Guard(const Guard&) = delete;
    Guard& operator=(const Guard&) = delete;
    Guard& operator=(Guard&&) = delete;
    ~Guard() { release(); }
    void release() {
      if (lock_) lock_->unlock();
      lock_ = nullptr;
    }

   private:
    friend class DeviceInterlock;
    explicit Guard(DeviceInterlock* lock) : lock_(lock) {}
    DeviceInterlock* lock_;
  };

  // Blocks until every earlier caller has left the region.
  Guard acquire() {
    std::unique_lock<std::mutex> lock(mu_);
    uint64_t ticket = next_ticket_++;
    cv_.wait(lock, [&] { return serving_ == ticket; });
    return Guard(this);
  }

  // Callers waiting (not counting the holder).
  uint64_t waiting() const {
    std::lock_guard<std::mutex> lock(mu_);
    uint64_t in = next_ticket_ - serving_;
    return in == 0 ? 0 : in - 1;
  }

 private:
  void unlock() {
    std::lock_guard<std::mutex> lock(mu_);
    ++serving_;
    cv_.notify_all();
  }

  mutable std::mutex mu_;
  std::condition_variable cv_;
  uint64_t next_ticket_ = 0;  // GUARDED_BY(mu_)
  uint64_t serving_ = 0;      // GUARDED_BY(mu_)
};

}  // namespace cuzk::engine
